/* The public functions that programs holding pointers or writing files on
 * demand need (the Python module is one): particle storage that moves only
 * past its capacity (floe_reserve_particles), writable position and
 * velocity arrays with their check, the bonded flag of a contact, the
 * generators and STL meshes through floe_io.h, ParaView series written on
 * demand, and restart files at a given path that continue bit for bit. */
#include "check.h"
#include "io/output.h" /* links libfloe-io: floe_io.h's functions */

#include <floe/floe_io.h>
#include <limits.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

static floe_world *world(int *mat) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-5;
    def.gravity = (floe_vec3){0, 0, -9.81};
    floe_world *w = floe_world_create(&def);
    *mat = floe_add_material(w, "glass", "linear");
    floe_material_set(w, *mat, "density", 2500);
    floe_material_set(w, *mat, "young", 1e8);
    return w;
}

static int sphere(floe_world *w, int mat, double x, double y, double z, double r) {
    floe_body_def b = floe_default_body_def();
    b.material = mat;
    b.pos = (floe_vec3){x, y, z};
    return floe_add_sphere(w, &b, r);
}

/* The arrays move only when a floe_add_* passes the capacity. */
static void test_storage(void) {
    int m;
    floe_world *w = world(&m);
    for (int i = 0; i < 10; i++) sphere(w, m, 0.1 * i, 0, 0, 0.01);
    CHECK(floe_particle_capacity(w) >= 10);
    CHECK(floe_reserve_particles(w, -1) == FLOE_ERR_ARG && strstr(floe_last_error(w), "n = -1"));
    CHECK(floe_reserve_particles(w, 5) == FLOE_OK); /* below the capacity: nothing moves */
    CHECK(floe_reserve_particles(w, 1000) == FLOE_OK && floe_particle_capacity(w) == 1000);
    const floe_vec3 *p = floe_positions(w);
    const double *r = floe_radii(w);
    CHECK(p[9].x == 0.1 * 9 && r[9] == 0.01); /* the contents moved with the arrays */
    for (int i = 10; i < 1000; i++) sphere(w, m, 0.1 * i, 0, 0, 0.01);
    CHECK(floe_positions(w) == p && floe_radii(w) == r && floe_particle_count(w) == 1000);
    CHECK(floe_particle_capacity(w) == 1000);
    sphere(w, m, 0, 1, 0, 0.01); /* past the capacity: it grows */
    CHECK(floe_particle_capacity(w) > 1000 && floe_positions(w)[1000].y == 1);
    floe_world_destroy(w);
}

/* Writes through the pointers are seen, checked on demand, and a body moved
 * this way into another makes a contact at the next step. */
static void test_writable(void) {
    int m;
    floe_world *w = world(&m);
    floe_set_gravity(w, (floe_vec3){0, 0, 0});
    int a = sphere(w, m, 0, 0, 0, 0.01), b = sphere(w, m, 10, 0, 0, 0.01);
    CHECK(floe_step(w) == FLOE_OK && floe_contact_count(w) == 0);
    floe_vec3 *p = floe_positions_mut(w), *v = floe_velocities_mut(w);
    CHECK(p == floe_positions(w) && v == floe_velocities(w));
    p[b] = (floe_vec3){0.019, 0, 0}; /* 1 mm overlap, far beyond the skin from where it was */
    v[a] = (floe_vec3){0.5, 0, 0};
    CHECK(floe_check_bodies(w) == FLOE_OK);
    CHECK(floe_step(w) == FLOE_OK);
    CHECK(floe_contact_count(w) == 1 && floe_contact_find(w, a, b) == 0);
    /* the write took effect: a moved by 0.5 m/s x dt in the step (plus the
     * contact force's dt^2 term, ~1e-10 m at most here) */
    CHECK_NEAR(floe_positions(w)[a].x, 0.5 * 1e-5, 1e-9);
    v[b].y = NAN;
    CHECK(floe_check_bodies(w) == FLOE_ERR_ARG);
    CHECK(strstr(floe_last_error(w), "particle 1: velocity") != NULL);
    v[b].y = 0;
    p[a].z = 1e200;
    CHECK(floe_check_bodies(w) == FLOE_ERR_ARG && strstr(floe_last_error(w), "particle 0: position") != NULL);
    p[a].z = 0;
    CHECK(floe_check_bodies(w) == FLOE_OK);
    floe_world_destroy(w);
}

/* floe_contact_info.bonded agrees with floe_bonded_count: Ice contacts made
 * with all four bonds (bonds0 = 15) carry one, Linear contacts never. */
static void test_bonded(void) {
    floe_world *w = floe_world_create(NULL);
    int ice = floe_add_material(w, "ice", "ice"), lin = floe_add_material(w, "grain", "linear");
    CHECK(floe_model_set(w, "ice", "bonds0", 15) == FLOE_OK);
    CHECK(floe_model_set(w, "ice", "step01", 1000) == FLOE_OK);
    sphere(w, ice, 0, 0, 0, 0.01);
    sphere(w, ice, 0.0199, 0, 0, 0.01);
    sphere(w, lin, 0, 1, 0, 0.01);
    sphere(w, lin, 0.0199, 1, 0, 0.01);
    CHECK(floe_start(w) == FLOE_OK && floe_contact_count(w) == 2 && floe_bonded_count(w) == 1);
    int nb = 0;
    for (int i = 0; i < floe_contact_count(w); i++) {
        floe_contact_info ci;
        CHECK(floe_contact_get(w, i, &ci) == FLOE_OK);
        CHECK(ci.bonded == (strcmp(ci.model, "ice") == 0));
        nb += ci.bonded;
    }
    CHECK(nb == 1);
    floe_world_destroy(w);
}

/* The getters a program needs to build on a loaded world: a material's
 * model, the gravity, a group's motion. */
static void test_getters(void) {
    floe_world_def def = floe_default_world_def();
    def.gravity = (floe_vec3){1, 2, 3};
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "rock", "softbond");
    CHECK(strcmp(floe_material_model(w, m), "softbond") == 0 && floe_material_model(w, 1) == NULL);
    floe_vec3 g = floe_gravity(w);
    CHECK(g.x == 1 && g.y == 2 && g.z == 3);
    int a = floe_add_group(w, "still"), b = floe_add_group(w, "piston");
    floe_motion mo = floe_default_motion(), got;
    mo.vel = (floe_vec3){0, 0, -0.5};
    mo.t_end = 2;
    CHECK(floe_group_set_motion(w, b, &mo) == FLOE_OK);
    CHECK(floe_group_motion(w, a, &got) == 0 && floe_group_motion(w, b, NULL) == 1);
    CHECK(floe_group_motion(w, b, &got) == 1 && got.vel.z == -0.5 && got.t_end == 2 && got.t_start == 0);
    CHECK(floe_group_motion(w, 7, &got) == -1 && strstr(floe_last_error(w), "group") != NULL);
    floe_world_destroy(w);
}

/* The generators through the public header give what the recipes say. */
static void test_generators(void) {
    char err[512];
    floe_lattice_def ld = {.origin = {1, 2, 3}, .spacing = {0.5, 0.25, 1}, .counts = {3, 2, 2}};
    floe_vec3 *pos = NULL;
    int64_t n = 0;
    CHECK(floe_gen_lattice(&ld, &pos, &n, err, sizeof err) == 0 && n == 12);
    /* site p = i + nx (j + ny k): p = 1 + 3 (1 + 2 * 1) = 10 is (i, j, k) = (1, 1, 1) */
    CHECK(pos && pos[10].x == 1.5 && pos[10].y == 2.25 && pos[10].z == 4);
    free(pos);
    floe_random_def rd = {.lo = {0, 0, 0}, .hi = {1, 1, 1}, .rmin = 0.05, .rmax = 0.1, .count = 50, .seed = 3};
    double *rad = NULL;
    CHECK(floe_gen_random(&rd, &pos, &rad, &n, err, sizeof err) == 0 && n == 50);
    for (int64_t i = 0; i < n; i++) {
        CHECK(rad[i] >= 0.05 && rad[i] <= 0.1 && (i == 0 || rad[i] <= rad[i - 1])); /* largest first */
        CHECK(pos[i].x - rad[i] >= 0 && pos[i].x + rad[i] <= 1);
        for (int64_t j = 0; j < i; j++) {
            double dx = pos[i].x - pos[j].x, dy = pos[i].y - pos[j].y, dz = pos[i].z - pos[j].z;
            CHECK(sqrt(dx * dx + dy * dy + dz * dz) >= rad[i] + rad[j]);
        }
    }
    free(pos);
    free(rad);
    rd.count = 100000; /* far too many for the box */
    CHECK(floe_gen_random(&rd, &pos, &rad, &n, err, sizeof err) != 0 && strstr(err, "too full"));
    free(pos);
    free(rad);
}

/* ramp_ascii.stl: two triangles of equal area making the square (0,0,0),
 * (1,0,0), (1,1,0.5), (0,1,0.5); their centroids (2/3, 1/3, 1/6) and
 * (1/3, 2/3, 1/3) average to (0.5, 0.5, 0.25), which scale (2, 2, 2) and
 * translate (1, 0, 0) take to (2, 1, 0.5). */
static void test_mesh(void) {
    char err[768];
    floe_mesh m;
    CHECK(floe_mesh_read(FLOE_TEST_DATA "/ramp_ascii.stl", "ramp", (floe_vec3){2, 2, 2}, (floe_vec3){1, 0, 0}, 0, &m,
                         err, sizeof err) == 0);
    CHECK(m.n == 2 && m.skipped == 0);
    CHECK_NEAR(m.centroid.x, 2, 1e-15);
    CHECK_NEAR(m.centroid.y, 1, 1e-15);
    CHECK_NEAR(m.centroid.z, 0.5, 1e-15);
    CHECK(m.v[2].x == 3 && m.v[2].y == 2 && m.v[2].z == 1); /* (1, 1, 0.5) placed */
    floe_mesh_free(&m);
    CHECK(floe_mesh_read(FLOE_TEST_DATA "/ramp_ascii.stl", "ramp", (floe_vec3){0, 1, 1}, (floe_vec3){0, 0, 0}, 0, &m,
                         err, sizeof err) != 0);
    CHECK(strstr(err, "scale") != NULL && m.v == NULL);
    CHECK(floe_mesh_read(FLOE_TEST_DATA "/bad_truncated_ascii.stl", NULL, (floe_vec3){1, 1, 1}, (floe_vec3){0, 0, 0}, 0,
                         &m, err, sizeof err) != 0);
    CHECK(strstr(err, "bad_truncated_ascii.stl:") != NULL && m.v == NULL);
    CHECK(floe_mesh_read(FLOE_TEST_DATA "/no_such.stl", NULL, (floe_vec3){1, 1, 1}, (floe_vec3){0, 0, 0}, 0, &m, err,
                         sizeof err) != 0);
}

static int count_str(const char *text, const char *what) {
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p++) n++;
    return n;
}

static int exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

/* A series written on demand: frames named by the step, one entry per step
 * in the collection, boundaries only for a world that has them. */
static void test_vtk_series(void) {
    char dir[] = "/tmp/floe_api_program_XXXXXX", path[256], err[1024];
    CHECK(mkdtemp(dir) != NULL);
    int m;
    floe_world *w = world(&m);
    sphere(w, m, 0, 0, 0.05, 0.01);
    snprintf(path, sizeof path, "%s/series", dir);
    floe_vtk_series *s = floe_vtk_series_open(path, err, sizeof err);
    CHECK(s != NULL);
    CHECK(floe_vtk_series_write(s, w, err, sizeof err) == 0);
    CHECK(floe_vtk_series_write(s, w, err, sizeof err) == 0); /* the same step: replaced, listed once */
    floe_run(w, 3);
    floe_body_def b = floe_default_body_def();
    b.material = m;
    floe_add_wall(w, &b, 2, 1);
    CHECK(floe_vtk_series_write(s, w, err, sizeof err) == 0);
    floe_vtk_series_close(s);
    const char *files[] = {"particles_000000.vtu",  "contacts_000000.vtp", "particles_000003.vtu",
                           "boundaries_000003.vtp", "particles.pvd",       "boundaries.pvd"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/series/%s", dir, files[i]);
        CHECK(exists(path));
    }
    snprintf(path, sizeof path, "%s/series/boundaries_000000.vtp", dir);
    CHECK(!exists(path));
    snprintf(path, sizeof path, "%s/series/particles.pvd", dir);
    char *pvd = check_slurp(path, NULL);
    CHECK(pvd && count_str(pvd, "<DataSet") == 2);
    CHECK(pvd && strstr(pvd, "file=\"particles_000003.vtu\""));
    free(pvd);
    snprintf(path, sizeof path, "%s/file", dir);
    FILE *f = fopen(path, "w");
    if (f) fclose(f);
    CHECK(floe_vtk_series_open(path, err, sizeof err) == NULL && strstr(err, "not a directory"));
    /* tables of the current state */
    snprintf(path, sizeof path, "%s/p.csv", dir);
    CHECK(floe_csv_write_particles(path, w, err, sizeof err) == 0 && exists(path));
    snprintf(path, sizeof path, "%s/c.csv", dir);
    CHECK(floe_csv_write_contacts(path, w, err, sizeof err) == 0 && exists(path));
    floe_world_destroy(w);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

/* A restart file written at a path continues the run bit for bit. */
static void test_restart_file(void) {
    char dir[] = "/tmp/floe_api_program_XXXXXX", path[256], err[1024];
    CHECK(mkdtemp(dir) != NULL);
    int m;
    floe_world *w = world(&m), *ref = world(&m);
    for (int i = 0; i < 20; i++) {
        sphere(w, m, 0.0195 * (i % 5), 0.0195 * (i / 5), 0.01 + 0.001 * i, 0.01);
        sphere(ref, m, 0.0195 * (i % 5), 0.0195 * (i / 5), 0.01 + 0.001 * i, 0.01);
    }
    floe_body_def b = floe_default_body_def();
    floe_add_wall(w, &b, 2, 1);
    floe_add_wall(ref, &b, 2, 1);
    floe_run(w, 100);
    floe_run(ref, 200);
    floe_restart r;
    memset(&r, 0, sizeof r);
    r.scene.world = w;
    snprintf(path, sizeof path, "%s/state.h5", dir);
    CHECK(floe_restart_save_file(path, &r, err, sizeof err) == 0);
    floe_world_destroy(w);
    floe_restart back;
    CHECK(floe_restart_load(path, &back, err, sizeof err) == 0);
    floe_world *w2 = back.scene.world;
    CHECK(w2 && floe_step_count(w2) == 100);
    floe_run(w2, 100);
    CHECK(memcmp(floe_positions(w2), floe_positions(ref), sizeof(floe_vec3) * 21) == 0);
    CHECK(memcmp(floe_velocities(w2), floe_velocities(ref), sizeof(floe_vec3) * 21) == 0);
    floe_restart_free(&back);
    floe_world_destroy(ref);
    snprintf(path, sizeof path, "%s/no/such/dir/state.h5", dir);
    memset(&r, 0, sizeof r);
    CHECK(floe_restart_save_file(path, &r, err, sizeof err) != 0);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

int main(void) {
    test_storage();
    test_writable();
    test_bonded();
    test_getters();
    test_generators();
    test_mesh();
    test_vtk_series();
    test_restart_file();
    if (check_failures) fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures ? 1 : 0;
}
