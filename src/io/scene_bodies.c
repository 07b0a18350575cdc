/* Body sections of a scene: one per shape (particles, capsules,
 * ellipsoids, cylinders, walls, facets: one reader for all, driven by the
 * shape's class), meshes, generators.
 * Each item is read twice (scene_ctx.build 0 then 1): the first pass
 * validates and counts, the second adds to the world, so errors anywhere in
 * the file are found before any large allocation. */
#include "io/scene_bodies.h"
#include "io/scene_keys.h"
#include "io/scene_dense.h"
#include "base/vec.h"
#include <floe/floe_pack.h>
#include "io/particle_file.h"
#include <floe/floe_shape.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NKEYS(a) ((int)(sizeof(a) / sizeof *(a)))

/* Pass 0: adds n particles to the count and refuses absurd scenes. */
static int count(scene_ctx *c, sy_node *at, const char *where, double n) {
    c->count += n;
    double bytes = c->count * SCENE_BYTES_PER_PARTICLE;
    if (c->count > SCENE_MAX_PARTICLES || bytes > c->max_bytes)
        return sy_error(c->d, at,
                        "%s: the scene would hold %.4g particles, needing about %.1f GiB of memory (limits: %.0f "
                        "particles, %.3g GiB); refusing to allocate",
                        where, c->count, bytes / (1024.0 * 1024 * 1024), SCENE_MAX_PARTICLES,
                        c->max_bytes / (1024.0 * 1024 * 1024));
    return 0;
}

/* Pass 1: checks the id returned by floe_add_* and records where it came
 * from (c->src, for messages about particles). */
static int added(scene_ctx *c, sy_node *at, const char *where, int id) {
    if (id < 0) return scene_world_error(c, at, where);
    if (!c->n_src || c->src[c->n_src - 1].node != at) {
        if (!floe__grow((void **)&c->src, &c->cap_src, c->n_src + 1, sizeof *c->src))
            return sy_error(c->d, at, "out of memory");
        c->src[c->n_src++] = (scene_src){id, at, c->src_kind};
    }
    c->added++;
    if ((c->added & 0xffff) == 0 && scene_interrupted(c)) return scene_stopped(c, at); /* millions of bodies */
    return 0;
}

/* material, group, vel, angvel: whichever the item's key list allows. */
static int common(scene_ctx *c, sy_node *item, const char *where, floe_body_def *def) {
    sy_doc *d = c->d;
    char p[SCENE_PATH];
    sy_node *n;
    *def = floe_default_body_def();
    if (scene_material(c, item, where, &def->material)) return -1;
    if ((n = sy_get(d, item, "group")) && scene_groups(c, n, scene_path(p, where, "group"), &def->groups)) return -1;
    if ((n = sy_get(d, item, "vel")) && sy_vec3(d, n, scene_path(p, where, "vel"), &def->vel)) return -1;
    if ((n = sy_get(d, item, "angvel")) && sy_vec3(d, n, scene_path(p, where, "angvel"), &def->angvel)) return -1;
    return 0;
}

static int required(scene_ctx *c, sy_node *item, const char *where, const char *key, sy_node **out) {
    *out = sy_get(c->d, item, key);
    return *out ? 0 : sy_missing(c->d, item, where, key);
}

/* A length: in (0, SY_MAX_COORD] m. */
static int positive(scene_ctx *c, sy_node *n, const char *where, double *out) {
    return sy_number_in(c->d, n, where, out, 0, SY_MAX_COORD, 1, 0);
}

/* A length that may be 0: in [0, SY_MAX_COORD] m. */
static int length0(scene_ctx *c, sy_node *n, const char *where, double *out) {
    return sy_number_in(c->d, n, where, out, 0, SY_MAX_COORD, 0, 0);
}

static int positive3(scene_ctx *c, sy_node *n, const char *where, floe_vec3 *out, int allow_zero) {
    if (sy_scalar_or_vec3(c->d, n, where, out)) return -1;
    const double v[3] = {out->x, out->y, out->z};
    for (int k = 0; k < 3; k++)
        if (!(allow_zero ? v[k] >= 0 : v[k] > 0))
            return sy_error(c->d, n, "%s: every component must be %s (got %g)", where, allow_zero ? ">= 0" : "> 0",
                            v[k]);
        else if (!(v[k] <= SY_MAX_COORD))
            return sy_error(c->d, n, "%s: every component must be at most %g m (got %g)", where, SY_MAX_COORD, v[k]);
    return 0;
}

/* A file named in the scene: relative paths are relative to the scene file's
 * directory. */
static int scene_file_path(scene_ctx *c, sy_node *n, const char *where, const char *file, char *full, size_t len) {
    int k = file[0] == '/' || !c->dir[0] ? snprintf(full, len, "%s", file) : snprintf(full, len, "%s/%s", c->dir, file);
    if (k < 0 || (size_t)k >= len) return sy_error(c->d, n, "%s: path longer than %zu characters", where, len - 1);
    return 0;
}

/* Every coordinate within the scene's limit (SY_MAX_COORD). */
static int in_bounds(floe_vec3 v) {
    return fabs(v.x) <= SY_MAX_COORD && fabs(v.y) <= SY_MAX_COORD && fabs(v.z) <= SY_MAX_COORD;
}

/* ---- particles ------------------------------------------------------------- */

static int parse_block(scene_ctx *c, sy_node *n, const char *where, uint32_t *mask) {
    const char *s;
    if (sy_str(c->d, n, where, &s)) return -1;
    static const char dofs[] = "xyzXYZ";
    for (const char *q = s; *q; q++) {
        const char *f = strchr(dofs, *q);
        if (!f)
            return sy_error(c->d, n,
                            "%s: unknown degree of freedom '%c' in '%s' (x y z block translations, "
                            "X Y Z rotations)",
                            where, *q, s);
        *mask |= 1u << (f - dofs); /* FLOE_DOF_X..RZ are bits 0..5 in this order */
    }
    return 0;
}

static int parse_quat(scene_ctx *c, sy_node *n, const char *where, floe_quat *q) {
    if (!sy_is_seq(n) || sy_seq_size(n) != 4) return sy_error(c->d, n, "%s: expected a quaternion [w, x, y, z]", where);
    double v[4];
    for (int k = 0; k < 4; k++) {
        char p[SCENE_PATH];
        if (sy_number_in(c->d, sy_seq_item(c->d, n, k), scene_index(p, where, k), &v[k], -INFINITY, INFINITY, 1, 1))
            return -1;
    }
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
    if (!(len > 1e-12)) return sy_error(c->d, n, "%s: quaternion has zero length", where);
    *q = (floe_quat){v[0] / len, v[1] / len, v[2] / len, v[3] / len};
    return 0;
}

/* ori, fixed, block: the optional keys of free bodies (spheres, capsules,
 * ellipsoids) besides common(); the key lists refuse them elsewhere. */
static int free_opts(scene_ctx *c, sy_node *item, const char *where, floe_body_def *def) {
    sy_doc *d = c->d;
    char p[SCENE_PATH];
    sy_node *n;
    if ((n = sy_get(d, item, "ori")) && parse_quat(c, n, scene_path(p, where, "ori"), &def->ori)) return -1;
    int fixed = 0;
    if ((n = sy_get(d, item, "fixed")) && sy_bool(d, n, scene_path(p, where, "fixed"), &fixed)) return -1;
    if ((n = sy_get(d, item, "block")) && parse_block(c, n, scene_path(p, where, "block"), &def->blocked)) return -1;
    if (fixed) def->blocked = FLOE_DOF_ALL;
    return 0;
}

/* ---- spheres from a file ----------------------------------------------------- */

/* Group names of a row: `a;b` (blanks around names ignored). Groups are
 * created on first use, like those named in the scene file. */
static int row_groups(scene_ctx *c, const floe_pfile *f, const char *text, uint32_t *mask, char *err, size_t errlen) {
    *mask = 0;
    for (const char *q = text;;) {
        const char *e = strchr(q, ';'), *a = q, *b = e ? e : q + strlen(q);
        while (a < b && (*a == ' ' || *a == '\t')) a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t')) b--;
        char name[256];
        if (a == b)
            return floe_pfile_error(f, PF_GROUP, err, errlen,
                                    "group: empty group name in '%s' (names are "
                                    "separated by ';')",
                                    text);
        if ((size_t)(b - a) >= sizeof name)
            return floe_pfile_error(f, PF_GROUP, err, errlen, "group: group name longer than %zu characters",
                                    sizeof name - 1);
        memcpy(name, a, (size_t)(b - a));
        name[b - a] = 0;
        int g = floe_find_group(c->w, name);
        if (g < 0 && (g = floe_add_group(c->w, name)) < 0)
            return floe_pfile_error(f, PF_GROUP, err, errlen, "group: '%s': %s", name, floe_last_error(c->w));
        *mask |= 1u << g;
        if (!e) return 0;
        q = e + 1;
    }
}

/* Rows of each particle file, in reading order: pass 0 records them, pass 1
 * checks that it reads the same numbers. */
static int push_file_rows(scene_ctx *c, sy_node *at, long long rows) {
    if (!floe__grow((void **)&c->file_rows, &c->cap_file_rows, c->n_file_rows + 1, sizeof *c->file_rows))
        return sy_error(c->d, at, "out of memory");
    c->file_rows[c->n_file_rows++] = rows;
    return 0;
}

static long long next_file_rows(scene_ctx *c) {
    return c->next_file_rows < c->n_file_rows ? c->file_rows[c->next_file_rows++] : 0;
}

/* `- {file: beads.csv, material: ..., group: ..., vel: ..., ...}`: one
 * sphere per row of a CSV table (particle_file.h), streamed in both passes.
 * The entry's keys are defaults for every row; the file's material, group,
 * vx..vz and wx..wz columns override them. */
static int body_sphere_file(scene_ctx *c, sy_node *item, const char *where) {
    static const char *const keys[] = {"file", "material", "group", "vel", "angvel", "ori", "fixed", "block"};
    sy_doc *d = c->d;
    char p[SCENE_PATH], fp[SCENE_PATH];
    sy_node *n, *fnode = sy_get(d, item, "file");
    if ((n = sy_get(d, item, "radius")))
        return sy_error(d, n, "%s: not used with 'file' (the radius of each sphere is in the file's radius column)",
                        scene_path(p, where, "radius"));
    if ((n = sy_get(d, item, "pos")))
        return sy_error(d, n, "%s: not used with 'file' (the positions are in the file's x, y, z columns)",
                        scene_path(p, where, "pos"));
    if (sy_check_keys(d, item, where, keys, NKEYS(keys))) return -1;
    floe_body_def base = floe_default_body_def();
    const char *file;
    int mat = -1;
    scene_path(fp, where, "file");
    if (sy_str(d, fnode, fp, &file)) return -1;
    if (sy_get(d, item, "material") && scene_material(c, item, where, &mat)) return -1;
    if ((n = sy_get(d, item, "group")) && scene_groups(c, n, scene_path(p, where, "group"), &base.groups)) return -1;
    if ((n = sy_get(d, item, "vel")) && sy_vec3(d, n, scene_path(p, where, "vel"), &base.vel)) return -1;
    if ((n = sy_get(d, item, "angvel")) && sy_vec3(d, n, scene_path(p, where, "angvel"), &base.angvel)) return -1;
    if (free_opts(c, item, where, &base)) return -1;

    char full[2048], msg[1024];
    int os_err;
    if (scene_file_path(c, fnode, fp, file, full, sizeof full)) return -1;
    floe_pfile *f = floe_pfile_open(full, &os_err, msg, sizeof msg);
    if (!f) return os_err ? sy_error(d, fnode, "%s: %s", fp, msg) : sy_error_msg(d, msg);
    /* Without a material column the entry needs a material like any sphere;
     * with one, only rows whose field is empty use the entry's. */
    if (mat < 0 && !floe_pfile_has(f, PF_MATERIAL) && scene_material(c, item, where, &mat)) {
        floe_pfile_close(f);
        return -1;
    }
    if (mat < 0 && floe_material_count(c->w) == 1) mat = 0;
    const int has_v = floe_pfile_has(f, PF_VX), has_w = floe_pfile_has(f, PF_WX);
    char last_mat[256] = "", last_grp[256] = "";
    int last_mat_id = -1;
    uint32_t last_mask = base.groups;
    long long expect = c->build ? next_file_rows(c) : 0; /* rows found in pass 0 */
    c->src_kind = SRC_TABLE;
    pf_row row;
    int rc;
    while ((rc = floe_pfile_next(f, &row, msg, sizeof msg)) == 1) {
        floe_body_def def = base;
        def.pos = (floe_vec3){row.v[PF_X], row.v[PF_Y], row.v[PF_Z]};
        if (has_v) def.vel = (floe_vec3){row.v[PF_VX], row.v[PF_VY], row.v[PF_VZ]};
        if (has_w) def.angvel = (floe_vec3){row.v[PF_WX], row.v[PF_WY], row.v[PF_WZ]};
        /* names: most tables repeat one or a few, so the last one is cached */
        def.material = mat;
        if (*row.material) {
            if (last_mat_id < 0 || strcmp(row.material, last_mat)) {
                char hint[512];
                int id = scene_find_material(c, row.material, hint, sizeof hint);
                if (id < 0) {
                    rc = floe_pfile_error(f, PF_MATERIAL, msg, sizeof msg, "material: unknown material '%s'%s",
                                          row.material, hint);
                    break;
                }
                def.material = id;
                last_mat_id = strlen(row.material) < sizeof last_mat ? id : -1; /* too long to cache */
                if (last_mat_id >= 0) strcpy(last_mat, row.material);
            } else {
                def.material = last_mat_id;
            }
        } else if (mat < 0) {
            rc = floe_pfile_error(f, PF_MATERIAL, msg, sizeof msg,
                                  "material: the field is empty and %s has no "
                                  "'material' key (required when more than one material is declared)",
                                  where);
            break;
        }
        if (*row.group) {
            if (!*last_grp || strcmp(row.group, last_grp)) {
                if ((rc = row_groups(c, f, row.group, &last_mask, msg, sizeof msg))) break;
                if (strlen(row.group) < sizeof last_grp) strcpy(last_grp, row.group);
                else last_grp[0] = 0; /* too long to cache */
            }
            def.groups = last_mask;
        }
        if (c->build && floe_pfile_rows(f) > expect) break; /* the file grew since pass 0: reported below */
        if ((floe_pfile_rows(f) & 0xffff) == 0 && scene_interrupted(c)) {
            scene_stopped(c, item);
            break;
        }
        if (!c->build) {
            if (count(c, item, where, 1)) break;
        } else if (added(c, item, where, floe_add_sphere(c->w, &def, row.v[PF_RADIUS]))) {
            break;
        }
    }
    long long rows = floe_pfile_rows(f);
    floe_pfile_close(f);
    c->src_kind = SRC_ENTRY;
    if (d->failed) return -1; /* count() or added() */
    if (rc < 0) return sy_error_msg(d, msg);
    /* Both passes must read the same table: ids and the memory guard depend on it. */
    if (!c->build) return push_file_rows(c, item, rows);
    if (rows != expect)
        return sy_error(d, fnode, "%s: %s changed while the scene was loading (%lld rows, then %s%lld)", fp, full,
                        expect, rows > expect ? "more than " : "", rows > expect ? expect : rows);
    return 0;
}

/* ---- bodies of every shape ------------------------------------------------------ */

/* The shortest-arc rotation taking the body x axis to u/|u| (a half turn
 * about z when that is -x): q = (1 + u.x, x-hat cross u), normalised. */
floe_quat floe_axis_orientation(floe_vec3 axis) {
    double len = vlen(axis);
    if (!(len > 0) || !isfinite(len)) return (floe_quat){0, 0, 0, 0};
    floe_vec3 u = {axis.x / len, axis.y / len, axis.z / len};
    double w = 1 + u.x;
    if (w < 1e-12) return (floe_quat){0, 0, 0, 1};
    double y = -u.z, z = u.y, l = sqrt(w * w + y * y + z * z);
    return (floe_quat){w / l, 0, y / l, z / l};
}

static const char *const axis_names[] = {"x", "y", "z"};

static int parse_axis(scene_ctx *c, sy_node *n, const char *where, int *axis) {
    for (int k = 0; k < 3; k++)
        if (sy_is_text(n, axis_names[k])) {
            *axis = k;
            return 0;
        }
    double v;
    if (n->type != YAML_SCALAR_NODE || sy_parse_number((const char *)n->data.scalar.value, &v))
        return sy_error(c->d, n, "%s: expected x, y, z or 0, 1, 2", where);
    int64_t iv;
    if (sy_int(c->d, n, where, &iv, 0, 2)) return -1;
    *axis = (int)iv;
    return 0;
}

/* One number of a parameter: its range, lengths within the scene's limit. */
static int param_number(scene_ctx *c, const floe_shape_param *pm, sy_node *n, const char *where, double *out) {
    return sy_number_in(c->d, n, where, out, fmax(pm->lo, -SY_MAX_COORD), fmin(pm->hi, SY_MAX_COORD),
                        (pm->open & FLOE_OPEN_LO) != 0, (pm->open & FLOE_OPEN_HI) != 0);
}

/* A list of 1 to n/4 rows [x, y, z, r] (FLOE_SCENE_PEBBLES: a clump's
 * pebbles), the rest of out zeros. */
static int read_rows(scene_ctx *c, sy_node *n, const char *p, const floe_shape_param *pm, double *out) {
    sy_doc *d = c->d;
    char q[SCENE_PATH], e[SCENE_PATH];
    const int most = pm->n / 4;
    if (!sy_is_seq(n) || sy_seq_size(n) < 1 || sy_seq_size(n) > most)
        return sy_error(d, n, "%s: expected %s, 1 to %d rows", p, pm->list, most);
    for (int k = 0; k < pm->n; k++) out[k] = 0;
    for (int k = 0; k < sy_seq_size(n); k++) {
        sy_node *row = sy_seq_item(d, n, k);
        scene_index(q, p, k);
        if (!sy_is_seq(row) || sy_seq_size(row) != 4)
            return sy_error(d, row, "%s: expected a row [x, y, z, r] (a pebble's centre and radius)", q);
        for (int j = 0; j < 4; j++) {
            double *o = out + 4 * k + j;
            sy_node *v = sy_seq_item(d, row, j);
            scene_index(e, q, j);
            if (j < 3 ? sy_number_in(d, v, e, o, -SY_MAX_COORD, SY_MAX_COORD, 0, 0)
                      : sy_number_in(d, v, e, o, 0, SY_MAX_COORD, 1, 0))
                return -1;
        }
    }
    return 0;
}

/* A shape parameter under its key (its default if optional and absent);
 * pebbles: read as rows (read_rows). */
static int read_param(scene_ctx *c, sy_node *item, const char *where, const floe_shape_param *pm, double *out,
                      int pebbles) {
    sy_doc *d = c->d;
    char p[SCENE_PATH], q[SCENE_PATH];
    sy_node *n = sy_get(d, item, pm->key);
    if (!n) {
        if (isnan(pm->def)) return sy_missing(d, item, where, pm->key);
        for (int k = 0; k < pm->n; k++) out[k] = pm->def;
        return 0;
    }
    scene_path(p, where, pm->key);
    if (pebbles) return read_rows(c, n, p, pm, out);
    int per = pm->kind == FLOE_PARAM_POINT ? 3 : 1, items = pm->n / per;
    int given = items; /* a list of min_items or more: the last item fills the rest */
    if (pm->min_items > 0 && sy_is_seq(n) && sy_seq_size(n) >= pm->min_items && sy_seq_size(n) <= items)
        given = (int)sy_seq_size(n);
    if (items > 1 && (!sy_is_seq(n) || sy_seq_size(n) != given)) return sy_error(d, n, "%s: expected %s", p, pm->list);
    for (int k = 0; k < given; k++) {
        sy_node *e = items > 1 ? sy_seq_item(d, n, k) : n;
        const char *at = items > 1 ? scene_index(q, p, k) : p;
        double *o = out + k * per;
        if (pm->kind == FLOE_PARAM_POINT) {
            floe_vec3 v;
            if (sy_point(d, e, at, &v)) return -1;
            o[0] = v.x;
            o[1] = v.y;
            o[2] = v.z;
        } else if (pm->kind == FLOE_PARAM_AXIS) {
            int axis = 0;
            if (parse_axis(c, e, at, &axis)) return -1;
            o[0] = axis;
        } else if (pm->kind == FLOE_PARAM_INT) {
            int64_t iv;
            if (sy_int(d, e, at, &iv, (int64_t)pm->lo, (int64_t)pm->hi)) return -1;
            o[0] = (double)iv;
        } else if (param_number(c, pm, e, at, o)) {
            return -1;
        }
    }
    for (int k = given * per; k < pm->n; k++) out[k] = out[k - per];
    return 0;
}

static int is_param(const floe_shape_info *cls, const char *key) {
    for (int k = 0; k < cls->nparams; k++)
        if (!strcmp(cls->params[k].key, key)) return 1;
    return 0;
}

static int allows(const floe_shape_info *cls, const char *key) {
    for (int k = 0; k < cls->nkeys; k++)
        if (!strcmp(cls->keys[k], key)) return 1;
    return 0;
}

/* One item of a shape's section: the keys its class allows; common keys,
 * then the shape's parameters in their order, the class's scene check, the
 * reference point (pos: a point, or a coordinate along the axis parameter;
 * center: overrides the class's default), orientation (ori, or axis: the
 * direction of the body x axis), fixed and block. */
static int body_shape(scene_ctx *c, const floe_shape_info *cls, sy_node *item, const char *where) {
    sy_doc *d = c->d;
    char p[SCENE_PATH];
    sy_node *n;
    floe_body_def def;
    double par[FLOE_SHAPE_MAX_PARAMS];
    int at = 0, axis = -1;
    if (sy_check_keys(d, item, where, cls->keys, cls->nkeys) || common(c, item, where, &def)) return -1;
    for (int k = 0; k < cls->nparams; k++) {
        const floe_shape_param *pm = &cls->params[k];
        if (read_param(c, item, where, pm, par + at, (cls->scene & FLOE_SCENE_PEBBLES) != 0)) return -1;
        if (pm->kind == FLOE_PARAM_AXIS && axis < 0) axis = (int)par[at];
        at += pm->n;
    }
    const char *key = NULL;
    char msg[256];
    if (floe_shape_scene_check(cls->type, par, &def, &key, msg, sizeof msg)) {
        n = sy_get(d, item, key);
        return sy_error(d, n ? n : item, "%s: %s", scene_path(p, where, key), msg);
    }
    if (allows(cls, "pos") && !is_param(cls, "pos")) {
        if (cls->scene & FLOE_SCENE_POS_ON_AXIS) {
            double x = 0;
            if ((n = sy_get(d, item, "pos")) &&
                sy_number_in(d, n, scene_path(p, where, "pos"), &x, -SY_MAX_COORD, SY_MAX_COORD, 0, 0))
                return -1;
            vset(&def.pos, axis >= 0 ? axis : 0, x);
        } else if (required(c, item, where, "pos", &n) || sy_point(d, n, scene_path(p, where, "pos"), &def.pos)) {
            return -1;
        }
    }
    if (free_opts(c, item, where, &def)) return -1;
    sy_node *an = is_param(cls, "axis") ? NULL : sy_get(d, item, "axis");
    if (an) {
        if (sy_get(d, item, "ori"))
            return sy_error(d, an, "%s: give either 'ori' or 'axis', not both", scene_path(p, where, "axis"));
        floe_vec3 u;
        if (sy_vec3(d, an, scene_path(p, where, "axis"), &u)) return -1;
        double len = vlen(u);
        if (!(len > 0) || !isfinite(len)) return sy_error(d, an, "%s: the direction has zero length", p);
        def.ori = floe_axis_orientation(u);
    }
    floe_shape_scene_place(cls->type, par, &def.pos);
    if ((n = sy_get(d, item, "center")) && sy_point(d, n, scene_path(p, where, "center"), &def.pos)) return -1;
    if (cls->scene & FLOE_SCENE_PEBBLES) { /* a template's pebbles: the clump and its pebbles */
        int np = 0;
        while (np < cls->params[0].n / 4 && par[4 * np + 3] > 0) np++;
        double scale = 1; /* the template's size factor: coordinates and radii */
        if ((n = sy_get(d, item, "scale")) &&
            sy_number_in(d, n, scene_path(p, where, "scale"), &scale, 0, SY_MAX_COORD, 1, 0))
            return -1;
        for (int k = 0; k < 4 * np; k++) par[k] *= scale;
        if (!c->build) return count(c, item, where, 1 + np);
        if (added(c, item, where, floe_add_clump(c->w, &def, np, par))) return -1;
        c->added += np; /* its pebbles: particles too, with the ids after it */
        return 0;
    }
    if (!c->build) return count(c, item, where, 1);
    return added(c, item, where, floe_add_body(c->w, &def, cls->type, par));
}

/* ---- meshes ------------------------------------------------------------------------ */

static int body_mesh(scene_ctx *c, sy_node *item, const char *where, int index) {
    static const char *const keys[] = {"stl",        "scale", "translate", "material", "group",
                                       "half_thick", "vel",   "angvel",    "center",   "skip_degenerate"};
    sy_doc *d = c->d;
    char p[SCENE_PATH];
    sy_node *n, *stl_node;
    floe_body_def def;
    floe_vec3 scale = {1, 1, 1}, translate = {0, 0, 0};
    double ht = 0;
    int skip = 0;
    const char *file;
    if (sy_check_keys(d, item, where, keys, NKEYS(keys)) || common(c, item, where, &def)) return -1;
    if (required(c, item, where, "stl", &stl_node) || sy_str(d, stl_node, scene_path(p, where, "stl"), &file))
        return -1;
    if ((n = sy_get(d, item, "scale")) && positive3(c, n, scene_path(p, where, "scale"), &scale, 0)) return -1;
    if ((n = sy_get(d, item, "translate")) && sy_point(d, n, scene_path(p, where, "translate"), &translate)) return -1;
    if ((n = sy_get(d, item, "half_thick")) && length0(c, n, scene_path(p, where, "half_thick"), &ht)) return -1;
    if ((n = sy_get(d, item, "skip_degenerate")) && sy_bool(d, n, scene_path(p, where, "skip_degenerate"), &skip))
        return -1;
    floe_vec3 center;
    sy_node *cn = sy_get(d, item, "center");
    if (cn && sy_point(d, cn, scene_path(p, where, "center"), &center)) return -1;
    floe_mesh *m = &c->meshes[index];
    scene_path(p, where, "stl");
    if (!c->build) {
        char full[2048];
        if (scene_file_path(c, stl_node, p, file, full, sizeof full)) return -1;
        char msg[768];
        if (floe_mesh_read(full, file, scale, translate, skip, m, msg, sizeof msg))
            return sy_error(d, stl_node, "%s: %s", p, msg);
        return count(c, item, where, (double)m->n);
    }
    /* One rigid body: every facet shares the reference point, by default the
     * area-weighted centroid of the mesh surface. */
    def.pos = cn ? center : m->centroid;
    def.blocked = FLOE_DOF_ALL;
    for (size_t t = 0; t < m->n; t++)
        if (added(c, stl_node, p, floe_add_facet(c->w, &def, &m->v[3 * t], ht))) return -1;
    return 0;
}

/* ---- generators -------------------------------------------------------------------- */

static int add_spheres(scene_ctx *c, sy_node *at, const char *where, floe_body_def *def, const floe_vec3 *pos,
                       const double *rad, double r, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        def->pos = pos[i];
        if (added(c, at, where, floe_add_sphere(c->w, def, rad ? rad[i] : r))) return -1;
    }
    return 0;
}

static int gen_lattice(scene_ctx *c, sy_node *g, const char *where) {
    static const char *const keys[] = {"origin", "spacing", "counts", "radius", "jitter", "seed", "material",
                                       "group",  "vel",     "angvel", "ori",    "fixed",  "block"};
    sy_doc *d = c->d;
    char p[SCENE_PATH];
    sy_node *n;
    floe_body_def def;
    floe_lattice_def ld = {0};
    double r;
    int64_t seed = 0;
    if (sy_check_keys(d, g, where, keys, NKEYS(keys)) || common(c, g, where, &def) || free_opts(c, g, where, &def))
        return -1;
    if ((n = sy_get(d, g, "origin")) && sy_point(d, n, scene_path(p, where, "origin"), &ld.origin)) return -1;
    if (required(c, g, where, "spacing", &n) || positive3(c, n, scene_path(p, where, "spacing"), &ld.spacing, 0))
        return -1;
    if (required(c, g, where, "radius", &n) || positive(c, n, scene_path(p, where, "radius"), &r)) return -1;
    if ((n = sy_get(d, g, "jitter")) && positive3(c, n, scene_path(p, where, "jitter"), &ld.jitter, 1)) return -1;
    if ((n = sy_get(d, g, "seed")) && sy_int(d, n, scene_path(p, where, "seed"), &seed, 0, INT64_MAX)) return -1;
    ld.seed = (uint64_t)seed;
    if (required(c, g, where, "counts", &n)) return -1;
    scene_path(p, where, "counts");
    if (!sy_is_seq(n) || sy_seq_size(n) != 3)
        return sy_error(d, n, "%s: expected a list of 3 integers [nx, ny, nz]", p);
    double total = 1;
    for (int k = 0; k < 3; k++) {
        char q[SCENE_PATH];
        if (sy_int(d, sy_seq_item(d, n, k), scene_index(q, p, k), &ld.counts[k], 0, INT64_MAX)) return -1;
        total *= (double)ld.counts[k];
    }
    /* the corners of the lattice, jitter included, are positions like any other */
    floe_vec3 lo = vsub(ld.origin, ld.jitter);
    floe_vec3 far = {ld.origin.x + ld.spacing.x * (double)(ld.counts[0] - 1) + ld.jitter.x,
                     ld.origin.y + ld.spacing.y * (double)(ld.counts[1] - 1) + ld.jitter.y,
                     ld.origin.z + ld.spacing.z * (double)(ld.counts[2] - 1) + ld.jitter.z};
    if (total > 0 && !(in_bounds(lo) && in_bounds(far)))
        return sy_error(d, n,
                        "%s: the lattice spans (%g, %g, %g) to (%g, %g, %g), beyond the limit of %g m on "
                        "coordinates",
                        p, lo.x, lo.y, lo.z, far.x, far.y, far.z, SY_MAX_COORD);
    if (!c->build) return count(c, g, where, total);
    floe_vec3 *pos;
    int64_t np;
    char msg[512];
    if (floe_gen_lattice(&ld, &pos, &np, msg, sizeof msg)) return sy_error(d, g, "%s: %s", where, msg);
    c->src_kind = SRC_GENERATOR;
    int rc = add_spheres(c, g, where, &def, pos, NULL, r, np);
    c->src_kind = SRC_ENTRY;
    free(pos);
    return rc;
}

/* A number, or a range [min, max] with min <= max; min > 0 (>= 0 with
 * allow_zero). `what` names the value in the message ("radius"). */
static int value_or_range(scene_ctx *c, sy_node *n, const char *where, const char *what, int allow_zero, double *lo,
                          double *hi) {
    sy_doc *d = c->d;
    if (!sy_is_seq(n)) {
        if (sy_number_in(d, n, where, lo, 0, SY_MAX_COORD, !allow_zero, 0)) return -1;
        *hi = *lo;
        return 0;
    }
    char q[SCENE_PATH];
    if (sy_seq_size(n) != 2) return sy_error(d, n, "%s: expected a %s or a range [min, max]", where, what);
    if (sy_number_in(d, sy_seq_item(d, n, 0), scene_index(q, where, 0), lo, 0, SY_MAX_COORD, !allow_zero, 0) ||
        sy_number_in(d, sy_seq_item(d, n, 1), scene_index(q, where, 1), hi, *lo, SY_MAX_COORD, 0, 0))
        return -1;
    return 0;
}

/* `shape` of a random generator: sphere (default), capsule or ellipsoid. */
static int random_shape(scene_ctx *c, sy_node *g, const char *where, floe_shape_type *shape) {
    static const char *const names[] = {"sphere", "capsule", "ellipsoid"};
    static const floe_shape_type types[] = {FLOE_SHAPE_SPHERE, FLOE_SHAPE_CAPSULE, FLOE_SHAPE_ELLIPSOID};
    sy_node *n = sy_get(c->d, g, "shape");
    char p[SCENE_PATH];
    const char *s;
    *shape = FLOE_SHAPE_SPHERE;
    if (!n) return 0;
    if (sy_str(c->d, n, scene_path(p, where, "shape"), &s)) return -1;
    for (int k = 0; k < 3; k++)
        if (!strcmp(s, names[k])) {
            *shape = types[k];
            return 0;
        }
    const char *sug = sy_suggest(s, names, 3);
    if (sug) return sy_error(c->d, n, "%s: unknown shape '%s'; did you mean '%s'?", p, s, sug);
    return sy_error(c->d, n, "%s: unknown shape '%s'; allowed: sphere, capsule, ellipsoid", p, s);
}

static int add_shapes(scene_ctx *c, sy_node *at, const char *where, floe_body_def *def, floe_shape_type shape,
                      const floe_gen_body *b, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        def->pos = b[i].pos;
        def->ori = b[i].ori;
        int id = shape == FLOE_SHAPE_CAPSULE ? floe_add_capsule(c->w, def, b[i].radius, b[i].shaft)
                                             : floe_add_ellipsoid(c->w, def, b[i].semi);
        if (added(c, at, where, id)) return -1;
    }
    return 0;
}

static int gen_random(scene_ctx *c, sy_node *g, const char *where) {
    static const char *const keys[] = {"box",  "shape",    "radius", "shaft", "semi_axes", "count",
                                       "seed", "material", "group",  "vel",   "angvel"};
    static const char *const shape_name[FLOE_SHAPE_COUNT] = {
        [FLOE_SHAPE_SPHERE] = "sphere", [FLOE_SHAPE_CAPSULE] = "capsule", [FLOE_SHAPE_ELLIPSOID] = "ellipsoid"};
    sy_doc *d = c->d;
    char p[SCENE_PATH];
    sy_node *n;
    floe_body_def def;
    floe_random_def rd = {.env = &c->env}; /* the cell; polls the interrupt function */
    floe_random_shape_def sd = {.env = &c->env};
    floe_size_dist dist, shape_dist[3]; /* the radius's; a capsule's shaft, an ellipsoid's semi-axes */
    floe_shape_type shape;
    int64_t seed = 0;
    if (sy_check_keys(d, g, where, keys, NKEYS(keys)) || random_shape(c, g, where, &shape) || common(c, g, where, &def))
        return -1;
    /* size keys of the other shapes are errors, not silently ignored */
    {
        const char *own[FLOE_SHAPE_COUNT][2] = {[FLOE_SHAPE_SPHERE] = {"radius", NULL},
                                                [FLOE_SHAPE_CAPSULE] = {"radius", "shaft"},
                                                [FLOE_SHAPE_ELLIPSOID] = {"semi_axes", NULL}};
        static const char *const sizes[] = {"radius", "shaft", "semi_axes"};
        for (int k = 0; k < 3; k++) {
            if (!(n = sy_get(d, g, sizes[k])) || !strcmp(sizes[k], own[shape][0]) ||
                (own[shape][1] && !strcmp(sizes[k], own[shape][1])))
                continue;
            const char *owner = k == 2 ? "ellipsoid" : "capsule";
            return sy_error(d, n, "%s: only for shape: %s%s (this generator makes %ss)", scene_path(p, where, sizes[k]),
                            owner, k == 0 ? " or sphere" : "", shape_name[shape]);
        }
    }
    if (required(c, g, where, "box", &n)) return -1;
    scene_path(p, where, "box");
    if (!sy_is_seq(n) || sy_seq_size(n) != 2)
        return sy_error(d, n, "%s: expected two corners [[xmin, ymin, zmin], [xmax, ymax, zmax]]", p);
    {
        char q[SCENE_PATH];
        if (sy_point(d, sy_seq_item(d, n, 0), scene_index(q, p, 0), &rd.lo) ||
            sy_point(d, sy_seq_item(d, n, 1), scene_index(q, p, 1), &rd.hi))
            return -1;
        if (!(rd.lo.x < rd.hi.x && rd.lo.y < rd.hi.y && rd.lo.z < rd.hi.z))
            return sy_error(d, n, "%s: the first corner must be below the second on every axis", p);
    }
    sy_node *box = n;
    double bound; /* largest bounding radius */
    if (shape == FLOE_SHAPE_ELLIPSOID) {
        if (required(c, g, where, "semi_axes", &n)) return -1;
        scene_path(p, where, "semi_axes");
        if (!sy_is_seq(n) || sy_seq_size(n) != 3)
            return sy_error(d, n,
                            "%s: expected a list of 3 semi-axes [a, b, c], each a number, a range "
                            "[min, max] or a distribution {dist: ...}",
                            p);
        double lo[3], hi[3];
        for (int k = 0; k < 3; k++) {
            char q[SCENE_PATH];
            sy_node *it = sy_seq_item(d, n, k);
            if (sy_is_map(it)) { /* a distribution of this semi-axis */
                if (scene_size_dist(c, it, scene_index(q, p, k), &shape_dist[k])) return -1;
                sd.dist[k] = &shape_dist[k];
                lo[k] = shape_dist[k].min;
                hi[k] = shape_dist[k].max;
                continue;
            }
            if (value_or_range(c, it, scene_index(q, p, k), "semi-axis", 0, &lo[k], &hi[k])) return -1;
        }
        sd.amin = (floe_vec3){lo[0], lo[1], lo[2]};
        sd.amax = (floe_vec3){hi[0], hi[1], hi[2]};
        bound = fmax(hi[0], fmax(hi[1], hi[2]));
    } else {
        if (required(c, g, where, "radius", &n)) return -1;
        scene_path(p, where, "radius");
        if (sy_is_map(n)) {
            if (scene_size_dist(c, n, p, &dist)) return -1;
            rd.dist = &dist;
            if (shape == FLOE_SHAPE_CAPSULE) sd.dist[0] = &dist;
            rd.rmin = dist.min;
            rd.rmax = dist.max;
        } else {
            if (sy_is_seq(n) && sy_seq_size(n) != 2)
                return sy_error(d, n, "%s: expected a radius, a range [rmin, rmax] or a distribution {dist: ...}", p);
            if (value_or_range(c, n, p, "radius", 0, &rd.rmin, &rd.rmax)) return -1;
        }
        bound = rd.rmax;
        if (shape == FLOE_SHAPE_CAPSULE) {
            if (required(c, g, where, "shaft", &n)) return -1;
            if (sy_is_map(n)) { /* a distribution of the shaft */
                if (scene_size_dist(c, n, scene_path(p, where, "shaft"), &shape_dist[1])) return -1;
                sd.dist[1] = &shape_dist[1];
                sd.smin = shape_dist[1].min;
                sd.smax = shape_dist[1].max;
            } else if (value_or_range(c, n, scene_path(p, where, "shaft"), "shaft", 1, &sd.smin, &sd.smax)) return -1;
            sd.rmin = rd.rmin;
            sd.rmax = rd.rmax;
            bound = rd.rmax + 0.5 * sd.smax;
        }
    }
    double ex = rd.hi.x - rd.lo.x, ey = rd.hi.y - rd.lo.y, ez = rd.hi.z - rd.lo.z;
    if (ex < 2 * bound || ey < 2 * bound || ez < 2 * bound) {
        if (shape == FLOE_SHAPE_SPHERE)
            return sy_error(d, box, "%s.box: a %g x %g x %g box cannot hold spheres of radius %g", where, ex, ey, ez,
                            bound);
        return sy_error(d, box,
                        "%s.box: a %g x %g x %g box cannot hold %ss of bounding radius %g (every side "
                        "must be at least the bounding diameter)",
                        where, ex, ey, ez, shape_name[shape], bound);
    }
    if (required(c, g, where, "count", &n) || sy_int(d, n, scene_path(p, where, "count"), &rd.count, 0, INT64_MAX))
        return -1;
    if ((n = sy_get(d, g, "seed")) && sy_int(d, n, scene_path(p, where, "seed"), &seed, 0, INT64_MAX)) return -1;
    rd.seed = (uint64_t)seed;
    if (!c->build) return count(c, g, where, (double)rd.count);
    char msg[512];
    int64_t placed;
    if (shape != FLOE_SHAPE_SPHERE) {
        floe_gen_body *bodies;
        sd.lo = rd.lo;
        sd.hi = rd.hi;
        sd.shape = shape;
        sd.count = rd.count;
        sd.seed = rd.seed;
        if (floe_gen_random_shapes(&sd, &bodies, &placed, msg, sizeof msg))
            return c->stopped ? scene_stopped(c, g) : sy_error(d, g, "%s: %s", where, msg);
        c->src_kind = SRC_GENERATOR;
        int rc = add_shapes(c, g, where, &def, shape, bodies, placed);
        c->src_kind = SRC_ENTRY;
        free(bodies);
        return rc;
    }
    floe_vec3 *pos;
    double *rad;
    /* clear of the walls, facets, cylinders, mesh triangles and bodies already in the world */
    int bad = floe_gen_random_world(&rd, c->w, &pos, &rad, &placed, msg, sizeof msg);
    if (bad) return c->stopped ? scene_stopped(c, g) : sy_error(d, g, "%s: %s", where, msg);
    c->src_kind = SRC_GENERATOR;
    int rc = add_spheres(c, g, where, &def, pos, rad, 0, placed);
    c->src_kind = SRC_ENTRY;
    free(pos);
    free(rad);
    return rc;
}

/* `dense` (radius expansion): its own keys in scene_dense.c, the radius as
 * for random spheres (a number, a range or a distribution). */
static int gen_dense(scene_ctx *c, sy_node *g, const char *where) {
    sy_doc *d = c->d;
    char p[SCENE_PATH];
    sy_node *n, *at;
    floe_body_def def;
    floe_dense_def dd;
    floe_size_dist dist;
    if (scene_dense_keys(c, g, where, &dd, &at) || common(c, g, where, &def) || required(c, g, where, "radius", &n))
        return -1;
    scene_path(p, where, "radius");
    if (sy_is_map(n)) {
        if (scene_size_dist(c, n, p, &dist)) return -1;
        dd.dist = &dist;
    } else if (sy_is_seq(n) && sy_seq_size(n) != 2)
        return sy_error(d, n, "%s: expected a radius, a range [rmin, rmax] or a distribution {dist: ...}", p);
    else if (value_or_range(c, n, p, "radius", 0, &dd.rmin, &dd.rmax)) return -1;
    floe_vec3 *pos;
    double *rad;
    int64_t np;
    if (scene_dense_make(c, g, at, where, &dd, &pos, &rad, &np)) return -1;
    if (!c->build) return count(c, g, where, (double)np);
    c->src_kind = SRC_GENERATOR;
    int rc = add_spheres(c, g, where, &def, pos, rad, 0, np);
    c->src_kind = SRC_ENTRY;
    free(pos);
    free(rad);
    return rc;
}

static int body_generator(scene_ctx *c, sy_node *item, const char *where) {
    static const char *const keys[] = {"lattice", "random", "dense"};
    sy_doc *d = c->d;
    if (sy_check_keys(d, item, where, keys, 3)) return -1;
    if (sy_map_size(item) != 1)
        return sy_error(d, sy_map_size(item) ? sy_map_key(d, item, 1) : item,
                        "%s: give exactly one generator (lattice, random or dense) per list item", where);
    const char *kind = (const char *)sy_map_key(d, item, 0)->data.scalar.value;
    char p[SCENE_PATH];
    scene_path(p, where, kind);
    sy_node *g = sy_map_value(d, item, 0);
    if (kind[0] == 'd') return gen_dense(c, g, p);
    return kind[0] == 'l' ? gen_lattice(c, g, p) : gen_random(c, g, p);
}

/* ---- dispatch ------------------------------------------------------------------------ */

int scene_bodies(scene_ctx *c, const char *key, sy_node *sec) {
    sy_doc *d = c->d;
    if (sy_want_seq(d, sec, key)) return -1;
    int n = sy_seq_size(sec);
    if (!strcmp(key, "meshes") && !c->build) {
        c->meshes = calloc((size_t)(n ? n : 1), sizeof *c->meshes);
        if (!c->meshes) return sy_error(d, sec, "out of memory");
        c->n_meshes = n;
    }
    for (int i = 0; i < n; i++) {
        sy_node *item = sy_seq_item(d, sec, i);
        char where[SCENE_PATH];
        scene_index(where, key, i);
        if (sy_want_map(d, item, where)) return -1;
        int rc;
        const floe_shape_info *cls = scene_shape_section(key);
        if (cls && cls->type == FLOE_SHAPE_SPHERE && sy_get(d, item, "file")) rc = body_sphere_file(c, item, where);
        else if (cls) rc = body_shape(c, cls, item, where);
        else if (!strcmp(key, "meshes")) rc = body_mesh(c, item, where, i);
        else rc = body_generator(c, item, where);
        if (rc) return -1;
    }
    return 0;
}
