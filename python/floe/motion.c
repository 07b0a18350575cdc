/* The World's phased group motion (docs/laboratory.md): set_phases,
 * group_phases, group_phase, group_servo. A phase is a dict with the keys
 * of the scene's groups[].phases entries (docs/scene-format.md#groups), so
 * a phase list moves between a scene and a script unchanged. The values are
 * checked by floe_group_set_phases, whose message is raised as it is. */
#include "_floe.h"

#include <math.h>
#include <string.h>

static const char *const kind_names[FLOE_PHASE_KINDS] = {"free", "velocity", "rotate", "servo", "load"};
static const char *const trigger_names[FLOE_AT_KINDS] = {"time", "step", "force_above", "force_drop", "displacement"};

/* The keys each kind takes, besides kind and start (the scene's table). */
static const char *const kind_keys[FLOE_PHASE_KINDS] = {
    "",
    "velocity, angular_velocity",
    "axis, rate, point",
    "direction, force, stress, area, gain, alpha, max_speed",
    "force, torque, force_rate, torque_rate",
};

static int takes(int kind, const char *k) {
    const char *keys = kind_keys[kind];
    size_t n = strlen(k);
    for (const char *p = strstr(keys, k); p; p = strstr(p + 1, k))
        if ((p == keys || p[-1] == ' ') && (p[n] == ',' || p[n] == 0)) return 1;
    return 0;
}

/* The start trigger: {time|step|force_above|force_drop|displacement: x, direction: v}. */
static int start_from(PyObject *o, int i, floe_phase *p) {
    if (!PyDict_Check(o)) {
        PyErr_Format(PyExc_TypeError,
                     "phases[%d].start: expected a dict with one trigger (time, step, force_above, "
                     "force_drop, displacement) and an optional direction",
                     i);
        return -1;
    }
    int found = 0;
    PyObject *key, *val;
    Py_ssize_t pos = 0;
    char what[64];
    while (PyDict_Next(o, &pos, &key, &val)) {
        const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (!k) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "phases[%d].start: keys must be strings", i);
            return -1;
        }
        snprintf(what, sizeof what, "phases[%d].start.%s", i, k);
        if (!strcmp(k, "direction")) {
            if (floe_py_vec3(val, what, &p->measure_dir)) return -1;
            continue;
        }
        int t = 0;
        while (t < FLOE_AT_KINDS && strcmp(k, trigger_names[t])) t++;
        if (t == FLOE_AT_KINDS) {
            PyErr_Format(ArgumentError,
                         "phases[%d].start: unknown key '%s' (known: time, step, force_above, force_drop, "
                         "displacement, direction)",
                         i, k);
            return -1;
        }
        if (found++) {
            PyErr_Format(ArgumentError, "phases[%d].start: give one trigger, not two ('%s' and '%s')", i,
                         trigger_names[p->trigger], k);
            return -1;
        }
        p->trigger = t;
        if (t == FLOE_AT_STEP) {
            long long s;
            if (floe_py_int(val, what, 0, 1LL << 53, &s)) return -1;
            p->at = (double)s;
        } else if (floe_py_double(val, what, &p->at)) return -1;
    }
    if (!found) {
        PyErr_Format(ArgumentError,
                     "phases[%d].start: no trigger (give one of time, step, force_above, force_drop, displacement)", i);
        return -1;
    }
    return 0;
}

/* One phase from its dict; i is its index (for messages). */
static int phase_from(PyObject *o, int i, floe_phase *p) {
    *p = floe_default_phase();
    if (!PyDict_Check(o)) {
        PyErr_Format(PyExc_TypeError,
                     "phases[%d]: expected a dict with a 'kind' (free, velocity, rotate, servo, "
                     "load)",
                     i);
        return -1;
    }
    PyObject *ko = PyDict_GetItemString(o, "kind");
    const char *kn = ko && PyUnicode_Check(ko) ? PyUnicode_AsUTF8(ko) : NULL;
    if (!kn) {
        PyErr_Format(ArgumentError, "phases[%d].kind: required, one of free, velocity, rotate, servo, load", i);
        return -1;
    }
    int kind = 0;
    while (kind < FLOE_PHASE_KINDS && strcmp(kn, kind_names[kind])) kind++;
    if (kind == FLOE_PHASE_KINDS) {
        PyErr_Format(ArgumentError, "phases[%d].kind: unknown kind '%s' (known: free, velocity, rotate, servo, load)",
                     i, kn);
        return -1;
    }
    p->kind = kind;
    PyObject *so = PyDict_GetItemString(o, "start");
    if (so) {
        if (start_from(so, i, p)) return -1;
    } else if (i > 0) {
        PyErr_Format(ArgumentError,
                     "phases[%d].start: required for every phase but the first (e.g. start=dict(time="
                     "0.1))",
                     i);
        return -1;
    }
    int has_axis = 0, has_rate = 0, has_dir = 0, has_force = 0, has_stress = 0, has_area = 0;
    floe_vec3 axis = {0, 0, 0};
    double rate = 0;
    PyObject *key, *val;
    Py_ssize_t pos = 0;
    char what[64];
    while (PyDict_Next(o, &pos, &key, &val)) {
        const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (!k) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "phases[%d]: keys must be strings", i);
            return -1;
        }
        if (!strcmp(k, "kind") || !strcmp(k, "start")) continue;
        snprintf(what, sizeof what, "phases[%d].%s", i, k);
        if (!takes(kind, k)) {
            int known = 0;
            for (int q = 0; q < FLOE_PHASE_KINDS && !known; q++) known = takes(q, k);
            if (known)
                PyErr_Format(ArgumentError, "%s: a %s phase does not take it (it takes: kind, start%s%s)", what, kn,
                             *kind_keys[kind] ? ", " : "", kind_keys[kind]);
            else
                PyErr_Format(ArgumentError,
                             "%s: unknown key (known: kind, start, velocity, angular_velocity, axis, rate, point, "
                             "direction, force, stress, area, gain, alpha, max_speed, torque, force_rate, "
                             "torque_rate)",
                             what);
            return -1;
        }
        int rc = 0;
        if (!strcmp(k, "velocity")) rc = floe_py_vec3(val, what, &p->vel);
        else if (!strcmp(k, "angular_velocity")) rc = floe_py_vec3(val, what, &p->angvel);
        else if (!strcmp(k, "axis")) rc = floe_py_vec3(val, what, &axis), has_axis = 1;
        else if (!strcmp(k, "rate")) rc = floe_py_double(val, what, &rate), has_rate = 1;
        else if (!strcmp(k, "point")) rc = floe_py_vec3(val, what, &p->point);
        else if (!strcmp(k, "direction")) rc = floe_py_vec3(val, what, &p->servo_dir), has_dir = 1;
        else if (!strcmp(k, "force") && kind == FLOE_PHASE_SERVO)
            rc = floe_py_double(val, what, &p->target), has_force = 1;
        else if (!strcmp(k, "stress")) rc = floe_py_double(val, what, &p->target), has_stress = 1;
        else if (!strcmp(k, "area")) rc = floe_py_double(val, what, &p->area), has_area = 1;
        else if (!strcmp(k, "gain")) rc = floe_py_double(val, what, &p->gain);
        else if (!strcmp(k, "alpha")) rc = floe_py_double(val, what, &p->alpha);
        else if (!strcmp(k, "max_speed")) rc = floe_py_double(val, what, &p->max_speed);
        else if (!strcmp(k, "force")) rc = floe_py_vec3(val, what, &p->force);
        else if (!strcmp(k, "torque")) rc = floe_py_vec3(val, what, &p->torque);
        else if (!strcmp(k, "force_rate")) rc = floe_py_vec3(val, what, &p->force_rate);
        else if (!strcmp(k, "torque_rate")) rc = floe_py_vec3(val, what, &p->torque_rate);
        if (rc) return -1;
    }
    if (kind == FLOE_PHASE_ROTATE) {
        if (!has_axis || !has_rate) {
            PyErr_Format(ArgumentError, "phases[%d].%s: required for a rotate phase", i, has_axis ? "rate" : "axis");
            return -1;
        }
        double n = sqrt(axis.x * axis.x + axis.y * axis.y + axis.z * axis.z);
        if (!(n > 0) || !isfinite(n)) {
            floe_py_arg_error("phases[%d].axis: (%g, %g, %g) must be a non-zero, finite vector", i, axis.x, axis.y,
                              axis.z);
            return -1;
        }
        if (!(rate != 0) || !isfinite(rate)) {
            floe_py_arg_error("phases[%d].rate: %g must be non-zero and finite [rad/s]", i, rate);
            return -1;
        }
        p->angvel = (floe_vec3){rate * axis.x / n, rate * axis.y / n, rate * axis.z / n};
    }
    if (kind == FLOE_PHASE_SERVO) {
        if (!has_dir) {
            PyErr_Format(ArgumentError, "phases[%d].direction: required for a servo phase", i);
            return -1;
        }
        if (has_force == has_stress) {
            PyErr_Format(ArgumentError, "phases[%d]: a servo phase takes one of force, stress (got %s)", i,
                         has_force ? "both" : "neither");
            return -1;
        }
        if (has_stress != has_area) {
            PyErr_Format(ArgumentError, "phases[%d].area: %s", i,
                         has_stress ? "required with stress (the area the force is divided by, m^2)"
                                    : "only with stress");
            return -1;
        }
    }
    return 0;
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
