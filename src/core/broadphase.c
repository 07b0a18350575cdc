/* Broad phase: a uniform cell grid builds a Verlet pair list that stays valid
 * until some body moved more than half the skin. Boundaries stay off the
 * grid: infinite ones (walls, cylinders) test every gridded body, finite
 * ones (facets) the cells their box covers, each with its class's test.
 * Pairs are produced in a deterministic order, in narrow-phase (A, B) order. */
#include "core/broadphase.h"
#include "core/cell.h"

#include <stdlib.h>
#include <string.h>

static int push_pair(floe_broadphase *bp, int a, int b) {
    if (!floe__grow((void **)&bp->pairs, &bp->cap, bp->npairs + 1, sizeof *bp->pairs)) return 0;
    bp->pairs[bp->npairs++] = (floe_pair){a, b, -1};
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

int floe_broadphase_needs_rebuild(const floe_world *w) {
    /* max_moved2 comes from the integrator's pass over the bodies; a
     * deforming periodic cell moves images by the drift of its vectors */
    if (w->cell.axes && w->bp.valid) {
        double lim = 0.5 * (w->skin - floe__cell_drift(w));
        return !(lim >= 0 && w->bp.max_moved2 <= lim * lim);
    }
    return !w->bp.valid || !(w->bp.max_moved2 <= 0.25 * w->skin * w->skin); /* NaN also triggers */
}

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

/* Links existing contacts to the new pairs through a temporary hash. */
static int link_contacts(floe_world *w) {
    floe_broadphase *bp = &w->bp;
    for (int k = 0; k < w->ncon; k++) w->ccold[k].nbr = -1;
    if (w->ncon == 0) return 1;
    size_t cap = 16;
    while (cap < 2 * (size_t)w->ncon) cap *= 2;
    int *table = malloc(cap * sizeof *table);
    if (!table) return 0;
    memset(table, -1, cap * sizeof *table);
    for (int k = 0; k < w->ncon; k++) {
        uint64_t key = ((uint64_t)(uint32_t)w->con[k].a << 32) | (uint32_t)w->con[k].b;
        size_t h = (size_t)(key * 0x9E3779B97F4A7C15ull) & (cap - 1);
        while (table[h] >= 0) h = (h + 1) & (cap - 1);
        table[h] = k;
    }
    for (int p = 0; p < bp->npairs; p++) {
        uint64_t key = ((uint64_t)(uint32_t)bp->pairs[p].a << 32) | (uint32_t)bp->pairs[p].b;
        size_t h = (size_t)(key * 0x9E3779B97F4A7C15ull) & (cap - 1);
        for (; table[h] >= 0; h = (h + 1) & (cap - 1)) {
            floe_contact *c = &w->con[table[h]];
            if (c->a == bp->pairs[p].a && c->b == bp->pairs[p].b) {
                bp->pairs[p].contact = table[h];
                w->ccold[table[h]].nbr = p;
                break;
            }
        }
    }
    free(table);
    return 1;
}

/* Puts the contacts in pair-list order (the pair list follows the cell
 * grid), contacts without a pair last: neighbouring contacts then touch
 * neighbouring bodies, and the order stays deterministic. Skipped, keeping
 * the current order, if the temporary copy cannot be allocated. */
static void sort_contacts(floe_world *w) {
    floe_broadphase *bp = &w->bp;
    int n = w->ncon;
    if (n < 2) return;
    /* the new place of every contact, then the permutation applied in place
     * by following its cycles: no second copy of the contacts (peak memory) */
    int *dest = malloc(sizeof *dest * (size_t)n);
    unsigned char *tmp = malloc(w->cstride);
    if (!dest || !tmp) {
        free(dest);
        free(tmp);
        return;
    }
    int j = 0;
    for (int p = 0; p < bp->npairs; p++) {
        int k = bp->pairs[p].contact;
        if (k < 0) continue;
        dest[k] = j;
        bp->pairs[p].contact = j++;
    }
    for (int k = 0; k < n; k++)
        if (w->ccold[k].nbr < 0) dest[k] = j++;
    for (int k = 0; k < n; k++)
        while (dest[k] != k) { /* swap k into its place d; k receives d's contact */
            int d = dest[k];
            floe_contact c = w->con[d];
            w->con[d] = w->con[k];
            w->con[k] = c;
            floe_contact_warm y = w->cwarm[d];
            w->cwarm[d] = w->cwarm[k];
            w->cwarm[k] = y;
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
    free(dest);
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
static int push_ordered(floe_broadphase *bp, const floe_world *w, int i, int j) {
    int ri = floe_shape_rank(w->shape[i]), rj = floe_shape_rank(w->shape[j]);
    if (ri > rj || (ri == rj && i > j)) {
        int t = i;
        i = j;
        j = t;
    }
    /* pairs without a narrow phase (none exist between bodies today) never collide */
    return floe_narrowphase(w->shape[i], w->shape[j]) ? push_pair(bp, i, j) : 1;
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

floe_status floe_broadphase_rebuild(floe_world *w) {
    floe_broadphase *bp = &w->bp;
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
        rmax = fmax(rmax, w->bound[i]);
        vec3 p = w->pos[i];
        lo = v3(fmin(lo.x, p.x), fmin(lo.y, p.y), fmin(lo.z, p.z));
        hi = v3(fmax(hi.x, p.x), fmax(hi.y, p.y), fmax(hi.z, p.z));
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
    /* counting sort of gridded bodies into cells (stable: ids ascend within a cell) */
    memset(bp->cell_start, 0, sizeof(int) * (size_t)(ncells + 1));
    for (int i = 0; i < w->np; i++) {
        if (!(w->bound[i] > 0)) {
            bp->cell_of[i] = -1;
            continue;
        }
        if (w->shape[i] != FLOE_SHAPE_SPHERE) ext[i] = half_extent(w, i);
        if (w->bound[i] > cut) {
            bp->cell_of[i] = -2;
            continue;
        } /* large: off the grid */
        vec3 p = w->pos[i];
        int c = cell_coord(p.x, g.lo.x, g.h, g.nx) +
                g.nx * (cell_coord(p.y, g.lo.y, g.h, g.ny) + g.ny * cell_coord(p.z, g.lo.z, g.h, g.nz));
        bp->cell_of[i] = c;
        bp->cell_start[c + 1]++;
    }
    for (int c = 0; c < ncells; c++) bp->cell_start[c + 1] += bp->cell_start[c];
    {
        int *next = malloc(sizeof(int) * (size_t)ncells);
        if (!next) return oom(w);
        memcpy(next, bp->cell_start, sizeof(int) * (size_t)ncells);
        for (int i = 0; i < w->np; i++)
            if (bp->cell_of[i] >= 0) bp->cell_items[next[bp->cell_of[i]]++] = i;
        free(next);
    }
    /* boundaries (walls, cylinders, facets) against the gridded bodies */
    for (int i = 0; i < w->np; i++) {
        const floe_shape_class *cl = floe__class_of(w, i);
        if (!(cl->flags & FLOE_SHAPE_BOUNDARY)) continue;
        const void *rec = floe__shape_data(w, i);
        floe_pose pose = floe__pose(w, i);
        if (cl->nvertices == 0) { /* infinite */
            for (int j = 0; j < w->np; j++) {
                if (!(w->bound[j] > 0)) continue;
                if (cl->near(rec, &pose, NULL, w->pos[j], extent_of(w, ext, j), w->bound[j], skin) &&
                    !push_ordered(bp, w, i, j))
                    return oom(w);
            }
        } else if (ns + nlarge > 0) {
            vec3 v[FLOE_SHAPE_MAX_VERTICES];
            cl->vertices(rec, &pose, v);
            for (int j = 0; nlarge && j < w->np; j++) { /* large bodies, off the grid */
                if (bp->cell_of[j] != -2) continue;
                if (cl->near(rec, &pose, v, w->pos[j], extent_of(w, ext, j), w->bound[j], skin) &&
                    !push_ordered(bp, w, i, j))
                    return oom(w);
            }
            if (ns == 0) continue;
            /* the corners' box, grown by the boundary's radius (a facet's
             * half thickness), the largest gridded body and the skin */
            double m = w->radius[i] + rmax + skin;
            vec3 flo = v[0], fhi = v[0];
            for (int k = 1; k < cl->nvertices; k++) {
                flo = v3(fmin(flo.x, v[k].x), fmin(flo.y, v[k].y), fmin(flo.z, v[k].z));
                fhi = v3(fmax(fhi.x, v[k].x), fmax(fhi.y, v[k].y), fmax(fhi.z, v[k].z));
            }
            flo = v3(flo.x - m, flo.y - m, flo.z - m);
            fhi = v3(fhi.x + m, fhi.y + m, fhi.z + m);
            cell_box cb;
            if (!box_cells(&g, flo, fhi, &cb)) continue;
            for (int cz = cb.z0; cz <= cb.z1; cz++)
                for (int cy = cb.y0; cy <= cb.y1; cy++)
                    for (int cx = cb.x0; cx <= cb.x1; cx++) {
                        int c = cx + g.nx * (cy + g.ny * cz);
                        for (int s = bp->cell_start[c]; s < bp->cell_start[c + 1]; s++) {
                            int j = bp->cell_items[s];
                            if (cl->near(rec, &pose, v, w->pos[j], extent_of(w, ext, j), w->bound[j], skin) &&
                                !push_ordered(bp, w, i, j))
                                return oom(w);
                        }
                    }
        }
    }
    if (w->cell.axes) { /* periodic: the pairs and their images from cell.c */
        floe_status st = floe__cell_pairs(w, skin);
        if (st != FLOE_OK) return st;
        goto done;
    }
    /* gridded pairs: each body against those of higher id in the 27 cells
     * around it; bounding spheres, then oriented boxes */
    for (int i = 0; i < w->np; i++) {
        int c = bp->cell_of[i];
        if (c < 0) continue;
        int cx = c % g.nx, cy = (c / g.nx) % g.ny, cz = c / (g.nx * g.ny);
        for (int dz = -1; dz <= 1; dz++) {
            int z = cz + dz;
            if (z < 0 || z >= g.nz) continue;
            for (int dy = -1; dy <= 1; dy++) {
                int y = cy + dy;
                if (y < 0 || y >= g.ny) continue;
                for (int dx = -1; dx <= 1; dx++) {
                    int x = cx + dx;
                    if (x < 0 || x >= g.nx) continue;
                    int cc = x + g.nx * (y + g.ny * z);
                    for (int s = bp->cell_start[cc]; s < bp->cell_start[cc + 1]; s++) {
                        int j = bp->cell_items[s];
                        if (j > i && near(w, ext, i, j, skin) && !push_ordered(bp, w, i, j)) return oom(w);
                    }
                }
            }
        }
    }
    /* large bodies: against each other, then against the cells their box
     * (grown by the largest gridded body and the skin) covers */
    for (int i = 0; nlarge && i < w->np; i++) {
        if (bp->cell_of[i] != -2) continue;
        for (int j = i + 1; j < w->np; j++)
            if (bp->cell_of[j] == -2 && near(w, ext, i, j, skin) && !push_ordered(bp, w, i, j)) return oom(w);
        if (ns == 0) continue;
        vec3 m = vadd(extent_of(w, ext, i), v3(rmax + skin, rmax + skin, rmax + skin));
        vec3 blo = vsub(w->pos[i], m), bhi = vadd(w->pos[i], m);
        cell_box cb;
        if (!box_cells(&g, blo, bhi, &cb)) continue;
        for (int cz = cb.z0; cz <= cb.z1; cz++)
            for (int cy = cb.y0; cy <= cb.y1; cy++)
                for (int cx = cb.x0; cx <= cb.x1; cx++)
                    for (int s = bp->cell_start[cx + g.nx * (cy + g.ny * cz)];
                         s < bp->cell_start[cx + g.nx * (cy + g.ny * cz) + 1]; s++) {
                        int j = bp->cell_items[s];
                        if (near(w, ext, i, j, skin) && !push_ordered(bp, w, i, j)) return oom(w);
                    }
    }
done:
    for (int i = 0; i < w->np; i++) {
        bp->ref_pos[i] = w->pos[i];
        bp->ref_ori[i] = w->ori[i];
    }
    if (!link_contacts(w)) return oom(w);
    sort_contacts(w);
    bp->valid = 1;
    return FLOE_OK;
}
