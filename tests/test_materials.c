/* The common material block and the one mixing rule
 * (docs/decisions.md#one-common-material-block-and-one-mixing-rule):
 * every schema starts with the common rows its model reads, a common row a
 * model does not read is stored all the same (API, scene with a warning,
 * restart), the Linear model of a mixed pair reads it, and the mixing rule
 * gives what each rule's formula says. Exact comparisons: the values are
 * set, stored and combined, nothing is integrated. */
#include "check.h"
#include "floe/floe.h"
#include "io/scene.h"
#include "models/model.h"

static int has_key(const floe_model_info *m, const char *key) {
    for (int i = 0; i < m->n_mat_params; i++)
        if (!strcmp(m->mat_params[i].key, key)) return 1;
    return 0;
}

/* Every schema: density, young first; the rows named unread are out of it. */
static void test_schemas(void) {
    for (int i = 0; i < floe_model_count(); i++) {
        const floe_model_info *m = floe_model_get(i);
        CHECK(m->n_mat_params >= 2 && !strcmp(m->mat_params[0].key, "density") &&
              !strcmp(m->mat_params[1].key, "young"));
    }
    CHECK(!has_key(floe_model_find("linel6"), "tan_phi") && has_key(floe_model_find("linel6"), "kt_div_kn"));
    CHECK(!has_key(floe_model_find("hertz"), "kt_div_kn") && has_key(floe_model_find("hertz"), "tan_phi"));
    CHECK(has_key(floe_model_find("softbond"), "tan_phi") && !has_key(floe_model_find("softbond"), "fric"));
    const floe_model *h = floe_registry_get(floe_registry_find("hertz"));
    /* stored rows: the four common ones, then poisson, restitution, rolling_friction */
    CHECK(floe_mat_rows(h) == 7 && !strcmp(floe_mat_spec(h, MAT_KT_DIV_KN)->key, "kt_div_kn") &&
          !strcmp(floe_mat_spec(h, MAT_TAN_PHI)->key, "tan_phi") &&
          !strcmp(floe_mat_spec(h, MAT_COMMON_COUNT)->key, "poisson") && floe_mat_spec(h, 7) == NULL);
    CHECK(floe_mat_find(h, "kt_div_kn") == MAT_KT_DIV_KN && floe_mat_find(h, "fric") == -1);
}

/* The one mixing rule, by its formulas; NONE is not a value rule. */
static void test_mixing(void) {
    const floe_model *sb = floe_registry_get(floe_registry_find("softbond"));
    const floe_model *ice = floe_registry_get(floe_registry_find("ice"));
    double a[FLOE_MAX_MAT_PARAMS] = {0}, b[FLOE_MAX_MAT_PARAMS] = {0};
    a[MAT_KT_DIV_KN] = 0.2, b[MAT_KT_DIV_KN] = 0.5;
    a[MAT_TAN_PHI] = 0.7, b[MAT_TAN_PHI] = 0.3;
    CHECK(floe_mat_pair(sb, a, b, MAT_KT_DIV_KN) == 0.5 * (0.2 + 0.5)); /* mean */
    CHECK(floe_mat_pair(sb, a, b, MAT_TAN_PHI) == 0.3);                 /* min */
    CHECK(isnan(floe_mat_pair(sb, a, b, MAT_YOUNG)));                   /* in the model's formula */
    /* soft-bond's kn (row 4): series of two, else the one given */
    a[4] = 3e9, b[4] = 6e9;
    CHECK(floe_mat_pair(sb, a, b, 4) == 3e9 * 6e9 / 9e9);
    b[4] = 0;
    CHECK(floe_mat_pair(sb, a, b, 4) == 3e9 && floe_mat_pair(sb, b, a, 4) == 3e9);
    /* Ice: break_n (row 4) mean, mu (row 10) min */
    a[4] = 1e-4, b[4] = 3e-4, a[10] = 0.05, b[10] = 0.02;
    CHECK(floe_mat_pair(ice, a, b, 4) == 0.5 * (1e-4 + 3e-4) && floe_mat_pair(ice, a, b, 10) == 0.02);
}

/* A LinEl6 material keeps tan_phi for a mixed pair (the API sets and reads
 * it; the mixed pair's friction is checked in tests/models/linear.yaml), a
 * Hertz material kt_div_kn. */
static void test_unread_rows(void) {
    floe_world *w = floe_world_create(NULL);
    int l6 = floe_add_material(w, "l6", "linel6");
    CHECK(floe_material_get(w, l6, "tan_phi") == 0.5); /* the block's default */
    CHECK(floe_material_set(w, l6, "tan_phi", 0.125) == FLOE_OK && floe_material_get(w, l6, "tan_phi") == 0.125);
    CHECK(floe_material_set(w, l6, "tan_phi", -1) == FLOE_ERR_ARG); /* the block's range */
    CHECK(floe_material_set(w, l6, "fric", 0.1) == FLOE_ERR_ARG);
    int h = floe_add_material(w, "h", "hertz");
    CHECK(floe_material_get(w, h, "kt_div_kn") == 0.2 && floe_material_set(w, h, "kt_div_kn", 0.3) == FLOE_OK);
    floe_world_destroy(w);
}

/* The scene accepts such a row with a warning, a key no model stores with an error. */
static void test_scene(void) {
    const char *path = "materials_unread.yaml";
    FILE *f = fopen(path, "w");
    fputs("world: {dt: 1e-6}\n"
          "run: {steps: 1}\n"
          "materials:\n"
          "  - {name: a, model: linel6, tan_phi: 0.25}\n"
          "  - {name: b, model: hertz, kt_div_kn: 0.3}\n"
          "particles:\n"
          "  - {material: a, pos: [0, 0, 0], radius: 0.01}\n",
          f);
    fclose(f);
    floe_scene s;
    char err[512] = "";
    CHECK(floe_scene_load(path, &s, err, sizeof err) == 0);
    if (!err[0]) {
        CHECK(s.warnings && strstr(s.warnings, "materials[0].tan_phi: model linel6 does not read tan_phi"));
        CHECK(s.warnings && strstr(s.warnings, "materials[1].kt_div_kn: model hertz does not read kt_div_kn"));
        CHECK(floe_material_get(s.world, 0, "tan_phi") == 0.25 && floe_material_get(s.world, 1, "kt_div_kn") == 0.3);
        floe_scene_free(&s);
    } else {
        fprintf(stderr, "%s\n", err);
    }
    f = fopen(path, "w");
    fputs("world: {dt: 1e-6}\n"
          "run: {steps: 1}\n"
          "materials:\n"
          "  - {name: a, model: softbond, tan_phi: 0.25, fric: 0.25}\n",
          f);
    fclose(f);
    /* soft-bond's friction is tan_phi; its former name fric beside it is refused */
    CHECK(floe_scene_load(path, &s, err, sizeof err) != 0 && strstr(err, "give tan_phi or its former name fric"));
    remove(path);
}

int main(void) {
    test_schemas();
    test_mixing();
    test_unread_rows();
    test_scene();
    return check_failures ? 1 : 0;
}
