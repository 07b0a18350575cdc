/* The World's phased group motion (docs/laboratory.md): set_phases,
 * group_phases, group_phase, group_servo. A phase is a dict with the keys
 * of the scene's groups[].phases entries (docs/scene-format.md#groups), so
 * a phase list moves between a scene and a script unchanged (the key table
 * "phases" says which key is a name, kind, and which a dict, start). The
 * engine reads and checks them as it does a scene's (floe_phase_from_keys),
 * so a value is refused in the scene's words; its message is raised as it is. */
#include "_floe.h"

#include <math.h>
#include <string.h>

static const char *const kind_names[FLOE_PHASE_KINDS] = {"free", "velocity", "rotate", "servo", "load"};
static const char *const trigger_names[FLOE_AT_KINDS] = {"time", "step", "force_above", "force_drop", "displacement"};

/* One phase from its dict; i is its index. The dict's items become the
 * keys of a scene's phase entry (floe_py_key_list, through the key table
 * "phases"), which the engine checks and reads (floe_phase_from_keys): the
 * scene's words for the same values. */
static int phase_from(PyObject *o, int i, floe_phase *p) {
    enum { CAP = 64 };
    char where[32], why[512];
    floe_phase_key k[CAP];
    int n = 0, rc = -1;
    snprintf(where, sizeof where, "phases[%d]", i);
    PyObject *keep = PyList_New(0);
    if (!keep) return -1;
    if (floe_py_key_list(o, where, floe_key_table_find("phases"), "", k, CAP, &n, keep)) goto done;
    if (floe_phase_from_keys(k, n, i == 0, where, p, why, sizeof why, NULL) != FLOE_OK) {
        PyErr_SetString(ArgumentError, why);
        goto done;
    }
    rc = 0;
done:
    Py_DECREF(keep);
    return rc;
}

static PyObject *World_set_phases(World *self, PyObject *args) {
    PyObject *go, *lo;
    int g;
    if (floe_py_open(self) || !PyArg_ParseTuple(args, "OO:set_phases", &go, &lo) || floe_py_group(self, go, 1, &g))
        return NULL;
    PyObject *seq = PySequence_Fast(lo, "set_phases: expected a list of phase dicts");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > FLOE_MAX_PHASES) {
        Py_DECREF(seq);
        PyErr_Format(ArgumentError, "set_phases: %zd phases, at most %d per group", n, FLOE_MAX_PHASES);
        return NULL;
    }
    floe_phase ph[FLOE_MAX_PHASES];
    for (Py_ssize_t i = 0; i < n; i++)
        if (phase_from(PySequence_Fast_GET_ITEM(seq, i), (int)i, &ph[i])) {
            Py_DECREF(seq);
            return NULL;
        }
    Py_DECREF(seq);
    return floe_py_status(self, floe_group_set_phases(self->sc.world, g, ph, (int)n));
}

static int set_item(PyObject *d, const char *k, PyObject *v) {
    if (!v) return -1;
    int rc = PyDict_SetItemString(d, k, v);
    Py_DECREF(v);
    return rc;
}

static int nonzero(floe_vec3 v) { return v.x != 0 || v.y != 0 || v.z != 0; }

/* A phase as the dict set_phases takes (defaults left out where the scene
 * leaves them out); a rotate phase gives its axis normalised. */
static PyObject *phase_dict(const floe_phase *p, int i) {
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    int rc = set_item(d, "kind", PyUnicode_FromString(kind_names[p->kind]));
    if (!rc && (i > 0 || p->trigger != FLOE_AT_TIME || p->at != 0)) {
        PyObject *s = PyDict_New();
        rc = !s ||
             set_item(s, trigger_names[p->trigger],
                      p->trigger == FLOE_AT_STEP ? PyLong_FromLongLong((long long)p->at) : PyFloat_FromDouble(p->at));
        if (!rc && nonzero(p->measure_dir)) rc = set_item(s, "direction", floe_py_vec3_obj(p->measure_dir));
        rc = rc || set_item(d, "start", s) ? -1 : 0;
        if (!s) rc = -1;
    }
    switch (p->kind) {
        case FLOE_PHASE_VELOCITY:
            rc = rc || set_item(d, "velocity", floe_py_vec3_obj(p->vel)) ||
                 set_item(d, "angular_velocity", floe_py_vec3_obj(p->angvel));
            break;
        case FLOE_PHASE_ROTATE: {
            floe_vec3 a = p->angvel;
            double r = sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
            floe_vec3 u = r > 0 ? (floe_vec3){a.x / r, a.y / r, a.z / r} : a;
            rc = rc || set_item(d, "axis", floe_py_vec3_obj(u)) || set_item(d, "rate", PyFloat_FromDouble(r)) ||
                 set_item(d, "point", floe_py_vec3_obj(p->point));
            break;
        }
        case FLOE_PHASE_SERVO:
            rc = rc || set_item(d, "direction", floe_py_vec3_obj(p->servo_dir)) ||
                 (p->area > 0 ? set_item(d, "stress", PyFloat_FromDouble(p->target)) ||
                                    set_item(d, "area", PyFloat_FromDouble(p->area))
                              : set_item(d, "force", PyFloat_FromDouble(p->target))) ||
                 set_item(d, "gain", PyFloat_FromDouble(p->gain)) ||
                 set_item(d, "alpha", PyFloat_FromDouble(p->alpha)) ||
                 set_item(d, "max_speed", PyFloat_FromDouble(p->max_speed));
            break;
        case FLOE_PHASE_LOAD:
            rc = rc || set_item(d, "force", floe_py_vec3_obj(p->force)) ||
                 set_item(d, "torque", floe_py_vec3_obj(p->torque)) ||
                 set_item(d, "force_rate", floe_py_vec3_obj(p->force_rate)) ||
                 set_item(d, "torque_rate", floe_py_vec3_obj(p->torque_rate));
            break;
        default:
            break;
    }
    if (rc) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

static PyObject *World_group_phases(World *self, PyObject *go) {
    int g;
    if (floe_py_open(self) || floe_py_group(self, go, 0, &g)) return NULL;
    floe_phase ph[FLOE_MAX_PHASES];
    int n = floe_group_phases(self->sc.world, g, ph, FLOE_MAX_PHASES);
    if (n < 0) return floe_py_status(self, FLOE_ERR_ARG);
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        PyObject *d = phase_dict(&ph[i], i);
        if (!d) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, d);
    }
    return l;
}

static PyObject *World_group_phase(World *self, PyObject *go) {
    int g;
    if (floe_py_open(self) || floe_py_group(self, go, 0, &g)) return NULL;
    return PyLong_FromLong(floe_group_phase(self->sc.world, g));
}

static PyObject *World_group_servo(World *self, PyObject *go) {
    int g;
    if (floe_py_open(self) || floe_py_group(self, go, 0, &g)) return NULL;
    double s[3];
    if (floe_py_check(self, floe_group_servo(self->sc.world, g, s))) return NULL;
    return Py_BuildValue("{s:d,s:d,s:d}", "measured", s[0], "target", s[1], "velocity", s[2]);
}

PyMethodDef floe_py_motion_methods[] = {
    {"set_phases", (PyCFunction)World_set_phases, METH_VARARGS,
     "set_phases(group, phases)\n\n"
     "The group's phases (docs/laboratory.md): a list of up to 16 dicts with the keys of the scene's\n"
     "groups[].phases (docs/scene-format.md#groups): kind ('free', 'velocity', 'rotate', 'servo',\n"
     "'load'), start (a dict with one trigger: time, step, force_above, force_drop, displacement,\n"
     "and an optional direction; required but for the first phase), and the kind's keys: velocity,\n"
     "angular_velocity; axis, rate, point; direction, force or stress with area, gain, alpha,\n"
     "max_speed; force, torque, force_rate, torque_rate. [] removes the phases. Unknown keys and\n"
     "keys of another kind raise ArgumentError; bad values raise it with the engine's message."},
    {"group_phases", (PyCFunction)World_group_phases, METH_O,
     "group_phases(group) -> list of dicts\n\nThe group's phases as set_phases takes them (a rotate phase's axis "
     "normalised)."},
    {"group_phase", (PyCFunction)World_group_phase, METH_O,
     "group_phase(group) -> int\n\nThe index of the group's current phase; -1 before the first starts or\n"
     "without phases."},
    {"group_servo", (PyCFunction)World_group_servo, METH_O,
     "group_servo(group) -> dict\n\nThe group's servo in the last step: measured and target (N, or Pa for a\n"
     "stress target) and velocity along the servo direction (m/s); zeros when the current phase is not\n"
     "a servo."},
    {NULL, NULL, 0, NULL}};
