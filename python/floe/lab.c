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
                      ? Py_BuildValue("{s:s,s:O,s:O,s:O,s:d,s:O}", "axes", names, "h", ho, "origin", oo, "strain", so,
                                      "volume", floe_world_cell_volume(self->sc.world), "velocity_gradient", lo)
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
    {"cell", (PyCFunction)World_cell, METH_NOARGS,
     "cell()\n\nThe periodic cell as a dict: axes ('xy', ...), h (3 x 3, columns the cell vectors), origin,\n"
     "strain (3 x 3), volume and velocity_gradient (3 x 3, as the last step used it); None without a cell."},
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
