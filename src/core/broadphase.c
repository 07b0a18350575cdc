/* Broad phase: a uniform cell grid builds a Verlet pair list that stays valid
 * until some body moved more than half the skin. Boundaries stay off the
 * grid: infinite ones (walls, cylinders) test every gridded body, finite
 * ones (facets) the cells their box covers, each with its class's test.
 * Pairs are produced in a deterministic order, in narrow-phase (A, B) order. */
#include "core/broadphase.h"
#include "core/cell.h"
#include "core/threads.h"

#include <limits.h>
#include <omp.h>

#include <stdlib.h>
#include <string.h>

/* A growing list of pairs: the world's own or one thread's share. */
typedef struct pair_buf {
    floe_pair *p;
    int n, cap;
} pair_buf;

static int push_pair(pair_buf *o, int a, int b) {
    if (o->n == o->cap && !floe__grow((void **)&o->p, &o->cap, o->n + 1, sizeof *o->p)) return 0;
    o->p[o->n++] = (floe_pair){a, b, -1};
    return 1;
}

/* d2: the reference point's squared displacement. A body whose surface
 * moves when it turns (its class says) adds the rotation: bound by angle x
 * farthest point, which is what re-bins a body whose oriented box may have
 * left its skin. */
double floe__moved2_shape(const floe_world *w, int i, double d2) {
    const floe_shape_class *c = floe__class_of(w, i);
    if (!(c->flags & FLOE_SHAPE_TURNS)) return d2;
    quat dq = qmul(w->ori[i], qconj(w->bp.ref_ori[i]));
    double ang = 2.0 * acos(fmin(1.0, fabs(dq.w)));
    double ext = c->reach ? c->reach(floe__shape_data(w, i)) : w->bound[i];
    double d = sqrt(d2) + ang * ext;
    return d * d;
}

int floe_broadphase_rebuild_due(const floe_world *w, double moved2) {
    /* a deforming periodic cell moves images by the drift of its vectors */
    if (w->cell.axes && w->bp.valid) {
        double lim = 0.5 * (w->skin - floe__cell_drift(w));
        return !(lim >= 0 && moved2 <= lim * lim);
    }
    return !w->bp.valid || !(moved2 <= 0.25 * w->skin * w->skin); /* NaN also triggers */
}

/* max_moved2 comes from the integrator's pass over the bodies */
int floe_broadphase_needs_rebuild(const floe_world *w) { return floe_broadphase_rebuild_due(w, w->bp.max_moved2); }

static floe_status oom(floe_world *w) {
    floe__error(w, "out of memory in the broad phase at step %lld", (long long)w->step);
    return FLOE_ERR_MEMORY;
}

typedef struct grid {
    vec3 lo, hi; /* box of the gridded bodies' centres */
    double h;
    int nx, ny, nz;
} grid;

static int cell_coord(double x, double lo, double h, int n) {
    double c = floor((x - lo) / h);
    if (!(c >= 0)) return 0;
    if (c >= n - 1) return n - 1;
    return (int)c;
}

/* The cells covering the box [blo, bhi]: x0..x1, y0..y1, z0..z1; 0 if the
 * box lies off the grid's bodies. */
typedef struct cell_box {
    int x0, x1, y0, y1, z0, z1;
} cell_box;

static int box_cells(const grid *g, vec3 blo, vec3 bhi, cell_box *b) {
    if (bhi.x < g->lo.x - g->h || bhi.y < g->lo.y - g->h || bhi.z < g->lo.z - g->h || blo.x > g->hi.x + g->h ||
        blo.y > g->hi.y + g->h || blo.z > g->hi.z + g->h)
        return 0;
    *b = (cell_box){cell_coord(blo.x, g->lo.x, g->h, g->nx), cell_coord(bhi.x, g->lo.x, g->h, g->nx),
                    cell_coord(blo.y, g->lo.y, g->h, g->ny), cell_coord(bhi.y, g->lo.y, g->h, g->ny),
                    cell_coord(blo.z, g->lo.z, g->h, g->nz), cell_coord(bhi.z, g->lo.z, g->h, g->nz)};
    return 1;
}

/* Zeroed work memory of `bytes` between steps: the contact pass's part
 * sums (step.c), which stay resident and all zero between steps, when they
 * are large enough, else a new allocation; work_done zeroes them back or
 * frees. The grid's fill, the link lists and the sort's lists then add
 * nothing to the peak resident set, and no large block is allocated and
 * freed in the step loop, which would raise glibc's mmap threshold and
 * leave later blocks in the heap for good (docs/performance.md#peak-memory). */
static void *work_get(floe_world *w, size_t bytes, int *lent) {
    *lent = bytes <= w->scratch_size[SCR_PART_SUMS];
    return *lent ? w->scratch[SCR_PART_SUMS] : calloc(1, bytes);
}

static void work_done(void *p, size_t bytes, int lent) {
    if (lent) memset(p, 0, bytes);
    else free(p);
}

/* The body a contact (or candidate pair) of bodies a, b belongs to: B when
 * A is a boundary (which is always A), else A. */
static inline int owner(const floe_world *w, int a, int b) {
    return (floe__class_of(w, a)->flags & FLOE_SHAPE_BOUNDARY) ? b : a;
}

/* Links existing contacts to the new pairs through the contacts of each
 * owner body (a counting sort of the contact indices, in contact order),
 * which each pair, on all threads, scans for its bodies A, B: it writes its
 * own link and that of its contact (a contact has one pair at most; the
 * first of equal contacts, as a hash table probed in insertion order would
 * find). The lists take 4 (np + nc) bytes of work memory (work_get), where
 * a table of the contacts' keys took 12 bytes per slot at half load, 6 MB
 * at dense 100k on top of everything else at every rebuild
 * (docs/performance.md#peak-memory). Contacts ascend by owner after a sort
 * (floe_broadphase_sort_contacts), so the scans read them nearly in order.
 * Static shares of the pairs follow the bodies' order, as the contact
 * pass's shares of the contacts do. */
static int link_contacts(floe_world *w) {
    floe_broadphase *bp = &w->bp;
    const int nc = w->ncon, npairs = bp->npairs, np = w->np;
    if (nc == 0) return 1;
    const size_t bytes = sizeof(int) * ((size_t)np + 1 + (size_t)nc);
    int lent, *end = work_get(w, bytes, &lent); /* end[o]: the end of owner o's list once filled */
    if (!end) return 0;
    int *list = end + np + 1;
    for (int k = 0; k < nc; k++) {
        w->ccold[k].nbr = -1;
        end[owner(w, w->con[k].a, w->con[k].b) + 1]++;
    }
    for (int i = 0; i < np; i++) end[i + 1] += end[i];
    for (int k = 0; k < nc; k++) list[end[owner(w, w->con[k].a, w->con[k].b)]++] = k;
#pragma omp parallel for num_threads(floe__threads(w)) schedule(static) if (nc + npairs > 4 * FLOE_BLOCK)
    for (int p = 0; p < npairs; p++) {
        const int a = bp->pairs[p].a, b = bp->pairs[p].b, o = owner(w, a, b);
        for (int j = o ? end[o - 1] : 0; j < end[o]; j++) {
            const int k = list[j];
            if (w->con[k].a == a && w->con[k].b == b) {
                bp->pairs[p].contact = k;
                w->ccold[k].nbr = p;
                break;
            }
        }
    }
    work_done(end, bytes, lent);
    return 1;
}

/* Where a contact goes in the sorted list: by the block of FLOE_BLOCK
 * bodies of the body it belongs to (B when A is a boundary, which is
 * always A, else A), within the block its boundary contacts first, then
 * the others, each by that body. */
static inline int sort_bucket(const floe_world *w, const floe_contact *c) {
    int i = owner(w, c->a, c->b), bnd = i != c->a;
    return (i / FLOE_BLOCK * 2 + !bnd) * FLOE_BLOCK + i % FLOE_BLOCK;
}

/* A contact's work in units of a body's, as measured rather than counted:
 * the instructions per contact over those per body are about 2 (dense
 * packing), but with 2 the settle scene's cut gave the falling grains'
 * thread too many bodies (2 threads 2000 steps, 0.54-0.59 s against
 * 0.51-0.53 s for the even cut), with 1 it gained (settle 100k, late
 * steps, 2.01-2.20 -> 1.93-2.01 s) and lost nothing elsewhere. Each
 * turning body also costs more than a falling one, which the estimate
 * does not see. */
#define CONTACT_WORK 1.0

/* bp.load from the sort's bucket offsets `at` (each block's contacts are
 * its 2 * FLOE_BLOCK buckets): per block its bodies and CONTACT_WORK per
 * contact, so that a thread whose bodies hold the contacts (a pile under
 * falling grains) takes fewer bodies. Left as it was if out of memory:
 * it only places work. */
static void set_load(floe_world *w, const int *at, int nb) {
    floe_broadphase *bp = &w->bp;
    if (bp->load_nb != nb) {
        double *l = realloc(bp->load, sizeof *l * ((size_t)nb + 1));
        if (!l) return;
        bp->load = l;
        bp->load_nb = nb;
    }
    bp->load[0] = 0;
    for (int b = 0; b < nb; b++) {
        int bodies = w->np - b * FLOE_BLOCK < FLOE_BLOCK ? w->np - b * FLOE_BLOCK : FLOE_BLOCK;
        int contacts = at[(b + 1) * 2 * FLOE_BLOCK] - at[b * 2 * FLOE_BLOCK];
        bp->load[b + 1] = bp->load[b] + bodies + CONTACT_WORK * contacts;
    }
}

/* Sorts the contacts by sort_bucket, and within a bucket in pair-list
 * order, contacts without a pair last. The contact pass gives each thread
 * a contiguous run of contacts (step.c), so its contacts then touch one
 * range of bodies, the blocks it also integrates; a wall's contacts go
 * with their spheres instead of all to the first thread. Within a block
 * the boundary contacts, which take the per-contact path, come first,
 * so that the slices of sphere contacts after them stay whole for the
 * batch kernels (docs/decisions.md#results-independent-of-the-thread-count).
 * The order stays deterministic. Skipped, keeping the current order, if
 * the temporary arrays cannot be allocated. */
void floe_broadphase_sort_contacts(floe_world *w) {
    floe_broadphase *bp = &w->bp;
    int n = w->ncon, nb = (w->np + FLOE_BLOCK - 1) / FLOE_BLOCK, nbk = nb * 2 * FLOE_BLOCK;
    if (n < 2) {
        bp->split = 0; /* none: step.c cuts halfway */
        return;
    }
    /* the new place of every contact (a stable counting sort of the paired
     * contacts in pair order, then the others), then the permutation
     * applied in place by following its cycles: no second copy of the
     * contacts (peak memory) */
    const size_t bytes = sizeof(int) * ((size_t)nbk + 1 + (size_t)n);
    int lent, *at = work_get(w, bytes, &lent), *dest = at ? at + nbk + 1 : NULL;
    unsigned char *tmp = malloc(w->cstride);
    if (!at || !tmp) {
        if (at) work_done(at, bytes, lent);
        free(tmp);
        return;
    }
    for (int k = 0; k < n; k++) at[sort_bucket(w, &w->con[k]) + 1]++;
    for (int i = 0; i < nbk; i++) at[i + 1] += at[i];
    set_load(w, at, nb);
    /* the contacts of the blocks a first thread of two takes go to the
     * first part (step.c), the others to the second */
    int b0, b1;
    floe__thread_blocks(w, 0, 2, &b0, &b1);
    bp->split = at[b1 * 2 * FLOE_BLOCK];
    for (int p = 0; p < bp->npairs; p++) {
        int k = bp->pairs[p].contact;
        if (k < 0) continue;
        dest[k] = at[sort_bucket(w, &w->con[k])]++;
        bp->pairs[p].contact = dest[k];
    }
    for (int k = 0; k < n; k++)
        if (w->ccold[k].nbr < 0) dest[k] = at[sort_bucket(w, &w->con[k])]++;
    for (int k = 0; k < n; k++)
        while (dest[k] != k) { /* swap k into its place d; k receives d's contact */
            int d = dest[k];
            floe_contact c = w->con[d];
            w->con[d] = w->con[k];
            w->con[k] = c;
            if (w->cwarm) {
                floe_contact_warm y = w->cwarm[d];
                w->cwarm[d] = w->cwarm[k];
                w->cwarm[k] = y;
            }
            if (w->cgeom) {
                floe_contact_geo y = w->cgeom[d];
                w->cgeom[d] = w->cgeom[k];
                w->cgeom[k] = y;
            }
            floe_contact_cold x = w->ccold[d];
            w->ccold[d] = w->ccold[k];
            w->ccold[k] = x;
            unsigned char *sk = w->cstate + (size_t)k * w->cstride, *sd = w->cstate + (size_t)d * w->cstride;
            memcpy(tmp, sd, w->cstride);
            memcpy(sd, sk, w->cstride);
            memcpy(sk, tmp, w->cstride);
            dest[k] = dest[d];
            dest[d] = d;
        }
    work_done(at, bytes, lent);
    free(tmp);
}

/* Half extents of the axis-aligned box of a gridded body in its current
 * orientation (spheres: the radius). */
static vec3 half_extent(const floe_world *w, int i) {
    const floe_shape_class *c = floe__class_of(w, i);
    if (c->half_extent) return c->half_extent(floe__shape_data(w, i), w->ori[i]);
    return v3(w->bound[i], w->bound[i], w->bound[i]);
}

/* Half extents of gridded body i: stored for aspherical bodies only, so that
 * a world of spheres never touches the array (peak memory). */
static inline vec3 extent_of(const floe_world *w, const vec3 *ext, int i) {
    double r = w->bound[i];
    return w->shape[i] == FLOE_SHAPE_SPHERE ? v3(r, r, r) : ext[i];
}

/* Whether gridded bodies i and j come within the search distance: bounding
 * spheres, then (unless both are spheres) oriented boxes. */
static inline int near(const floe_world *w, const vec3 *ext, int i, int j, double skin) {
    double lim = w->bound[i] + w->bound[j] + skin;
    vec3 d = vsub(w->pos[j], w->pos[i]);
    if (vlen2(d) >= lim * lim) return 0;
    if (w->shape[i] == FLOE_SHAPE_SPHERE && w->shape[j] == FLOE_SHAPE_SPHERE) return 1;
    vec3 e = vadd(extent_of(w, ext, i), extent_of(w, ext, j));
    return !(fabs(d.x) >= e.x + skin || fabs(d.y) >= e.y + skin || fabs(d.z) >= e.z + skin);
}

/* Narrow-phase order of a pair: boundaries first, then by shape, then by id. */
static int push_ordered(pair_buf *o, const floe_world *w, int i, int j) {
    int ri = floe_shape_rank(w->shape[i]), rj = floe_shape_rank(w->shape[j]);
    if (ri > rj || (ri == rj && i > j)) {
        int t = i;
        i = j;
        j = t;
    }
    /* the pebbles of one clump never meet (core/clump.h) */
    if (w->clump_of && w->clump_of[i] >= 0 && w->clump_of[i] == w->clump_of[j]) return 1;
    /* pairs without a narrow phase (a clump body: its pebbles meet for it) never collide */
    return floe_narrowphase(w->shape[i], w->shape[j]) ? push_pair(o, i, j) : 1;
}

/* The grid's cell size h: at least the largest gridded body and the search
 * distance, grown until there are at most ~2 cells per body whatever the
 * spread. Refuses (runaway) an extent or cell size that is not finite, which
 * would keep the growth loop from ending; the loop is bounded anyway. */
static floe_status size_grid(floe_world *w, grid *g, int ns) {
    vec3 span = vsub(g->hi, g->lo);
    for (int it = 0; visfinite(span) && g->h > 0 && isfinite(g->h) && it < 20000; it++) {
        double ex = span.x / g->h + 1, ey = span.y / g->h + 1, ez = span.z / g->h + 1;
        if (ex * ey * ez <= 2.0 * ns + 64) {
            g->nx = (int)ex;
            g->ny = (int)ey;
            g->nz = (int)ez;
            return FLOE_OK;
        }
        g->h *= 1.26;
    }
    floe__error(w,
                "runaway at step %lld: the broad phase cannot size its grid: the bodies span (%g, %g, %g) m with "
                "cells of %g m (skin %g m); a position or the skin is not finite or overflowed",
                (long long)w->step, span.x, span.y, span.z, g->h, w->skin);
    return FLOE_ERR_RUNAWAY;
}

/* What the pair search reads: the grid, the bodies' extents, the search
 * distance and the boundaries. */
typedef struct search {
    const floe_world *w;
    const floe_broadphase *bp;
    grid g;
    const vec3 *ext;
    double skin, rmax;
    int ns, nlarge;
    const int *bnd; /* boundary bodies (walls, cylinders, facets), ascending */
    int nbnd;
} search;

/* Bodies [*lo, *hi) of thread t of nt: the blocks the thread also
 * integrates (floe__thread_blocks), so that it searches around the bodies
 * it moves, whose data its core holds. */
static void body_range(const floe_world *w, int nt, int t, int *lo, int *hi) {
    int b0, b1, n = w->np;
    floe__thread_blocks(w, t, nt, &b0, &b1);
    *lo = b0 * FLOE_BLOCK < n ? b0 * FLOE_BLOCK : n;
    *hi = b1 * FLOE_BLOCK < n ? b1 * FLOE_BLOCK : n;
}

/* Boundary s->bnd[b] against the bodies: an infinite one (wall, cylinder)
 * against those of [lo, hi), in id order; a finite one (facet), whose
 * search runs over the cells its box covers, whole if `whole`, else not at
 * all. Over [0, np) and whole this is the serial order. */
static int boundary_pairs(const search *s, int b, int lo, int hi, int whole, pair_buf *o) {
    const floe_world *w = s->w;
    const floe_broadphase *bp = s->bp;
    const grid *g = &s->g;
    const vec3 *ext = s->ext;
    double skin = s->skin;
    int i = s->bnd[b];
    const floe_shape_class *cl = floe__class_of(w, i);
    if (cl->nvertices && (!whole || s->ns + s->nlarge == 0)) return 1;
    const void *rec = floe__shape_data(w, i);
    floe_pose pose = floe__pose(w, i);
    if (cl->nvertices == 0) { /* infinite */
        for (int j = lo; j < hi; j++) {
            if (!(w->bound[j] > 0)) continue;
            if (cl->near(rec, &pose, NULL, w->pos[j], extent_of(w, ext, j), w->bound[j], skin) &&
                !push_ordered(o, w, i, j))
                return 0;
        }
        return 1;
    }
    vec3 v[FLOE_SHAPE_MAX_VERTICES];
    cl->vertices(rec, &pose, v);
    for (int j = 0; s->nlarge && j < w->np; j++) { /* large bodies, off the grid */
        if (bp->cell_of[j] != -2) continue;
        if (cl->near(rec, &pose, v, w->pos[j], extent_of(w, ext, j), w->bound[j], skin) && !push_ordered(o, w, i, j))
            return 0;
    }
    if (s->ns == 0) return 1;
    /* the corners' box, grown by the boundary's radius (a facet's half
     * thickness), the largest gridded body and the skin */
    double m = w->radius[i] + s->rmax + skin;
    vec3 flo = v[0], fhi = v[0];
    for (int k = 1; k < cl->nvertices; k++) {
        flo = v3(fmin(flo.x, v[k].x), fmin(flo.y, v[k].y), fmin(flo.z, v[k].z));
        fhi = v3(fmax(fhi.x, v[k].x), fmax(fhi.y, v[k].y), fmax(fhi.z, v[k].z));
    }
    flo = v3(flo.x - m, flo.y - m, flo.z - m);
    fhi = v3(fhi.x + m, fhi.y + m, fhi.z + m);
    cell_box cb;
    if (!box_cells(g, flo, fhi, &cb)) return 1;
    for (int cz = cb.z0; cz <= cb.z1; cz++)
        for (int cy = cb.y0; cy <= cb.y1; cy++)
            for (int cx = cb.x0; cx <= cb.x1; cx++) {
                int c = cx + g->nx * (cy + g->ny * cz);
                for (int k = bp->cell_start[c]; k < bp->cell_start[c + 1]; k++) {
                    int j = bp->cell_items[k];
                    if (cl->near(rec, &pose, v, w->pos[j], extent_of(w, ext, j), w->bound[j], skin) &&
                        !push_ordered(o, w, i, j))
                        return 0;
                }
            }
    return 1;
}

/* Gridded pairs of the bodies i of [lo, hi), i ascending: each against
 * those of higher id in the 27 cells around it; bounding spheres, then
 * oriented boxes. */
static int grid_pairs(const search *s, int lo, int hi, pair_buf *o) {
    /* locals: the pairs' stores cannot then alias what the loop reads */
    const floe_world *w = s->w;
    const int *cell_start = s->bp->cell_start, *cell_items = s->bp->cell_items, *cell_of = s->bp->cell_of;
    const int nx = s->g.nx, ny = s->g.ny, nz = s->g.nz;
    const vec3 *ext = s->ext;
    const double skin = s->skin;
    for (int i = lo; i < hi; i++) {
        int c = cell_of[i];
        if (c < 0) continue;
        int cx = c % nx, cy = (c / nx) % ny, cz = c / (nx * ny);
        /* the cells x-1..x+1 of a row follow each other, and so do their
         * items: one run per row, in the order cell by cell gives */
        int x0 = cx > 0 ? cx - 1 : 0, x1 = cx < nx - 1 ? cx + 1 : nx - 1;
        for (int dz = -1; dz <= 1; dz++) {
            int z = cz + dz;
            if (z < 0 || z >= nz) continue;
            for (int dy = -1; dy <= 1; dy++) {
                int y = cy + dy;
                if (y < 0 || y >= ny) continue;
                int row = nx * (y + ny * z);
                for (int k = cell_start[row + x0], end = cell_start[row + x1 + 1]; k < end; k++) {
                    int j = cell_items[k];
                    if (j > i && near(w, ext, i, j, skin) && !push_ordered(o, w, i, j)) return 0;
                }
            }
        }
    }
    return 1;
}

static void copy_refs(floe_world *w, int lo, int hi) {
    for (int i = lo; i < hi; i++) {
        w->bp.ref_pos[i] = w->pos[i];
        if (w->bp.ref_ori) w->bp.ref_ori[i] = floe__surface_ori(w, i);
    }
}

/* The boundary pairs, then (with `gridded`) the gridded ones, into the
 * empty pair list, and then (with `gridded`) the reference poses. On
 * several threads each thread takes a range of bodies (body_range) for
 * the infinite boundaries and the grid, and a share of the finite
 * boundaries, and pushes its pairs into a list, noting how many each
 * boundary and the grid gave; the lists are then put into bp->pairs
 * boundary by boundary, thread by thread: ranges ascend with the thread,
 * so the order is the serial one whatever the thread count. The first
 * thread's list is bp->pairs itself, whose parts move up into place (the
 * last first: no part lands on one not yet moved) before the others copy
 * theirs: a rebuild holds the pairs once and the other threads' shares,
 * not the pairs twice (peak memory). The other lists are allocated here,
 * before the region, so that they come from the main heap and not from
 * the threads' own. 0 when out of memory. */
static int find_pairs(floe_world *w, const search *s, int gridded, int last) {
    floe_broadphase *bp = &w->bp;
    int nt = floe__threads(w), np = w->np, nseg = s->nbnd + 1;
    if (nt < 2 || np <= FLOE_BLOCK) {
        pair_buf o = {bp->pairs, 0, bp->cap};
        int ok = 1;
        for (int b = 0; ok && b < s->nbnd; b++) ok = boundary_pairs(s, b, 0, np, 1, &o);
        if (ok && gridded) ok = grid_pairs(s, 0, np, &o);
        bp->pairs = o.p;
        bp->npairs = o.n;
        bp->cap = o.cap;
        if (ok && gridded) copy_refs(w, 0, np);
        return ok;
    }
    int est = last / nt + last / (4 * nt) + 64; /* a share of the last list's length, and some */
    /* per thread: its pairs; per thread and segment (boundary, or the
     * grid): how many it found, then where they go */
    pair_buf *bufs = calloc((size_t)nt, sizeof *bufs);
    int *cnt = calloc(2 * (size_t)nt * (size_t)nseg, sizeof(int)), *off = cnt + (size_t)nt * nseg;
    int fail = !bufs || !cnt;
    if (!fail) bufs[0] = (pair_buf){bp->pairs, 0, bp->cap};
    for (int t = 1; !fail && t < nt; t++) fail = !floe__grow((void **)&bufs[t].p, &bufs[t].cap, est, sizeof *bufs[t].p);
    if (fail) {
        for (int t = 1; bufs && t < nt; t++) free(bufs[t].p);
        free(bufs);
        free(cnt);
        return 0;
    }
#pragma omp parallel num_threads(nt)
    {
        int t = omp_get_thread_num(), tn = omp_get_num_threads(), lo, hi;
        body_range(w, tn, t, &lo, &hi);
        /* finite boundaries: an equal share of their list each */
        int64_t b0 = (int64_t)s->nbnd * t / tn, b1 = (int64_t)s->nbnd * (t + 1) / tn;
        /* the thread's list in a local: the threads' entries of bufs share a
         * cache line, which each push would take from the other core */
        pair_buf ob = bufs[t], *o = &ob;
        int *n = cnt + (size_t)t * nseg, ok = 1;
        for (int b = 0; ok && b < s->nbnd; b++) {
            int n0 = o->n;
            ok = boundary_pairs(s, b, lo, hi, b >= b0 && b < b1, o);
            n[b] = o->n - n0;
        }
        if (ok && gridded) {
            int n0 = o->n;
            ok = grid_pairs(s, lo, hi, o);
            n[s->nbnd] = o->n - n0;
        }
        bufs[t] = ob;
        if (!ok) {
#pragma omp atomic write
            fail = 1;
        }
#pragma omp barrier
#pragma omp single
        if (!fail) { /* where each thread's share of each segment goes; the first thread's moved there */
            int64_t at = 0;
            for (int b = 0; b < nseg; b++)
                for (int u = 0; u < nt; u++) {
                    off[(size_t)u * nseg + b] = (int)at;
                    at += cnt[(size_t)u * nseg + b];
                }
            if (at > INT_MAX || !floe__grow((void **)&bufs[0].p, &bufs[0].cap, (int)at, sizeof *bufs[0].p)) fail = 1;
            else {
                bp->npairs = (int)at;
                int from = bufs[0].n;
                for (int b = nseg - 1; b >= 0; b--) {
                    from -= cnt[b];
                    if (cnt[b] && off[b] != from)
                        memmove(bufs[0].p + off[b], bufs[0].p + from, sizeof *bufs[0].p * (size_t)cnt[b]);
                }
            }
        }
        if (!fail) {
            for (int b = 0, from = 0; t > 0 && b < nseg; b++) {
                if (n[b]) memcpy(bufs[0].p + off[(size_t)t * nseg + b], o->p + from, sizeof *o->p * (size_t)n[b]);
                from += n[b];
            }
            if (gridded) copy_refs(w, lo, hi);
        }
    }
    bp->pairs = bufs[0].p; /* grown or moved by the first thread */
    bp->cap = bufs[0].cap;
    for (int t = 1; t < nt; t++) free(bufs[t].p);
    free(bufs);
    free(cnt);
    return !fail;
}

floe_status floe_broadphase_rebuild(floe_world *w) {
    floe_broadphase *bp = &w->bp;
    int last = bp->npairs;
    bp->npairs = 0;
    double skin = w->skin + bp->margin; /* search distance */
    /* Bodies much larger than the mean (an indenter on a sheet of grains)
     * stay off the grid, whose cells would otherwise grow to their size:
     * each scans the cells its box covers, and they meet each other directly. */
    double mean = 0, cut = INFINITY;
    int ng = 0;
    for (int i = 0; i < w->np; i++)
        if (w->bound[i] > 0) mean += w->bound[i], ng++;
    if (ng > 0) cut = 2 * mean / ng;
    int ns = 0, nlarge = 0;
    double rmax = 0;
    vec3 lo = v3(INFINITY, INFINITY, INFINITY), hi = vneg(lo);
    for (int i = 0; i < w->np; i++) {
        if (!(w->bound[i] > 0)) continue;
        if (w->bound[i] > cut) {
            nlarge++;
            continue;
        }
        ns++;
        /* comparisons, not fmin/fmax, which are calls here (a tenth of the
         * rebuild); the same values: a NaN is skipped either way, and
         * only the sign of an equal zero could differ, which no cell
         * index sees */
        if (w->bound[i] > rmax) rmax = w->bound[i];
        vec3 p = w->pos[i];
        lo = v3(p.x < lo.x ? p.x : lo.x, p.y < lo.y ? p.y : lo.y, p.z < lo.z ? p.z : lo.z);
        hi = v3(p.x > hi.x ? p.x : hi.x, p.y > hi.y ? p.y : hi.y, p.z > hi.z ? p.z : hi.z);
    }
    grid g = {lo, hi, 2 * rmax + skin, 1, 1, 1};
    if (ns > 0) {
        floe_status st = size_grid(w, &g, ns);
        if (st != FLOE_OK) return st;
    }
    int ncells = g.nx * g.ny * g.nz;
    if (!floe__grow((void **)&bp->cell_start, &bp->ncells_cap, ncells + 1, sizeof(int))) return oom(w);
    if (!floe__grow((void **)&bp->cell_items, &bp->nitems_cap, w->np, sizeof(int)) ||
        !floe__grow((void **)&bp->cell_of, &bp->cell_of_cap, w->np, sizeof(int)))
        return oom(w);
    vec3 *ext = floe__scratch(w, SCR_EXTENTS, sizeof(vec3) * (size_t)(w->np > 0 ? w->np : 1));
    if (!ext) return oom(w);
    /* each body's cell (-1 off the grid, -2 large), on the integrator's
     * blocks: a thread bins the bodies it moves */
    const int np = w->np;
#pragma omp parallel num_threads(floe__threads(w)) if (np > FLOE_BLOCK)
    {
        int i0, i1;
        body_range(w, omp_get_num_threads(), omp_get_thread_num(), &i0, &i1);
        for (int i = i0; i < i1; i++) {
            if (!(w->bound[i] > 0)) {
                bp->cell_of[i] = -1;
                continue;
            }
            if (w->shape[i] != FLOE_SHAPE_SPHERE) ext[i] = half_extent(w, i);
            if (w->bound[i] > cut) { /* large: off the grid */
                bp->cell_of[i] = -2;
                continue;
            }
            vec3 p = w->pos[i];
            bp->cell_of[i] = cell_coord(p.x, g.lo.x, g.h, g.nx) +
                             g.nx * (cell_coord(p.y, g.lo.y, g.h, g.ny) + g.ny * cell_coord(p.z, g.lo.z, g.h, g.nz));
        }
    }
    /* counting sort of gridded bodies into cells (stable: ids ascend within
     * a cell); the boundaries, listed on the way, ascend too */
    int *bnd = NULL, nbnd = 0, bcap = 0;
    memset(bp->cell_start, 0, sizeof(int) * (size_t)(ncells + 1));
    for (int i = 0; i < np; i++) {
        int c = bp->cell_of[i];
        if (c >= 0) bp->cell_start[c + 1]++;
        if (floe__class_of(w, i)->flags & FLOE_SHAPE_BOUNDARY) {
            if (!floe__grow((void **)&bnd, &bcap, nbnd + 1, sizeof *bnd)) {
                free(bnd);
                return oom(w);
            }
            bnd[nbnd++] = i;
        }
    }
    for (int c = 0; c < ncells; c++) bp->cell_start[c + 1] += bp->cell_start[c];
    {
        const size_t bytes = sizeof(int) * (size_t)ncells;
        int lent, *next = work_get(w, bytes, &lent);
        if (!next) {
            free(bnd);
            return oom(w);
        }
        memcpy(next, bp->cell_start, bytes);
        for (int i = 0; i < np; i++)
            if (bp->cell_of[i] >= 0) bp->cell_items[next[bp->cell_of[i]]++] = i;
        work_done(next, bytes, lent);
    }
    /* boundaries (walls, cylinders, facets) against the gridded bodies,
     * then, unless periodic, the gridded pairs */
    search s = {w, bp, g, ext, skin, rmax, ns, nlarge, bnd, nbnd};
    int ok = find_pairs(w, &s, !w->cell.axes, last);
    free(bnd);
    if (!ok) return oom(w);
    /* images: with a cell, zero for the boundary pairs found so far; none without */
    if (w->cell.axes && !floe__grow((void **)&bp->img, &bp->img_cap, bp->cap, sizeof *bp->img)) return oom(w);
    if (w->cell.axes && bp->npairs) memset(bp->img, 0, sizeof *bp->img * (size_t)bp->npairs);
    if (!w->cell.axes && bp->img) {
        free(bp->img);
        bp->img = NULL;
        bp->img_cap = 0;
    }
    if (w->cell.axes) { /* periodic: the pairs and their images from cell.c */
        floe_status st = floe__cell_pairs(w, skin);
        if (st != FLOE_OK) return st;
        copy_refs(w, 0, np);
    } else if (nlarge) {
        /* large bodies: against each other, then against the cells their
         * box (grown by the largest gridded body and the skin) covers */
        pair_buf o = {bp->pairs, bp->npairs, bp->cap};
        for (int i = 0; ok && i < np; i++) {
            if (bp->cell_of[i] != -2) continue;
            for (int j = i + 1; ok && j < np; j++)
                if (bp->cell_of[j] == -2 && near(w, ext, i, j, skin)) ok = push_ordered(&o, w, i, j);
            if (ns == 0) continue;
            vec3 m = vadd(extent_of(w, ext, i), v3(rmax + skin, rmax + skin, rmax + skin));
            vec3 blo = vsub(w->pos[i], m), bhi = vadd(w->pos[i], m);
            cell_box cb;
            if (!box_cells(&g, blo, bhi, &cb)) continue;
            for (int cz = cb.z0; cz <= cb.z1; cz++)
                for (int cy = cb.y0; cy <= cb.y1; cy++)
                    for (int cx = cb.x0; cx <= cb.x1; cx++) {
                        int c = cx + g.nx * (cy + g.ny * cz);
                        for (int k = bp->cell_start[c]; ok && k < bp->cell_start[c + 1]; k++) {
                            int j = bp->cell_items[k];
                            if (near(w, ext, i, j, skin)) ok = push_ordered(&o, w, i, j);
                        }
                    }
        }
        bp->pairs = o.p;
        bp->npairs = o.n;
        bp->cap = o.cap;
        if (!ok) return oom(w);
    }
    if (!link_contacts(w)) return oom(w);
    floe_broadphase_sort_contacts(w);
    bp->valid = 1;
    return FLOE_OK;
}
