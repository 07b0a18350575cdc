/* Numpy views of the particle arrays, and copies of what changes every step:
 * contacts, events, history rows.
 *
 * Views are floe.View arrays over the engine's own memory. Their base is
 * the World's storage object (view.c), which keeps the World (and so the
 * memory) alive and in place, and tells a view taken before a removal
 * from a current one (docs/decisions.md#python-views-never-dangle). */
#include "_floe.h"

#include <limits.h>
#include <math.h>
#include <string.h>

/* ---- views ------------------------------------------------------------------------- */

enum { V_POS, V_VEL, V_ANGVEL, V_ORI, V_FORCE, V_TORQUE, V_RADIUS, V_MASS, V_MAT, V_GROUPS, V_INERTIA, V_BLOCKED };

/* A view of array k: (n, 3) / (n, 4) doubles or (n,) scalars. */
static PyObject *view(World *self, int k) {
    if (floe_py_open(self)) return NULL;
    PyObject *base = floe_py_anchor(self);
    if (!base) return NULL;
    floe_world *w = self->sc.world;
    npy_intp dims[2] = {floe_particle_count(w), 3};
    int nd = 2, type = NPY_DOUBLE, writable = 0;
    void *data;
    switch (k) {
        case V_POS:
            data = floe_positions_mut(w);
            writable = 1;
            break;
        case V_VEL:
            data = floe_velocities_mut(w);
            writable = 1;
            break;
        case V_ANGVEL:
            data = (void *)floe_angular_velocities(w);
            break;
        case V_ORI:
            data = (void *)floe_orientations(w);
            dims[1] = 4;
            break;
        case V_FORCE:
            data = (void *)floe_forces(w);
            break;
        case V_TORQUE:
            data = (void *)floe_torques(w);
            break;
        case V_INERTIA:
            data = (void *)floe_inertia(w);
            break;
        case V_RADIUS:
            data = (void *)floe_radii(w);
            nd = 1;
            break;
        case V_MASS:
            data = (void *)floe_masses(w);
            nd = 1;
            break;
        case V_MAT:
            data = (void *)floe_particle_materials(w);
            nd = 1;
            type = NPY_INT32;
            break;
        case V_GROUPS:
            data = (void *)floe_particle_groups(w);
            nd = 1;
            type = NPY_UINT32;
            break;
        default:
            data = (void *)floe_particle_blocked(w);
            nd = 1;
            type = NPY_UINT32;
            break;
    }
    _Static_assert(sizeof(floe_vec3) == 3 * sizeof(double) && sizeof(floe_quat) == 4 * sizeof(double),
                   "floe_vec3 and floe_quat are packed doubles");
    _Static_assert(sizeof(int) == 4 && sizeof(uint32_t) == 4, "ids and masks are 32-bit");
    PyObject *a = PyArray_New(&View_Type, nd, dims, type, NULL, data, 0,
                              NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED | (writable ? NPY_ARRAY_WRITEABLE : 0), NULL);
    if (!a) {
        Py_DECREF(base);
        return NULL;
    }
    if (PyArray_SetBaseObject((PyArrayObject *)a, base) < 0) { /* steals base */
        Py_DECREF(a);
        return NULL;
    }
    if (writable) self->wrote = 1;
    return a;
}

static PyObject *get_view(World *self, void *k) { return view(self, (int)(intptr_t)k); }

static PyObject *get_shapes(World *self, void *unused) {
    if (floe_py_open(self)) return NULL;
    floe_world *w = self->sc.world;
    npy_intp n = floe_particle_count(w);
    PyObject *a = PyArray_SimpleNew(1, &n, NPY_UINT8);
    if (!a) return NULL;
    uint8_t *d = PyArray_DATA((PyArrayObject *)a);
    for (npy_intp i = 0; i < n; i++) d[i] = (uint8_t)floe_particle_shape(w, (int)i);
    return a;
}

#define VIEW(name, k, doc) \
    { name, (getter)get_view, NULL, doc, (void *)(intptr_t)(k) }
PyGetSetDef floe_py_view_getset[] = {
    VIEW("positions", V_POS,
         "(n, 3) view of the positions [m], writable: w.positions[i] = p moves body i (checked before the next "
         "step; not booked in the energy balance, set_position is)"),
    VIEW("velocities", V_VEL, "(n, 3) view of the velocities [m/s], writable like positions"),
    VIEW("angular_velocities", V_ANGVEL, "(n, 3) view of the angular velocities [rad/s] (set_angular_velocity)"),
    VIEW("orientations", V_ORI, "(n, 4) view of the orientation quaternions (w, x, y, z), body -> global"),
    VIEW("forces", V_FORCE, "(n, 3) view of the contact forces on each body [N] (no gravity, no group loads)"),
    VIEW("torques", V_TORQUE, "(n, 3) view of the contact torques on each body [N m]"),
    VIEW("radii", V_RADIUS,
         "(n,) view of the characteristic radius [m]: sphere and capsule radius, smallest ellipsoid semi-axis, "
         "facet half thickness, cylinder radius, 0 for walls"),
    VIEW("masses", V_MASS, "(n,) view of the masses [kg] (0 for walls, facets, cylinders)"),
    VIEW("inertia", V_INERTIA, "(n, 3) view of the principal moments of inertia (body frame) [kg m^2]"),
    VIEW("material_ids", V_MAT, "(n,) view of each body's material id (int32; names: w.materials)"),
    VIEW("group_masks", V_GROUPS, "(n,) view of each body's groups as a bit mask (uint32; bit g: group g)"),
    VIEW("blocked", V_BLOCKED, "(n,) view of each body's blocked degrees of freedom (uint32 mask)"),
    {"shapes", (getter)get_shapes, NULL,
     "(n,) shape of each body (uint8 copy; names: floe.SHAPES[k]: sphere, wall, facet, capsule, ellipsoid, cylinder, "
     "polyhedron, clump)",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

/* ---- contacts ----------------------------------------------------------------------- */

/* Column k of a dict being filled: a new array of n x ncomp values. */
static double *column(PyObject *d, const char *name, npy_intp n, int ncomp, int type) {
    npy_intp dims[2] = {n, ncomp};
    PyObject *a = PyArray_SimpleNew(ncomp > 1 ? 2 : 1, dims, type);
    if (!a) return NULL;
    if (PyDict_SetItemString(d, name, a)) {
        Py_DECREF(a);
        return NULL;
    }
    Py_DECREF(a);
    return PyArray_DATA((PyArrayObject *)a);
}

static const char *const fixed_cols[] = {
    "ids", "model", "normal", "point",        "un",       "force_local", "torque_local", "force", "bonded",     "kn",
    "kt",  "area",  "lens",   "step_created", "torque_a", "torque_b",    "t1",           "image", "image_shift"};

static PyObject *contacts(World *self, PyObject *unused) {
    if (floe_py_open(self)) return NULL;
    floe_world *w = self->sc.world;
    npy_intp n = floe_contact_count(w);
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    int64_t *ids = (int64_t *)column(d, "ids", n, 2, NPY_INT64);
    int32_t *model = ids ? (int32_t *)column(d, "model", n, 1, NPY_INT32) : NULL;
    double *nrm = model ? column(d, "normal", n, 3, NPY_DOUBLE) : NULL;
    double *pt = nrm ? column(d, "point", n, 3, NPY_DOUBLE) : NULL;
    double *un = pt ? column(d, "un", n, 1, NPY_DOUBLE) : NULL;
    double *fl = un ? column(d, "force_local", n, 3, NPY_DOUBLE) : NULL;
    double *tl = fl ? column(d, "torque_local", n, 3, NPY_DOUBLE) : NULL;
    double *fg = tl ? column(d, "force", n, 3, NPY_DOUBLE) : NULL;
    npy_bool *bonded = fg ? (npy_bool *)column(d, "bonded", n, 1, NPY_BOOL) : NULL;
    double *kn = bonded ? column(d, "kn", n, 1, NPY_DOUBLE) : NULL;
    double *kt = kn ? column(d, "kt", n, 1, NPY_DOUBLE) : NULL;
    double *area = kt ? column(d, "area", n, 1, NPY_DOUBLE) : NULL;
    double *lens = area ? column(d, "lens", n, 2, NPY_DOUBLE) : NULL;
    int64_t *created = lens ? (int64_t *)column(d, "step_created", n, 1, NPY_INT64) : NULL;
    double *ta = created ? column(d, "torque_a", n, 3, NPY_DOUBLE) : NULL;
    double *tb = ta ? column(d, "torque_b", n, 3, NPY_DOUBLE) : NULL;
    double *t1 = tb ? column(d, "t1", n, 3, NPY_DOUBLE) : NULL;
    int32_t *img = t1 ? (int32_t *)column(d, "image", n, 3, NPY_INT32) : NULL;
    double *shift = img ? column(d, "image_shift", n, 3, NPY_DOUBLE) : NULL;
    if (!shift) {
        Py_DECREF(d);
        return NULL;
    }
    /* the model's state columns by name: the union over the models present
     * (a name shared by two models is one column; NaN where a contact's
     * model has no such name; a name equal to a fixed column gets "state_") */
    int nm = floe_model_count();
    PyObject *cols = PyDict_New(); /* name -> array */
    for (npy_intp i = 0; cols && i < n; i++) {
        floe_contact_info ci;
        if (floe_contact_get(w, (int)i, &ci) != FLOE_OK) continue;
        const floe_model_info *mi = floe_model_find(ci.model);
        ids[2 * i] = ci.a;
        ids[2 * i + 1] = ci.b;
        model[i] = -1;
        for (int m = 0; m < nm; m++)
            if (floe_model_get(m) == mi) model[i] = m;
        memcpy(nrm + 3 * i, &ci.normal, sizeof(double) * 3);
        memcpy(pt + 3 * i, &ci.point, sizeof(double) * 3);
        un[i] = ci.uN;
        memcpy(fl + 3 * i, &ci.force, sizeof(double) * 3);
        memcpy(tl + 3 * i, &ci.torque, sizeof(double) * 3);
        memcpy(fg + 3 * i, &ci.force_global, sizeof(double) * 3);
        bonded[i] = ci.bonded != 0;
        kn[i] = ci.kn;
        kt[i] = ci.kt;
        area[i] = ci.area;
        lens[2 * i] = ci.lens[0];
        lens[2 * i + 1] = ci.lens[1];
        created[i] = ci.step_created;
        memcpy(ta + 3 * i, &ci.torque_a, sizeof(double) * 3);
        memcpy(tb + 3 * i, &ci.torque_b, sizeof(double) * 3);
        memcpy(t1 + 3 * i, &ci.t1, sizeof(double) * 3);
        memcpy(shift + 3 * i, &ci.image_shift, sizeof(double) * 3);
        for (int k = 0; k < 3; k++) img[3 * i + k] = ci.image[k];
        if (!mi || mi->n_state <= 0) continue;
        double st[64];
        int ns = floe_contact_state(w, (int)i, st, 64);
        for (int k = 0; k < ns && k < mi->n_state; k++) {
            char name[96];
            const char *sn = mi->state_names[k];
            int fixed = 0;
            for (size_t f = 0; f < sizeof fixed_cols / sizeof *fixed_cols; f++) fixed |= !strcmp(sn, fixed_cols[f]);
            snprintf(name, sizeof name, "%s%s", fixed ? "state_" : "", sn);
            PyObject *a = PyDict_GetItemString(cols, name);
            if (!a) {
                a = PyArray_SimpleNew(1, &n, NPY_DOUBLE);
                if (!a || PyDict_SetItemString(cols, name, a)) {
                    Py_XDECREF(a);
                    Py_CLEAR(cols);
                    break;
                }
                Py_DECREF(a);
                double *x = PyArray_DATA((PyArrayObject *)a);
                for (npy_intp j = 0; j < n; j++) x[j] = NAN;
            }
            ((double *)PyArray_DATA((PyArrayObject *)a))[i] = st[k];
        }
    }
    if (!cols || PyDict_Update(d, cols)) {
        Py_XDECREF(cols);
        Py_DECREF(d);
        return NULL;
    }
    Py_DECREF(cols);
    return d;
}

static PyObject *contact_index(World *self, PyObject *args) {
    long long a, b;
    PyObject *ao, *bo;
    if (floe_py_open(self) || !PyArg_ParseTuple(args, "OO:contact_index", &ao, &bo) ||
        floe_py_int(ao, "particle id", INT_MIN, INT_MAX, &a) || floe_py_int(bo, "particle id", INT_MIN, INT_MAX, &b))
        return NULL;
    floe_world *w = self->sc.world;
    int n = floe_particle_count(w);
    if (a < 0 || a >= n || b < 0 || b >= n) {
        PyErr_Format(ArgumentError, "contact_index: particle ids %lld, %lld: valid ids are [0, %d]", a, b, n - 1);
        return NULL;
    }
    return PyLong_FromLong(floe_contact_find(w, (int)a, (int)b));
}

/* ---- events ---------------------------------------------------------------------------- */

PyObject *floe_py_event_tuple(const floe_event *e) {
    PyObject *t = PyStructSequence_New(Event_Type);
    if (!t) return NULL;
    PyObject *items[9] = {PyUnicode_FromString(floe_event_type_name(e->type)),
                          PyLong_FromLongLong(e->step),
                          PyFloat_FromDouble(e->time),
                          PyLong_FromLong(e->a),
                          PyLong_FromLong(e->b),
                          Py_BuildValue("(ddd)", e->force.x, e->force.y, e->force.z),
                          Py_BuildValue("(ddd)", e->torque.x, e->torque.y, e->torque.z),
                          PyLong_FromUnsignedLong(e->detail),
                          Py_BuildValue("(dd)", e->value[0], e->value[1])};
    for (int k = 0; k < 9; k++) {
        if (!items[k]) {
            for (int j = k + 1; j < 9; j++) Py_XDECREF(items[j]);
            Py_DECREF(t);
            return NULL;
        }
        PyStructSequence_SET_ITEM(t, k, items[k]);
    }
    return t;
}

int floe_py_keep_events(World *self) {
    if (!self->ev_mask) return 0;
    floe_event_list l = floe_events(self->sc.world);
    for (int i = 0; i < l.count; i++) {
        const floe_event *e = &l.events[i];
        if ((unsigned)e->type >= 32 || !(self->ev_mask >> e->type & 1u)) continue;
        if (self->nev == self->evcap) {
            size_t nc = self->evcap ? 2 * self->evcap : 256;
            floe_event *ne = PyMem_RawRealloc(self->ev, nc * sizeof *ne); /* without the GIL (run.c) */
            if (!ne) return -1;                                           /* the caller reports MemoryError */
            self->ev = ne;
            self->evcap = nc;
        }
        self->ev[self->nev++] = *e;
    }
    return 0;
}

/* Events as a dict of numpy arrays (a structured table, one row per event). */
static PyObject *event_table(const floe_event *ev, size_t n) {
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    npy_intp m = (npy_intp)n;
    PyObject *types = PyArray_SimpleNew(1, &m, NPY_OBJECT);
    int64_t *step = types ? (int64_t *)column(d, "step", m, 1, NPY_INT64) : NULL;
    double *time = step ? column(d, "time", m, 1, NPY_DOUBLE) : NULL;
    int64_t *ab = time ? (int64_t *)column(d, "ids", m, 2, NPY_INT64) : NULL;
    double *f = ab ? column(d, "force", m, 3, NPY_DOUBLE) : NULL;
    double *t = f ? column(d, "torque", m, 3, NPY_DOUBLE) : NULL;
    uint32_t *detail = t ? (uint32_t *)column(d, "detail", m, 1, NPY_UINT32) : NULL;
    double *val = detail ? column(d, "value", m, 2, NPY_DOUBLE) : NULL;
    if (!val || PyDict_SetItemString(d, "type", types)) {
        Py_XDECREF(types);
        Py_DECREF(d);
        return NULL;
    }
    PyObject **ty = PyArray_DATA((PyArrayObject *)types);
    for (size_t i = 0; i < n; i++) {
        const floe_event *e = &ev[i];
        ty[i] = PyUnicode_FromString(floe_event_type_name(e->type)); /* the array owns the reference */
        if (!ty[i]) {
            Py_DECREF(types);
            Py_DECREF(d);
            return NULL;
        }
        step[i] = e->step;
        time[i] = e->time;
        ab[2 * i] = e->a;
        ab[2 * i + 1] = e->b;
        memcpy(f + 3 * i, &e->force, sizeof(double) * 3);
        memcpy(t + 3 * i, &e->torque, sizeof(double) * 3);
        detail[i] = e->detail;
        val[2 * i] = e->value[0];
        val[2 * i + 1] = e->value[1];
    }
    Py_DECREF(types);
    return d;
}

static PyObject *events(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"clear", NULL};
    int clear = 1;
    if (floe_py_open(self) || !PyArg_ParseTupleAndKeywords(args, kw, "|$p:events", kwlist, &clear)) return NULL;
    PyObject *d = event_table(self->ev, self->nev);
    if (d && clear) self->nev = 0;
    return d;
}

static PyObject *last_events(World *self, PyObject *unused) {
    if (floe_py_open(self)) return NULL;
    floe_event_list l = floe_events(self->sc.world);
    PyObject *out = PyList_New(l.count);
    for (int i = 0; out && i < l.count; i++) {
        PyObject *t = floe_py_event_tuple(&l.events[i]);
        if (!t) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, t);
    }
    return out;
}

static PyObject *keep_events(World *self, PyObject *args) {
    PyObject *types = NULL;
    if (floe_py_open(self) || !PyArg_ParseTuple(args, "|O:keep_events", &types)) return NULL;
    uint32_t mask = 0;
    if (types && types != Py_None) {
        PyObject *seq = PyUnicode_Check(types) ? NULL : PySequence_Fast(types, "");
        if (PyUnicode_Check(types)) {
            const char *s = PyUnicode_AsUTF8(types);
            if (!strcmp(s, "all")) mask = (1u << FLOE_EVENT_COUNT) - 1;
            else if (strcmp(s, "none") != 0) {
                PyErr_Format(ArgumentError, "keep_events('%s'): give 'all', 'none' or a list of event types", s);
                return NULL;
            }
        } else if (!seq) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "keep_events: expected 'all', 'none' or a list of event type names");
            return NULL;
        } else {
            for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
                PyObject *it = PySequence_Fast_GET_ITEM(seq, i);
                const char *s = PyUnicode_Check(it) ? PyUnicode_AsUTF8(it) : NULL;
                int t = -1;
                for (int k = 0; s && k < FLOE_EVENT_COUNT; k++)
                    if (!strcmp(s, floe_event_type_name((floe_event_type)k))) t = k;
                if (t < 0) {
                    PyErr_Format(ArgumentError,
                                 "keep_events: unknown event type %R (created, deleted, broken, activated, "
                                 "slip_change)",
                                 it);
                    Py_DECREF(seq);
                    return NULL;
                }
                mask |= 1u << t;
            }
            Py_DECREF(seq);
        }
    }
    self->ev_mask = mask;
    Py_RETURN_NONE;
}

/* ---- history ------------------------------------------------------------------------------- */

static const char *const counter_names[] = {"contacts", "bonded", "breaks", "particles"};

/* Name of fixed history column c. */
static const char *fixed_name(int c) {
    if (c == 0) return "step";
    if (c == 1) return "time";
    if (c < 2 + FLOE_E_COUNT) return floe_energy_name((floe_energy_term)(c - 2));
    return counter_names[c - 2 - FLOE_E_COUNT];
}

int floe_py_record(World *self) {
    floe_world *w = self->sc.world;
    int64_t step = floe_step_count(w);
    if (self->hist_every <= 0 || step % self->hist_every != 0) return 0;
    size_t width = HIST_FIXED + (size_t)self->nhcols;
    if (self->hrows > 0 && self->hist[(self->hrows - 1) * width] == (double)step) return 0; /* this step is in */
    if (self->hrows == self->hcap) {
        size_t nc = self->hcap ? 2 * self->hcap : 256;
        double *nh = PyMem_RawRealloc(self->hist, nc * width * sizeof *nh); /* without the GIL (run.c) */
        if (!nh) return -1;
        self->hist = nh;
        self->hcap = nc;
    }
    double *row = self->hist + self->hrows++ * width, e[FLOE_E_COUNT];
    floe_energy(w, e);
    row[0] = (double)step;
    row[1] = floe_time(w);
    memcpy(row + 2, e, sizeof e);
    row[2 + FLOE_E_COUNT] = floe_contact_count(w);
    row[3 + FLOE_E_COUNT] = floe_bonded_count(w);
    row[4 + FLOE_E_COUNT] = (double)floe_break_count(w);
    row[5 + FLOE_E_COUNT] = floe_particle_count(w);
    for (int k = 0; k < self->nhcols; k++) row[HIST_FIXED + k] = floe_history_value(w, &self->hcols[k], e);
    return 0;
}

/* One history column from ("name", kind, what, quantity) or a mapping like
 * the scene's (name=..., particle= / contact= / group= / energy= / counter=,
 * quantity=). */
static int history_column(World *self, PyObject *spec, floe_history_column *col) {
    memset(col, 0, sizeof *col);
    if (!PyDict_Check(spec)) {
        PyErr_SetString(PyExc_TypeError,
                        "record: each column is a dict like the scene's history columns: {'name': 'top_fz', "
                        "'group': 'top', 'quantity': 'force.z'}");
        return -1;
    }
    PyObject *name = PyDict_GetItemString(spec, "name"), *q = PyDict_GetItemString(spec, "quantity");
    if (!name || !PyUnicode_Check(name) || PyUnicode_GetLength(name) < 1 || PyUnicode_GetLength(name) > 63) {
        PyErr_SetString(ArgumentError, "record: every column needs a 'name' of 1 to 63 characters");
        return -1;
    }
    snprintf(col->name, sizeof col->name, "%s", PyUnicode_AsUTF8(name));
    if (q) {
        if (!PyUnicode_Check(q) || PyUnicode_GetLength(q) >= (Py_ssize_t)sizeof col->quantity) {
            PyErr_Format(ArgumentError, "record: column '%s': 'quantity' must be a short name like 'pos.z'", col->name);
            return -1;
        }
        snprintf(col->quantity, sizeof col->quantity, "%s", PyUnicode_AsUTF8(q));
    }
    static const char *const kinds[] = {"particle", "contact", "group", "energy", "counter"};
    int found = -1;
    PyObject *v = NULL;
    for (int k = 0; k < 5; k++) {
        PyObject *x = PyDict_GetItemString(spec, kinds[k]);
        if (!x) continue;
        if (found >= 0) {
            PyErr_Format(ArgumentError, "record: column '%s' has two sources ('%s' and '%s')", col->name, kinds[found],
                         kinds[k]);
            return -1;
        }
        found = k;
        v = x;
    }
    Py_ssize_t nkeys = PyDict_Size(spec);
    if (nkeys != 2 + (q != NULL)) {
        PyErr_Format(ArgumentError,
                     "record: column '%s': expected the keys name, one source (particle, contact, group, energy, "
                     "counter) and quantity where the source needs one",
                     col->name);
        return -1;
    }
    long long id;
    switch (found) {
        case 0:
            col->kind = FLOE_HIST_PARTICLE;
            if (floe_py_int(v, "particle", INT_MIN, INT_MAX, &id)) return -1;
            col->a = (int)id;
            break;
        case 1: {
            col->kind = FLOE_HIST_CONTACT;
            PyObject *seq = PySequence_Fast(v, "");
            long long b;
            if (!seq || PySequence_Fast_GET_SIZE(seq) != 2 ||
                floe_py_int(PySequence_Fast_GET_ITEM(seq, 0), "contact", INT_MIN, INT_MAX, &id) ||
                floe_py_int(PySequence_Fast_GET_ITEM(seq, 1), "contact", INT_MIN, INT_MAX, &b)) {
                Py_XDECREF(seq);
                if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
                    PyErr_Clear();
                    PyErr_Format(PyExc_TypeError, "record: column '%s': contact is a pair of particle ids (a, b)",
                                 col->name);
                }
                return -1;
            }
            Py_DECREF(seq);
            col->a = (int)id;
            col->b = (int)b;
            break;
        }
        case 2: {
            col->kind = FLOE_HIST_GROUP;
            if (floe_py_group(self, v, 0, &col->group)) return -1;
            break;
        }
        case 3: {
            col->kind = FLOE_HIST_ENERGY;
            const char *s = PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : "";
            col->energy = -1;
            for (int t = 0; t < FLOE_E_COUNT; t++)
                if (!strcmp(s, floe_energy_name((floe_energy_term)t))) col->energy = t;
            if (col->energy < 0) {
                PyErr_Format(ArgumentError, "record: column '%s': unknown energy term %R (floe.ENERGY_TERMS)",
                             col->name, v);
                return -1;
            }
            break;
        }
        case 4: {
            col->kind = FLOE_HIST_COUNTER;
            if (!PyUnicode_Check(v) || PyUnicode_GetLength(v) >= (Py_ssize_t)sizeof col->quantity) {
                PyErr_Format(ArgumentError, "record: column '%s': counter is a name (contacts, step, time, ...)",
                             col->name);
                return -1;
            }
            snprintf(col->quantity, sizeof col->quantity, "%s", PyUnicode_AsUTF8(v));
            break;
        }
        default:
            PyErr_Format(ArgumentError,
                         "record: column '%s' has no source (particle=, contact=, group=, energy= or counter=)",
                         col->name);
            return -1;
    }
    char err[512];
    if (floe_history_check(self->sc.world, col, err, sizeof err)) {
        PyErr_Format(ArgumentError, "record: %s", err);
        return -1;
    }
    return 0;
}

static PyObject *record(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"every", "columns", NULL};
    long long every = 1;
    PyObject *cols = NULL;
    if (floe_py_open(self) || !PyArg_ParseTupleAndKeywords(args, kw, "|LO:record", kwlist, &every, &cols)) return NULL;
    if (every < 0) {
        PyErr_Format(ArgumentError, "record: every = %lld must be >= 0 (0: off)", every);
        return NULL;
    }
    Py_ssize_t n = 0;
    PyObject *seq = NULL;
    if (cols && cols != Py_None) {
        if (!(seq = PySequence_Fast(cols, "record: columns must be a list of dicts"))) return NULL;
        n = PySequence_Fast_GET_SIZE(seq);
    }
    floe_history_column *hc = n ? PyMem_Calloc((size_t)n, sizeof *hc) : NULL;
    if (n && !hc) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (history_column(self, PySequence_Fast_GET_ITEM(seq, i), &hc[i])) {
            PyMem_Free(hc);
            Py_DECREF(seq);
            return NULL;
        }
    for (Py_ssize_t i = 0; i < n; i++) {
        int twice = 0;
        for (Py_ssize_t j = 0; j < i; j++) twice |= !strcmp(hc[i].name, hc[j].name);
        for (int c = 0; c < HIST_FIXED; c++) twice |= !strcmp(hc[i].name, fixed_name(c));
        if (twice) {
            PyErr_Format(ArgumentError,
                         "record: the column name '%s' is used twice (step, time, the energy terms, contacts, "
                         "bonded, breaks and particles are always recorded)",
                         hc[i].name);
            PyMem_Free(hc);
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_XDECREF(seq);
    /* a new recording: earlier rows go */
    PyMem_Free(self->hcols);
    PyMem_RawFree(self->hist);
    self->hcols = hc;
    self->nhcols = (int)n;
    self->hist = NULL;
    self->hrows = self->hcap = 0;
    self->hist_every = every;
    if (every > 0 && floe_py_record(self)) return PyErr_NoMemory(); /* the state now is the first row */
    Py_RETURN_NONE;
}

static PyObject *get_history(World *self, PyObject *unused) {
    if (floe_py_open(self)) return NULL;
    size_t width = HIST_FIXED + (size_t)self->nhcols;
    npy_intp n = (npy_intp)self->hrows;
    PyObject *d = PyDict_New();
    for (size_t c = 0; d && c < width; c++) {
        const char *name = c < HIST_FIXED ? fixed_name((int)c) : self->hcols[c - HIST_FIXED].name;
        int integer = c == 0 || (c >= 2 + FLOE_E_COUNT && c < HIST_FIXED);
        PyObject *a = PyArray_SimpleNew(1, &n, integer ? NPY_INT64 : NPY_DOUBLE);
        if (!a || PyDict_SetItemString(d, name, a)) {
            Py_XDECREF(a);
            Py_CLEAR(d);
            break;
        }
        Py_DECREF(a);
        void *x = PyArray_DATA((PyArrayObject *)a);
        for (npy_intp i = 0; i < n; i++) {
            double v = self->hist[(size_t)i * width + c];
            if (integer) ((int64_t *)x)[i] = (int64_t)v;
            else ((double *)x)[i] = v;
        }
    }
    return d;
}

#define KW (PyCFunction)(void (*)(void))
PyMethodDef floe_py_array_methods[] = {
    {"contacts", (PyCFunction)contacts, METH_NOARGS,
     "contacts() -> dict of ndarrays\n\n"
     "The contacts now, one row each (copies): 'ids' (n, 2) particle ids a, b (A first in the shape-pair\n"
     "order); 'model' (registry index into floe.models()); 'normal' (n, 3) unit normal from A to B;\n"
     "'point' (n, 3) contact point; 'un' gap (< 0: overlap) [m]; 'force_local', 'torque_local' (n, 3)\n"
     "(Fn, Ft_y, Ft_z) and (Tw, Tr_y, Tr_z) on A in the contact frame (Fn > 0: tension); 'force' (n, 3)\n"
     "on A, global [N]; 'bonded' (bool); 'kn', 'kt', 'area', 'lens' (n, 2), 'step_created';\n"
     "'torque_a', 'torque_b' (n, 3) on A and on B about their centres, global [N m]; 't1' (n, 3) the\n"
     "frame's first tangent; 'image' (n, 3) int32 periodic image offsets of B and 'image_shift' (n, 3)\n"
     "[m], B's image touched at its position + image_shift (zeros without a cell); then every\n"
     "model-state column by its name (floe.models()[m]['state']; NaN where a contact's model has no\n"
     "such column; a name equal to one above is prefixed 'state_')."},
    {"contact_index", (PyCFunction)contact_index, METH_VARARGS,
     "contact_index(a, b) -> int\n\n"
     "The row of the contact between particles a and b (either order) in contacts(), or -1 if they\n"
     "have none now."},
    {"events", KW events, METH_VARARGS | METH_KEYWORDS,
     "events(*, clear=True) -> dict of ndarrays\n\n"
     "The events kept from every step of run() and step() since the last call (types chosen by\n"
     "keep_events; default: broken, activated, slip_change, energy_error): 'type' (names), 'step',\n"
     "'time', 'ids'\n"
     "(n, 2), 'force', 'torque' (n, 3, local on A), 'detail', 'value' (n, 2). clear=False keeps them."},
    {"last_events", (PyCFunction)last_events, METH_NOARGS,
     "last_events() -> list of floe.Event\n\nEvery event of the last step (all types), as floe.Event records."},
    {"keep_events", (PyCFunction)keep_events, METH_VARARGS,
     "keep_events(types)\n\n"
     "Which events events() keeps: 'all', 'none' or a list of 'created', 'deleted', 'broken',\n"
     "'activated', 'slip_change', 'inserted', 'removed', 'inlet_short', 'energy_error' (contact\n"
     "creation and deletion are many in granular flows)."},
    {"record", KW record, METH_VARARGS | METH_KEYWORDS,
     "record(every=1, columns=None)\n\n"
     "Starts recording a history row every `every` steps (0: off; earlier rows are dropped): step,\n"
     "time, every energy term, contacts, bonded, breaks, particles, and `columns`, each a dict like a\n"
     "scene history column (docs/scene-format.md#history): {'name': 'top_fz', 'group': 'top',\n"
     "'quantity': 'force.z'}, {'name': 'z0', 'particle': 0, 'quantity': 'pos.z'}, {'name': 'fn',\n"
     "'contact': (0, 1), 'quantity': 'fn'}, {'name': 'ek', 'energy': 'kinetic'}. Read w.history()."},
    {"history", (PyCFunction)get_history, METH_NOARGS,
     "history() -> dict of ndarrays\n\nThe rows recorded since record(): column name -> values (copies)."},
    {NULL, NULL, 0, NULL}};
