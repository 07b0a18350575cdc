/* World.add_*: bodies one at a time or many at once, STL meshes and the
 * generators (what the scene's body sections do, docs/scene-format.md). */
#include "_floe.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GIVEN(o) ((o) && (o) != Py_None)

/* The keywords every body shares; absent ones are NULL. */
typedef struct common {
    PyObject *material, *group, *vel, *angvel, *ori, *block;
    int fixed;
} common;

/* A body def from the shared keywords (the scene's `material`, `group`,
 * `vel`, `angvel`, `ori`, `fixed`, `block`). */
static int body_def(World *self, const common *c, floe_body_def *d) {
    *d = floe_default_body_def();
    if (floe_py_material(self, c->material, &d->material) || floe_py_groups(self, c->group, &d->groups) ||
        floe_py_block(c->block, &d->blocked))
        return -1;
    if (c->fixed) d->blocked = FLOE_DOF_ALL;
    /* a member of a prescribed-motion group follows it, as the scene's
     * bodies do: fully blocked (the engine blocks the members it has when
     * the motion is set, not the ones added later) */
    for (uint32_t m = d->groups; m; m &= m - 1)
        if (floe_group_motion(self->sc.world, __builtin_ctz(m), NULL) == 1) d->blocked = FLOE_DOF_ALL;
    if (GIVEN(c->vel) && floe_py_vec3(c->vel, "vel", &d->vel)) return -1;
    if (GIVEN(c->angvel) && floe_py_vec3(c->angvel, "angvel", &d->angvel)) return -1;
    if (GIVEN(c->ori)) {
        PyObject *seq = PySequence_Fast(c->ori, "");
        if (!seq || PySequence_Fast_GET_SIZE(seq) != 4) {
            Py_XDECREF(seq);
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "ori: expected a quaternion of 4 numbers (w, x, y, z)");
            return -1;
        }
        double q[4];
        for (int k = 0; k < 4; k++)
            if (floe_py_double(PySequence_Fast_GET_ITEM(seq, k), "ori", &q[k])) {
                Py_DECREF(seq);
                return -1;
            }
        Py_DECREF(seq);
        d->ori = (floe_quat){q[0], q[1], q[2], q[3]};
    }
    return 0;
}

/* An id from floe_add_*: the id as an int, or the world's error. */
static PyObject *added(World *self, int id) {
    if (id < 0) return floe_py_status(self, FLOE_ERR_ARG);
    return PyLong_FromLong(id);
}

/* A (n, 3) array of doubles from o (a single vector when one_ok: n = 1). */
static PyArrayObject *vectors(PyObject *o, const char *what) {
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(o, NPY_DOUBLE, 1, 2, NPY_ARRAY_IN_ARRAY);
    if (!a) return NULL;
    if (PyArray_DIM(a, PyArray_NDIM(a) - 1) != 3) {
        PyErr_Format(PyExc_ValueError, "%s: expected vectors of 3 numbers, shape (n, 3) or (3,)", what);
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

/* ids first, first + 1, ..., first + n - 1 as a numpy array. */
static PyObject *id_range(int first, npy_intp n) {
    PyObject *a = PyArray_SimpleNew(1, &n, NPY_INT64);
    if (!a) return NULL;
    int64_t *d = PyArray_DATA((PyArrayObject *)a);
    for (npy_intp i = 0; i < n; i++) d[i] = first + i;
    return a;
}

/* After a failure at body i of n added in a row: the message says which. */
static PyObject *fail_at(World *self, const char *fn, npy_intp i, npy_intp n) {
    PyObject *et, *ev, *tb;
    floe_py_check(self, FLOE_ERR_ARG);
    PyErr_Fetch(&et, &ev, &tb);
    PyErr_Format(et, "%s: body %zd of %zd (%zd added before it stay): %S", fn, (Py_ssize_t)i, (Py_ssize_t)n,
                 (Py_ssize_t)i, ev);
    Py_XDECREF(et);
    Py_XDECREF(ev);
    Py_XDECREF(tb);
    return NULL;
}

#define COMMON_KW "material", "group", "vel", "angvel", "ori", "fixed", "block"
#define COMMON_ARGS &c.material, &c.group, &c.vel, &c.angvel, &c.ori, &c.fixed, &c.block

static PyObject *add_sphere(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"pos", "radius", COMMON_KW, NULL};
    PyObject *po;
    double r;
    common c = {0};
    floe_body_def d;
    if (floe_py_open(self) ||
        !PyArg_ParseTupleAndKeywords(args, kw, "Od|$OOOOOpO:add_sphere", kwlist, &po, &r, COMMON_ARGS))
        return NULL;
    if (body_def(self, &c, &d) || floe_py_vec3(po, "pos", &d.pos) || floe_py_room(self, 1)) return NULL;
    return added(self, floe_add_sphere(self->sc.world, &d, r));
}

static PyObject *add_spheres(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"pos", "radius", "material", "group", "vel", "angvel", "fixed", "block", NULL};
    PyObject *po, *ro, *vo = NULL;
    common c = {0};
    if (floe_py_open(self) || !PyArg_ParseTupleAndKeywords(args, kw, "OO|$OOOOpO:add_spheres", kwlist, &po, &ro,
                                                           &c.material, &c.group, &vo, &c.angvel, &c.fixed, &c.block))
        return NULL;
    floe_body_def d;
    if (body_def(self, &c, &d)) return NULL;
    PyArrayObject *pos = vectors(po, "pos"), *rad = NULL, *vel = NULL;
    PyObject *result = NULL;
    if (!pos) return NULL;
    npy_intp n = PyArray_NDIM(pos) == 1 ? 1 : PyArray_DIM(pos, 0);
    rad = (PyArrayObject *)PyArray_FROMANY(ro, NPY_DOUBLE, 0, 1, NPY_ARRAY_IN_ARRAY);
    if (!rad) goto done;
    if (PyArray_NDIM(rad) == 1 && PyArray_DIM(rad, 0) != n) {
        PyErr_Format(PyExc_ValueError, "radius: expected one radius or %zd of them, got %zd", (Py_ssize_t)n,
                     (Py_ssize_t)PyArray_DIM(rad, 0));
        goto done;
    }
    if (GIVEN(vo)) {
        if (!(vel = vectors(vo, "vel"))) goto done;
        if (PyArray_NDIM(vel) == 2 && PyArray_DIM(vel, 0) != n) {
            PyErr_Format(PyExc_ValueError, "vel: expected one velocity or %zd of them (shape (%zd, 3))", (Py_ssize_t)n,
                         (Py_ssize_t)n);
            goto done;
        }
    }
    if (floe_py_room(self, n)) goto done;
    floe_world *w = self->sc.world;
    const double *p = PyArray_DATA(pos), *r = PyArray_DATA(rad), *v = vel ? PyArray_DATA(vel) : NULL;
    int rall = PyArray_NDIM(rad) == 1, vall = vel && PyArray_NDIM(vel) == 2, first = floe_particle_count(w);
    for (npy_intp i = 0; i < n; i++) {
        d.pos = (floe_vec3){p[3 * i], p[3 * i + 1], p[3 * i + 2]};
        if (v) {
            const double *vi = vall ? v + 3 * i : v;
            d.vel = (floe_vec3){vi[0], vi[1], vi[2]};
        }
        if (floe_add_sphere(w, &d, rall ? r[i] : r[0]) < 0) {
            fail_at(self, "add_spheres", i, n);
            goto done;
        }
    }
    result = id_range(first, n);
done:
    Py_XDECREF(pos);
    Py_XDECREF(rad);
    Py_XDECREF(vel);
    return result;
}

static PyObject *add_capsule(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"pos", "radius", "shaft", "axis", COMMON_KW, NULL};
    PyObject *po, *ao = NULL;
    double r, shaft;
    common c = {0};
    floe_body_def d;
    if (floe_py_open(self) ||
        !PyArg_ParseTupleAndKeywords(args, kw, "Odd|$OOOOOOpO:add_capsule", kwlist, &po, &r, &shaft, &ao, COMMON_ARGS))
        return NULL;
    if (body_def(self, &c, &d) || floe_py_vec3(po, "pos", &d.pos)) return NULL;
    if (GIVEN(ao)) {
        floe_vec3 u;
        if (GIVEN(c.ori)) {
            PyErr_SetString(ArgumentError, "add_capsule: give either ori or axis, not both");
            return NULL;
        }
        if (floe_py_vec3(ao, "axis", &u)) return NULL;
        d.ori = floe_axis_orientation(u);
        if (d.ori.w == 0 && d.ori.x == 0 && d.ori.y == 0 && d.ori.z == 0) {
            PyErr_SetString(ArgumentError, "add_capsule: axis: the direction has zero length (or is not finite)");
            return NULL;
        }
    }
    if (floe_py_room(self, 1)) return NULL;
    return added(self, floe_add_capsule(self->sc.world, &d, r, shaft));
}

/* A clump: pebbles an (n, 4) array of rows x, y, z, r in the template frame. */
static PyObject *add_clump(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"pos", "pebbles", "scale", COMMON_KW, NULL};
    PyObject *po, *bo;
    double scale = 1;
    common c = {0};
    floe_body_def d;
    if (floe_py_open(self) ||
        !PyArg_ParseTupleAndKeywords(args, kw, "OO|$dOOOOOpO:add_clump", kwlist, &po, &bo, &scale, COMMON_ARGS))
        return NULL;
    if (!(scale > 0) || !isfinite(scale)) {
        PyErr_Format(PyExc_ValueError, "add_clump: scale = %g must be a finite number > 0", scale);
        return NULL;
    }
    if (body_def(self, &c, &d) || floe_py_vec3(po, "pos", &d.pos)) return NULL;
    PyArrayObject *peb = (PyArrayObject *)PyArray_FROMANY(bo, NPY_DOUBLE, 2, 2, NPY_ARRAY_IN_ARRAY);
    if (!peb) return NULL;
    npy_intp n = PyArray_DIM(peb, 0);
    if (PyArray_DIM(peb, 1) != 4 || n < 1 || n > FLOE_CLUMP_MAX_PEBBLES) {
        PyErr_Format(PyExc_ValueError, "add_clump: pebbles: expected rows [x, y, z, r], 1 to %d of them (shape (n, 4))",
                     FLOE_CLUMP_MAX_PEBBLES);
        Py_DECREF(peb);
        return NULL;
    }
    if (floe_py_room(self, n + 1)) {
        Py_DECREF(peb);
        return NULL;
    }
    double rows[4 * FLOE_CLUMP_MAX_PEBBLES];
    const double *src = PyArray_DATA(peb);
    for (npy_intp k = 0; k < 4 * n; k++) rows[k] = src[k] * scale; /* the template's size factor */
    Py_DECREF(peb);
    return added(self, floe_add_clump(self->sc.world, &d, (int)n, rows));
}

static PyObject *add_ellipsoid(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"pos", "semi_axes", COMMON_KW, NULL};
    PyObject *po, *so;
    floe_vec3 s;
    common c = {0};
    floe_body_def d;
    if (floe_py_open(self) ||
        !PyArg_ParseTupleAndKeywords(args, kw, "OO|$OOOOOpO:add_ellipsoid", kwlist, &po, &so, COMMON_ARGS))
        return NULL;
    if (body_def(self, &c, &d) || floe_py_vec3(po, "pos", &d.pos) || floe_py_vec3(so, "semi_axes", &s) ||
        floe_py_room(self, 1))
        return NULL;
    return added(self, floe_add_ellipsoid(self->sc.world, &d, s));
}

static PyObject *add_polyhedron(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"pos", "vertices", COMMON_KW, NULL};
    PyObject *po, *vo;
    common c = {0};
    floe_body_def d;
    if (floe_py_open(self) ||
        !PyArg_ParseTupleAndKeywords(args, kw, "OO|$OOOOOpO:add_polyhedron", kwlist, &po, &vo, COMMON_ARGS))
        return NULL;
    if (body_def(self, &c, &d) || floe_py_vec3(po, "pos", &d.pos)) return NULL;
    PyArrayObject *va = vectors(vo, "vertices");
    if (!va) return NULL;
    npy_intp n = PyArray_NDIM(va) == 2 ? PyArray_DIM(va, 0) : 1;
    if (n < 4 || n > FLOE_POLYHEDRON_MAX_VERTICES) {
        PyErr_Format(PyExc_ValueError, "vertices: expected 4 to %d points, shape (n, 3); got %zd",
                     FLOE_POLYHEDRON_MAX_VERTICES, (Py_ssize_t)n);
        Py_DECREF(va);
        return NULL;
    }
    const double *x = PyArray_DATA(va);
    floe_vec3 v[FLOE_POLYHEDRON_MAX_VERTICES];
    for (npy_intp k = 0; k < n; k++) v[k] = (floe_vec3){x[3 * k], x[3 * k + 1], x[3 * k + 2]};
    Py_DECREF(va);
    if (floe_py_room(self, 1)) return NULL;
    return added(self, floe_add_polyhedron(self->sc.world, &d, (int)n, v));
}

static PyObject *add_wall(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"axis", "pos", "sense", "material", "group", "vel", NULL};
    PyObject *axo;
    double pos = 0;
    int sense = 0, axis;
    common c = {0};
    floe_body_def d;
    if (floe_py_open(self) || !PyArg_ParseTupleAndKeywords(args, kw, "O|d$iOOO:add_wall", kwlist, &axo, &pos, &sense,
                                                           &c.material, &c.group, &c.vel))
        return NULL;
    if (floe_py_axis(axo, &axis) || body_def(self, &c, &d)) return NULL;
    d.pos = (floe_vec3){axis == 0 ? pos : 0, axis == 1 ? pos : 0, axis == 2 ? pos : 0};
    if (floe_py_room(self, 1)) return NULL;
    return added(self, floe_add_wall(self->sc.world, &d, axis, sense));
}

static PyObject *add_cylinder(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"axis", "pos", "radius", "material", "group", "vel", "angvel", NULL};
    PyObject *axo, *po;
    double r;
    int axis;
    common c = {0};
    floe_body_def d;
    if (floe_py_open(self) || !PyArg_ParseTupleAndKeywords(args, kw, "OOd|$OOOO:add_cylinder", kwlist, &axo, &po, &r,
                                                           &c.material, &c.group, &c.vel, &c.angvel))
        return NULL;
    if (floe_py_axis(axo, &axis) || body_def(self, &c, &d) || floe_py_vec3(po, "pos", &d.pos)) return NULL;
    /* the scene's rule: a cylinder slides along its axis and spins about it */
    const double v[3] = {d.vel.x, d.vel.y, d.vel.z}, om[3] = {d.angvel.x, d.angvel.y, d.angvel.z};
    for (int k = 0; k < 3; k++)
        if (k != axis && (v[k] != 0 || om[k] != 0)) {
            PyErr_Format(ArgumentError,
                         "add_cylinder: vel and angvel must lie along the cylinder's axis %c (a cylinder slides "
                         "along its axis and spins about it)",
                         'x' + axis);
            return NULL;
        }
    if (floe_py_room(self, 1)) return NULL;
    return added(self, floe_add_infcylinder(self->sc.world, &d, axis, r));
}

static PyObject *add_facet(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"vertices", "half_thick", "center", "material", "group", "vel", "angvel", NULL};
    PyObject *vo, *co = NULL;
    double ht = 0;
    common c = {0};
    floe_body_def d;
    if (floe_py_open(self) || !PyArg_ParseTupleAndKeywords(args, kw, "O|$dOOOOO:add_facet", kwlist, &vo, &ht, &co,
                                                           &c.material, &c.group, &c.vel, &c.angvel))
        return NULL;
    if (body_def(self, &c, &d)) return NULL;
    PyArrayObject *va = vectors(vo, "vertices");
    if (!va) return NULL;
    if (PyArray_NDIM(va) != 2 || PyArray_DIM(va, 0) != 3) {
        PyErr_SetString(PyExc_ValueError, "vertices: expected 3 corners, shape (3, 3)");
        Py_DECREF(va);
        return NULL;
    }
    const double *x = PyArray_DATA(va);
    floe_vec3 v[3];
    for (int k = 0; k < 3; k++) v[k] = (floe_vec3){x[3 * k], x[3 * k + 1], x[3 * k + 2]};
    Py_DECREF(va);
    /* the reference point: the centroid unless given (the scene's `center`) */
    d.pos = (floe_vec3){(v[0].x + v[1].x + v[2].x) / 3, (v[0].y + v[1].y + v[2].y) / 3, (v[0].z + v[1].z + v[2].z) / 3};
    if ((GIVEN(co) && floe_py_vec3(co, "center", &d.pos)) || floe_py_room(self, 1)) return NULL;
    return added(self, floe_add_facet(self->sc.world, &d, v, ht));
}

static PyObject *add_mesh(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"path",     "scale", "translate", "half_thick", "center", "skip_degenerate",
                             "material", "group", "vel",       "angvel",     NULL};
    PyObject *path_o, *so = NULL, *to = NULL, *co = NULL, *bytes = NULL;
    double ht = 0;
    int skip = 0;
    common c = {0};
    floe_body_def d;
    floe_vec3 scale = {1, 1, 1}, translate = {0, 0, 0};
    if (floe_py_open(self) || !PyArg_ParseTupleAndKeywords(args, kw, "O|$OOdOpOOOO:add_mesh", kwlist, &path_o, &so, &to,
                                                           &ht, &co, &skip, &c.material, &c.group, &c.vel, &c.angvel))
        return NULL;
    if (body_def(self, &c, &d)) return NULL;
    if (GIVEN(so)) {
        if (PyFloat_Check(so) || PyLong_Check(so)) {
            double s;
            if (floe_py_double(so, "scale", &s)) return NULL;
            scale = (floe_vec3){s, s, s};
        } else if (floe_py_vec3(so, "scale", &scale)) return NULL;
    }
    if (GIVEN(to) && floe_py_vec3(to, "translate", &translate)) return NULL;
    if (!PyUnicode_FSConverter(path_o, &bytes)) return NULL;
    floe_mesh m;
    char err[1024];
    if (floe_mesh_read(PyBytes_AS_STRING(bytes), NULL, scale, translate, skip, &m, err, sizeof err)) {
        Py_DECREF(bytes);
        PyErr_SetString(ArgumentError, err);
        return NULL;
    }
    Py_DECREF(bytes);
    d.pos = m.centroid;
    d.blocked = FLOE_DOF_ALL; /* one rigid body of facets */
    PyObject *result = NULL;
    if ((GIVEN(co) && floe_py_vec3(co, "center", &d.pos)) || floe_py_room(self, (long long)m.n)) goto done;
    floe_world *w = self->sc.world;
    int first = floe_particle_count(w);
    for (size_t t = 0; t < m.n; t++)
        if (floe_add_facet(w, &d, &m.v[3 * t], ht) < 0) {
            fail_at(self, "add_mesh", (npy_intp)t, (npy_intp)m.n);
            goto done;
        }
    result = id_range(first, (npy_intp)m.n);
done:
    floe_mesh_free(&m);
    return result;
}

/* A value or a range (lo, hi) into lo, hi. */
static int value_or_range(PyObject *o, const char *what, double *lo, double *hi) {
    if (PyFloat_Check(o) || PyLong_Check(o)) {
        if (floe_py_double(o, what, lo)) return -1;
        *hi = *lo;
        return 0;
    }
    PyObject *seq = PySequence_Fast(o, "");
    if (!seq || PySequence_Fast_GET_SIZE(seq) != 2) {
        Py_XDECREF(seq);
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected a number or a range (min, max)", what);
        return -1;
    }
    int rc = floe_py_double(PySequence_Fast_GET_ITEM(seq, 0), what, lo) ||
             floe_py_double(PySequence_Fast_GET_ITEM(seq, 1), what, hi);
    Py_DECREF(seq);
    if (!rc && !(*lo <= *hi)) {
        floe_py_arg_error("%s: the range (%g, %g) must have min <= max", what, *lo, *hi);
        return -1;
    }
    return rc ? -1 : 0;
}

static PyObject *add_lattice(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"spacing", "counts", "radius", "origin", "jitter", "seed", COMMON_KW, NULL};
    PyObject *so, *co, *oo = NULL, *jo = NULL, *seed_o = NULL;
    double r;
    common c = {0};
    floe_body_def d;
    floe_lattice_def ld = {0};
    if (floe_py_open(self) || !PyArg_ParseTupleAndKeywords(args, kw, "OOd|$OOOOOOOOpO:add_lattice", kwlist, &so, &co,
                                                           &r, &oo, &jo, &seed_o, COMMON_ARGS))
        return NULL;
    if (body_def(self, &c, &d)) return NULL;
    if (PyFloat_Check(so) || PyLong_Check(so)) {
        double s;
        if (floe_py_double(so, "spacing", &s)) return NULL;
        ld.spacing = (floe_vec3){s, s, s};
    } else if (floe_py_vec3(so, "spacing", &ld.spacing)) return NULL;
    if (GIVEN(jo)) {
        if (PyFloat_Check(jo) || PyLong_Check(jo)) {
            double j;
            if (floe_py_double(jo, "jitter", &j)) return NULL;
            ld.jitter = (floe_vec3){j, j, j};
        } else if (floe_py_vec3(jo, "jitter", &ld.jitter)) return NULL;
    }
    if (GIVEN(oo) && floe_py_vec3(oo, "origin", &ld.origin)) return NULL;
    long long seed = 0;
    if (GIVEN(seed_o) && floe_py_int(seed_o, "seed", 0, INT64_MAX, &seed)) return NULL;
    ld.seed = (uint64_t)seed;
    PyObject *seq = PySequence_Fast(co, "");
    if (!seq || PySequence_Fast_GET_SIZE(seq) != 3) {
        Py_XDECREF(seq);
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "counts: expected 3 whole numbers (nx, ny, nz)");
        return NULL;
    }
    for (int k = 0; k < 3; k++) {
        long long v;
        if (floe_py_int(PySequence_Fast_GET_ITEM(seq, k), "counts", 0, FLOE_GEN_MAX_COUNT, &v)) {
            Py_DECREF(seq);
            return NULL;
        }
        ld.counts[k] = v;
    }
    Py_DECREF(seq);
    const double sp[3] = {ld.spacing.x, ld.spacing.y, ld.spacing.z}, ji[3] = {ld.jitter.x, ld.jitter.y, ld.jitter.z};
    for (int k = 0; k < 3; k++)
        if (!(sp[k] > 0 && sp[k] <= 1e12) || !(ji[k] >= 0 && ji[k] <= 1e12)) {
            floe_py_arg_error("add_lattice: spacing must be in (0, 1e12] and jitter in [0, 1e12] m (got %g, %g)", sp[k],
                              ji[k]);
            return NULL;
        }
    double total = (double)ld.counts[0] * (double)ld.counts[1] * (double)ld.counts[2];
    if (total > 0 && floe_py_room(self, (long long)fmin(total, 9e18))) return NULL;
    floe_vec3 *pos = NULL;
    int64_t n = 0;
    char err[512];
    if (floe_gen_lattice(&ld, &pos, &n, err, sizeof err)) {
        PyErr_Format(ArgumentError, "add_lattice: %s", err);
        return NULL;
    }
    floe_world *w = self->sc.world;
    int first = floe_particle_count(w);
    PyObject *result = NULL;
    for (int64_t i = 0; i < n; i++) {
        d.pos = pos[i];
        if (floe_add_sphere(w, &d, r) < 0) {
            fail_at(self, "add_lattice", (npy_intp)i, (npy_intp)n);
            break;
        }
        if (i + 1 == n) result = id_range(first, (npy_intp)n);
    }
    if (n == 0) result = id_range(first, 0);
    free(pos);
    return result;
}

static PyObject *add_random(World *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"box",  "count",    "radius", "shape", "shaft",  "semi_axes",
                             "seed", "material", "group",  "vel",   "angvel", NULL};
    PyObject *bo, *ro = NULL, *sho = NULL, *ao = NULL, *seed_o = NULL;
    long long count;
    const char *shape_name = "sphere";
    common c = {0};
    floe_body_def d;
    if (floe_py_open(self) ||
        !PyArg_ParseTupleAndKeywords(args, kw, "OL|$OsOOOOOOO:add_random", kwlist, &bo, &count, &ro, &shape_name, &sho,
                                     &ao, &seed_o, &c.material, &c.group, &c.vel, &c.angvel))
        return NULL;
    if (body_def(self, &c, &d)) return NULL;
    floe_shape_type shape = !strcmp(shape_name, "sphere")      ? FLOE_SHAPE_SPHERE
                            : !strcmp(shape_name, "capsule")   ? FLOE_SHAPE_CAPSULE
                            : !strcmp(shape_name, "ellipsoid") ? FLOE_SHAPE_ELLIPSOID
                                                               : FLOE_SHAPE_COUNT;
    if (shape == FLOE_SHAPE_COUNT) {
        PyErr_Format(ArgumentError, "add_random: unknown shape '%s'; allowed: sphere, capsule, ellipsoid", shape_name);
        return NULL;
    }
    if (count < 0 || count > FLOE_GEN_MAX_COUNT) {
        PyErr_Format(ArgumentError, "add_random: count %lld is out of range [0, %lld]", count,
                     (long long)FLOE_GEN_MAX_COUNT);
        return NULL;
    }
    floe_random_shape_def sd = {.shape = shape, .count = count};
    PyObject *seq = PySequence_Fast(bo, "");
    if (!seq || PySequence_Fast_GET_SIZE(seq) != 2 || floe_py_vec3(PySequence_Fast_GET_ITEM(seq, 0), "box", &sd.lo) ||
        floe_py_vec3(PySequence_Fast_GET_ITEM(seq, 1), "box", &sd.hi)) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "box: expected two corners ((xmin, ymin, zmin), (xmax, ymax, zmax))");
        }
        Py_XDECREF(seq);
        return NULL;
    }
    Py_DECREF(seq);
    long long seed = 0;
    if (GIVEN(seed_o) && floe_py_int(seed_o, "seed", 0, INT64_MAX, &seed)) return NULL;
    sd.seed = (uint64_t)seed;
    /* the size keys of the shape, and only those (as in the scene) */
    if (floe_py_shape_sizes("add_random", shape_name, shape, GIVEN(ro), GIVEN(sho), GIVEN(ao))) return NULL;
    if (GIVEN(ro) && value_or_range(ro, "radius", &sd.rmin, &sd.rmax)) return NULL;
    if (GIVEN(sho) && value_or_range(sho, "shaft", &sd.smin, &sd.smax)) return NULL;
    if (GIVEN(ao)) {
        PyObject *s3 = PySequence_Fast(ao, "");
        if (!s3 || PySequence_Fast_GET_SIZE(s3) != 3) {
            Py_XDECREF(s3);
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "semi_axes: expected 3 entries (a, b, c), each a number or (min, max)");
            return NULL;
        }
        double lo[3], hi[3];
        for (int k = 0; k < 3; k++)
            if (value_or_range(PySequence_Fast_GET_ITEM(s3, k), "semi_axes", &lo[k], &hi[k])) {
                Py_DECREF(s3);
                return NULL;
            }
        Py_DECREF(s3);
        sd.amin = (floe_vec3){lo[0], lo[1], lo[2]};
        sd.amax = (floe_vec3){hi[0], hi[1], hi[2]};
    }
    if (floe_py_room(self, count)) return NULL;
    floe_gen_env env; /* the world's cell; Ctrl-C */
    if (floe_py_gen_env(self, &env)) return NULL;
    sd.env = &env;
    char err[512];
    int64_t placed = 0;
    floe_world *w = self->sc.world;
    int first = floe_particle_count(w);
    PyObject *result = NULL;
    if (shape == FLOE_SHAPE_SPHERE) {
        floe_random_def rd = {sd.lo, sd.hi, sd.rmin, sd.rmax, sd.count, sd.seed, NULL, &env};
        floe_vec3 *pos = NULL;
        double *rad = NULL;
        /* clear of the boundaries and bodies already in the world, as in a scene */
        if (floe_gen_random_world(&rd, w, &pos, &rad, &placed, err, sizeof err)) {
            if (!PyErr_Occurred()) PyErr_Format(ArgumentError, "add_random: %s", err);
        } else {
            int64_t i = 0;
            for (; i < placed; i++) {
                d.pos = pos[i];
                if (floe_add_sphere(w, &d, rad[i]) < 0) break;
            }
            if (i < placed) fail_at(self, "add_random", (npy_intp)i, (npy_intp)placed);
            else result = id_range(first, (npy_intp)placed);
        }
        free(pos);
        free(rad);
        return result;
    }
    floe_gen_body *b = NULL;
    if (floe_gen_random_shapes(&sd, &b, &placed, err, sizeof err)) {
        if (!PyErr_Occurred()) PyErr_Format(ArgumentError, "add_random: %s", err);
        free(b);
        return NULL;
    }
    int64_t i = 0;
    for (; i < placed; i++) {
        d.pos = b[i].pos;
        d.ori = b[i].ori;
        int id = shape == FLOE_SHAPE_CAPSULE ? floe_add_capsule(w, &d, b[i].radius, b[i].shaft)
                                             : floe_add_ellipsoid(w, &d, b[i].semi);
        if (id < 0) break;
    }
    if (i < placed) fail_at(self, "add_random", (npy_intp)i, (npy_intp)placed);
    else result = id_range(first, (npy_intp)placed);
    free(b);
    return result;
}

#define KW (PyCFunction)(void (*)(void))
#define COMMON_DOC                                                                                        \
    "material: a name or an id (default: the only material); group: a name, an id or a list (groups\n"    \
    "are created on first use); vel, angvel: initial velocity and angular velocity; ori: orientation\n"   \
    "quaternion (w, x, y, z); fixed=True blocks all six degrees of freedom; block: letters of 'xyzXYZ'\n" \
    "(blocked translations / rotations, which keep their initial velocity)."

PyMethodDef floe_py_body_methods[] = {
    {"add_sphere", KW add_sphere, METH_VARARGS | METH_KEYWORDS,
     "add_sphere(pos, radius, *, material=None, group=None, vel=None, angvel=None, ori=None, fixed=False,\n"
     "           block=None) -> int\n\nAdds a sphere; returns its particle id.\n" COMMON_DOC},
    {"add_spheres", KW add_spheres, METH_VARARGS | METH_KEYWORDS,
     "add_spheres(pos, radius, *, material=None, group=None, vel=None, angvel=None, fixed=False,\n"
     "            block=None) -> ndarray of ids\n\n"
     "Adds many spheres at once: pos of shape (n, 3), radius one number or n, vel one vector or (n, 3).\n"
     "If body i is refused, the message names it and the i bodies before it stay.\n" COMMON_DOC},
    {"add_capsule", KW add_capsule, METH_VARARGS | METH_KEYWORDS,
     "add_capsule(pos, radius, shaft, *, axis=None, material=None, group=None, vel=None, angvel=None,\n"
     "            ori=None, fixed=False, block=None) -> int\n\n"
     "A capsule: a segment of length `shaft` along the body x axis, centred on pos, swept by a sphere\n"
     "of `radius`. axis=(x, y, z) gives the shaft's direction instead of ori (the shortest-arc\n"
     "rotation from x).\n" COMMON_DOC},
    {"add_ellipsoid", KW add_ellipsoid, METH_VARARGS | METH_KEYWORDS,
     "add_ellipsoid(pos, semi_axes, *, material=None, group=None, vel=None, angvel=None, ori=None,\n"
     "              fixed=False, block=None) -> int\n\n"
     "An ellipsoid with semi-axes (a, b, c) along the body x, y, z axes.\n" COMMON_DOC},
    {"add_polyhedron", KW add_polyhedron, METH_VARARGS | METH_KEYWORDS,
     "add_polyhedron(pos, vertices, *, material=None, group=None, vel=None, angvel=None, ori=None,\n"
     "               fixed=False, block=None) -> int\n\n"
     "The convex hull of 4 to 32 vertices (shape (n, 3)) given relative to pos and ori. The body's\n"
     "position becomes the hull's centroid and its orientation the hull's principal axes.\n" COMMON_DOC},
    {"add_clump", KW add_clump, METH_VARARGS | METH_KEYWORDS,
     "add_clump(pos, pebbles, *, scale=1, material=None, group=None, vel=None, angvel=None, ori=None,\n"
     "          fixed=False, block=None) -> int\n\n"
     "A clump: a rigid union of overlapping spheres, pebbles rows [x, y, z, r] (shape (n, 4),\n"
     "n <= 16, all four times `scale`) in a template frame whose origin goes to pos, turned by\n"
     "ori. The body sits at the\n"
     "union's centroid in its principal axes, with the union's mass and inertia (overlaps once);\n"
     "its pebbles are the sphere particles id + 1 .. id + n, which make its contacts and have no\n"
     "mass of their own. Returns the clump's id.\n" COMMON_DOC},
    {"add_wall", KW add_wall, METH_VARARGS | METH_KEYWORDS,
     "add_wall(axis, pos=0.0, *, sense=0, material=None, group=None, vel=None) -> int\n\n"
     "An infinite plane normal to axis ('x', 'y', 'z' or 0, 1, 2) at coordinate `pos` along it,\n"
     "fully blocked. sense +1/-1: contacts only from the positive/negative side; 0: either side.\n"
     "Move it with w.positions[id] = ..., a group motion (set_motion) or vel."},
    {"add_facet", KW add_facet, METH_VARARGS | METH_KEYWORDS,
     "add_facet(vertices, *, half_thick=0, center=None, material=None, group=None, vel=None,\n"
     "          angvel=None) -> int\n\n"
     "A triangle (vertices of shape (3, 3)), its own rigid body with reference point `center`\n"
     "(default: the centroid), fully blocked."},
    {"add_mesh", KW add_mesh, METH_VARARGS | METH_KEYWORDS,
     "add_mesh(path, *, scale=1, translate=(0, 0, 0), half_thick=0, center=None, skip_degenerate=False,\n"
     "         material=None, group=None, vel=None, angvel=None) -> ndarray of ids\n\n"
     "The triangles of an STL file (ASCII or binary) as facets of one rigid body: scaled (one factor\n"
     "or per axis), then translated; reference point `center` (default: the area-weighted centroid of\n"
     "the surface). Errors name the file and the position in it."},
    {"add_cylinder", KW add_cylinder, METH_VARARGS | METH_KEYWORDS,
     "add_cylinder(axis, pos, radius, *, material=None, group=None, vel=None, angvel=None) -> int\n\n"
     "An infinite cylinder along axis through pos, fully blocked; it may slide along its axis (vel)\n"
     "and spin about it (angvel)."},
    {"add_lattice", KW add_lattice, METH_VARARGS | METH_KEYWORDS,
     "add_lattice(spacing, counts, radius, *, origin=(0, 0, 0), jitter=0, seed=0, material=None,\n"
     "            group=None, vel=None, angvel=None, ori=None, fixed=False, block=None) -> ndarray of ids\n\n"
     "A simple cubic lattice of counts=(nx, ny, nz) identical spheres, x fastest (the scene's\n"
     "`lattice` generator): site (i, j, k) at origin + (i sx, j sy, k sz) plus a uniform jitter per\n"
     "axis drawn from `seed`. Not checked for overlaps.\n" COMMON_DOC},
    {"add_random", KW add_random, METH_VARARGS | METH_KEYWORDS,
     "add_random(box, count, *, radius=None, shape='sphere', shaft=None, semi_axes=None, seed=0,\n"
     "           material=None, group=None, vel=None, angvel=None) -> ndarray of ids\n\n"
     "Random sequential placement of `count` non-overlapping spheres, capsules or ellipsoids inside\n"
     "box=((xmin, ymin, zmin), (xmax, ymax, zmax)) (the scene's `random` generator): radius and shaft\n"
     "a number or a range (min, max); semi_axes three numbers or ranges. A box too full raises\n"
     "ArgumentError with the number placed."},
    {NULL, NULL, 0, NULL}};
