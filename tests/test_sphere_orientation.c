/* world.sphere_orientation (docs/decisions.md#sphere-orientation-only-when-wanted):
 * - a frictional pile of spheres, a capsule and an ellipsoid falling onto a
 *   floor runs with the setting off bitwise as with it on — positions,
 *   velocities, spins, forces, energies, contacts — and the same with water
 *   (buoyancy and drag act on the bodies through the general integrator);
 * - off: every sphere keeps the orientation it was given while spinning;
 *   on: a spinning sphere turns by its spin (one step checked against the
 *   formula); the capsule and the ellipsoid turn alike in both runs, and
 *   so does a sphere given an aspherical inertia;
 * - the setting survives a snapshot, a snapshot without it (as earlier
 *   versions wrote) reads as on, and floe_world_create refuses a value
 *   other than 0 and 1. */
#include "check.h"
#include <floe/floe_snapshot.h>
#include "core/world.h"
#include "pile.h"

#include <string.h>

static const floe_quat given = {0.8, 0.6, 0, 0}; /* a unit quaternion that is not the identity */

static floe_world *scene(int sphere_orientation, int water) {
    const double r = 0.005, s = 1.98 * r; /* neighbours and floor overlap from the start */
    floe_world_def def = floe_default_world_def();
    def.gravity = (floe_vec3){0, 0, -9.81};
    def.dt = 2e-6;
    def.threads = 2;
    def.sphere_orientation = sphere_orientation;
    floe_world *w = floe_world_create(&def);
    floe_set_thread_tuning(w, 0);
    int m = floe_add_material(w, "grain", "linear");
    floe_material_set(w, m, "density", 900);
    floe_material_set(w, m, "young", 1e7);
    floe_material_set(w, m, "tan_phi", 0.5);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    floe_add_wall(w, &bd, 2, 1);
    uint64_t seed = 3;
    bd.ori = given;
    for (int k = 0; k < 3; k++)
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 4; i++) {
                bd.pos = (floe_vec3){(i + 0.5) * s + 0.1 * r * (pile_rand(&seed) - 0.5),
                                     (j + 0.5) * s + 0.1 * r * (pile_rand(&seed) - 0.5), (k + 0.5) * s};
                bd.vel = (floe_vec3){0.2 * (pile_rand(&seed) - 0.5), 0.2 * (pile_rand(&seed) - 0.5), 0};
                bd.angvel = (floe_vec3){30 * (pile_rand(&seed) - 0.5), 30 * (pile_rand(&seed) - 0.5), 0};
                floe_add_sphere(w, &bd, r);
            }
    bd.pos = (floe_vec3){2 * s, 2 * s, 4 * s};
    CHECK(floe_add_capsule(w, &bd, 0.6 * r, r) >= 0);
    bd.pos = (floe_vec3){1 * s, 3 * s, 4.5 * s};
    CHECK(floe_add_ellipsoid(w, &bd, (floe_vec3){r, 0.7 * r, 0.5 * r}) >= 0);
    if (water) {
        floe_water_def wd = floe_default_water_def();
        wd.level = 2 * s;
        wd.current = (floe_vec3){0.05, 0, 0};
        CHECK(floe_world_set_water(w, &wd) == FLOE_OK);
    }
    return w;
}

static int same_vec3s(const floe_vec3 *a, const floe_vec3 *b, int n) { return !memcmp(a, b, sizeof *a * (size_t)n); }

/* Runs the scene both ways and compares everything but the spheres'
 * orientations bitwise. */
static void compare(int water) {
    floe_world *on = scene(1, water), *off = scene(0, water);
    int n = floe_particle_count(on), spinning = 0, most = 0;
    floe_quat ori0[64];
    CHECK(n <= 64);
    memcpy(ori0, floe_orientations(on), sizeof *ori0 * (size_t)n);
    for (int s = 0; s < 16; s++) {
        CHECK(floe_run(on, 100) == FLOE_OK);
        CHECK(floe_run(off, 100) == FLOE_OK);
        CHECK(same_vec3s(floe_positions(on), floe_positions(off), n));
        CHECK(same_vec3s(floe_velocities(on), floe_velocities(off), n));
        CHECK(same_vec3s(floe_angular_velocities(on), floe_angular_velocities(off), n));
        CHECK(same_vec3s(floe_forces(on), floe_forces(off), n));
        double e1[FLOE_E_COUNT], e0[FLOE_E_COUNT];
        floe_energy(on, e1);
        floe_energy(off, e0);
        CHECK(!memcmp(e1, e0, sizeof e1));
        CHECK(floe_contact_count(on) == floe_contact_count(off));
        if (floe_contact_count(on) > most) most = floe_contact_count(on);
    }
    CHECK(most > 20);
    const floe_quat *q1 = floe_orientations(on), *q0 = floe_orientations(off);
    const floe_vec3 *om = floe_angular_velocities(on);
    for (int i = 0; i < n; i++) {
        int shape = floe_particle_shape(on, i);
        if (shape == FLOE_SHAPE_WALL) continue;
        int turned = memcmp(&q1[i], &ori0[i], sizeof *q1) != 0;
        if (shape == FLOE_SHAPE_SPHERE) {
            CHECK(!memcmp(&q0[i], &given, sizeof given)); /* off: as given */
            CHECK(turned);                                /* on: every sphere spun */
            spinning += om[i].x != 0 || om[i].y != 0;
        } else {
            CHECK(!memcmp(&q0[i], &q1[i], sizeof *q0)); /* capsule, ellipsoid: alike */
            CHECK(turned);
        }
    }
    CHECK(spinning > 40);
    floe_world_destroy(on);
    floe_world_destroy(off);
}

/* A world of one sphere (radius 1 cm, dt 1 ms) with the given orientation
 * and spin. */
static floe_world *lone_sphere(int sphere_orientation, floe_quat ori, floe_vec3 angvel) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-3;
    def.sphere_orientation = sphere_orientation;
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "grain", "linear");
    floe_material_set(w, m, "density", 1000);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.ori = ori;
    bd.angvel = angvel;
    CHECK(floe_add_sphere(w, &bd, 0.01) == 0);
    return w;
}

/* One step of a lone spinning sphere: on, its orientation turns by
 * angle |w| dt about w (q' = (cos a/2, sin a/2 w/|w|) q); off, it stays. */
static void one_step(void) {
    for (int flag = 0; flag < 2; flag++) {
        floe_world *w = lone_sphere(flag, given, (floe_vec3){0, 0, 2}); /* 2 rad/s about z: 2e-3 rad a step */
        CHECK(floe_step(w) == FLOE_OK);
        floe_quat q = floe_orientations(w)[0];
        if (!flag) {
            CHECK(!memcmp(&q, &given, sizeof q));
        } else { /* (c, 0, 0, s) (0.8, 0.6, 0, 0) = (0.8 c, 0.6 c, 0.6 s, 0.8 s), a = 2e-3 */
            double c = cos(1e-3), s = sin(1e-3);
            CHECK_NEAR(q.w, 0.8 * c, 1e-15);
            CHECK_NEAR(q.x, 0.6 * c, 1e-15);
            CHECK_NEAR(q.y, 0.6 * s, 1e-15);
            CHECK_NEAR(q.z, 0.8 * s, 1e-15);
        }
        floe_world_destroy(w);
    }
}

/* A sphere with aspherical inertia turns either way: its spin depends on
 * its orientation (the general integrator's rotation). */
static void aspherical_sphere(void) {
    floe_quat q[2];
    for (int flag = 0; flag < 2; flag++) {
        floe_world *w = lone_sphere(flag, (floe_quat){1, 0, 0, 0}, (floe_vec3){0, 0, 0});
        CHECK(floe_step(w) == FLOE_OK); /* starts the world (its inertia set) without a turn */
        w->inertia[0].y *= 2;           /* not through the API, which gives a sphere isotropic inertia */
        w->angvel[0] = v3(1, 0, 2);
        CHECK(floe__geom_keep(w) == 1); /* the rows of turning bodies (angular momentum) */
        CHECK(floe_run(w, 10) == FLOE_OK);
        q[flag] = floe_orientations(w)[0];
        CHECK(q[flag].x != 0 && q[flag].z != 0);
        floe_world_destroy(w);
    }
    CHECK(!memcmp(&q[0], &q[1], sizeof *q));
}

/* The setting in snapshots, and in files without it. */
static void snapshots(void) {
    floe_world *w = scene(0, 0);
    CHECK(floe_run(w, 50) == FLOE_OK);
    unsigned char *bytes = NULL;
    size_t len = 0;
    char err[512];
    CHECK(floe_snapshot_to_bytes(w, &bytes, &len, err, sizeof err) == 0);
    floe_world *b = floe_snapshot_from_bytes(bytes, len, err, sizeof err);
    CHECK(b && b->def.sphere_orientation == 0);
    CHECK(floe_run(b, 50) == FLOE_OK);
    CHECK(floe_run(w, 50) == FLOE_OK);
    CHECK(!memcmp(floe_orientations(b), floe_orientations(w), sizeof(floe_quat) * (size_t)floe_particle_count(w)));
    floe_world_destroy(b);
    /* an earlier version's file: the attribute's name made unknown */
    const char *name = "sphere_orientation";
    size_t nl = strlen(name), hits = 0;
    for (size_t k = 0; k + nl <= len; k++)
        if (!memcmp(bytes + k, name, nl)) {
            bytes[k + nl - 1] = 'X';
            hits++;
        }
    CHECK(hits == 1);
    b = floe_snapshot_from_bytes(bytes, len, err, sizeof err);
    CHECK(b && b->def.sphere_orientation == 1);
    floe_world_destroy(b);
    free(bytes);
    floe_world_destroy(w);
    floe_world_def def = floe_default_world_def();
    CHECK(def.sphere_orientation == 1);
    def.sphere_orientation = 2;
    CHECK(floe_world_create(&def) == NULL);
    CHECK(strstr(floe_create_error(), "sphere_orientation = 2 must be 0 or 1") != NULL);
}

int main(void) {
    compare(0);
    compare(1);
    one_step();
    aspherical_sphere();
    snapshots();
    return CHECK_DONE();
}
