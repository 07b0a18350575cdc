/* Every contact model against its reference file: tests/models/<model>.yaml
 * holds fixed contact configurations (the two bodies' radii and masses,
 * their materials, the law parameters, and per step the gap and the
 * relative velocities in the contact frame, a method to apply if any) with
 * the forces, torques and energies that the published formulas give; the
 * numbers are computed independently of floe by tools/model_reference.py,
 * which writes the files. This program runs each case through the model's
 * create and law, as the contact pass does (create in the first step, with
 * the radii as curvatures and lengths, the area pi min(r_A, r_B)^2), and
 * compares step by step. A case that gives `bodies` (two spheres that
 * keep their velocities and spins) runs instead as a world of those two
 * bodies (run_bodies), whose contact the steps describe.
 *
 * Tolerance: a value passes when |floe - reference| <= 1e-12 max(|reference|,
 * s), s the largest reference value of its kind in the case (force, torque,
 * energy), so that a value near zero is judged on the case's scale; keep,
 * broke and named state values must agree as stated (state: relative
 * 1e-12). A new model gets its test by adding its file (and its formulas to
 * the script); the driver finds every file in the folder. */
#include "check.h"
#include "io/scene_yaml.h"
#include "models/model.h"

#include <dirent.h>

#ifndef FLOE_TEST_MODELS
#define FLOE_TEST_MODELS FLOE_TEST_DATA "/../models"
#endif

enum { K_FORCE, K_TORQUE, K_ENERGY, N_KINDS };

typedef struct step_ref {
    double uN, vel[3], angvel[3];
    const char *method;
    double args[FLOE_MAX_METHOD_ARGS];
    int nargs;
    int keep, broke, contact; /* contact 0: none yet (cases of bodies) */
    double f[3], m[3], e[4];  /* elastic, plastic, dashpot, broken */
    sy_node *state;           /* name: value, or NULL */
} step_ref;

static int cases_run = 0, steps_run = 0;

static double num(sy_doc *d, sy_node *n, const char *where) {
    double v = NAN;
    if (!n || n->type != YAML_SCALAR_NODE || sy_parse_number((const char *)n->data.scalar.value, &v)) {
        sy_error(d, n, "%s: a number", where);
        return NAN;
    }
    return v;
}

static double get_num(sy_doc *d, sy_node *map, const char *key, double def) {
    sy_node *n = sy_get(d, map, key);
    return n ? num(d, n, key) : def;
}

static void get_vec(sy_doc *d, sy_node *map, const char *key, double *out, int n) {
    sy_node *s = sy_get(d, map, key);
    for (int i = 0; i < n; i++) out[i] = 0;
    if (!s) return;
    if (!sy_is_seq(s) || sy_seq_size(s) != n) {
        sy_error(d, s, "%s: a list of %d numbers", key, n);
        return;
    }
    for (int i = 0; i < n; i++) out[i] = num(d, sy_seq_item(d, s, i), key);
}

/* A material of the file's model unless it names its own: that model's
 * defaults, then the keys given. */
static void material(sy_doc *d, sy_node *map, const char *model, double *p) {
    const char *name = model;
    sy_node *mn = sy_get(d, map, "model");
    if (mn) sy_str(d, mn, "model", &name);
    const floe_model *m = floe_registry_get(floe_registry_find(name));
    if (!m) {
        sy_error(d, map, "unknown model '%s'", name);
        return;
    }
    for (int k = 0; k < floe_mat_rows(m); k++) p[k] = floe_mat_spec(m, k)->def;
    for (int i = 0; i < sy_map_size(map); i++) {
        const char *key = (const char *)sy_map_key(d, map, i)->data.scalar.value;
        if (!strcmp(key, "model")) continue;
        int k = floe_mat_find(m, key);
        if (k < 0) sy_error(d, sy_map_key(d, map, i), "model %s has no material key '%s'", name, key);
        else p[k] = num(d, sy_map_value(d, map, i), key);
    }
}

static int same(double got, double want, double scale) { return fabs(got - want) <= 1e-12 * fmax(fabs(want), scale); }

static void compare(const char *file, const char *cname, int step, const char *what, double got, double want,
                    double scale) {
    if (same(got, want, scale)) return;
    check_failures++;
    fprintf(stderr, "%s: case %s, step %d: %s = %.17g, reference %.17g (difference %.3g, allowed %.3g)\n", file, cname,
            step, what, got, want, got - want, 1e-12 * fmax(fabs(want), scale));
}

/* Named state values against the model's get_state output st. */
static void compare_state(sy_doc *d, const char *file, const char *cname, int i, const floe_model *m, sy_node *want,
                          const double *st) {
    for (int j = 0; j < sy_map_size(want); j++) {
        const char *key = (const char *)sy_map_key(d, want, j)->data.scalar.value;
        double v = num(d, sy_map_value(d, want, j), key);
        int k = -1;
        for (int q = 0; q < m->info.n_state; q++)
            if (!strcmp(m->info.state_names[q], key)) k = q;
        if (k < 0) {
            check_failures++;
            fprintf(stderr, "%s: case %s: model %s has no state '%s'\n", file, cname, m->info.name, key);
        } else {
            compare(file, cname, i, key, st[k], v, 0);
        }
    }
}

/* A case given by two bodies: a world of two fully blocked spheres (each
 * keeps its velocity and spin), of the file's model's materials unless a
 * material names its own (a mixed pair: the file is Linear's),
 * evaluated by floe_start and then after every floe_step; the contact's
 * local force and torque (floe_contact_get), its gap, and the energies
 * (floe_energy: elastic now, the others' increase over the step). */
static void run_bodies(sy_doc *d, const char *file, const char *cname, const floe_model *m, sy_node *cs,
                       sy_node *bodies, const double *lp, const step_ref *S, int ns, const double *scale) {
    double pos[2][3], vel[2][3], angvel[2][3];
    const char *key[3] = {"pos", "vel", "angvel"};
    double(*dst[3])[3] = {pos, vel, angvel};
    for (int q = 0; q < 3; q++) {
        sy_node *l = sy_get(d, bodies, key[q]);
        if (!l || !sy_is_seq(l) || sy_seq_size(l) != 2) {
            sy_error(d, bodies, "bodies.%s: a list of two vectors", key[q]);
            return;
        }
        for (int b = 0; b < 2; b++) {
            sy_node *v = sy_seq_item(d, l, b);
            for (int k = 0; k < 3; k++)
                dst[q][b][k] = sy_is_seq(v) && sy_seq_size(v) == 3 ? num(d, sy_seq_item(d, v, k), key[q]) : NAN;
        }
    }
    double r[2];
    get_vec(d, cs, "radii", r, 2);
    floe_world_def def = floe_default_world_def();
    def.dt = get_num(d, cs, "dt", NAN);
    def.threads = 1;
    floe_world *w = floe_world_create(&def);
    CHECK(w != NULL);
    if (!w) return;
    sy_node *mats = sy_get(d, cs, "materials");
    for (int b = 0; b < 2; b++) {
        sy_node *mm = sy_seq_item(d, mats, b), *mn = sy_get(d, mm, "model");
        const char *model = m->info.name;
        if (mn) sy_str(d, mn, "model", &model);
        int id = floe_add_material(w, b ? "b" : "a", model); /* two models: the pair's is Linear */
        for (int i = 0; i < sy_map_size(mm); i++) {
            const char *k = (const char *)sy_map_key(d, mm, i)->data.scalar.value;
            if (strcmp(k, "model")) CHECK(floe_material_set(w, id, k, num(d, sy_map_value(d, mm, i), k)) == FLOE_OK);
        }
        floe_body_def bd = floe_default_body_def();
        bd.pos = (floe_vec3){pos[b][0], pos[b][1], pos[b][2]};
        bd.vel = (floe_vec3){vel[b][0], vel[b][1], vel[b][2]};
        bd.angvel = (floe_vec3){angvel[b][0], angvel[b][1], angvel[b][2]};
        bd.material = id;
        bd.blocked = FLOE_DOF_ALL;
        CHECK(floe_add_sphere(w, &bd, r[b]) == b);
    }
    for (int k = 0; k < m->info.n_law_params; k++)
        CHECK(floe_model_set(w, m->info.name, m->info.law_params[k].key, lp[k]) == FLOE_OK);
    double e0[FLOE_E_COUNT] = {0}, e1[FLOE_E_COUNT], uscale = 0, *st = calloc((size_t)m->info.n_state + 1, sizeof *st);
    for (int i = 0; i < ns; i++) uscale = S[i].contact ? fmax(uscale, fabs(S[i].uN)) : uscale;
    for (int i = 0; i < ns && !d->failed; i++) {
        const step_ref *s = &S[i];
        CHECK((i == 0 ? floe_start(w) : floe_step(w)) == FLOE_OK);
        steps_run++;
        floe_energy(w, e1);
        int k = floe_contact_find(w, 0, 1);
        int want = s->contact && s->keep;
        if ((k >= 0) != want) {
            check_failures++;
            fprintf(stderr, "%s: case %s, step %d: contact %s, reference %s\n", file, cname, i,
                    k >= 0 ? "present" : "absent", want ? "present" : "absent");
            break;
        }
        if (s->contact) {
            double ge[4] = {e1[FLOE_E_ELASTIC], e1[FLOE_E_PLASTIC] - e0[FLOE_E_PLASTIC],
                            e1[FLOE_E_DASHPOT] - e0[FLOE_E_DASHPOT], e1[FLOE_E_BROKEN] - e0[FLOE_E_BROKEN]};
            static const char *const en[4] = {"elastic", "plastic", "dashpot", "broken"};
            for (int q = 0; q < 4; q++) compare(file, cname, i, en[q], ge[q], s->e[q], scale[K_ENERGY]);
        }
        memcpy(e0, e1, sizeof e0);
        if (k < 0) continue;
        floe_contact_info c;
        CHECK(floe_contact_get(w, k, &c) == FLOE_OK && c.a == 0);
        double gf[3] = {c.force.x, c.force.y, c.force.z}, gm[3] = {c.torque.x, c.torque.y, c.torque.z};
        static const char *const fn[3] = {"f.x", "f.y", "f.z"}, *const mn[3] = {"m.x", "m.y", "m.z"};
        compare(file, cname, i, "uN", c.uN, s->uN, uscale);
        for (int q = 0; q < 3; q++) {
            compare(file, cname, i, fn[q], gf[q], s->f[q], scale[K_FORCE]);
            compare(file, cname, i, mn[q], gm[q], s->m[q], scale[K_TORQUE]);
        }
        if (s->state) {
            CHECK(floe_contact_state(w, k, st, m->info.n_state) == m->info.n_state);
            compare_state(d, file, cname, i, m, s->state, st);
        }
    }
    cases_run++;
    free(st);
    floe_world_destroy(w);
}

static void run_case(sy_doc *d, const char *file, const floe_model *m, sy_node *cs) {
    const char *cname = "?";
    sy_node *nn = sy_get(d, cs, "name");
    if (nn) sy_str(d, nn, "name", &cname);
    double dt = get_num(d, cs, "dt", NAN), r[2], mass[2];
    int dim = (int)get_num(d, cs, "dim", 3);
    get_vec(d, cs, "radii", r, 2);
    get_vec(d, cs, "masses", mass, 2);
    double ma[FLOE_MAX_MAT_PARAMS] = {0}, mb[FLOE_MAX_MAT_PARAMS] = {0};
    sy_node *mats = sy_get(d, cs, "materials");
    if (!mats || !sy_is_seq(mats) || sy_seq_size(mats) != 2) {
        sy_error(d, cs, "materials: a list of two");
        return;
    }
    material(d, sy_seq_item(d, mats, 0), m->info.name, ma);
    material(d, sy_seq_item(d, mats, 1), m->info.name, mb);
    double lp[FLOE_MAX_LAW_PARAMS] = {0};
    for (int k = 0; k < m->info.n_law_params; k++) lp[k] = m->info.law_params[k].def;
    sy_node *law = sy_get(d, cs, "law");
    for (int i = 0; law && i < sy_map_size(law); i++) {
        const char *key = (const char *)sy_map_key(d, law, i)->data.scalar.value;
        int k = -1;
        for (int j = 0; j < m->info.n_law_params; j++)
            if (!strcmp(m->info.law_params[j].key, key)) k = j;
        if (k < 0) sy_error(d, sy_map_key(d, law, i), "model %s has no law key '%s'", m->info.name, key);
        else lp[k] = num(d, sy_map_value(d, law, i), key);
    }
    sy_node *steps = sy_get(d, cs, "steps");
    if (!steps || !sy_is_seq(steps)) {
        sy_error(d, cs, "steps: a list");
        return;
    }
    int ns = sy_seq_size(steps);
    step_ref *S = calloc((size_t)ns, sizeof *S);
    double scale[N_KINDS] = {0};
    for (int i = 0; i < ns; i++) {
        sy_node *sn = sy_seq_item(d, steps, i);
        step_ref *s = &S[i];
        s->uN = get_num(d, sn, "uN", NAN);
        get_vec(d, sn, "vel", s->vel, 3);
        get_vec(d, sn, "angvel", s->angvel, 3);
        sy_node *mt = sy_get(d, sn, "method");
        if (mt && sy_is_seq(mt) && sy_seq_size(mt) >= 1 && sy_seq_size(mt) <= FLOE_MAX_METHOD_ARGS + 1) {
            sy_str(d, sy_seq_item(d, mt, 0), "method", &s->method);
            s->nargs = sy_seq_size(mt) - 1;
            for (int k = 0; k < s->nargs; k++) s->args[k] = num(d, sy_seq_item(d, mt, k + 1), "method");
        }
        s->contact = (int)get_num(d, sn, "contact", 1);
        if (!s->contact) continue;
        s->keep = (int)get_num(d, sn, "keep", 1);
        s->broke = (int)get_num(d, sn, "broke", 0);
        get_vec(d, sn, "f", s->f, 3);
        get_vec(d, sn, "m", s->m, 3);
        static const char *const ek[4] = {"elastic", "plastic", "dashpot", "broken"};
        for (int k = 0; k < 4; k++) s->e[k] = get_num(d, sn, ek[k], 0);
        s->state = sy_get(d, sn, "state");
        for (int k = 0; k < 3; k++) {
            scale[K_FORCE] = fmax(scale[K_FORCE], fabs(s->f[k]));
            scale[K_TORQUE] = fmax(scale[K_TORQUE], fabs(s->m[k]));
        }
        for (int k = 0; k < 4; k++) scale[K_ENERGY] = fmax(scale[K_ENERGY], fabs(s->e[k]));
    }
    if (d->failed) {
        free(S);
        return;
    }
    sy_node *bodies = sy_get(d, cs, "bodies");
    if (bodies) {
        run_bodies(d, file, cname, m, cs, bodies, lp, S, ns, scale);
        free(S);
        return;
    }

    /* the contact as the contact pass holds it */
    floe_contact c = {.a = 0, .b = 1};
    floe_contact_warm warm = {.area = FLOE_PI * fmin(r[0], r[1]) * fmin(r[0], r[1])};
    void *state = calloc(1, m->state_size > 0 ? m->state_size : 1);
    double *st = calloc((size_t)m->info.n_state + 1, sizeof *st);
    floe_geom g = {.n = v3(1, 0, 0), .t1 = v3(0, 1, 0), .c = v3(r[0], 0, 0)};
    floe_event_load ld;
    floe_law_ctx ctx = {.dt = dt, .dim = dim, .lp = lp, .warm = &warm, .g = &g, .event_load = &ld};
    ctx.lens[0] = r[0], ctx.lens[1] = r[1];
    for (int k = 0; k < 2; k++) ctx.mass[k] = mass[k] > 0 ? mass[k] : INFINITY; /* 0: does not move freely */
    for (int i = 0; i < ns; i++) {
        const step_ref *s = &S[i];
        floe_energy_acc e = {0, 0, 0, 0};
        ctx.step = i;
        ctx.fresh = i == 0;
        ctx.curv[0] = i == 0 ? r[0] : NAN;
        ctx.curv[1] = i == 0 ? r[1] : NAN;
        ctx.vel = v3(s->vel[0], s->vel[1], s->vel[2]);
        ctx.angvel = v3(s->angvel[0], s->angvel[1], s->angvel[2]);
        g.uN = s->uN;
        ld.set = 0;
        c.flags &= (uint8_t)~CF_TRANSIENT;
        if (i == 0) {
            c.flags |= CF_NEW;
            m->create(&ctx, ma, mb, &c, state);
        }
        if (s->method) {
            CHECK(m->method && m->method(s->method, s->args, s->nargs, &ctx, &c, state) == 0);
        }
        int keep = m->law(&ctx, &c, state, &e);
        steps_run++;
        if (keep != s->keep || ((c.flags & CF_BROKE) != 0) != s->broke) {
            check_failures++;
            fprintf(stderr, "%s: case %s, step %d: keep %d broke %d, reference keep %d broke %d\n", file, cname, i,
                    keep, (c.flags & CF_BROKE) != 0, s->keep, s->broke);
        }
        double ge[4] = {e.elastic, e.plastic, e.dashpot, e.broken};
        static const char *const en[4] = {"elastic", "plastic", "dashpot", "broken"};
        static const char *const fn[3] = {"f.x", "f.y", "f.z"}, *const mn[3] = {"m.x", "m.y", "m.z"};
        for (int k = 0; k < 4; k++) compare(file, cname, i, en[k], ge[k], s->e[k], scale[K_ENERGY]);
        if (!keep) break; /* the contact goes: its force is not applied */
        double gf[3] = {c.f.x, c.f.y, c.f.z}, gm[3] = {warm.m.x, warm.m.y, warm.m.z};
        for (int k = 0; k < 3; k++) {
            compare(file, cname, i, fn[k], gf[k], s->f[k], scale[K_FORCE]);
            compare(file, cname, i, mn[k], gm[k], s->m[k], scale[K_TORQUE]);
        }
        if (s->state) {
            m->get_state(&c, &g, &warm, state, st);
            compare_state(d, file, cname, i, m, s->state, st);
        }
    }
    cases_run++;
    free(st);
    free(state);
    free(S);
}

static void run_file(const char *dir, const char *name) {
    char path[1024], err[1024] = "";
    snprintf(path, sizeof path, "%s/%s", dir, name);
    sy_doc d;
    if (sy_load(&d, path, err, sizeof err)) {
        check_failures++;
        fprintf(stderr, "%s\n", err);
        return;
    }
    sy_node *root = sy_root(&d);
    const char *model = NULL;
    sy_node *mn = sy_get(&d, root, "model");
    if (mn) sy_str(&d, mn, "model", &model);
    const floe_model *m = model ? floe_registry_get(floe_registry_find(model)) : NULL;
    sy_node *cases = sy_get(&d, root, "cases");
    if (!m || !cases || !sy_is_seq(cases)) {
        check_failures++;
        fprintf(stderr, "%s: needs 'model' (a registered model) and 'cases' (a list)\n", path);
    } else {
        for (int i = 0; i < sy_seq_size(cases) && !d.failed; i++) run_case(&d, path, m, sy_seq_item(&d, cases, i));
    }
    if (d.failed) {
        check_failures++;
        fprintf(stderr, "%s\n", err);
    }
    sy_free(&d);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(void) {
    const char *dir = FLOE_TEST_MODELS;
    DIR *dp = opendir(dir);
    CHECK(dp != NULL);
    if (!dp) return 1;
    char *names[64];
    int n = 0;
    for (struct dirent *e; (e = readdir(dp)) && n < 64;) {
        size_t l = strlen(e->d_name);
        if (l > 5 && !strcmp(e->d_name + l - 5, ".yaml")) names[n++] = strdup(e->d_name);
    }
    closedir(dp);
    qsort(names, (size_t)n, sizeof *names, by_name);
    /* every registered model has its file */
    for (int i = 0; i < floe_registry_count(); i++) {
        char want[128];
        snprintf(want, sizeof want, "%s.yaml", floe_registry_get(i)->info.name);
        int found = 0;
        for (int j = 0; j < n; j++) found |= !strcmp(names[j], want);
        if (!found) {
            check_failures++;
            fprintf(stderr, "%s/%s: missing (every registered model has its reference file)\n", dir, want);
        }
    }
    for (int j = 0; j < n; j++) {
        run_file(dir, names[j]);
        free(names[j]);
    }
    printf("model reference: %d files, %d cases, %d steps\n", n, cases_run, steps_run);
    CHECK(cases_run > 0);
    return check_failures ? 1 : 0;
}
