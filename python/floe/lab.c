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
    {NULL, NULL, 0, NULL}};
