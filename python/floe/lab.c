/* The World's environment and laboratory methods: water (and, later, the
 * other scene sections that act on the whole world). Each wraps one C API
 * call and reports its status like the rest of the module. */
#include "_floe.h"

/* ---- water ----------------------------------------------------------------------------- */

/* A water def from keyword arguments over floe_default_water_def; unknown
 * keys are refused with the list of known ones. */
static int water_from_kw(PyObject *kw, floe_water_def *d) {
    static const char *known = "level, density, current, skin_drag, form_drag, rotational_drag, air_density, wind, "
                               "wind_drag";
    *d = floe_default_water_def();
    if (!kw) return 0;
    PyObject *key, *val;
    Py_ssize_t pos = 0;
    while (PyDict_Next(kw, &pos, &key, &val)) {
        const char *k = PyUnicode_AsUTF8(key);
        if (!k) return -1;
        int rc;
        if (!strcmp(k, "level")) rc = floe_py_double(val, "level", &d->level);
        else if (!strcmp(k, "density")) rc = floe_py_double(val, "density", &d->density);
        else if (!strcmp(k, "current")) rc = floe_py_vec3(val, "current", &d->current);
        else if (!strcmp(k, "skin_drag")) rc = floe_py_double(val, "skin_drag", &d->skin_drag);
        else if (!strcmp(k, "form_drag")) rc = floe_py_double(val, "form_drag", &d->form_drag);
        else if (!strcmp(k, "rotational_drag")) rc = floe_py_double(val, "rotational_drag", &d->rotational_drag);
        else if (!strcmp(k, "air_density")) rc = floe_py_double(val, "air_density", &d->air_density);
        else if (!strcmp(k, "wind")) rc = floe_py_vec3(val, "wind", &d->wind);
        else if (!strcmp(k, "wind_drag")) rc = floe_py_double(val, "wind_drag", &d->wind_drag);
        else {
            PyErr_Format(ArgumentError, "set_water: unknown key '%s' (known: %s)", k, known);
            return -1;
        }
        if (rc) return -1;
    }
    return 0;
}

static PyObject *World_set_water(World *self, PyObject *args, PyObject *kw) {
    if (floe_py_open(self)) return NULL;
    if (PyTuple_GET_SIZE(args) > 1 || (PyTuple_GET_SIZE(args) == 1 && PyTuple_GET_ITEM(args, 0) != Py_None)) {
        PyErr_SetString(PyExc_TypeError, "set_water(**settings) takes keywords only, or set_water(None) to remove "
                                         "the water");
        return NULL;
    }
    if (PyTuple_GET_SIZE(args) == 1) {
        if (kw && PyDict_Size(kw)) {
            PyErr_SetString(PyExc_TypeError, "set_water(None) removes the water and takes no settings");
            return NULL;
        }
        return floe_py_status(self, floe_world_set_water(self->sc.world, NULL));
    }
    floe_water_def d;
    if (water_from_kw(kw, &d)) return NULL;
    return floe_py_status(self, floe_world_set_water(self->sc.world, &d));
}

static PyObject *World_water(World *self, PyObject *unused) {
    (void)unused;
    if (floe_py_open(self)) return NULL;
    floe_water_def d;
    if (!floe_world_get_water(self->sc.world, &d)) Py_RETURN_NONE;
    PyObject *cur = floe_py_vec3_obj(d.current), *wind = floe_py_vec3_obj(d.wind);
    PyObject *r = cur && wind ? Py_BuildValue("{s:d,s:d,s:O,s:d,s:d,s:d,s:d,s:O,s:d}", "level", d.level, "density",
                                              d.density, "current", cur, "skin_drag", d.skin_drag, "form_drag",
                                              d.form_drag, "rotational_drag", d.rotational_drag, "air_density",
                                              d.air_density, "wind", wind, "wind_drag", d.wind_drag)
                              : NULL;
    Py_XDECREF(cur);
    Py_XDECREF(wind);
    return r;
}

/* ---- periodic cell --------------------------------------------------------------------- */

/* A 3x3 matrix from a nested sequence or an array, row-major. */
static int matrix33(PyObject *o, const char *what, double out[9]) {
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(o, NPY_DOUBLE, 2, 2, NPY_ARRAY_CARRAY_RO);
    if (!a) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected a 3 x 3 matrix of numbers", what);
        return -1;
    }
    if (PyArray_DIM(a, 0) != 3 || PyArray_DIM(a, 1) != 3) {
        PyErr_Format(PyExc_TypeError, "%s: expected a 3 x 3 matrix, got %zd x %zd", what, (Py_ssize_t)PyArray_DIM(a, 0),
                     (Py_ssize_t)PyArray_DIM(a, 1));
        Py_DECREF(a);
        return -1;
    }
    memcpy(out, PyArray_DATA(a), 9 * sizeof(double));
    Py_DECREF(a);
    return 0;
}

static PyObject *matrix33_obj(const double m[9]) {
    npy_intp dims[2] = {3, 3};
    PyObject *a = PyArray_SimpleNew(2, dims, NPY_DOUBLE);
    if (a) memcpy(PyArray_DATA((PyArrayObject *)a), m, 9 * sizeof(double));
    return a;
}

static PyObject *World_set_periodic(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"axis", "lo", "hi", NULL};
    PyObject *ax;
    double lo, hi;
    int axis;
    if (floe_py_open(self) || !PyArg_ParseTupleAndKeywords(args, kw, "Odd:set_periodic", kwlist, &ax, &lo, &hi) ||
        floe_py_axis(ax, &axis))
        return NULL;
    return floe_py_status(self, floe_world_set_periodic(self->sc.world, axis, lo, hi));
}

static PyObject *World_set_velocity_gradient(World *self, PyObject *arg) {
    double l[9];
    if (floe_py_open(self) || matrix33(arg, "velocity gradient", l)) return NULL;
    return floe_py_status(self, floe_world_set_velocity_gradient(self->sc.world, l));
}

static PyObject *World_affine_velocities(World *self, PyObject *unused) {
    (void)unused;
    if (floe_py_open(self)) return NULL;
    return floe_py_status(self, floe_world_affine_velocities(self->sc.world));
}

/* One axis's servo from stress, gain, max_rate, alpha (None: not given), as
 * the scene's periodic.servo.<axis> (docs/scene-format.md#periodic). 1: no
 * servo (stress None, or the fixed gain 0); 0: *s set; -1: an error. */
static int floe_py_cell_servo(PyObject *stress, PyObject *gain, PyObject *rate, PyObject *alpha, const char *what,
                              floe_cell_servo *s) {
    char w[96];
    *s = floe_default_cell_servo();
    if (!stress || stress == Py_None) return 1;
    snprintf(w, sizeof w, "%s stress", what);
    if (floe_py_double(stress, w, &s->stress)) return -1;
    int fixed = gain && gain != Py_None;
    snprintf(w, sizeof w, "%s gain", what);
    if (fixed && floe_py_double(gain, w, &s->gain)) return -1;
    if (fixed && s->gain == 0) return 1; /* the fixed gain 0: off */
    if (fixed && alpha && alpha != Py_None) {
        PyErr_Format(ArgumentError, "%s: alpha sets the gain alpha / (K dt); give either gain or alpha, not both",
                     what);
        return -1;
    }
    snprintf(w, sizeof w, "%s alpha", what);
    if (alpha && alpha != Py_None && floe_py_double(alpha, w, &s->alpha)) return -1;
    s->max_rate = 1e6;
    if (!fixed && (!rate || rate == Py_None)) {
        PyErr_Format(ArgumentError,
                     "%s: give max_rate (1/s): without a fixed gain the axis moves at max_rate while the packing is "
                     "loose",
                     what);
        return -1;
    }
    snprintf(w, sizeof w, "%s max_rate", what);
    if (rate && rate != Py_None && floe_py_double(rate, w, &s->max_rate)) return -1;
    return 0;
}

static PyObject *World_set_cell_servo(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"axis", "stress", "gain", "max_rate", "alpha", NULL};
    PyObject *ax, *stress = NULL, *gain = NULL, *rate = NULL, *alpha = NULL;
    int axis;
    if (floe_py_open(self) ||
        !PyArg_ParseTupleAndKeywords(args, kw, "O|OOOO:set_cell_servo", kwlist, &ax, &stress, &gain, &rate, &alpha) ||
        floe_py_axis(ax, &axis))
        return NULL;
    floe_cell_servo s;
    int rc = floe_py_cell_servo(stress, gain, rate, alpha, "set_cell_servo", &s);
    if (rc < 0) return NULL;
    return floe_py_status(self, floe_world_set_cell_servo_def(self->sc.world, axis, rc ? NULL : &s));
}

/* ---- cell phases (docs/periodic.md#phases) ---------------------------------------------------- */

static const char *const cell_triggers[FLOE_CELL_AT_KINDS] = {"time", "step", "pressure", "strain"};
static const char *const strain_entries[9] = {"xx", "xy", "xz", "yx", "yy", "yz", "zx", "zy", "zz"};

/* Refuses keys of dict o beyond `known` (a comma-separated list). */
static int known_keys(PyObject *o, const char *where, const char *known) {
    PyObject *key, *val;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &key, &val)) {
        const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        size_t n = k ? strlen(k) : 0;
        int ok = 0;
        for (const char *q = k ? strstr(known, k) : NULL; q && !ok; q = strstr(q + 1, k))
            ok = (q == known || q[-1] == ' ') && (q[n] == ',' || q[n] == 0);
        if (!ok) {
            if (!PyErr_Occurred()) PyErr_Format(ArgumentError, "%s: unknown key %R (known: %s)", where, key, known);
            return -1;
        }
    }
    return 0;
}

/* {time | step | pressure | strain: x, component: 'xy'} */
static int cell_start_from(PyObject *o, const char *where, floe_cell_phase *p) {
    if (!PyDict_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a dict with one trigger (time, step, pressure, strain)", where);
        return -1;
    }
    if (known_keys(o, where, "time, step, pressure, strain, component")) return -1;
    int found = -1;
    for (int t = 0; t < FLOE_CELL_AT_KINDS; t++) {
        PyObject *v = PyDict_GetItemString(o, cell_triggers[t]);
        if (!v) continue;
        if (found >= 0) {
            PyErr_Format(ArgumentError, "%s: give one trigger, not two ('%s' and '%s')", where, cell_triggers[found],
                         cell_triggers[t]);
            return -1;
        }
        found = t;
        char w[192];
        snprintf(w, sizeof w, "%s.%s", where, cell_triggers[t]);
        if (t == FLOE_CELL_AT_STEP) {
            long long s;
            if (floe_py_int(v, w, 0, 1LL << 53, &s)) return -1;
            p->at = (double)s;
        } else if (floe_py_double(v, w, &p->at)) {
            return -1;
        }
    }
    if (found < 0) {
        PyErr_Format(ArgumentError, "%s: no trigger (give one of time, step, pressure, strain)", where);
        return -1;
    }
    p->trigger = found;
    PyObject *c = PyDict_GetItemString(o, "component");
    if (c && found != FLOE_CELL_AT_STRAIN) {
        PyErr_Format(ArgumentError, "%s.component: only a strain trigger takes one", where);
        return -1;
    }
    if (found == FLOE_CELL_AT_STRAIN) {
        const char *s = c && PyUnicode_Check(c) ? PyUnicode_AsUTF8(c) : NULL;
        p->component = -1;
        for (int k = 0; s && k < 9; k++)
            if (!strcmp(s, strain_entries[k])) p->component = k;
        if (p->component < 0) {
            if (!PyErr_Occurred())
                PyErr_Format(ArgumentError, "%s.component: a strain trigger needs one of 'xx', 'xy', ..., 'zz'", where);
            return -1;
        }
    }
    return 0;
}

/* One phase from its dict (the keys of the scene's periodic.phases entries). */
static int cell_phase_from(PyObject *o, int i, floe_cell_phase *p) {
    char where[64];
    snprintf(where, sizeof where, "cell phases[%d]", i);
    *p = floe_default_cell_phase();
    if (!PyDict_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a dict (start, velocity_gradient, servo, affine_velocities)",
                     where);
        return -1;
    }
    if (known_keys(o, where, "start, velocity_gradient, servo, affine_velocities")) return -1;
    PyObject *v = PyDict_GetItemString(o, "start");
    char w[128];
    snprintf(w, sizeof w, "%s.start", where);
    if (v && cell_start_from(v, w, p)) return -1;
    if (!v && i > 0) {
        PyErr_Format(ArgumentError, "%s: missing 'start' (only the first phase defaults to time 0)", where);
        return -1;
    }
    snprintf(w, sizeof w, "%s.velocity_gradient", where);
    if ((v = PyDict_GetItemString(o, "velocity_gradient")) && matrix33(v, w, p->velocity_gradient)) return -1;
    if ((v = PyDict_GetItemString(o, "servo"))) {
        snprintf(w, sizeof w, "%s.servo", where);
        if (!PyDict_Check(v)) {
            PyErr_Format(PyExc_TypeError, "%s: expected a dict of axes ('x', 'y', 'z') to servo dicts", w);
            return -1;
        }
        PyObject *key, *val;
        Py_ssize_t pos = 0;
        while (PyDict_Next(v, &pos, &key, &val)) {
            int axis;
            if (floe_py_axis(key, &axis)) return -1;
            char wa[160];
            snprintf(wa, sizeof wa, "%s.%c", w, 'x' + axis);
            if (!PyDict_Check(val)) {
                PyErr_Format(PyExc_TypeError, "%s: expected a dict (stress, gain, alpha, max_rate)", wa);
                return -1;
            }
            if (known_keys(val, wa, "stress, gain, alpha, max_rate")) return -1;
            PyObject *st = PyDict_GetItemString(val, "stress");
            if (!st) {
                PyErr_Format(ArgumentError, "%s: missing 'stress' (Pa, tension positive)", wa);
                return -1;
            }
            int rc = floe_py_cell_servo(st, PyDict_GetItemString(val, "gain"), PyDict_GetItemString(val, "max_rate"),
                                        PyDict_GetItemString(val, "alpha"), wa, &p->servo[axis]);
            if (rc < 0) return -1;
            if (rc == 0) p->servo_axes |= 1 << axis;
        }
    }
    if ((v = PyDict_GetItemString(o, "affine_velocities"))) {
        int t = PyObject_IsTrue(v);
        if (t < 0) return -1;
        p->affine = t;
    }
    return 0;
}

static PyObject *World_set_cell_phases(World *self, PyObject *lo) {
    if (floe_py_open(self)) return NULL;
    PyObject *seq = PySequence_Fast(lo, "set_cell_phases: expected a list of phase dicts");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > FLOE_MAX_PHASES) {
        Py_DECREF(seq);
        PyErr_Format(ArgumentError, "set_cell_phases: %zd phases, at most %d", n, FLOE_MAX_PHASES);
        return NULL;
    }
    floe_cell_phase ph[FLOE_MAX_PHASES];
    for (Py_ssize_t i = 0; i < n; i++)
        if (cell_phase_from(PySequence_Fast_GET_ITEM(seq, i), (int)i, &ph[i])) {
            Py_DECREF(seq);
            return NULL;
        }
    Py_DECREF(seq);
    return floe_py_status(self, floe_world_set_cell_phases(self->sc.world, ph, (int)n));
}

static int put(PyObject *d, const char *k, PyObject *v) {
    if (!v) return -1;
    int rc = PyDict_SetItemString(d, k, v);
    Py_DECREF(v);
    return rc;
}

/* A cell phase as the dict set_cell_phases takes. */
static PyObject *cell_phase_dict(const floe_cell_phase *p) {
    PyObject *d = PyDict_New(), *st = PyDict_New(), *sv = PyDict_New();
    int rc = d && st && sv ? 0 : -1;
    if (!rc) {
        rc = p->trigger == FLOE_CELL_AT_STEP ? put(st, "step", PyLong_FromLongLong((long long)p->at))
                                             : put(st, cell_triggers[p->trigger], PyFloat_FromDouble(p->at));
        if (!rc && p->trigger == FLOE_CELL_AT_STRAIN)
            rc = put(st, "component", PyUnicode_FromString(strain_entries[p->component]));
    }
    if (!rc) rc = PyDict_SetItemString(d, "start", st);
    if (!rc) rc = put(d, "velocity_gradient", matrix33_obj(p->velocity_gradient));
    for (int k = 0; k < 3 && !rc; k++) {
        if (!(p->servo_axes >> k & 1)) continue;
        const floe_cell_servo *s = &p->servo[k];
        PyObject *a = s->gain > 0 ? Py_BuildValue("{s:d,s:d,s:d}", "stress", s->stress, "gain", s->gain, "max_rate",
                                                  s->max_rate)
                                  : Py_BuildValue("{s:d,s:d,s:d}", "stress", s->stress, "alpha", s->alpha, "max_rate",
                                                  s->max_rate);
        char ax[2] = {(char)('x' + k), 0};
        rc = put(sv, ax, a);
    }
    if (!rc) rc = PyDict_SetItemString(d, "servo", sv);
    if (!rc) rc = put(d, "affine_velocities", PyBool_FromLong(p->affine));
    Py_XDECREF(st);
    Py_XDECREF(sv);
    if (rc) {
        Py_XDECREF(d);
        return NULL;
    }
    return d;
}

static PyObject *World_cell_phases(World *self, PyObject *unused) {
    (void)unused;
    if (floe_py_open(self)) return NULL;
    floe_cell_phase ph[FLOE_MAX_PHASES];
    int n = floe_world_cell_phases(self->sc.world, ph, FLOE_MAX_PHASES);
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        PyObject *d = cell_phase_dict(&ph[i]);
        if (!d) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, d);
    }
    return l;
}

static PyObject *World_cell_phase(World *self, PyObject *unused) {
    (void)unused;
    if (floe_py_open(self)) return NULL;
    return PyLong_FromLong(floe_world_cell_phase(self->sc.world));
}

static PyObject *World_cell(World *self, PyObject *unused) {
    (void)unused;
    if (floe_py_open(self)) return NULL;
    double h[9], strain[9], l[9];
    floe_vec3 origin;
    int axes = floe_world_get_cell(self->sc.world, h, &origin);
    if (!axes) Py_RETURN_NONE;
    floe_world_cell_strain(self->sc.world, strain);
    floe_world_velocity_gradient(self->sc.world, l);
    char names[4] = {0};
    for (int k = 0, n = 0; k < 3; k++)
        if (axes >> k & 1) names[n++] = (char)('x' + k);
    PyObject *ho = matrix33_obj(h), *so = matrix33_obj(strain), *oo = floe_py_vec3_obj(origin), *lo = matrix33_obj(l);
    PyObject *r = ho && so && oo && lo
                      ? Py_BuildValue("{s:s,s:O,s:O,s:O,s:d,s:O,s:i}", "axes", names, "h", ho, "origin", oo, "strain",
                                      so, "volume", floe_world_cell_volume(self->sc.world), "velocity_gradient", lo,
                                      "phase", floe_world_cell_phase(self->sc.world))
                      : NULL;
    Py_XDECREF(ho);
    Py_XDECREF(so);
    Py_XDECREF(oo);
    Py_XDECREF(lo);
    return r;
}

static PyObject *World_wraps(World *self, PyObject *arg) {
    if (floe_py_open(self)) return NULL;
    long long i;
    if (floe_py_int(arg, "particle id", 0, INT32_MAX, &i)) return NULL;
    int n[3];
    if (floe_py_check(self, floe_particle_wraps(self->sc.world, (int)i, n))) return NULL;
    return Py_BuildValue("(iii)", n[0], n[1], n[2]);
}

/* ---- measurements ---------------------------------------------------------------------- */

/* The region of a measurement: box ((lo), (hi)) counts what lies in it;
 * whole=True counts everything and takes the box's volume (a periodic
 * world without a box: the cell's volume over its periodic axes). */
static int region_from(World *self, PyObject *box, int whole, floe_region *r) {
    r->whole = whole;
    if (!box || box == Py_None) {
        if (floe_world_get_cell(self->sc.world, NULL, NULL) == 7) {
            /* every axis periodic: the volume is the cell's alone */
            *r = (floe_region){.lo = {0, 0, 0}, .hi = {1, 1, 1}, .whole = 1};
            return 0;
        }
        PyErr_SetString(ArgumentError, "a measurement needs box=((x0, y0, z0), (x1, y1, z1)), except over a cell "
                                       "periodic in x, y and z");
        return -1;
    }
    PyObject *seq = PySequence_Fast(box, "");
    if (!seq || PySequence_Fast_GET_SIZE(seq) != 2) {
        Py_XDECREF(seq);
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "box: expected ((x0, y0, z0), (x1, y1, z1))");
        return -1;
    }
    int rc = floe_py_vec3(PySequence_Fast_GET_ITEM(seq, 0), "box lo", &r->lo) ||
             floe_py_vec3(PySequence_Fast_GET_ITEM(seq, 1), "box hi", &r->hi);
    Py_DECREF(seq);
    return rc ? -1 : 0;
}

/* Parses (box=None, whole=False) for the measurement `fmt` names. */
static int region_args(World *self, PyObject *args, PyObject *kw, const char *fmt, floe_region *r) {
    static char *kwlist[] = {"box", "whole", NULL};
    PyObject *box = NULL;
    int whole = 0;
    if (floe_py_open(self) || !PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, &box, &whole)) return -1;
    return region_from(self, box, whole, r);
}

static PyObject *World_stress(World *self, PyObject *args, PyObject *kw) {
    floe_region r;
    if (region_args(self, args, kw, "|Op:stress", &r)) return NULL;
    double s[9];
    if (floe_py_check(self, floe_stress_tensor(self->sc.world, &r, s))) return NULL;
    return matrix33_obj(s);
}

static PyObject *World_solid_fraction(World *self, PyObject *args, PyObject *kw) {
    floe_region r;
    if (region_args(self, args, kw, "|Op:solid_fraction", &r)) return NULL;
    double f;
    if (floe_py_check(self, floe_solid_fraction(self->sc.world, &r, &f))) return NULL;
    return PyFloat_FromDouble(f);
}

static PyObject *World_coordination(World *self, PyObject *args, PyObject *kw) {
    floe_region r;
    if (region_args(self, args, kw, "|Op:coordination", &r)) return NULL;
    floe_coordination_info c;
    if (floe_py_check(self, floe_coordination(self->sc.world, &r, &c))) return NULL;
    return Py_BuildValue("{s:i,s:i,s:d,s:d}", "particles", c.particles, "rattlers", c.rattlers, "z", c.z, "z_mech",
                         c.z_mech);
}

static PyObject *World_fabric(World *self, PyObject *args, PyObject *kw) {
    floe_region r;
    if (region_args(self, args, kw, "|Op:fabric", &r)) return NULL;
    double f[9];
    int n;
    if (floe_py_check(self, floe_fabric_tensor(self->sc.world, &r, f, &n))) return NULL;
    return matrix33_obj(f);
}

#define KW (PyCFunction)(void (*)(void))

PyMethodDef floe_py_lab_methods[] = {
    {"set_water", KW World_set_water, METH_VARARGS | METH_KEYWORDS,
     "set_water(level=0, density=1025, current=(0, 0, 0), skin_drag=5.5e-3, form_drag=1, rotational_drag=1,\n"
     "          air_density=1.3, wind=(0, 0, 0), wind_drag=1.2e-3)\n"
     "set_water(None)\n\n"
     "Puts water below the horizontal surface z = level into the world (the scene's `water` section,\n"
     "docs/models/water.md): buoyancy from each free body's submerged volume, skin, form and rotational\n"
     "drag against the current, wind stress above. Units: m, kg/m^3, m/s; current and wind horizontal.\n"
     "Keys left out take the defaults above; set_water(None) takes the water out. After the first\n"
     "step the change of energy it makes is booked as boundary work."},
    {"water", (PyCFunction)World_water, METH_NOARGS,
     "water()\n\nThe water's settings as a dict (the keys of set_water), or None without water."},
    {"set_periodic", KW World_set_periodic, METH_VARARGS | METH_KEYWORDS,
     "set_periodic(axis, lo, hi)\n\nMakes axis ('x', 'y', 'z' or 0-2) periodic with period [lo, hi), before the first "
     "step\n"
     "(the scene's `periodic` section, docs/periodic.md)."},
    {"set_velocity_gradient", (PyCFunction)World_set_velocity_gradient, METH_O,
     "set_velocity_gradient(L)\n\nThe periodic cell's velocity gradient [1/s], a 3 x 3 matrix L[i][j] = dv_i/dx_j: the "
     "cell\n"
     "follows dH/dt = L H. Only rows and columns of periodic axes may be non-zero."},
    {"affine_velocities", (PyCFunction)World_affine_velocities, METH_NOARGS,
     "affine_velocities()\n\nAdds the affine velocity L (x - origin) to every body (start of a homogeneous "
     "deformation)."},
    {"set_cell_servo", KW World_set_cell_servo, METH_VARARGS | METH_KEYWORDS,
     "set_cell_servo(axis, stress=None, gain=None, max_rate=None, alpha=None)\n\nStress control of a periodic "
     "axis: L_kk = G (stress - sigma_kk), clamped to +-max_rate [1/s];\n"
     "stress [Pa], tension positive (a pressure P is -P). G = gain [1/(Pa s)] when given (max_rate default 1e6),\n"
     "else alpha / (K dt) (alpha default 0.5, max_rate required: the pace from a loose state). stress None or\n"
     "gain 0 turns it off (docs/periodic.md)."},
    {"set_cell_phases", (PyCFunction)World_set_cell_phases, METH_O,
     "set_cell_phases(phases)\n\nThe periodic cell's phases (docs/periodic.md#phases), a list of dicts with the "
     "keys of the scene's\n"
     "periodic.phases: start (time, step, pressure or strain with component; required after the first),\n"
     "velocity_gradient (3 x 3), servo ({'y': {'stress': ..., 'max_rate': ...}, ...}), affine_velocities.\n"
     "[] removes them."},
    {"cell_phases", (PyCFunction)World_cell_phases, METH_NOARGS,
     "cell_phases()\n\nThe cell's phases as set_cell_phases takes them."},
    {"cell_phase", (PyCFunction)World_cell_phase, METH_NOARGS,
     "cell_phase()\n\nThe index of the cell's current phase (-1 before the first, or without phases)."},
    {"cell", (PyCFunction)World_cell, METH_NOARGS,
     "cell()\n\nThe periodic cell as a dict: axes ('xy', ...), h (3 x 3, columns the cell vectors), origin,\n"
     "strain (3 x 3), volume, velocity_gradient (3 x 3, as the last step used it) and phase (cell_phase());\n"
     "None without a cell."},
    {"wraps", (PyCFunction)World_wraps, METH_O,
     "wraps(i)\n\nTimes particle i was wrapped back into the periodic cell along each cell vector (3 ints)."},
    {"stress", KW World_stress, METH_VARARGS | METH_KEYWORDS,
     "stress(box=None, whole=False)\n\nLove-Weber stress tensor [Pa] (3 x 3, tension positive) of the contacts in\n"
     "box ((x0, y0, z0), (x1, y1, z1)); whole=True counts every contact over the box's volume. Without a box:\n"
     "the whole of a cell periodic in x, y and z (docs/measurements.md)."},
    {"solid_fraction", KW World_solid_fraction, METH_VARARGS | METH_KEYWORDS,
     "solid_fraction(box=None, whole=False)\n\nVolume of the particles in the box over its volume (exact for "
     "spheres)."},
    {"coordination", KW World_coordination, METH_VARARGS | METH_KEYWORDS,
     "coordination(box=None, whole=False)\n\nDict: particles, rattlers (< 2 contacts), z (contacts per particle) and\n"
     "z_mech (per non-rattler)."},
    {"fabric", KW World_fabric, METH_VARARGS | METH_KEYWORDS,
     "fabric(box=None, whole=False)\n\nFabric tensor (3 x 3, mean n_i n_j over particle-particle contacts; trace 1)."},
    {NULL, NULL, 0, NULL}};
