/* The public API refuses what it cannot run:
 * bad ids get FLOE_ERR_ARG (or the documented sentinel) and a message naming
 * the function, the id and the range; world and body defs not made by their
 * default functions, or holding values out of range, are refused; values
 * whose arithmetic overflows are refused at add; a world whose extent
 * overflows anyway stops with an error instead of hanging (alarm guard); a
 * runaway names its likely cause. Run it under `make sanitize` too: an
 * out-of-bounds write would be caught there. */
#include "check.h"
#include "core/world.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

/* The last error mentions every one of the (NULL-terminated) words. */
static int says(const char *msg, const char *const *words) {
    for (; *words; words++)
        if (!strstr(msg, *words)) {
            fprintf(stderr, "message \"%s\" lacks \"%s\"\n", msg, *words);
            return 0;
        }
    return 1;
}
#define SAYS(msg, ...) CHECK(says(msg, (const char *const[]){__VA_ARGS__, NULL}))

static floe_world *world_with(double dt, int *mat) {
    floe_world_def def = floe_default_world_def();
    def.dt = dt;
    floe_world *w = floe_world_create(&def);
    *mat = floe_add_material(w, "glass", "linear");
    floe_material_set(w, *mat, "density", 2500);
    floe_material_set(w, *mat, "young", 1e9);
    return w;
}

static int sphere(floe_world *w, int mat, floe_vec3 pos, floe_vec3 vel, double r) {
    floe_body_def b = floe_default_body_def();
    b.material = mat;
    b.pos = pos;
    b.vel = vel;
    return floe_add_sphere(w, &b, r);
}

static void test_world_defs(void) {
    floe_world_def zero = {0};
    CHECK(floe_world_create(&zero) == NULL);
    SAYS(floe_create_error(), "floe_world_create", "floe_default_world_def");
    struct {
        const char *key;
        floe_world_def d;
    } bad[] = {
        {"dt", floe_default_world_def()},
        {"dt_safety", floe_default_world_def()},
        {"dyn_dt_period", floe_default_world_def()},
        {"damping", floe_default_world_def()},
        {"skin", floe_default_world_def()},
        {"legacy_lens", floe_default_world_def()},
        {"threads", floe_default_world_def()},
        {"renorm_period", floe_default_world_def()},
        {"dimension", floe_default_world_def()},
        {"gravity", floe_default_world_def()},
    };
    bad[0].d.dt = NAN;
    bad[1].d.dt_safety = 0;
    bad[2].d.dyn_dt_period = 0;
    bad[3].d.damping = 1;
    bad[4].d.skin = NAN;
    bad[5].d.legacy_lens = 2;
    bad[6].d.threads = 4097;
    bad[7].d.renorm_period = -1;
    bad[8].d.dimension = 4;
    bad[9].d.gravity.z = INFINITY;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(floe_world_create(&bad[i].d) == NULL);
        SAYS(floe_create_error(), "floe_world_create", bad[i].key);
    }
    floe_world_def def = floe_default_world_def();
    def.threads = 4096;
    floe_world *w = floe_world_create(&def);
    CHECK(w != NULL);
    CHECK(strcmp(floe_create_error(), "") == 0);
    CHECK(floe_set_threads(w, 100000) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_set_threads", "100000", "4096");
    CHECK(floe_set_threads(w, -1) == FLOE_ERR_ARG);
    CHECK(floe_set_threads(w, 1) == FLOE_OK);
    CHECK(floe_set_gravity(w, (floe_vec3){0, 0, NAN}) == FLOE_ERR_ARG);
    floe_world_destroy(w);
    w = floe_world_create(NULL); /* NULL: the defaults */
    CHECK(w != NULL);
    floe_world_destroy(w);
}

static void test_bad_ids(void) {
    int mat;
    floe_world *w = world_with(1e-6, &mat);
    int a = sphere(w, mat, (floe_vec3){0, 0, 0}, (floe_vec3){0, 0, 0}, 0.01);
    int b = sphere(w, mat, (floe_vec3){0.019, 0, 0}, (floe_vec3){0, 0, 0}, 0.01);
    CHECK(a == 0 && b == 1);
    int g = floe_add_group(w, "lid");
    floe_vec3 v = {1, 2, 3}, out3[3];
    /* particle ids */
    CHECK(floe_set_position(w, 100000, v) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_set_position", "particle id 100000", "[0, 1]");
    CHECK(floe_set_velocity(w, -1, v) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_set_velocity", "-1", "[0, 1]");
    CHECK(floe_set_angular_velocity(w, 2, v) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_set_angular_velocity", "2");
    CHECK(floe_set_blocked(w, INT32_MIN, FLOE_DOF_ALL) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_set_blocked");
    CHECK(floe_particle_shape(w, 7) == FLOE_SHAPE_COUNT);
    SAYS(floe_last_error(w), "floe_particle_shape", "7");
    CHECK(floe_capsule_shaft(w, -3) == -1);
    SAYS(floe_last_error(w), "floe_capsule_shaft", "-3");
    CHECK(floe_ellipsoid_semi_axes(w, 9, &v) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_ellipsoid_semi_axes", "9");
    CHECK(floe_ellipsoid_semi_axes(w, 0, &v) == FLOE_ERR_ARG); /* a sphere */
    SAYS(floe_last_error(w), "not an ellipsoid");
    CHECK(floe_infcylinder_axis(w, 5) == -1);
    SAYS(floe_last_error(w), "floe_infcylinder_axis");
    CHECK(floe_wall_axis(w, 5, NULL) == -1);
    SAYS(floe_last_error(w), "floe_wall_axis");
    CHECK(floe_facet_vertices(w, 5, out3) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_facet_vertices");
    CHECK(floe_contact_find(w, 0, 99) == -1);
    SAYS(floe_last_error(w), "floe_contact_find", "99");
    /* material ids */
    CHECK(floe_material_set(w, 3, "density", 1) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_material_set", "material id 3", "[0, 0]");
    CHECK(floe_material_name(w, -1) == NULL);
    SAYS(floe_last_error(w), "floe_material_name");
    CHECK(isnan(floe_material_get(w, 1, "density")));
    SAYS(floe_last_error(w), "floe_material_get");
    CHECK(floe_pair_set_model(w, 0, 5, "linear") == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_pair_set_model", "5");
    CHECK(floe_pair_set(w, -2, 0, "kn", 1) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_pair_set", "-2");
    /* group ids */
    floe_motion m = floe_default_motion();
    CHECK(floe_group_name(w, 1) == NULL);
    SAYS(floe_last_error(w), "floe_group_name", "group id 1", "[0, 0]");
    CHECK(floe_group_set_motion(w, 40, &m) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_group_set_motion", "40");
    CHECK(floe_group_set_load(w, -1, v, v) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_group_set_load");
    CHECK(isnan(floe_group_force(w, 32).x));
    SAYS(floe_last_error(w), "floe_group_force", "32");
    CHECK(isnan(floe_group_torque(w, -5).z));
    SAYS(floe_last_error(w), "floe_group_torque");
    CHECK(floe_apply_method(w, "softbond", "unbond", 3, NULL, 0, NULL) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_apply_method", "3");
    CHECK(floe_schedule_method(w, 10, "softbond", "unbond", 3, NULL, 0) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_schedule_method", "3");
    CHECK(floe_group_set_load(w, g, v, v) == FLOE_OK);
    /* the arrays were not touched */
    CHECK(floe_positions(w)[0].x == 0 && floe_positions(w)[1].x == 0.019);
    CHECK(floe_velocities(w)[0].x == 0 && floe_particle_blocked(w)[0] == 0);
    /* contact ids, with and without contacts */
    CHECK(floe_step(w) == FLOE_OK);
    CHECK(floe_contact_count(w) == 1);
    floe_contact_info ci;
    double st[16];
    CHECK(floe_contact_get(w, 1, &ci) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_contact_get", "contact id 1", "[0, 0]");
    CHECK(floe_contact_state(w, -1, st, 16) == 0);
    SAYS(floe_last_error(w), "floe_contact_state", "-1");
    floe_world_destroy(w);
    w = world_with(1e-6, &mat);
    CHECK(floe_contact_get(w, 0, &ci) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_contact_get", "no contacts");
    floe_world_destroy(w);
}

/* floe_add_* and the setters refuse bad defs and values beyond the bounds. */
static void test_bad_values(void) {
    int mat;
    floe_world *w = world_with(1e-6, &mat);
    floe_vec3 o = {0, 0, 0};
    floe_body_def zero = {0};
    CHECK(floe_add_sphere(w, &zero, 0.01) == -1);
    SAYS(floe_last_error(w), "floe_add_sphere", "floe_default_body_def");
    CHECK(floe_add_wall(w, NULL, 2, 1) == -1);
    SAYS(floe_last_error(w), "floe_add_wall", "NULL");
    floe_body_def b = floe_default_body_def();
    b.material = 4;
    CHECK(floe_add_sphere(w, &b, 0.01) == -1);
    SAYS(floe_last_error(w), "floe_add_sphere", "material id 4");
    /* a particle at 1e308: refused at add (its arithmetic would overflow) */
    CHECK(sphere(w, mat, (floe_vec3){1e308, 0, 0}, o, 0.01) == -1);
    SAYS(floe_last_error(w), "floe_add_sphere", "position", "1e+100");
    CHECK(sphere(w, mat, (floe_vec3){NAN, 0, 0}, o, 0.01) == -1);
    CHECK(sphere(w, mat, o, (floe_vec3){0, -INFINITY, 0}, 0.01) == -1);
    SAYS(floe_last_error(w), "velocity");
    CHECK(sphere(w, mat, o, o, 1e101) == -1);
    SAYS(floe_last_error(w), "radius");
    CHECK(sphere(w, mat, o, o, 1e-300) == -1); /* the mass underflows to 0 */
    SAYS(floe_last_error(w), "mass");
    CHECK(sphere(w, mat, o, o, 1e99) == -1); /* the mass overflows */
    SAYS(floe_last_error(w), "mass");
    b = floe_default_body_def();
    b.material = mat;
    b.ori = (floe_quat){0, 0, 0, 0};
    CHECK(floe_add_sphere(w, &b, 0.01) == -1);
    SAYS(floe_last_error(w), "orientation");
    b.ori = (floe_quat){1, 0, 0, 0};
    CHECK(floe_add_capsule(w, &b, 0.01, INFINITY) == -1);
    CHECK(floe_add_ellipsoid(w, &b, (floe_vec3){1, 1, 1e200}) == -1);
    CHECK(floe_add_infcylinder(w, &b, 0, NAN) == -1);
    floe_vec3 tri[3] = {{0, 0, 0}, {1, 0, 0}, {0, 2e100, 0}};
    CHECK(floe_add_facet(w, &b, tri, 0) == -1);
    SAYS(floe_last_error(w), "floe_add_facet", "vertex");
    int s = sphere(w, mat, (floe_vec3){1e100, -1e100, 0}, o, 1e-3); /* at the bound: accepted */
    CHECK(s == 0);
    CHECK(floe_set_position(w, s, (floe_vec3){0, 1e300, 0}) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "floe_set_position", "position");
    CHECK(floe_set_velocity(w, s, (floe_vec3){0, NAN, 0}) == FLOE_ERR_ARG);
    CHECK(floe_set_angular_velocity(w, s, (floe_vec3){INFINITY, 0, 0}) == FLOE_ERR_ARG);
    CHECK(floe_particle_count(w) == 1);
    floe_world_destroy(w);
}

/* Bodies whose extent overflows reach the broad phase anyway (a damaged
 * restart writes the arrays directly): the step stops with an error. Before
 * the fix the grid-sizing loop spun forever (the alarm fails the test). */
static void test_overflowed_extent(void) {
    int mat;
    floe_world *w = world_with(1e-6, &mat);
    sphere(w, mat, (floe_vec3){0, 0, 0}, (floe_vec3){0, 0, 0}, 0.01);
    sphere(w, mat, (floe_vec3){1, 0, 0}, (floe_vec3){0, 0, 0}, 0.01);
    w->pos[0].x = -1.5e308; /* as a damaged restart file could hold */
    w->pos[1].x = 1.5e308;  /* hi - lo overflows to inf */
    CHECK(floe_step(w) == FLOE_ERR_RUNAWAY);
    SAYS(floe_last_error(w), "broad phase", "not finite or overflowed");
    CHECK(floe_step(w) == FLOE_ERR_RUNAWAY); /* stays stopped */
    floe_world_destroy(w);
    w = world_with(1e-6, &mat);
    sphere(w, mat, (floe_vec3){0, 0, 0}, (floe_vec3){0, 0, 0}, 0.01);
    w->def.skin = NAN; /* a restart's NaN skin */
    CHECK(floe_step(w) == FLOE_ERR_RUNAWAY);
    SAYS(floe_last_error(w), "broad phase", "skin", "nan");
    floe_world_destroy(w);
}

/* The CLI on a scene with a sphere at 1e308: `check` and `run` refuse it
 * with the file position (the child gets an alarm of its own: a hang must
 * not outlive the test). */
static void test_cli_overflow(void) {
    const char *scene = FLOE_TEST_DATA "/bad_overflow_pos.yaml";
    char dir[] = "/tmp/floe_test_api_XXXXXX", log[64], out[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    const char *argv[2][6] = {{"floe", "check", scene, NULL}, {"floe", "run", scene, "--out", out, NULL}};
    for (int k = 0; k < 2; k++) {
        pid_t pid = fork();
        if (pid == 0) {
            int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            dup2(fd, 1);
            dup2(fd, 2);
            alarm(20);
            execv(FLOE_CLI, (char *const *)argv[k]);
            _exit(127);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        char *text = check_slurp(log, NULL);
        REPORT("floe %s: status %d: %s", argv[k][1], WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
               text ? text : "");
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2);
        CHECK(text && strstr(text, "bad_overflow_pos.yaml:8:") && strstr(text, "pos") && strstr(text, "range"));
        free(text);
    }
    unlink(log);
    rmdir(out);
    rmdir(dir);
}

/* dt far above the critical step: two spheres meet at step > 1 and the
 * contact runs away; the message names dt and the critical step. */
static void test_runaway_dt(void) {
    int mat;
    floe_world *w = world_with(1e-3, &mat); /* the critical step is ~3.7e-5 s */
    sphere(w, mat, (floe_vec3){0, 0, 0}, (floe_vec3){10, 0, 0}, 0.01);
    sphere(w, mat, (floe_vec3){0.0505, 0, 0}, (floe_vec3){-10, 0, 0}, 0.01); /* meet at step 2 */
    floe_status st = floe_run(w, 1000);
    CHECK(st == FLOE_ERR_RUNAWAY);
    CHECK(floe_step_count(w) > 1);
    REPORT("dt too large: %s\n", floe_last_error(w));
    SAYS(floe_last_error(w), "runaway", "likely cause: dt = 0.001 s", "critical time step", "give a smaller dt");
    CHECK(!strstr(floe_last_error(w), "initial overlap"));
    /* a particle leaving the domain is found before the step counter moves:
     * the message names the failing step, as a contact runaway does */
    char want[64];
    snprintf(want, sizeof want, "runaway at step %lld:", (long long)floe_step_count(w) + 1);
    CHECK(strstr(floe_last_error(w), want) != NULL);
    floe_world_destroy(w);
}

/* Two spheres placed at the same position: runaway at the first step, the
 * message names the initial overlap (and not dt: auto is below critical). */
static void test_runaway_overlap(void) {
    int mat;
    floe_world *w = world_with(0, &mat);
    sphere(w, mat, (floe_vec3){0, 0, 0}, (floe_vec3){0, 0, 0}, 0.01);
    sphere(w, mat, (floe_vec3){0.001, 0, 0}, (floe_vec3){0, 0, 0}, 0.01);
    CHECK(floe_run(w, 10) == FLOE_ERR_RUNAWAY);
    CHECK(floe_step_count(w) <= 1);
    REPORT("initial overlap: %s\n", floe_last_error(w));
    SAYS(floe_last_error(w), "runaway", "particles 0 and 1 overlapped when the run started (initial overlap)");
    CHECK(!strstr(floe_last_error(w), "critical time step"));
    floe_world_destroy(w);
}

/* A particle thrown so far that its distance from the centre overflows, or
 * its position itself: said in words, not "inf m from the centre". */
static void test_runaway_overflow(void) {
    for (int k = 0; k < 2; k++) {
        int mat;
        floe_world *w = world_with(k == 0 ? 1e100 : 1e300, &mat);
        sphere(w, mat, (floe_vec3){0, 0, 0}, (floe_vec3){1e100, 0, 0}, 0.01);
        CHECK(floe_run(w, 3) == FLOE_ERR_RUNAWAY);
        REPORT("thrown away: %s\n", floe_last_error(w));
        CHECK(!strstr(floe_last_error(w), "inf m"));
        if (k == 0) SAYS(floe_last_error(w), "particle 0 left the domain", "distance from the centre overflows");
        else SAYS(floe_last_error(w), "particle 0", "position is not finite (it overflowed)");
        floe_world_destroy(w);
    }
}

/* NULL where a name or key is expected: an error (or -1 from the finders),
 * never a crash in strcmp. */
static void test_null_strings(void) {
    int mat;
    floe_world *w = world_with(1e-6, &mat);
    CHECK(floe_find_material(w, NULL) == -1 && floe_find_group(w, NULL) == -1);
    CHECK(floe_add_material(w, NULL, "linear") == -1 && floe_add_group(w, NULL) == -1);
    CHECK(floe_material_set(w, mat, NULL, 1) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "key is NULL");
    CHECK(floe_model_set(w, NULL, "kn", 1) == FLOE_ERR_ARG && floe_model_set(w, "linear", NULL, 1) == FLOE_ERR_ARG);
    CHECK(floe_pair_set_model(w, mat, mat, NULL) == FLOE_ERR_ARG);
    CHECK(floe_apply_method(w, NULL, NULL, -1, NULL, 0, NULL) == FLOE_ERR_ARG);
    CHECK(floe_apply_method(w, "softbond", NULL, -1, NULL, 0, NULL) == FLOE_ERR_ARG);
    SAYS(floe_last_error(w), "method name is NULL");
    CHECK(floe_schedule_method(w, 1, NULL, NULL, -1, NULL, 0) == FLOE_ERR_ARG);
    CHECK(floe_schedule_method(w, 1, "softbond", "bond", -1, NULL, 2) == FLOE_ERR_ARG);
    CHECK(!floe_dt_is_auto(w)); /* world_with(1e-6): a given step */
    floe_world_destroy(w);
    w = world_with(0, &mat);
    CHECK(floe_dt_is_auto(w));
    floe_world_destroy(w);
}

int main(void) {
    alarm(60); /* a hang fails the test instead of blocking the suite */
    test_world_defs();
    test_bad_ids();
    test_bad_values();
    test_null_strings();
    test_overflowed_extent();
    test_cli_overflow();
    test_runaway_dt();
    test_runaway_overlap();
    test_runaway_overflow();
    return CHECK_DONE();
}
