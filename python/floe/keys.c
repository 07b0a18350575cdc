/* The one reader of keyword arguments through a key table (floe.h, "key
 * tables"): World(), add_inlet, add_sink and add_dense fill their def from
 * the same table the scene loader reads (src/io/scene_keys.c), so a key,
 * its range, its unit and the rules between keys are the scene's: a value
 * out of range raises ArgumentError with the same words, a value of the
 * wrong type TypeError. None is a key not given (its default). */
#include "_floe.h"

#include <math.h>
#include <string.h>

#define AT(def, off) ((char *)(def) + (off))

/* The keys of a dict argument (cylinder=, plane=, a distribution): each
 * must be in `known` (comma-separated); *vals[k] receives the value of
 * names[k] (borrowed) or NULL. */
static int dict_keys(PyObject *o, const char *what, const char *const *names, int n, PyObject **vals) {
    if (!PyDict_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a dict", what);
        return -1;
    }
    for (int k = 0; k < n; k++) vals[k] = NULL;
    PyObject *key, *val;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &key, &val)) {
        const char *s = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (!s) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "%s: keys must be strings", what);
            return -1;
        }
        int k = 0;
        while (k < n && strcmp(s, names[k])) k++;
        if (k == n) {
            char known[256] = "";
            for (int q = 0; q < n; q++) {
                strncat(known, names[q], sizeof known - strlen(known) - 1);
                if (q + 1 < n) strncat(known, ", ", sizeof known - strlen(known) - 1);
            }
            PyErr_Format(ArgumentError, "%s: unknown key '%s' (known: %s)", what, s, known);
            return -1;
        }
        vals[k] = val;
    }
    return 0;
}

static int need(PyObject *v, const char *what, const char *key) {
    if (v) return 0;
    PyErr_Format(ArgumentError, "%s.%s: required", what, key);
    return -1;
}

/* A list of numbers into out[0..*n-1] (at most cap). */
static int numbers(PyObject *o, const char *what, double *out, int cap, int *n) {
    PyObject *seq = PySequence_Fast(o, "");
    if (!seq) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected a list of numbers", what);
        return -1;
    }
    Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
    if (m > cap) {
        Py_DECREF(seq);
        PyErr_Format(ArgumentError, "%s: %zd entries, at most %d", what, m, cap);
        return -1;
    }
    for (Py_ssize_t i = 0; i < m; i++)
        if (floe_py_double(PySequence_Fast_GET_ITEM(seq, i), what, &out[i])) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    *n = (int)m;
    return 0;
}

/* A size: a number (fixed), (min, max) (uniform) or a dict with `dist`
 * (the scene's distributions, docs/scene-format.md#random); checked by
 * floe_size_dist_check. */
int floe_py_size(PyObject *o, const char *what, floe_size_dist *d) {
    memset(d, 0, sizeof *d);
    d->kind = FLOE_DIST_UNIFORM;
    if (PyDict_Check(o)) {
        static const char *const names[] = {"dist",   "min",   "max",   "mean",    "std",
                                            "median", "sigma", "sizes", "passing", "by"};
        enum { DIST, MIN, MAX, MEAN, STD, MEDIAN, SIGMA, SIZES, PASSING, BY, NK };
        static const unsigned takes[] = {1u << MIN | 1u << MAX, 1u << MEAN | 1u << STD | 1u << MIN | 1u << MAX,
                                         1u << MEDIAN | 1u << MEAN | 1u << SIGMA | 1u << MIN | 1u << MAX,
                                         1u << SIZES | 1u << PASSING | 1u << BY};
        static const char *const kinds[] = {"uniform", "normal", "lognormal", "sieve"};
        PyObject *v[NK];
        if (dict_keys(o, what, names, NK, v)) return -1;
        const char *kn = v[DIST] && PyUnicode_Check(v[DIST]) ? PyUnicode_AsUTF8(v[DIST]) : NULL;
        int kind = 0;
        while (kn && kind < 4 && strcmp(kn, kinds[kind])) kind++;
        if (!kn || kind == 4) {
            PyErr_Format(ArgumentError, "%s.dist: %s (known: uniform, normal, lognormal, sieve)", what,
                         kn ? "unknown distribution" : "required");
            return -1;
        }
        for (int k = 1; k < NK; k++)
            if (v[k] && !(takes[kind] >> k & 1u)) {
                PyErr_Format(ArgumentError, "%s.%s: a %s distribution does not take it", what, names[k], kn);
                return -1;
            }
        char w2[96];
        d->kind = (floe_size_dist_kind)kind;
        if (kind == FLOE_DIST_SIEVE) {
            int n1 = 0, n2 = 0;
            if (need(v[SIZES], what, "sizes") || need(v[PASSING], what, "passing") || need(v[BY], what, "by"))
                return -1;
            snprintf(w2, sizeof w2, "%s.sizes", what);
            if (numbers(v[SIZES], w2, d->sizes, FLOE_SIEVE_MAX_POINTS, &n1)) return -1;
            snprintf(w2, sizeof w2, "%s.passing", what);
            if (numbers(v[PASSING], w2, d->passing, FLOE_SIEVE_MAX_POINTS, &n2)) return -1;
            if (n1 != n2) {
                PyErr_Format(ArgumentError, "%s: %d sizes but %d passing fractions (need one per size)", what, n1, n2);
                return -1;
            }
            const char *by = PyUnicode_Check(v[BY]) ? PyUnicode_AsUTF8(v[BY]) : NULL;
            if (!by || (strcmp(by, "mass") && strcmp(by, "number"))) {
                PyErr_Format(ArgumentError, "%s.by: expected 'mass' or 'number'", what);
                return -1;
            }
            d->npts = n1;
            d->by_mass = !strcmp(by, "mass");
            d->min = n1 ? d->sizes[0] : 0;
            d->max = n1 ? d->sizes[n1 - 1] : 0;
        } else {
            if (need(v[MIN], what, "min") || need(v[MAX], what, "max") || floe_py_double(v[MIN], what, &d->min) ||
                floe_py_double(v[MAX], what, &d->max))
                return -1;
            if (kind == FLOE_DIST_NORMAL &&
                (need(v[MEAN], what, "mean") || need(v[STD], what, "std") || floe_py_double(v[MEAN], what, &d->mu) ||
                 floe_py_double(v[STD], what, &d->sigma)))
                return -1;
            if (kind == FLOE_DIST_LOGNORMAL) {
                double m;
                if (need(v[SIGMA], what, "sigma") || floe_py_double(v[SIGMA], what, &d->sigma)) return -1;
                if (!v[MEDIAN] == !v[MEAN]) {
                    PyErr_Format(ArgumentError, "%s: a lognormal distribution takes one of median, mean", what);
                    return -1;
                }
                if (floe_py_double(v[MEDIAN] ? v[MEDIAN] : v[MEAN], what, &m)) return -1;
                if (!(m > 0 && m <= 1e12)) {
                    floe_py_arg_error("%s.%s: %g is out of range (0, 1e12]", what, v[MEDIAN] ? "median" : "mean", m);
                    return -1;
                }
                /* mean = median exp(sigma^2 / 2) */
                d->mu = v[MEDIAN] ? log(m) : log(m) - 0.5 * d->sigma * d->sigma;
            }
        }
    } else if (PyFloat_Check(o) || PyLong_Check(o)) {
        if (floe_py_double(o, what, &d->min)) return -1;
        d->max = d->min;
    } else {
        PyObject *seq = PySequence_Fast(o, "");
        if (!seq || PySequence_Fast_GET_SIZE(seq) != 2) {
            Py_XDECREF(seq);
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: expected a number, a range (min, max) or a dict(dist=...)", what);
            return -1;
        }
        int rc = floe_py_double(PySequence_Fast_GET_ITEM(seq, 0), what, &d->min) ||
                 floe_py_double(PySequence_Fast_GET_ITEM(seq, 1), what, &d->max);
        Py_DECREF(seq);
        if (rc) return -1;
    }
    char err[256];
    if (floe_size_dist_check(d, err, sizeof err)) {
        PyErr_Format(ArgumentError, "%s: %s", what, err);
        return -1;
    }
    return 0;
}

static int range_error(const floe_key *k, double x, const char *where) {
    char text[48], msg[512];
    if (k->kind == FLOE_KEY_INT || k->kind == FLOE_KEY_INT64) snprintf(text, sizeof text, "%.17g", x);
    else snprintf(text, sizeof text, "%g", x);
    if (!floe_key_check_number(k, x, text, where, msg, sizeof msg)) return 0;
    PyErr_SetString(ArgumentError, msg);
    return -1;
}

/* box=((xmin, ymin, zmin), (xmax, ymax, zmax)); strict: lo < hi. */
static int box_from(PyObject *o, const char *what, int strict, floe_vec3 *lo, floe_vec3 *hi) {
    PyObject *seq = PySequence_Fast(o, "");
    if (!seq || PySequence_Fast_GET_SIZE(seq) != 2 || floe_py_vec3(PySequence_Fast_GET_ITEM(seq, 0), what, lo) ||
        floe_py_vec3(PySequence_Fast_GET_ITEM(seq, 1), what, hi)) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: expected two corners ((xmin, ymin, zmin), (xmax, ymax, zmax))", what);
        }
        Py_XDECREF(seq);
        return -1;
    }
    Py_DECREF(seq);
    if (strict && !(lo->x < hi->x && lo->y < hi->y && lo->z < hi->z)) {
        floe_py_arg_error("%s: the first corner must be below the second on every axis", what);
        return -1;
    }
    if (!(lo->x <= hi->x && lo->y <= hi->y && lo->z <= hi->z)) {
        floe_py_arg_error("%s: the first corner must not be above the second on any axis", what);
        return -1;
    }
    return 0;
}

/* triangles: an array (n, 3, 3), or one triangle (3, 3). */
static int triangles(PyObject *o, const char *what, const floe_key *k, void *def) {
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(o, NPY_DOUBLE, 2, 3, NPY_ARRAY_CARRAY_RO);
    if (!a) return -1;
    if (PyArray_NDIM(a) == 2) { /* one triangle */
        PyArrayObject *b = (PyArrayObject *)PyArray_Newshape(a, &(PyArray_Dims){(npy_intp[]){1, 3, 3}, 3}, NPY_CORDER);
        Py_DECREF(a);
        if (!b) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: expected triangles of shape (n, 3, 3) or (3, 3)", what);
            return -1;
        }
        a = b;
    }
    npy_intp n = PyArray_DIM(a, 0);
    if (PyArray_DIM(a, 1) != 3 || PyArray_DIM(a, 2) != 3 || n < (npy_intp)k->min || n > (npy_intp)k->max) {
        PyErr_Format(ArgumentError, "%s: expected %d to %d triangles of shape (3, 3)", what, (int)k->min, (int)k->max);
        Py_DECREF(a);
        return -1;
    }
    const double *t = PyArray_DATA(a);
    floe_vec3(*tri)[3] = (floe_vec3(*)[3])AT(def, k->offset);
    for (npy_intp i = 0; i < n; i++)
        for (int j = 0; j < 3; j++)
            tri[i][j] = (floe_vec3){t[9 * i + 3 * j], t[9 * i + 3 * j + 1], t[9 * i + 3 * j + 2]};
    *(int *)AT(def, k->offset2) = (int)n;
    Py_DECREF(a);
    return 0;
}

static int read_map(World *self, PyObject *o, const char *where, const floe_key_table *t, void *def);

/* Key k's value o into def; p its path in messages. */
static int read_key(World *self, PyObject *o, const char *p, const floe_key *k, void *def) {
    void *at = k->offset >= 0 ? AT(def, k->offset) : NULL;
    switch (k->kind) {
        case FLOE_KEY_NUMBER: {
            double v;
            if (PyUnicode_Check(o) && k->words) {
                const char *s = PyUnicode_AsUTF8(o);
                if (s && floe_key_word(k, s, at)) return 0;
                char w[128];
                floe_key_words_text(k, w, sizeof w);
                floe_py_arg_error("%s: expected a number (%s) or %s, got '%s'", p, k->unit, w, s ? s : "?");
                return -1;
            }
            if (floe_py_double(o, p, &v) || range_error(k, v, p)) return -1;
            *(double *)at = v;
            return 0;
        }
        case FLOE_KEY_INT:
        case FLOE_KEY_INT64: {
            long long v;
            if (floe_py_int(o, p, LLONG_MIN, LLONG_MAX, &v) || range_error(k, (double)v, p)) return -1;
            if (k->kind == FLOE_KEY_INT) *(int *)at = (int)v;
            else memcpy(at, &(int64_t){v}, sizeof(int64_t));
            return 0;
        }
        case FLOE_KEY_BOOL: {
            int b = PyObject_IsTrue(o);
            if (b < 0) return -1;
            *(int *)at = b;
            return 0;
        }
        case FLOE_KEY_VEC3: {
            floe_vec3 v;
            if (floe_py_vec3(o, p, &v)) return -1;
            if (!floe_key_in_range(k, v.x) || !floe_key_in_range(k, v.y) || !floe_key_in_range(k, v.z)) {
                char r[64];
                floe_key_range_text(k, r, sizeof r);
                floe_py_arg_error("%s = (%g, %g, %g)%s%s: each component must be finite%s%s", p, v.x, v.y, v.z,
                                  *k->unit ? " " : "", k->unit, strcmp(r, "finite") ? " and in " : "",
                                  strcmp(r, "finite") ? r : "");
                return -1;
            }
            *(floe_vec3 *)at = v;
            return 0;
        }
        case FLOE_KEY_ENUM: {
            const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
            double v;
            if (!s) {
                if (!PyErr_Occurred())
                    PyErr_Format(PyExc_TypeError, "%s: expected a name, got %.80s", p, Py_TYPE(o)->tp_name);
                return -1;
            }
            if (!floe_key_word(k, s, &v)) {
                char w[256];
                floe_key_range_text(k, w, sizeof w);
                PyErr_Format(ArgumentError, "%s: unknown %s '%s'; allowed: %s", p, k->key, s, w);
                return -1;
            }
            *(int *)at = (int)v;
            return 0;
        }
        case FLOE_KEY_BOX:
            return box_from(o, p, k->min_open, (floe_vec3 *)at, (floe_vec3 *)at + 1);
        case FLOE_KEY_MAP:
            return read_map(self, o, p, k->sub, def);
        case FLOE_KEY_TRIANGLES:
            return triangles(o, p, k, def);
        case FLOE_KEY_SIZE:
            return floe_py_size(o, p, at);
        case FLOE_KEY_SIZES3: {
            PyObject *s3 = PySequence_Fast(o, "");
            if (!s3 || PySequence_Fast_GET_SIZE(s3) != 3) {
                Py_XDECREF(s3);
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError, "%s: expected 3 sizes (a, b, c)", p);
                return -1;
            }
            for (int i = 0; i < 3; i++) {
                char q[160];
                snprintf(q, sizeof q, "%s[%d]", p, i);
                if (floe_py_size(PySequence_Fast_GET_ITEM(s3, i), q, (floe_size_dist *)at + i)) {
                    Py_DECREF(s3);
                    return -1;
                }
            }
            Py_DECREF(s3);
            return 0;
        }
        case FLOE_KEY_MATERIAL:
            return floe_py_material(self, o, at);
        case FLOE_KEY_GROUPS:
            return floe_py_groups(self, o, at);
        case FLOE_KEY_GROUP:
            return floe_py_group(self, o, 0, at);
        case FLOE_KEY_SINK: {
            if (!PyUnicode_Check(o)) {
                PyErr_Format(PyExc_TypeError, "%s: expected a sink's name", p);
                return -1;
            }
            *(int *)at = floe_find_sink(self->sc.world, PyUnicode_AsUTF8(o));
            if (*(int *)at < 0) {
                PyErr_Format(ArgumentError, "%s: unknown sink '%U' (add it first with add_sink)", p, o);
                return -1;
            }
            return 0;
        }
        default:
            return 0; /* NAME and OWN: the caller's */
    }
}

/* The table's rules between keys, as ArgumentError. */
static int check(const floe_key_table *t, void *def, const unsigned char *given, const char *where) {
    char why[512];
    if (!t->check || t->check(def, given, where, why, sizeof why, NULL) == FLOE_OK) return 0;
    PyErr_SetString(ArgumentError, why);
    return -1;
}

/* Reads vals[i] (NULL or None: not given) of every key of t. */
static int read_all(World *self, PyObject *const *vals, const char *where, int sub, const floe_key_table *t, void *def,
                    unsigned char *given) {
    for (int i = 0; i < t->n; i++) given[i] = vals[i] && vals[i] != Py_None;
    for (int i = 0; i < t->n; i++)
        for (int j = 0; j < i; j++)
            if (given[i] && given[j] && t->keys[i].choice && t->keys[j].choice &&
                !strcmp(t->keys[i].choice, t->keys[j].choice)) {
                PyErr_Format(ArgumentError, "%s: give one %s: %s or %s, not both", where, t->keys[i].choice,
                             t->keys[j].key, t->keys[i].key);
                return -1;
            }
    for (int i = 0; i < t->n; i++)
        if (!given[i] && !strcmp(t->keys[i].def, "required") && t->keys[i].kind != FLOE_KEY_NAME) {
            PyErr_Format(ArgumentError, sub ? "%s.%s: required" : "%s: %s= is required", where, t->keys[i].key);
            return -1;
        }
    for (int i = 0; i < t->n; i++) {
        const floe_key *k = &t->keys[i];
        if (!given[i] && k->kind != FLOE_KEY_MATERIAL) continue;
        char p[128];
        if (sub) snprintf(p, sizeof p, "%s.%s", where, k->key);
        else snprintf(p, sizeof p, "%s", k->key);
        if (read_key(self, given[i] ? vals[i] : NULL, p, k, def)) return -1;
        if (given[i] && k->set_offset >= 0) *(int *)AT(def, k->set_offset) = k->set_value;
    }
    return check(t, def, given, where);
}

/* A dict of t's keys, or a sequence of its values in the table's order
 * (plane=(point, normal)). */
static int read_map(World *self, PyObject *o, const char *where, const floe_key_table *t, void *def) {
    enum { MAXK = 32 };
    PyObject *vals[MAXK] = {0};
    unsigned char given[MAXK];
    if (t->n > MAXK) return PyErr_SetString(PyExc_SystemError, "key table too long"), -1;
    if (PyDict_Check(o)) {
        PyObject *key, *val;
        Py_ssize_t pos = 0;
        while (PyDict_Next(o, &pos, &key, &val)) {
            const char *s = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
            if (!s) {
                if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "%s: keys must be strings", where);
                return -1;
            }
            int i = floe_key_index(t, s);
            if (i < 0) {
                char known[256] = "";
                for (int q = 0; q < t->n; q++) {
                    strncat(known, t->keys[q].key, sizeof known - strlen(known) - 1);
                    if (q + 1 < t->n) strncat(known, ", ", sizeof known - strlen(known) - 1);
                }
                PyErr_Format(ArgumentError, "%s: unknown key '%s' (known: %s)", where, s, known);
                return -1;
            }
            vals[i] = val;
        }
    } else {
        PyObject *seq = PySequence_Fast(o, "");
        if (!seq || PySequence_Fast_GET_SIZE(seq) != t->n) {
            Py_XDECREF(seq);
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: expected a dict of %s or their %d values in order", where,
                         t->n == 2 ? "its two keys" : "its keys", t->n);
            return -1;
        }
        for (int i = 0; i < t->n; i++) vals[i] = PySequence_Fast_GET_ITEM(seq, i);
        int rc = read_all(self, vals, where, 1, t, def, given);
        Py_DECREF(seq);
        return rc;
    }
    return read_all(self, vals, where, 1, t, def, given);
}

int floe_py_keys(World *self, PyObject *args, PyObject *kw, const char *fn, const floe_key_table *t, void *def,
                 const char **name, PyObject **own) {
    enum { MAXK = 64 };
    PyObject *vals[MAXK] = {0};
    unsigned char given[MAXK];
    int ni = -1;
    for (int i = 0; i < t->n; i++)
        if (t->keys[i].kind == FLOE_KEY_NAME) ni = i;
    Py_ssize_t na = args ? PyTuple_GET_SIZE(args) : 0;
    if (na > (ni >= 0)) {
        PyErr_Format(PyExc_TypeError, "%s() takes %s positional argument%s (%zd given); the others are keywords", fn,
                     ni >= 0 ? "1" : "no", ni >= 0 ? "" : "s", na);
        return -1;
    }
    if (na == 1) vals[ni] = PyTuple_GET_ITEM(args, 0);
    PyObject *key, *val;
    Py_ssize_t pos = 0;
    while (kw && PyDict_Next(kw, &pos, &key, &val)) {
        const char *s = PyUnicode_AsUTF8(key);
        if (!s) return -1;
        int i = floe_key_index(t, s);
        if (i < 0 || (t->keys[i].kind == FLOE_KEY_OWN && !own)) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'", fn, s);
            return -1;
        }
        if (i == ni && na == 1) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fn, s);
            return -1;
        }
        vals[i] = val;
    }
    if (ni >= 0) {
        PyObject *o = vals[ni];
        if (!o || !PyUnicode_Check(o) || !(*name = PyUnicode_AsUTF8(o))) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "%s() needs a name (str) as its first argument", fn);
            return -1;
        }
    }
    if (own)
        for (int i = 0; i < t->n; i++) own[i] = t->keys[i].kind == FLOE_KEY_OWN ? vals[i] : NULL;
    return read_all(self, vals, fn, 0, t, def, given);
}

/* ---- key lists (a group's phases) ------------------------------------------------------ */

/* One value: a vector (any sequence but text) or a number. */
static int list_value(PyObject *val, const char *what, floe_phase_key *e) {
    if (PyUnicode_Check(val) || PyBytes_Check(val)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a number or 3 numbers (x, y, z), got text", what);
        return -1;
    }
    if (PySequence_Check(val)) {
        floe_vec3 v;
        if (floe_py_vec3(val, what, &v)) return -1;
        e->v[0] = v.x, e->v[1] = v.y, e->v[2] = v.z, e->n = 3;
        return 0;
    }
    e->n = 1;
    return floe_py_double(val, what, &e->v[0]);
}

int floe_py_key_list(PyObject *o, const char *where, const floe_key_table *t, const char *prefix, floe_phase_key *k,
                     int cap, int *n, PyObject *keep) {
    char words[256];
    if (!PyDict_Check(o)) { /* a dict with its ENUM key (a phase's kind), or of its keys */
        const floe_key *k0 = &t->keys[0];
        size_t m = 0;
        words[0] = 0;
        if (k0->kind == FLOE_KEY_ENUM) floe_key_range_text(k0, words, sizeof words);
        else
            for (int i = 0; i < t->n && m + 1 < sizeof words; i++)
                m += (size_t)snprintf(words + m, sizeof words - m, "%s%s", i ? ", " : "", t->keys[i].key);
        if (k0->kind == FLOE_KEY_ENUM)
            PyErr_Format(PyExc_TypeError, "%s: expected a dict with a '%s' (%s)", where, k0->key, words);
        else PyErr_Format(PyExc_TypeError, "%s: expected a dict of %s", where, words);
        return -1;
    }
    PyObject *key, *val;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &key, &val)) {
        const char *kn = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (!kn) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "%s: keys must be strings", where);
            return -1;
        }
        if (*n >= cap) {
            PyErr_Format(ArgumentError, "%s: more than %d keys", where, cap);
            return -1;
        }
        /* the key's name as the engine reads it, prefix + key, kept alive in `keep` */
        PyObject *full = PyUnicode_FromFormat("%s%s", prefix, kn);
        if (!full || PyList_Append(keep, full)) {
            Py_XDECREF(full);
            return -1;
        }
        Py_DECREF(full);
        floe_phase_key *e = &k[(*n)++];
        *e = (floe_phase_key){PyUnicode_AsUTF8(full), NULL, {0, 0, 0}, 0};
        char what[160];
        snprintf(what, sizeof what, "%s.%s", where, kn);
        int i = floe_key_index(t, kn); /* an unknown key: the engine names it */
        const floe_key *ki = i >= 0 ? &t->keys[i] : NULL;
        if (ki && ki->kind == FLOE_KEY_MAP) { /* the key itself (no numbers), then its mapping's keys */
            char sub[64];
            snprintf(sub, sizeof sub, "%s.", kn);
            if (floe_py_key_list(val, what, ki->sub, sub, k, cap, n, keep)) return -1;
        } else if (ki && ki->kind == FLOE_KEY_ENUM) {
            if (!PyUnicode_Check(val) || !(e->text = PyUnicode_AsUTF8(val))) {
                floe_key_range_text(ki, words, sizeof words);
                if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "%s: expected a name (%s)", what, words);
                return -1;
            }
        } else if (list_value(val, what, e)) {
            return -1;
        }
    }
    return 0;
}
