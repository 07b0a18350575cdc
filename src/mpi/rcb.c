/* Weighted recursive coordinate bisection (rcb.h). */
#include "mpi/rcb.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    double key;
    int64_t id;
    int i;
} rcb_item;

/* Total order of (coordinate, id): ties in position are cut by the id. */
static int by_key(const void *pa, const void *pb) {
    const rcb_item *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static double coord(floe_vec3 p, int axis) { return axis == 0 ? p.x : axis == 1 ? p.y : p.z; }

/* Parts first .. first + parts - 1 for the bodies idx[0 .. n). */
static void cut(const floe_vec3 *pos, const double *weight, const int64_t *id, int *idx, int n, int first, int parts,
                int *part_of, rcb_item *tmp) {
    if (parts == 1 || n == 0) {
        for (int k = 0; k < n; k++) part_of[idx[k]] = first;
        return;
    }
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int k = 0; k < n; k++)
        for (int a = 0; a < 3; a++) {
            double c = coord(pos[idx[k]], a);
            if (c < lo[a]) lo[a] = c;
            if (c > hi[a]) hi[a] = c;
        }
    int axis = 0;
    for (int a = 1; a < 3; a++)
        if (hi[a] - lo[a] > hi[axis] - lo[axis]) axis = a;
    for (int k = 0; k < n; k++) tmp[k] = (rcb_item){coord(pos[idx[k]], axis), id[idx[k]], idx[k]};
    qsort(tmp, (size_t)n, sizeof *tmp, by_key);
    /* the weights summed in the sorted order: the same bits on every rank */
    double total = 0;
    for (int k = 0; k < n; k++) total += weight[tmp[k].i];
    int low = parts / 2;
    double share = total * low / parts, below = 0;
    int m = 0;
    while (m < n && below + weight[tmp[m].i] <= share) below += weight[tmp[m++].i];
    /* the body that crosses the share goes to the side it overfills less */
    if (m < n && share - below > below + weight[tmp[m].i] - share) m++;
    for (int k = 0; k < n; k++) idx[k] = tmp[k].i;
    cut(pos, weight, id, idx, m, first, low, part_of, tmp);
    cut(pos, weight, id, idx + m, n - m, first + low, parts - low, part_of, tmp);
}

int floe_rcb(const floe_vec3 *pos, const double *weight, const int64_t *id, int n, int parts, int *part_of) {
    if (n < 0 || parts < 1 || (n > 0 && (!pos || !weight || !id || !part_of))) return -1;
    for (int k = 0; k < n; k++)
        if (!(weight[k] > 0) || !isfinite(weight[k]) || !isfinite(pos[k].x) || !isfinite(pos[k].y) ||
            !isfinite(pos[k].z))
            return -1;
    int *idx = malloc(sizeof *idx * (size_t)(n ? n : 1));
    rcb_item *tmp = malloc(sizeof *tmp * (size_t)(n ? n : 1));
    if (!idx || !tmp) {
        free(idx);
        free(tmp);
        return -1;
    }
    for (int k = 0; k < n; k++) idx[k] = k;
    cut(pos, weight, id, idx, n, 0, parts, part_of, tmp);
    free(idx);
    free(tmp);
    return 0;
}

int floe_rcb_weights(const floe_world *w, double *weight) {
    int n = floe_particle_count(w), nc = floe_contact_count(w);
    for (int i = 0; i < n; i++) weight[i] = 1;
    for (int c = 0; c < nc; c++) {
        floe_contact_info ci;
        if (floe_contact_get(w, c, &ci) != FLOE_OK) return -1;
        double cost = ci.bonded ? 2 : 1;
        if (ci.a >= 0 && ci.a < n) weight[ci.a] += cost;
        if (ci.b >= 0 && ci.b < n) weight[ci.b] += cost;
    }
    return 0;
}

double floe_rcb_imbalance(const double *weight, const int *part_of, int n, int parts) {
    double *sum = calloc((size_t)parts, sizeof *sum), total = 0, most = 0;
    if (!sum) return NAN;
    for (int k = 0; k < n; k++) sum[part_of[k]] += weight[k];
    for (int p = 0; p < parts; p++) {
        total += sum[p];
        if (sum[p] > most) most = sum[p];
    }
    free(sum);
    return total > 0 ? most / (total / parts) : 1;
}
