/* What a run would find before its first step, found when the scene loads,
 * so that `floe check` and `floe run` refuse (or warn about) the same things
 * (docs/scene-format.md, "Checks before the run"):
 *   - implausible material values (a unit slip): warnings;
 *   - a periodic cell the start would refuse (scene_cell_check.c): errors;
 * and what a run meets (kept for a later run length when the scene runs
 * no step of its own):
 *   - the time step: dt: auto needs a body to derive it from; a given dt
 *     must not exceed the critical step (floe_critical_dt and, for the
 *     contacts of step 0, floe_critical_dt_start), an error unless
 *     world.dt_check: warn;
 *   - initial overlaps between spheres (in a periodic cell, where the start
 *     wraps them and through the cell's faces): deep ones are errors, small
 *     ones warnings. */
#include "io/scene_check.h"
#include "io/scene_cell_check.h"
#include "base/vec.h"
#include "base/cell_grid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Initial overlap between two spheres, as a fraction of the smaller radius:
 * above OVERLAP_ERROR the contact force launches them (the run stops as a
 * runaway once an overlap exceeds the radius); above OVERLAP_WARN the scene
 * starts with forces it probably did not mean. Two fully blocked spheres
 * never move: only the runaway limit (1) applies to them. */
#define OVERLAP_ERROR 0.5
#define OVERLAP_WARN 0.01
#define OVERLAP_WARN_PAIRS 3          /* pairs named in warnings; the rest are counted */
#define OVERLAP_MAX_TESTS 400000000.0 /* distance tests before the search gives up */
/* Size levels of the overlap search (find_overlaps): a level spans radii
 * within a factor 2^OVERLAP_LEVEL_LOG2 = 4, so its cells (one diameter of
 * its largest sphere) are less than 8 radii of its smallest wide and hold
 * few of them in any packing that is not deeply overlapping. A larger
 * factor lets small spheres of a level crowd its cells; a smaller one makes
 * more levels, and a sphere looks up 27 cells on the grid of every coarser
 * level. Radii within a factor 4 of each other (most polydisperse scenes)
 * share one level, one grid as before; radii above rmin 4^31 share the
 * last level. */
#define OVERLAP_LEVEL_LOG2 2
#define OVERLAP_LEVELS 32

/* ---- time step --------------------------------------------------------------- */

/* A given dt against the critical step (floe_critical_dt: the contacts the
 * free bodies could make), then, if it passes, against the critical step
 * of the first step (floe_critical_dt_start: its bonds and overlaps too,
 * found on a started copy of the world). With world.dt_check: warn the
 * finding is a warning. */
static int check_dt(scene_ctx *c) {
    sy_node *at = c->dt_node ? c->dt_node : c->world_node ? c->world_node : sy_root(c->d);
    double dt = floe_dt(c->w);
    if (!c->dt_node || sy_is_text(c->dt_node, "auto")) {
        if (dt > 0 && isfinite(dt)) return 0;
        return sy_error(c->d, at,
                        "world.dt: auto cannot derive a time step: it needs at least one sphere, capsule or "
                        "ellipsoid, and this scene has none (only walls, facets, meshes or cylinders); give "
                        "world.dt in seconds");
    }
    double crit = floe_critical_dt(c->w);
    if (!(dt > crit) && isfinite(crit)) crit = floe_critical_dt_start(c->w);
    if (!(dt > crit)) return 0;
#define DT_ABOVE                                                                                                    \
    "world.dt = %g s is above the critical time step of this scene, %.3g s (from its lightest and stiffest bodies " \
    "that can move and touch something, and the contacts of its first step): "
    if (c->dt_check_warn) return scene_warn(c, at, DT_ABOVE "it may blow up (world.dt_check: warn)", dt, crit);
    return sy_error(c->d, at,
                    DT_ABOVE "the run would blow up within a few steps. Use dt: auto (world.dt_safety x the critical "
                             "step, re-checked as contacts form) or a dt below %.3g s; world.dt_check: warn runs it "
                             "anyway",
                    dt, crit, crit);
#undef DT_ABOVE
}

/* ---- particles in messages ------------------------------------------------------ */

/* "particle 7 (line 12)", "particle 7 (row 3 of the table named at line
 * 12)", "particle 7 (the 3rd of the generator at line 12)". */
static sy_node *describe(const scene_ctx *c, int id, char *buf, size_t len) {
    int lo = 0, hi = c->n_src - 1;
    if (hi < 0) {
        snprintf(buf, len, "particle %d", id);
        return NULL;
    }
    while (lo < hi) { /* the last range starting at or before id */
        int mid = (lo + hi + 1) / 2;
        if (c->src[mid].first <= id) lo = mid;
        else hi = mid - 1;
    }
    const scene_src *s = &c->src[lo];
    long long k = id - s->first + 1;
    unsigned line = s->node->start_mark.line + 1;
    if (s->kind == SRC_TABLE)
        snprintf(buf, len, "particle %d (data row %lld of the table named at line %u)", id, k, line);
    else if (s->kind == SRC_GENERATOR)
        snprintf(buf, len, "particle %d (number %lld of the generator at line %u)", id, k, line);
    else snprintf(buf, len, "particle %d (line %u)", id, line);
    return s->node;
}

/* ---- initial overlaps ------------------------------------------------------------- */

typedef struct pair {
    int a, b;
    double overlap, rmin, dist;
} pair;

typedef struct overlaps {
    pair deep;                     /* first pair (by ids) over the error limit; a < 0 if none */
    pair warn[OVERLAP_WARN_PAIRS]; /* first pairs over the warning limit */
    int n_warn;
    long long n_small; /* all pairs over the warning limit */
} overlaps;

static int before(int a, int b, const pair *p) { return a < p->a || (a == p->a && b < p->b); }

static void note_pair(overlaps *o, int a, int b, double ov, double rmin, double dist, int both_fixed) {
    pair p = {a, b, ov, rmin, dist};
    double limit = both_fixed ? 1.0 : OVERLAP_ERROR;
    if (ov > limit * rmin) {
        if (o->deep.a < 0 || before(a, b, &o->deep)) o->deep = p;
        return;
    }
    if (both_fixed || !(ov > OVERLAP_WARN * rmin)) return;
    o->n_small++;
    /* keep the first OVERLAP_WARN_PAIRS by ids, in order */
    int k = o->n_warn < OVERLAP_WARN_PAIRS ? o->n_warn++ : OVERLAP_WARN_PAIRS;
    while (k > 0 && before(a, b, &o->warn[k - 1])) {
        if (k < OVERLAP_WARN_PAIRS) o->warn[k] = o->warn[k - 1];
        k--;
    }
    if (k < OVERLAP_WARN_PAIRS) o->warn[k] = p;
}

/* Overlapping sphere pairs. One grid of cells one largest diameter wide
 * makes the search quadratic when the sizes differ a lot (a ball among
 * thousands of much smaller spheres puts hundreds of them in every cell), so
 * the spheres are sorted into size levels, each on a grid of its own: level
 * L holds the radii in [rmin 4^L, rmin 4^(L+1)), on cells one diameter of
 * its largest sphere wide. A sphere tests the later spheres of its own level
 * in the 27 cells around it, and all the spheres of every coarser level in
 * the 27 cells around it on that level's grid: a sphere of a finer level is
 * smaller than the coarser level's largest, so a pair that overlaps lies in
 * neighbouring cells of the coarser grid. Each pair is tested once, the
 * smaller id first (note_pair does not depend on the order of the pairs).
 * docs/decisions.md#initial-overlap-check-with-spheres-of-very-different-sizes
 * Returns 1 if the search was complete, 0 if it gave up (too many close
 * spheres to test), -1 if out of memory. */
static int find_overlaps(const floe_world *w, overlaps *o, int (*stop)(void *), void *ctx) {
    int np = floe_particle_count(w), n = 0;
    const double *r = floe_radii(w);
    const floe_vec3 *x = floe_positions(w);
    /* a periodic cell (diagonal before the run): the spheres wrapped into
     * it, each searched for from its images near the faces too */
    double h[9];
    floe_vec3 origin;
    floe_grid_period per = {floe_world_get_cell(w, h, &origin), {origin.x, origin.y, origin.z}, {h[0], h[4], h[8]}};
    floe_vec3 *wx = NULL;
    if (per.axes && np > 0) {
        if (!(wx = malloc(sizeof *wx * (size_t)np))) return -1;
        for (int i = 0; i < np; i++) wx[i] = floe_period_wrap(&per, x[i]);
        x = wx;
    }
    const uint32_t *blocked = floe_particle_blocked(w);
    double rmin = INFINITY;
    floe_vec3 lo = {INFINITY, INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < np; i++)
        if (floe_particle_shape(w, i) == FLOE_SHAPE_SPHERE) {
            n++;
            rmin = fmin(rmin, r[i]);
            lo = (floe_vec3){fmin(lo.x, x[i].x), fmin(lo.y, x[i].y), fmin(lo.z, x[i].z)};
            hi = (floe_vec3){fmax(hi.x, x[i].x), fmax(hi.y, x[i].y), fmax(hi.z, x[i].z)};
        }
    if (n < 2) {
        free(wx);
        return 1;
    }
    if (per.axes) { /* the wrapped centres and their images near the faces */
        lo = (floe_vec3){fmin(lo.x, origin.x), fmin(lo.y, origin.y), fmin(lo.z, origin.z)};
        hi = (floe_vec3){fmax(hi.x, origin.x + h[0]), fmax(hi.y, origin.y + h[4]), fmax(hi.z, origin.z + h[8])};
    }
    signed char *level = malloc((size_t)np);    /* of every particle, -1 if not a sphere */
    int *ids = malloc(sizeof *ids * (size_t)n); /* the spheres of level l in ascending ids: ids[start[l] ..] */
    int count[OVERLAP_LEVELS] = {0}, start[OVERLAP_LEVELS + 1] = {0}, at[OVERLAP_LEVELS];
    double rmax[OVERLAP_LEVELS] = {0};
    floe_cell_grid g[OVERLAP_LEVELS];
    memset(g, 0, sizeof g);
    int rc = level && ids ? 1 : -1;
    for (int i = 0; i < np && rc > 0; i++) {
        level[i] = -1;
        if (floe_particle_shape(w, i) != FLOE_SHAPE_SPHERE) continue;
        /* the bounds rmin 4^l are exact: a larger radius never gets a lower level */
        int l = 0;
        while (l + 1 < OVERLAP_LEVELS && ldexp(rmin, OVERLAP_LEVEL_LOG2 * (l + 1)) <= r[i]) l++;
        level[i] = (signed char)l;
        count[l]++;
        rmax[l] = fmax(rmax[l], r[i]);
    }
    for (int l = 0; l < OVERLAP_LEVELS; l++) {
        start[l + 1] = start[l] + count[l];
        at[l] = start[l];
    }
    for (int i = 0; i < np && rc > 0; i++)
        if (level[i] >= 0) ids[at[level[i]]++] = i;
    for (int l = 0; l < OVERLAP_LEVELS && rc > 0; l++) {
        if (!count[l]) continue;
        if (floe_cell_grid_init(&g[l], lo, hi, 2 * rmax[l], count[l])) rc = -1;
        else
            for (int k = count[l] - 1; k >= 0; k--) /* cells in ascending id order */
                floe_cell_grid_insert(&g[l], k, x[ids[start[l] + k]]);
    }
    double tests = 0;
    for (int i = 0; i < np && rc > 0; i++) {
        if (level[i] < 0) continue;
        if ((i & 4095) == 0 && stop && stop(ctx)) rc = -2;
        for (int l = level[i]; l < OVERLAP_LEVELS && rc > 0; l++) {
            if (!count[l]) continue;
            floe_vec3 from[27];
            int nfrom = 1;
            from[0] = x[i];
            if (per.axes) nfrom = floe_period_images(&per, x[i], r[i] + rmax[l], from);
            for (int q = 0; q < nfrom; q++) {
                floe_cell_iter it;
                floe_cell_grid_near(&g[l], from[q], &it);
                for (int64_t k; (k = floe_cell_next(&it)) >= 0;) {
                    int j = ids[start[l] + k], a = i < j ? i : j, b = i < j ? j : i;
                    if (l == level[i] && j <= i) continue; /* tested from the first sphere of the pair */
                    tests++;
                    double dist = q ? vlen(vsub(x[j], from[q])) : vlen(vsub(x[b], x[a])), ov = r[a] + r[b] - dist;
                    /* the pebbles of one clump overlap by design and never touch */
                    if (ov > 0 && (floe_clump_of(w, a) < 0 || floe_clump_of(w, a) != floe_clump_of(w, b)))
                        note_pair(o, a, b, ov, fmin(r[a], r[b]), dist,
                                  blocked[a] == FLOE_DOF_ALL && blocked[b] == FLOE_DOF_ALL);
                }
            }
        }
        if (tests > OVERLAP_MAX_TESTS) rc = 0;
    }
    for (int l = 0; l < OVERLAP_LEVELS; l++) floe_cell_grid_free(&g[l]);
    free(level);
    free(ids);
    free(wx);
    return rc;
}

static int check_overlaps(scene_ctx *c) {
    overlaps o;
    memset(&o, 0, sizeof o);
    o.deep.a = -1;
    int rc = find_overlaps(c->w, &o, c->interrupt ? scene_interrupted : NULL, c);
    if (rc == -2) return scene_stopped(c, sy_root(c->d));
    if (rc < 0) return sy_error(c->d, sy_root(c->d), "out of memory while checking initial overlaps");
    char a[160], b[160];
    if (o.deep.a >= 0) {
        const pair *p = &o.deep;
        describe(c, p->a, a, sizeof a);
        sy_node *at = describe(c, p->b, b, sizeof b);
        const floe_vec3 *x = floe_positions(c->w);
        if (p->dist == 0)
            return sy_error(c->d, at,
                            "%s and %s are at the same position (%g, %g, %g): the first step would blow "
                            "up; move one of them",
                            a, b, x[p->a].x, x[p->a].y, x[p->a].z);
        return sy_error(c->d, at,
                        "%s and %s overlap by %g m, %.0f%% of the smaller radius %g m: the first step "
                        "would blow up (initial overlaps over %.0f%% are refused); move them apart",
                        a, b, p->overlap, 100 * p->overlap / p->rmin, p->rmin, 100 * OVERLAP_ERROR);
    }
    for (int k = 0; k < o.n_warn; k++) {
        const pair *p = &o.warn[k];
        describe(c, p->a, a, sizeof a);
        sy_node *at = describe(c, p->b, b, sizeof b);
        if (scene_warn(c, at,
                       "%s and %s overlap by %g m, %.1f%% of the smaller radius: they start with a contact "
                       "force pushing them apart",
                       a, b, p->overlap, 100 * p->overlap / p->rmin))
            return -1;
    }
    if (o.n_small > o.n_warn &&
        scene_warn(c, sy_root(c->d), "%lld more pairs of spheres overlap by more than %.0f%% of the smaller radius",
                   o.n_small - o.n_warn, 100 * OVERLAP_WARN))
        return -1;
    if (!rc && scene_warn(c, sy_root(c->d), "initial overlaps were not fully checked: more than %.0f close pairs",
                          OVERLAP_MAX_TESTS))
        return -1;
    return 0;
}

/* ---- materials -------------------------------------------------------------------- */

/* Plausible ranges of material values a unit slip puts far outside. */
static int check_material_value(scene_ctx *c, sy_node *n, const char *where, const char *key, double v) {
    if (!strcmp(key, "density") && v < 100)
        return scene_warn(c, n,
                          "%s = %g kg/m^3 is implausibly low (below 100 kg/m^3): was it given in g/cm^3? "
                          "%g g/cm^3 is %g kg/m^3",
                          where, v, v, v * 1000);
    if (!strcmp(key, "density") && v > 25000)
        return scene_warn(c, n,
                          "%s = %g kg/m^3 is above the density of any solid (osmium: 22590 kg/m^3); is "
                          "the unit right?",
                          where, v);
    if (!strcmp(key, "young") && v < 1e4)
        return scene_warn(c, n,
                          "%s = %g Pa is implausibly soft (below 1e4 Pa): was it given in MPa or GPa? "
                          "%g GPa is %g Pa",
                          where, v, v, v * 1e9);
    if (!strcmp(key, "tan_phi") && v > 3) {
        char deg[96] = "";
        if (v < 90) snprintf(deg, sizeof deg, " tan(%g degrees) = %.3g", v, tan(v * FLOE_PI / 180));
        return scene_warn(c, n,
                          "%s = %g is the tangent of a friction angle of %.1f degrees (above 3, 71.6 degrees): "
                          "was an angle in degrees typed?%s",
                          where, v, atan(v) * 180 / FLOE_PI, deg);
    }
    return 0;
}

static int check_materials(scene_ctx *c) {
    sy_node *sec = sy_get(c->d, sy_root(c->d), "materials");
    for (int i = 0; i < sy_seq_size(sec); i++) {
        sy_node *item = sy_seq_item(c->d, sec, i);
        for (int k = 0; k < sy_map_size(item); k++) {
            const char *key = (const char *)sy_map_key(c->d, item, k)->data.scalar.value;
            double v = floe_material_get(c->w, i, key); /* ids follow the list */
            char where[SCENE_PATH], p[SCENE_PATH];
            scene_index(where, "materials", i);
            if (!isnan(v) && check_material_value(c, sy_map_value(c->d, item, k), scene_path(p, where, key), key, v))
                return -1;
        }
    }
    return 0;
}

int scene_diagnose(scene_ctx *c, floe_scene *s) {
    if (check_materials(c)) return -1;
    /* the cell is refused at the start whatever the run's length */
    if (scene_check_cell(c)) return -1;
    if (s->steps > 0 || s->duration > 0) return check_dt(c) || check_overlaps(c) ? -1 : 0;
    /* a scene that runs no step loads; what a run would meet is kept for a
     * run length given later (floe_scene_check_run) */
    if (!check_dt(c) && !check_overlaps(c)) return 0;
    if (c->stopped) return -1;                  /* interrupted, not a finding */
    if (!c->d->err || !c->d->err[0]) return -1; /* out of memory for a warning */
    s->run_error = strdup(c->d->err);
    if (!s->run_error) return -1;
    c->d->err[0] = 0;
    c->d->failed = 0;
    return 0;
}

int floe_scene_check_run(const floe_scene *s, int64_t steps, double duration, char *err, size_t errlen) {
    if (!s || !s->run_error || !(steps > 0 || (steps < 0 && duration > 0))) return 0;
    if (err && errlen) snprintf(err, errlen, "%s", s->run_error);
    return -1;
}
