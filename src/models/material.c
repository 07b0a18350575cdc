/* Materials: the common block of rows every material has, the stored
 * rows of a model's materials, and the one mixing rule of pair values
 * (model.h; docs/decisions.md#one-common-material-block-and-one-mixing-rule).
 * On the models' seam with registry.c: the core reads materials through it. */
#include "models/model.h"
#include <string.h>

const floe_mat_row floe_mat_common[MAT_COMMON_COUNT] = {
    {FLOE_MAT_DENSITY, FLOE_MIX_NONE},
    {FLOE_MAT_YOUNG, FLOE_MIX_NONE},
    {FLOE_MAT_KT_DIV_KN, FLOE_MIX_MEAN},
    {FLOE_MAT_TAN_PHI, FLOE_MIX_MIN},
};

static int unread(const floe_model *m, int slot) { return slot < MAT_COMMON_COUNT && (m->mat_unread >> slot & 1u); }

/* Common rows the model does not read below `slot`: schema index = slot - this. */
static int unread_below(const floe_model *m, int slot) {
    int n = 0;
    for (int k = 0; k < slot && k < MAT_COMMON_COUNT; k++) n += unread(m, k);
    return n;
}

int floe_mat_rows(const floe_model *m) { return m->info.n_mat_params + unread_below(m, MAT_COMMON_COUNT); }

const floe_param_spec *floe_mat_spec(const floe_model *m, int slot) {
    if (slot < 0 || slot >= floe_mat_rows(m)) return NULL;
    if (unread(m, slot)) return &floe_mat_common[slot].spec;
    return &m->info.mat_params[slot - unread_below(m, slot)];
}

int floe_mat_find(const floe_model *m, const char *key) {
    if (!key) return -1;
    for (int k = 0; k < floe_mat_rows(m); k++)
        if (strcmp(floe_mat_spec(m, k)->key, key) == 0) return k;
    return -1;
}

double floe_mat_pair(const floe_model *m, const double *ma, const double *mb, int slot) {
    floe_mix rule = slot < MAT_COMMON_COUNT ? floe_mat_common[slot].mix : m->mat_mix[slot - MAT_COMMON_COUNT];
    double a = ma[slot], b = mb[slot];
    switch (rule) {
        case FLOE_MIX_MEAN:
            return 0.5 * (a + b);
        case FLOE_MIX_MIN:
            return fmin(a, b);
        case FLOE_MIX_SERIES:
            if (a > 0 && b > 0) return a * b / (a + b);
            return a > 0 ? a : b;
        case FLOE_MIX_NONE:
            break;
    }
    return NAN;
}

double floe_mat_param(const floe_model *m, const double *mat, const char *key) {
    int k = floe_mat_find(m, key);
    return k >= 0 ? mat[k] : NAN;
}
