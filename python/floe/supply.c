/* The World's supply methods (docs/supply.md): inlets and sinks, removal of
 * bodies, and the dense packing generator (docs/scene-format.md#dense).
 * Keywords mirror the scene's `inlets`, `sinks` and `dense` keys.
 *
 * Views (docs/python.md, "Views"): removal shifts the ids of the bodies
 * after a removed one, so it ends the generation of the views taken before
 * (view.c: they raise StaleViewError when used); inlets fill the arrays
 * only up to the room the views keep (run.c sets the particle budget). */
#include "_floe.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GIVEN(o) ((o) && (o) != Py_None)

/* ---- shared argument helpers ---------------------------------------------------------- */

/* ---- inlets --------------------------------------------------------------------------- */

static PyObject *World_add_inlet(World *self, PyObject *args, PyObject *kw) {
    const char *name;
    floe_inlet_def d = floe_default_inlet_def();
    if (floe_py_open(self) || floe_py_keys(self, args, kw, "add_inlet", floe_key_table_find("inlets"), &d, &name, NULL))
        return NULL;
    int id = floe_add_inlet(self->sc.world, name, &d);
    if (id < 0) return floe_py_status(self, FLOE_ERR_ARG);
    return PyLong_FromLong(id);
}

static PyObject *World_inlets(World *self, PyObject *unused) {
    (void)unused;
    if (floe_py_open(self)) return NULL;
    floe_world *w = self->sc.world;
    int n = floe_inlet_count(w);
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        floe_inlet_stats s;
        if (floe_py_check(self, floe_inlet_get(w, i, &s, NULL))) {
            Py_DECREF(l);
            return NULL;
        }
        PyObject *d = Py_BuildValue("{s:s,s:L,s:d,s:d,s:d,s:L,s:L,s:O}", "name", s.name, "inserted",
                                    (long long)s.inserted, "mass", s.mass, "asked", s.asked, "missed", s.missed,
                                    "tries", (long long)s.tries, "failures", (long long)s.failures, "short_of_rate",
                                    s.short_of_rate ? Py_True : Py_False);
        if (!d) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, d);
    }
    return l;
}

/* ---- sinks ---------------------------------------------------------------------------- */

static PyObject *World_add_sink(World *self, PyObject *args, PyObject *kw) {
    const char *name;
    floe_sink_def d = floe_default_sink_def();
    if (floe_py_open(self) || floe_py_keys(self, args, kw, "add_sink", floe_key_table_find("sinks"), &d, &name, NULL))
        return NULL;
    int id = floe_add_sink(self->sc.world, name, &d);
    if (id < 0) return floe_py_status(self, FLOE_ERR_ARG);
    return PyLong_FromLong(id);
}

static PyObject *World_sinks(World *self, PyObject *unused) {
    (void)unused;
    if (floe_py_open(self)) return NULL;
    floe_world *w = self->sc.world;
    int n = floe_sink_count(w);
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        floe_sink_stats s;
        if (floe_py_check(self, floe_sink_get(w, i, &s, NULL))) {
            Py_DECREF(l);
            return NULL;
        }
        PyObject *d = Py_BuildValue("{s:s,s:L,s:d,s:d}", "name", s.name, "removed", (long long)s.removed, "mass",
                                    s.mass, "energy", s.energy);
        if (!d) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, d);
    }
    return l;
}

/* ---- removal -------------------------------------------------------------------------- */

static PyObject *World_remove(World *self, PyObject *arg) {
    if (floe_py_open(self)) return NULL;
    PyArrayObject *a = floe_py_ids(arg, "remove(ids)", 0);
    if (!a) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) return NULL; /* float ids: said so */
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "remove(ids): expected a particle id or a sequence of ids");
        return NULL;
    }
    npy_intp n = PyArray_SIZE(a);
    const int64_t *src = PyArray_DATA(a);
    floe_world *w = self->sc.world;
    int count = floe_particle_count(w);
    int *ids = malloc((size_t)(n > 0 ? n : 1) * sizeof *ids);
    if (!ids) {
        Py_DECREF(a);
        return PyErr_NoMemory();
    }
    for (npy_intp i = 0; i < n; i++) {
        if (src[i] < 0 || src[i] >= count) {
            PyErr_Format(ArgumentError, "remove: id %lld (entry %zd) is out of range [0, %d)", (long long)src[i],
                         (Py_ssize_t)i, count);
            free(ids);
            Py_DECREF(a);
            return NULL;
        }
        ids[i] = (int)src[i];
    }
    Py_DECREF(a);
    double energy = 0;
    floe_status st = n > 0 ? floe_remove_bodies(w, ids, (int)n, &energy) : FLOE_OK;
    free(ids);
    if (floe_py_check(self, st)) return NULL;
    if (n > 0) floe_py_bodies_removed(self); /* the views taken before show shifted rows: stale */
    return PyFloat_FromDouble(energy);
}

/* ---- the dense generator -------------------------------------------------------------- */

static PyObject *World_add_dense(World *self, PyObject *args, PyObject *kw) {
    const floe_key_table *t = floe_dense_key_table();
    PyObject *own[32];
    floe_dense_def dd = floe_default_dense_def();
    if (floe_py_open(self) || floe_py_keys(self, args, kw, "add_dense", t, &dd, NULL, own)) return NULL;
#define OWN(key) own[floe_key_index(t, key)]
    PyObject *ro = OWN("radius"), *mo = OWN("material"), *go = OWN("group"), *vo = OWN("vel"), *avo = OWN("angvel");
#undef OWN
    floe_size_dist dist;
    if (floe_py_size(ro, "radius", &dist)) return NULL;
    if (dist.kind == FLOE_DIST_UNIFORM) {
        dd.rmin = dist.min;
        dd.rmax = dist.max;
    } else dd.dist = &dist;
    double hi_f = dd.rmin == dd.rmax && !dd.dist ? FLOE_DENSE_MONO_MAX : 0.9;
    if (!(dd.target > 0 && dd.target <= hi_f)) {
        floe_py_arg_error("solid_fraction: %g is out of range (0, %g]%s", dd.target, hi_f,
                          hi_f < 0.9 ? " (no packing of equal spheres is denser than pi/sqrt(18))" : "");
        return NULL;
    }
    floe_body_def d = floe_default_body_def();
    if (floe_py_material(self, mo, &d.material) || floe_py_groups(self, go, &d.groups) ||
        (GIVEN(vo) && floe_py_vec3(vo, "vel", &d.vel)) || (GIVEN(avo) && floe_py_vec3(avo, "angvel", &d.angvel)))
        return NULL;
    for (uint32_t m = d.groups; m; m &= m - 1)
        if (floe_group_motion(self->sc.world, __builtin_ctz(m), NULL) == 1) d.blocked = FLOE_DOF_ALL;
    floe_gen_env env; /* the world's cell; Ctrl-C */
    if (floe_py_gen_env(self, &env)) return NULL;
    dd.env = &env;
    floe_vec3 *pos = NULL;
    double *rad = NULL;
    floe_dense_info info;
    char err[768];
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = floe_gen_dense(&dd, &pos, &rad, &info, err, sizeof err);
    Py_END_ALLOW_THREADS if (rc) {
        free(pos);
        free(rad);
        if (!PyErr_Occurred()) PyErr_Format(ArgumentError, "add_dense: %s", err); /* else KeyboardInterrupt */
        return NULL;
    }
    floe_world *w = self->sc.world;
    PyObject *result = NULL;
    if (floe_py_room(self, info.count)) goto done;
    int first = floe_particle_count(w);
    int64_t i = 0;
    for (; i < info.count; i++) {
        d.pos = pos[i];
        if (floe_add_sphere(w, &d, rad[i]) < 0) break;
    }
    if (i < info.count) {
        PyErr_Format(ArgumentError, "add_dense: sphere %lld of %lld refused (the %lld before it stay): %s",
                     (long long)i, (long long)info.count, (long long)i, floe_last_error(w));
        goto done;
    }
    npy_intp n = (npy_intp)info.count;
    result = PyArray_SimpleNew(1, &n, NPY_INT64);
    if (result) {
        int64_t *ids = PyArray_DATA((PyArrayObject *)result);
        for (npy_intp k = 0; k < n; k++) ids[k] = first + k;
    }
done:
    free(pos);
    free(rad);
    return result;
}

#define KW (PyCFunction)(void (*)(void))

PyMethodDef floe_py_supply_methods[] = {
    {"add_inlet", KW World_add_inlet, METH_VARARGS | METH_KEYWORDS,
     "add_inlet(name, *, box=None, cylinder=None, triangles=None, rate=None, mass_rate=None, start=0,\n"
     "          end=inf, shape='sphere', radius=None, shaft=None, semi_axes=None, vel=None, vel_spread=0,\n"
     "          material=None, group=None, seed=0, max_tries=100, recycle=None) -> int\n\n"
     "An inlet (docs/supply.md; the scene's `inlets` keys): inserts bodies while the world runs,\n"
     "rate bodies/s or mass_rate kg/s, centres uniform in one region: box=((lo), (hi)),\n"
     "cylinder=dict(base=, axis=, radius=) or triangles (n, 3, 3). A size (radius, shaft, each of\n"
     "semi_axes) is a number, a range (min, max) or dict(dist='uniform'|'normal'|'lognormal'|'sieve',\n"
     "...). recycle='sink' re-inserts what that sink removes (mass_rate=True: its mass). Returns the id."},
    {"inlets", (PyCFunction)World_inlets, METH_NOARGS,
     "inlets() -> list of dicts\n\nEach inlet's totals: name, inserted, mass, asked, missed, tries, failures,\n"
     "short_of_rate."},
    {"add_sink", KW World_add_sink, METH_VARARGS | METH_KEYWORDS,
     "add_sink(name, *, box=None, plane=None, group=None, start=0, end=inf) -> int\n\n"
     "A sink (the scene's `sinks` keys): after each step removes every free body of `group` (or all)\n"
     "whose centre is in box=((lo), (hi)) or beyond plane=(point, normal) (the side the normal points\n"
     "to). Ids of later bodies drop. Returns the id."},
    {"sinks", (PyCFunction)World_sinks, METH_NOARGS,
     "sinks() -> list of dicts\n\nEach sink's totals: name, removed, mass, energy (J taken out of the balance)."},
    {"remove", (PyCFunction)World_remove, METH_O,
     "remove(ids) -> float\n\n"
     "Removes the bodies ids (spheres, capsules, ellipsoids; each once): the ids after a removed one\n"
     "drop. Returns the energy the bodies took out of the balance [J]. Numpy views taken before are\n"
     "stale from now on (their rows would shift): using one raises floe.StaleViewError."},
    {"add_dense", KW World_add_dense, METH_VARARGS | METH_KEYWORDS,
     "add_dense(*, box=None, cylinder=None, radius, solid_fraction, count=0, max_overlap=0.01,\n"
     "          max_iterations=200000, seed=0, material=None, group=None, vel=None, angvel=None)\n"
     "    -> ndarray of ids\n\n"
     "A dense sphere packing by radius expansion (the scene's `dense` generator) in box=((lo), (hi))\n"
     "or cylinder=dict(base=, radius=, height=) along z: radius a number, (min, max) or dict(dist=...),\n"
     "all scaled so that the spheres' volume is solid_fraction of the region's. A packing that does not\n"
     "relax below max_overlap raises ArgumentError with what it reached."},
    {NULL, NULL, 0, NULL}};
