/* Water through the API, scene files and restarts: floe_world_set_water
 * refuses values out of range with the field and range named; the scene's
 * `water` section sets every field and reports bad values at file:line;
 * a run with water resumed from a restart file goes on bit for bit as the
 * run that never stopped, and the energy balance still closes after
 * changes through the API (water set or taken out, gravity, positions). */
#include "check.h"
#include "io/restart.h"
#include <floe/floe_io.h>
#include <unistd.h>

static char tmp[] = "/tmp/floe_water_io_XXXXXX";

static void test_api_checks(void) {
    floe_world *w = floe_world_create(NULL);
    floe_water_def wd = floe_default_water_def();
    CHECK(floe_world_get_water(w, NULL) == 0);
    struct {
        double *field, bad;
        const char *want;
    } cases[] = {
        {&wd.density, 0, "density = 0 kg/m^3 is out of range (0, 1e5]"},
        {&wd.density, NAN, "density = nan"},
        {&wd.skin_drag, 2, "skin_drag = 2 is out of range [0, 1]"},
        {&wd.form_drag, -1, "form_drag = -1 is out of range [0, 100]"},
        {&wd.air_density, INFINITY, "air_density (kg/m^3) = inf is out of range"},
        {&wd.level, 1e300, "level = 1e+300 m must be finite"},
        {&wd.current.z, 0.1, "current (0, 0, 0.1) m/s must be horizontal"},
        {&wd.wind.x, 2e3, "wind (2000, 0, 0) m/s: components must be finite and at most 1e3 m/s"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        wd = floe_default_water_def();
        /* the field pointers point into wd, refreshed above */
        double keep = *cases[k].field;
        *cases[k].field = cases[k].bad;
        CHECK(floe_world_set_water(w, &wd) == FLOE_ERR_ARG);
        if (!strstr(floe_last_error(w), cases[k].want)) {
            check_failures++;
            fprintf(stderr, "case %zu: got '%s', want '%s'\n", k, floe_last_error(w), cases[k].want);
        }
        *cases[k].field = keep;
    }
    floe_water_def zero = {0};
    CHECK(floe_world_set_water(w, &zero) == FLOE_ERR_ARG && strstr(floe_last_error(w), "floe_default_water_def"));
    wd = floe_default_water_def();
    wd.level = 3;
    CHECK(floe_world_set_water(w, &wd) == FLOE_OK);
    floe_water_def back;
    CHECK(floe_world_get_water(w, &back) == 1 && back.level == 3 && back.density == 1025);
    CHECK(floe_world_set_water(w, NULL) == FLOE_OK && floe_world_get_water(w, NULL) == 0);
    floe_world_destroy(w);
}

static const char *scene_text =
    "world:\n"
    "  gravity: [0, 0, -9.81]\n"
    "  dt: 1e-3\n"
    "water:\n"
    "  level: 0.5\n"
    "  density: 1000\n"
    "  current: [0.2, -0.1, 0]\n"
    "  wind: [5, 0, 0]\n"
    "  skin_drag: 0.004\n"
    "  form_drag: 0.8\n"
    "  rotational_drag: 2\n"
    "  air_density: 1.2\n"
    "  wind_drag: 0.002\n"
    "materials:\n"
    "  - {name: ice, model: linear, density: 900, young: 1e7}\n"
    "particles:\n"
    "  - {pos: [0, 0, 0.6], radius: 0.5, material: ice}\n"
    "  - {pos: [2, 0, 0.2], radius: 0.4, material: ice}\n"
    "capsules:\n"
    "  - {pos: [0, 3, 0.4], radius: 0.3, shaft: 1, material: ice, ori: [0.9, 0.1, 0.3, 0]}\n"
    "ellipsoids:\n"
    "  - {pos: [3, 3, 0.5], semi_axes: [1, 0.6, 0.3], material: ice}\n"
    "run:\n"
    "  steps: 400\n";

static void test_scene(void) {
    char path[512], err[1024];
    check_write_tmp(tmp, "water.yaml", scene_text, path, sizeof path);
    floe_scene s;
    if (floe_scene_load(path, &s, err, sizeof err) != 0) {
        fprintf(stderr, "load: %s\n", err);
        CHECK(0);
        return;
    }
    floe_water_def wd;
    CHECK(floe_world_get_water(s.world, &wd) == 1);
    CHECK(wd.level == 0.5 && wd.density == 1000 && wd.current.x == 0.2 && wd.current.y == -0.1 && wd.wind.x == 5);
    CHECK(wd.skin_drag == 0.004 && wd.form_drag == 0.8 && wd.rotational_drag == 2 && wd.air_density == 1.2 &&
          wd.wind_drag == 0.002);
    floe_scene_free(&s);
    /* errors at the line of the section, naming the key and the range */
    check_write_tmp(tmp, "bad.yaml", "water:\n  level: 0\n  density: -5\n", path, sizeof path);
    CHECK(floe_scene_load(path, &s, err, sizeof err) != 0);
    char want[600];
    snprintf(want, sizeof want, "%s:2:3: water: floe_world_set_water: density = -5 kg/m^3 is out of range", path);
    if (strncmp(err, want, strlen(want)) != 0) {
        check_failures++;
        fprintf(stderr, "got  %s\nwant %s...\n", err, want);
    }
    /* no gravity: a warning, not an error */
    check_write_tmp(tmp, "nog.yaml", "run: {steps: 1}\nwater: {level: 0}\nworld: {dt: 1}\n", path, sizeof path);
    CHECK(floe_scene_load(path, &s, err, sizeof err) == 0);
    CHECK(s.warnings && strstr(s.warnings, ":2:8: warning: water: world.gravity has no downward z component"));
    floe_scene_free(&s);
    check_write_tmp(tmp, "bad.yaml", "water:\n  levle: 0\n", path, sizeof path);
    CHECK(floe_scene_load(path, &s, err, sizeof err) != 0 && strstr(err, ":2:3:") && strstr(err, "levle"));
    check_write_tmp(tmp, "bad.yaml", "water:\n  current: [1, 0]\n", path, sizeof path);
    CHECK(floe_scene_load(path, &s, err, sizeof err) != 0 && strstr(err, "water.current"));
}

/* Restart: 200 steps, save, load, 200 more = 400 steps straight. */
static void test_restart(void) {
    char path[512], err[1024], rpath[600];
    check_write_tmp(tmp, "water.yaml", scene_text, path, sizeof path);
    floe_scene a, b;
    CHECK(floe_scene_load(path, &a, err, sizeof err) == 0);
    CHECK(floe_scene_load(path, &b, err, sizeof err) == 0);
    CHECK(floe_run(a.world, 400) == FLOE_OK);
    CHECK(floe_run(b.world, 200) == FLOE_OK);
    snprintf(rpath, sizeof rpath, "%s/r.h5", tmp);
    floe_restart r;
    memset(&r, 0, sizeof r);
    r.scene = b;
    r.total_steps = 400;
    CHECK(floe_restart_write(rpath, &r, err, sizeof err) == 0);
    floe_scene_free(&b);
    floe_restart back;
    if (floe_restart_load(rpath, &back, err, sizeof err) != 0) {
        fprintf(stderr, "restart load: %s\n", err);
        CHECK(0);
        floe_scene_free(&a);
        return;
    }
    floe_world *w = back.scene.world;
    CHECK(floe_world_get_water(w, NULL) == 1);
    CHECK(floe_run(w, 200) == FLOE_OK);
    int n = floe_particle_count(w);
    CHECK(n == floe_particle_count(a.world));
    CHECK(memcmp(floe_positions(w), floe_positions(a.world), sizeof(floe_vec3) * (size_t)n) == 0);
    CHECK(memcmp(floe_velocities(w), floe_velocities(a.world), sizeof(floe_vec3) * (size_t)n) == 0);
    CHECK(memcmp(floe_orientations(w), floe_orientations(a.world), sizeof(floe_quat) * (size_t)n) == 0);
    double ea[FLOE_E_COUNT], eb[FLOE_E_COUNT];
    floe_energy(a.world, ea);
    floe_energy(w, eb);
    CHECK(memcmp(ea, eb, sizeof ea) == 0);
    CHECK(ea[FLOE_E_DRAG] != 0 && ea[FLOE_E_BUOYANCY] > 0);
    REPORT("restart with water: 200 + 200 steps bitwise equal to 400 (drag %.6g J, buoyancy %.6g J)\n", ea[FLOE_E_DRAG],
           ea[FLOE_E_BUOYANCY]);
    /* changes through the API after the start are booked: no jump */
    double e0[FLOE_E_COUNT], e1[FLOE_E_COUNT];
    floe_energy(w, e0);
    floe_set_position(w, 0, (floe_vec3){0, 0, 0.1});
    floe_set_gravity(w, (floe_vec3){0, 0, -5});
    floe_water_def wd;
    floe_world_get_water(w, &wd);
    wd.level = 0.7;
    floe_world_set_water(w, &wd);
    floe_energy(w, e1);
    CHECK_NEAR(e1[FLOE_E_TOTAL], e0[FLOE_E_TOTAL], 1e-9 * fabs(e0[FLOE_E_BUOYANCY]));
    floe_world_set_water(w, NULL);
    floe_energy(w, e1);
    CHECK_NEAR(e1[FLOE_E_TOTAL], e0[FLOE_E_TOTAL], 1e-9 * fabs(e0[FLOE_E_BUOYANCY]));
    CHECK(e1[FLOE_E_DRAG] == e0[FLOE_E_DRAG] && e1[FLOE_E_BUOYANCY] == 0);
    back.scene.world = w;
    floe_restart_free(&back);
    floe_scene_free(&a);
}

/* The example scene loads and runs; 1 and 2 threads give the same bits. */
static void test_example_threads(void) {
    floe_scene a, b;
    char err[1024];
    CHECK(floe_scene_load(FLOE_EXAMPLES "/floating.yaml", &a, err, sizeof err) == 0);
    CHECK(floe_scene_load(FLOE_EXAMPLES "/floating.yaml", &b, err, sizeof err) == 0);
    CHECK(floe_world_get_water(a.world, NULL) == 1 && floe_particle_count(a.world) == 160);
    floe_set_threads(a.world, 1);
    floe_set_threads(b.world, 2);
    CHECK(floe_run(a.world, 600) == FLOE_OK && floe_run(b.world, 600) == FLOE_OK);
    int n = floe_particle_count(a.world);
    CHECK(memcmp(floe_positions(a.world), floe_positions(b.world), sizeof(floe_vec3) * (size_t)n) == 0);
    CHECK(memcmp(floe_orientations(a.world), floe_orientations(b.world), sizeof(floe_quat) * (size_t)n) == 0);
    double ea[FLOE_E_COUNT], eb[FLOE_E_COUNT];
    floe_energy(a.world, ea);
    floe_energy(b.world, eb);
    CHECK(memcmp(ea, eb, sizeof ea) == 0);
    REPORT("examples/floating.yaml: 600 steps, 1 and 2 threads bitwise equal; energy error %.1e\n", ea[FLOE_E_ERROR]);
    CHECK(fabs(ea[FLOE_E_ERROR]) < 1e-3);
    floe_scene_free(&a);
    floe_scene_free(&b);
}

int main(void) {
    if (!mkdtemp(tmp)) return 2;
    test_api_checks();
    test_scene();
    test_restart();
    test_example_threads();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (system(cmd) != 0) return 2;
    return CHECK_DONE();
}
