/* Restart files: for every registered contact model, running 2N steps equals
 * running N, writing a restart, loading it into a new world and running N
 * more, bit for bit (particles, contacts with their model state, pair list,
 * dt, energy). Then the CLI: a run stopped and resumed twice writes the
 * same files, byte for byte, as a run that never stopped; runaways (a
 * particle leaving the domain) stop with a message, a runaway restart and
 * exit status 1; damaged restart files are refused, never crash. */
#include "check.h"
#include <floe/floe_snapshot.h>
#include "core/world.h"
#include "io/restart.h"
#include "proc.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp[256];

/* Deterministic pseudo-random numbers in [0, 1). */
static double rnd(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static void set_if(floe_world *w, int mat, const char *key, double v) {
    if (!isnan(floe_material_get(w, mat, key))) CHECK(floe_material_set(w, mat, key, v) == FLOE_OK);
}

/* A bed of spheres with small gaps (bonded by ice/softbond), dropped on a
 * floor and a tilted facet, with a capsule, an ellipsoid and an infinite
 * cylinder, a driven group and a loaded group: contacts are created, slip,
 * break and are deleted during the run. */
static floe_world *build(const char *model) {
    floe_world_def def = floe_default_world_def();
    def.gravity = (floe_vec3){0, 0, -9.81};
    def.dt = 0; /* auto: dt changes during the run */
    def.dt_safety = 0.4;
    def.dyn_dt_period = 37; /* not a divisor of the restart steps */
    def.damping = 0.02;
    def.renorm_period = 13;
    def.threads = 1;
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "m", model);
    int steel = floe_add_material(w, "steel", "linear");
    CHECK(m == 0 && steel == 1);
    set_if(w, m, "density", 2000);
    set_if(w, m, "young", 2e6);
    set_if(w, m, "tan_phi", 0.4);
    set_if(w, m, "fric", 0.4);
    set_if(w, m, "break_n", 2e-3);
    set_if(w, m, "kn", 2e8);
    set_if(w, m, "ks", 1e8);
    CHECK(floe_material_set(w, steel, "young", 5e6) == FLOE_OK);
    if (!strcmp(model, "ice")) {
        CHECK(floe_model_set(w, "ice", "bonds0", 255) == FLOE_OK);
        CHECK(floe_model_set(w, "ice", "bond_tol", 0.2) == FLOE_OK);
    }
    if (!strcmp(model, "linel6")) CHECK(floe_model_set(w, "linel6", "char_len", 1e-4) == FLOE_OK);
    if (!strcmp(model, "linear")) CHECK(floe_model_set(w, "linear", "dp_nratio", 0.1) == FLOE_OK);
    if (!strcmp(model, "softbond")) {
        CHECK(floe_model_set(w, "softbond", "proximity", 5e-4) == FLOE_OK);
        CHECK(floe_model_set(w, "softbond", "sb_ten", 2e4) == FLOE_OK);
        CHECK(floe_model_set(w, "softbond", "sb_coh", 2e4) == FLOE_OK);
        CHECK(floe_model_set(w, "softbond", "sb_soft", 0.5) == FLOE_OK);
        CHECK(floe_model_set(w, "softbond", "sb_cut", 0.5) == FLOE_OK);
    }
    /* a model method at a step (soft-bond: bond what touches) */
    if (floe_registry_get(floe_registry_find(model))->n_methods > 0 &&
        !strcmp(floe_registry_get(floe_registry_find(model))->method_names[0], "bond")) {
        double gap = 1e-3; /* bond pairs closer than this */
        CHECK(floe_schedule_method(w, 4, model, "bond", -1, &gap, 1) == FLOE_OK);
    }
    /* interactions: steel against the bed through a pair override */
    CHECK(floe_pair_set_model(w, m, steel, "linear") == FLOE_OK);
    CHECK(floe_pair_set(w, m, steel, "dp_nratio", 0.2) == FLOE_OK);

    int piston = floe_add_group(w, "piston"), loaded = floe_add_group(w, "loaded");
    floe_body_def d = floe_default_body_def();
    d.material = steel;
    floe_add_wall(w, &d, 2, 1);
    floe_vec3 v[3] = {{-0.05, -0.05, 0.0}, {0.12, -0.05, 0.03}, {-0.05, 0.12, 0.0}};
    d.groups = 0;
    CHECK(floe_add_facet(w, &d, v, 0.001) >= 0);
    uint64_t seed = 12345;
    d.material = m;
    double r = 0.01;
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 4; i++) {
                d.pos = (floe_vec3){i * 2.0004 * r, j * 2.0004 * r, 0.03 + k * 2.0004 * r};
                d.vel = (floe_vec3){0.05 * (rnd(&seed) - 0.5), 0.05 * (rnd(&seed) - 0.5), -0.2};
                d.angvel = (floe_vec3){rnd(&seed), rnd(&seed), rnd(&seed)};
                d.groups = (i == 0 && j == 0) ? 1u << loaded : 0;
                CHECK(floe_add_sphere(w, &d, r * (0.97 + 0.03 * rnd(&seed))) >= 0);
            }
    /* aspherical bodies dropped on the bed, an infinite cylinder beside it */
    d.groups = 0;
    d.pos = (floe_vec3){0.02, 0.03, 0.1};
    d.vel = (floe_vec3){0, 0, -0.3};
    d.angvel = (floe_vec3){1, 2, 3};
    CHECK(floe_add_capsule(w, &d, 0.008, 0.02) >= 0);
    d.pos = (floe_vec3){0.04, 0.02, 0.112};
    CHECK(floe_add_ellipsoid(w, &d, (floe_vec3){0.012, 0.008, 0.006}) >= 0);
    d.material = steel;
    d.pos = (floe_vec3){0.075, 0, 0.012};
    d.vel = d.angvel = (floe_vec3){0, 0, 0};
    CHECK(floe_add_infcylinder(w, &d, 1, 0.01) >= 0);
    d.material = m;
    /* a driven sphere that plows through the bed */
    d.pos = (floe_vec3){-0.03, 0.03, 0.05};
    d.vel = d.angvel = (floe_vec3){0, 0, 0};
    d.groups = 1u << piston;
    CHECK(floe_add_sphere(w, &d, 0.012) >= 0);
    floe_motion mo = floe_default_motion();
    mo.vel = (floe_vec3){0.4, 0, -0.05};
    mo.t_start = 0.002;
    CHECK(floe_group_set_motion(w, piston, &mo) == FLOE_OK);
    CHECK(floe_group_set_load(w, loaded, (floe_vec3){0.5, 0, 0}, (floe_vec3){0, 0, 1e-4}) == FLOE_OK);
    return w;
}

/* Bitwise equality of everything step() reads. Reports the first difference. */
static int same(const floe_world *a, const floe_world *b, const char *model) {
    int ok = 1;
#define SAME(cond, what)                                               \
    do {                                                               \
        if (!(cond)) {                                                 \
            if (ok) fprintf(stderr, "%s: differs: %s\n", model, what); \
            ok = 0;                                                    \
        }                                                              \
    } while (0)
#define SAMEMEM(x, y, n, what) SAME((n) == 0 || memcmp((x), (y), (n)) == 0, what)
    SAME(a->step == b->step && a->time == b->time && a->dt == b->dt && a->last_dyn_dt == b->last_dyn_dt,
         "step/time/dt");
    SAME(a->np == b->np && a->ncon == b->ncon && a->bp.npairs == b->bp.npairs, "counts");
    if (!ok) return 0;
    size_t n = (size_t)a->np;
    SAMEMEM(a->pos, b->pos, n * sizeof(vec3), "pos");
    SAMEMEM(a->vel, b->vel, n * sizeof(vec3), "vel");
    SAMEMEM(a->angvel, b->angvel, n * sizeof(vec3), "angvel");
    SAMEMEM(a->ori, b->ori, n * sizeof(quat), "ori");
    SAMEMEM(a->force, b->force, n * sizeof(vec3), "force");
    SAMEMEM(a->torque, b->torque, n * sizeof(vec3), "torque");
    SAMEMEM(a->blocked, b->blocked, n * sizeof(uint32_t), "blocked");
    SAMEMEM(a->mass, b->mass, n * sizeof(double), "mass");
    for (int k = 0; k < a->ncon && ok; k++) {
        const floe_contact *x = &a->con[k], *y = &b->con[k];
        floe_contact_warm xo, yo; /* kept or implied (core/world.h) */
        const floe_contact_warm *xw = floe__warm(a, k, &xo), *yw = floe__warm(b, k, &yo);
        const floe_contact_cold *xc = &a->ccold[k], *yc = &b->ccold[k];
        /* the whole geometry: stored, or as the positions give it (core/world.h) */
        const floe_geom xg = floe__contact_geom(a, k), yg = floe__contact_geom(b, k);
        SAMEMEM(&xg, &yg, sizeof xg, "contact geometry");
        double xl[2], yl[2]; /* lens and images: kept or implied */
        const floe_img xi = floe__contact_img(a, k), yi = floe__contact_img(b, k);
        floe__contact_lens(a, k, xl);
        floe__contact_lens(b, k, yl);
        SAME(!memcmp(xl, yl, sizeof xl) && !memcmp(&xw->area, &yw->area, sizeof xw->area), "contact sizes");
        SAME(!memcmp(&x->f, &y->f, sizeof x->f) && !memcmp(&xw->m, &yw->m, sizeof xw->m), "contact forces");
        SAME(x->kn == y->kn && x->kt == y->kt && xw->kw == yw->kw && xw->kr == yw->kr, "contact stiffness");
        SAME(x->a == y->a && x->b == y->b && xc->nbr == yc->nbr && x->inst == y->inst && x->flags == y->flags &&
                 x->imaged == y->imaged && x->detail == y->detail && xc->step_created == yc->step_created &&
                 !memcmp(&xi, &yi, sizeof xi),
             "contact ids and flags");
        size_t ss = floe_registry_get(a->insts[x->inst].model)->state_size;
        SAMEMEM(a->cstate + (size_t)k * a->cstride, b->cstate + (size_t)k * b->cstride, ss, "contact model state");
    }
    SAMEMEM(a->bp.pairs, b->bp.pairs, (size_t)a->bp.npairs * sizeof(floe_pair), "pair list");
    double ea[FLOE_E_COUNT], eb[FLOE_E_COUNT];
    floe_energy(a, ea);
    floe_energy(b, eb);
    SAMEMEM(ea, eb, sizeof ea, "energy");
    SAME(a->n_breaks == b->n_breaks && a->e_total0 == b->e_total0 && a->e_gravity_work == b->e_gravity_work,
         "counters");
    return ok;
}

/* Writes w to a file, frees it, loads a new world from the file. */
static floe_world *roundtrip(floe_world *w, const char *name) {
    char path[512], err[1024];
    snprintf(path, sizeof path, "%s/%s.h5", tmp, name);
    floe_restart r;
    memset(&r, 0, sizeof r);
    r.scene.world = w;
    r.scene.steps = 600;
    r.total_steps = 600;
    if (floe_restart_write(path, &r, err, sizeof err) != 0) {
        fprintf(stderr, "write failed: %s\n", err);
        CHECK(0);
    }
    floe_world_destroy(w);
    floe_restart back;
    if (floe_restart_load(path, &back, err, sizeof err) != 0) {
        fprintf(stderr, "load failed: %s\n", err);
        CHECK(0);
        return NULL;
    }
    CHECK(back.total_steps == 600 && back.scene.steps == 600 && !back.has_output);
    w = back.scene.world;
    back.scene.world = NULL;
    floe_restart_free(&back);
    return w;
}

static int steps(floe_world *w, int n, const char *model) {
    floe_status st = floe_run(w, n);
    if (st != FLOE_OK) fprintf(stderr, "%s: %s\n", model, floe_last_error(w));
    return st == FLOE_OK;
}

static void check_model(const char *model) {
    enum { N1 = 150, N2 = 377, TOTAL = 600 };
    floe_world *ref = build(model);
    CHECK(steps(ref, TOTAL, model));
    floe_world *w = build(model);
    CHECK(steps(w, N1, model));
    int nc1 = floe_contact_count(w), nb1 = floe_bonded_count(w);
    double dt1 = floe_dt(w);
    w = roundtrip(w, model);
    if (!w) {
        floe_world_destroy(ref);
        return;
    }
    CHECK(steps(w, N2 - N1, model));
    w = roundtrip(w, model);
    if (w) {
        CHECK(steps(w, TOTAL - N2, model));
        int ok = same(ref, w, model), nasph = 0;
        for (int k = 0; k < ref->ncon; k++) /* contacts of the capsule, ellipsoid and cylinder */
            for (int e = 0; e < 2; e++) {
                int id = e ? ref->con[k].b : ref->con[k].a;
                nasph += ref->shape[id] >= FLOE_SHAPE_CAPSULE;
            }
        CHECK(ok);
        REPORT("%-9s bit-exact after restarts at steps %d and %d: %s (contacts %d, bonded %d at step %d; "
               "%d contacts, %d of them aspherical, %lld breaks, dt %.3g -> %.3g at the end)\n",
               model, N1, N2, ok ? "yes" : "NO", nc1, nb1, N1, floe_contact_count(ref), nasph,
               (long long)floe_break_count(ref), dt1, floe_dt(ref));
        CHECK(floe_contact_count(ref) > 0);
        floe_world_destroy(w);
    }
    floe_world_destroy(ref);
}

/* ---- CLI ------------------------------------------------------------------ */

/* Every file of `ref` (restart files aside) exists in `dir` with the same bytes. */
static int same_tree(const char *ref, const char *dir, const char *sub) {
    char p[1024], q[1024];
    snprintf(p, sizeof p, "%s/%s", ref, sub);
    DIR *d = opendir(p);
    if (!d) return 0;
    int ok = 1, files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strstr(e->d_name, ".h5")) continue;
        char name[600];
        snprintf(name, sizeof name, "%s%s%s", sub, *sub ? "/" : "", e->d_name);
        snprintf(p, sizeof p, "%s/%s", ref, name);
        snprintf(q, sizeof q, "%s/%s", dir, name);
        struct stat st;
        stat(p, &st);
        if (S_ISDIR(st.st_mode)) {
            ok &= same_tree(ref, dir, name);
            continue;
        }
        size_t la = 0, lb = 0;
        char *a = check_slurp(p, &la), *b = check_slurp(q, &lb);
        files++;
        if (!a || !b || la != lb || memcmp(a, b, la) != 0) {
            fprintf(stderr, "%s differs from %s\n", q, p);
            ok = 0;
        }
        free(a);
        free(b);
    }
    closedir(d);
    /* and nothing extra (e.g. a frame of a snapshot the resumed run dropped) */
    snprintf(q, sizeof q, "%s/%s", dir, sub);
    d = opendir(q);
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.' || strstr(e->d_name, ".h5")) continue;
        snprintf(p, sizeof p, "%s/%s/%s", ref, sub, e->d_name);
        struct stat st;
        if (stat(p, &st) != 0) {
            fprintf(stderr, "%s/%s/%s is not in the uninterrupted run\n", dir, sub, e->d_name);
            ok = 0;
        }
    }
    if (d) closedir(d);
    return ok && files > 0;
}

static void check_cli(void) {
    char scene[512], ref[512], out[512], err[512];
    snprintf(err, sizeof err, "%s/stderr.txt", tmp);
    snprintf(scene, sizeof scene, "%s/bed.yaml", tmp);
    /* time-based run with auto dt: the output cadence and the end of the
     * run depend on dt, which the restart must carry */
    check_write_file(scene,
                     "world: {gravity: [0, 0, -9.81], dt: auto, dt_safety: 0.5, dyn_dt_period: 29, damping: 0.05}\n"
                     "run: {time: 0.06}\n"
                     "materials:\n"
                     "  - {name: ice, model: ice, density: 900, young: 2e6, break_n: 1e-3}\n"
                     "  - {name: steel, model: linear, density: 7800, young: 5e6}\n"
                     "models: {ice: {bonds0: [bondN, bondT, bondW, bondR, brkN, brkT, brkW, brkR], bond_tol: 0.1}}\n"
                     "walls: [{axis: z, pos: 0, sense: 1, material: steel}]\n"
                     "generators:\n"
                     "  - lattice: {origin: [0, 0, 0.015], spacing: 0.0201, counts: [5, 5, 3], radius: 0.01, "
                     "material: ice, vel: [0.1, 0, -0.3]}\n"
                     "output:\n"
                     "  vtk: {interval: 0.01}\n"
                     "  energy: {every: 25}\n"
                     "  events: all\n"
                     "  history: {every: 10, columns: [{name: nc, counter: contacts}, {name: z0, particle: 1, "
                     "quantity: pos.z}, {name: dt, counter: dt}]}\n");
    snprintf(ref, sizeof ref, "%s/ref", tmp);
    const char *run_ref[] = {"floe", "run", scene, "--out", ref, "--threads", "1", NULL};
    CHECK(run_cli(run_ref, err, 0) == 0);

    snprintf(out, sizeof out, "%s/cut", tmp);
    const char *run_cut[] = {"floe", "run",       scene, "--out", out, "--threads", "1", "--restart-every",
                             "97",   "--stop-at", "250", NULL};
    CHECK(run_cli(run_cut, err, 0) == 0);
    char *msg = check_slurp(err, NULL);
    CHECK(msg && strstr(msg, "stopped at step 250"));
    free(msg);
    CHECK(check_count_prefix(out, "restart_") == 2); /* 194 and 250: the last two */
    const char *resume1[] = {"floe", "resume", out, "--stop-at", "600", NULL};
    CHECK(run_cli(resume1, err, 0) == 0);
    const char *resume2[] = {"floe", "resume", out, "--threads", "2", NULL};
    CHECK(run_cli(resume2, err, 0) == 0);
    msg = check_slurp(err, NULL);
    CHECK(msg && strstr(msg, "resuming") && strstr(msg, "at step 600"));
    free(msg);
    int ok = same_tree(ref, out, "");
    CHECK(ok);
    REPORT("CLI: run stopped at steps 250 and 600 and resumed: every output file identical to the "
           "uninterrupted run: %s\n",
           ok ? "yes" : "NO");

    /* restart files are plain HDF5 */
    char h5[1024], cmd[1600];
    snprintf(h5, sizeof h5, "%s/restart_000000000250.h5", out);
    if (system("command -v h5dump >/dev/null 2>&1") == 0) {
        DIR *d = opendir(out);
        struct dirent *e;
        while (d && (e = readdir(d)))
            if (!strncmp(e->d_name, "restart_", 8)) snprintf(h5, sizeof h5, "%s/%s", out, e->d_name);
        if (d) closedir(d);
        snprintf(cmd, sizeof cmd, "h5dump -H %s > %s/h5dump.txt 2>&1", h5, tmp);
        CHECK(system(cmd) == 0);
        snprintf(cmd, sizeof cmd, "%s/h5dump.txt", tmp);
        msg = check_slurp(cmd, NULL);
        CHECK(msg && strstr(msg, "GROUP \"model_state\"") && strstr(msg, "DATASET \"pos\""));
        free(msg);
    }

    /* damaged restart files: refused with a message, the previous one is used */
    char bad[700];
    snprintf(bad, sizeof bad, "%s/damaged", tmp);
    mkdir(bad, 0777);
    snprintf(cmd, sizeof cmd, "%s/restart_000000000010.h5", bad);
    check_write_file(cmd, "not HDF5 at all\n");
    floe_restart r;
    char e2[1024];
    CHECK(floe_restart_load(cmd, &r, e2, sizeof e2) != 0 && strstr(e2, "not an HDF5 file"));
    size_t len;
    char *good = check_slurp(h5, &len);
    for (size_t cut = 64; good && cut < len; cut = cut * 3 / 2 + 7) { /* truncated copies */
        FILE *f = fopen(cmd, "wb");
        fwrite(good, 1, cut, f);
        fclose(f);
        int rc = floe_restart_load(cmd, &r, e2, sizeof e2);
        if (rc == 0) {
            /* HDF5 pads the file to its 4096-byte pages: a cut inside the
             * last page's padding removes nothing the file uses, and must
             * then give the same world as the whole file */
            floe_restart full;
            CHECK(len - cut < 4096 && floe_restart_load(h5, &full, e2, sizeof e2) == 0);
            unsigned char *b1 = NULL, *b2 = NULL;
            size_t l1 = 0, l2 = 0;
            CHECK(floe_snapshot_to_bytes(r.scene.world, &b1, &l1, e2, sizeof e2) == 0);
            CHECK(floe_snapshot_to_bytes(full.scene.world, &b2, &l2, e2, sizeof e2) == 0);
            CHECK(l1 == l2 && b1 && b2 && memcmp(b1, b2, l1) == 0);
            free(b1);
            free(b2);
            floe_restart_free(&full);
            floe_restart_free(&r);
        }
    }
    free(good);
    check_write_file(cmd, "not HDF5 at all\n");
    const char *resume_bad[] = {"floe", "resume", bad, NULL};
    CHECK(run_cli(resume_bad, err, 0) == 2);
    const char *resume_none[] = {"floe", "resume", tmp, NULL};
    CHECK(run_cli(resume_none, err, 0) == 2);

    /* runaway: a particle that leaves the domain */
    snprintf(scene, sizeof scene, "%s/away.yaml", tmp);
    check_write_file(scene, "run: {steps: 100000}\n"
                            "materials: [{name: m, young: 1e7, density: 2000}]\n"
                            "particles:\n  - {radius: 0.01, pos: [0, 0, 0]}\n"
                            "  - {radius: 0.01, pos: [0.05, 0, 0], vel: [1e5, 0, 0]}\n"
                            "output: {energy: {every: 1}}\n");
    snprintf(out, sizeof out, "%s/away", tmp);
    const char *run_away[] = {"floe", "run", scene, "--out", out, "--restart-every", "5", NULL};
    CHECK(run_cli(run_away, err, 0) == 1);
    msg = check_slurp(err, NULL);
    CHECK(msg && strstr(msg, "runaway at step") && strstr(msg, "particle 1 left the domain") &&
          strstr(msg, "runaway_"));
    free(msg);
    CHECK(check_count_prefix(out, "runaway_") == 1);
    snprintf(cmd, sizeof cmd, "%s/energy.csv", out);
    msg = check_slurp(cmd, &len);
    CHECK(msg && len > 0 && msg[len - 1] == '\n');
    free(msg);
    /* resuming runs into the same runaway at the same step */
    const char *resume_away[] = {"floe", "resume", out, NULL};
    CHECK(run_cli(resume_away, err, 0) == 1);
    DIR *d = opendir(out);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (!strncmp(e->d_name, "runaway_", 8)) snprintf(h5, sizeof h5, "%s/%s", out, e->d_name);
    if (d) closedir(d);
    const char *resume_dead[] = {"floe", "resume", h5, NULL};
    CHECK(run_cli(resume_dead, err, 0) == 2);
    msg = check_slurp(err, NULL);
    CHECK(msg && strstr(msg, "blew up"));
    free(msg);
}

int main(void) {
    snprintf(tmp, sizeof tmp, "/tmp/floe_restart_XXXXXX");
    CHECK(mkdtemp(tmp) != NULL);
    for (int i = 0; i < floe_model_count(); i++) check_model(floe_model_get(i)->name);
    check_cli();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (!check_failures) CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
