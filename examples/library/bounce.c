/* A glass bead dropped on a floor: it falls, lands and bounces.
 * Build and run: README.md, "Using the library". */
#include <stdio.h>
#include <floe/floe.h>

int main(void)
{
    floe_world_def def = floe_default_world_def();
    def.gravity = (floe_vec3){0, 0, -9.81};
    def.dt = 1.5e-5;      /* s: 17 steps per impact (0.26 ms); 0 would pick dt itself */
    floe_world *w = floe_world_create(&def);

    int glass = floe_add_material(w, "glass", "linear");
    floe_material_set(w, glass, "density", 2500);
    floe_material_set(w, glass, "young", 1e8);     /* softened: docs/softened-modulus.md */
    floe_model_set(w, "linear", "dp_nratio", 0.1); /* normal dashpot: restitution 0.73 */

    floe_body_def b = floe_default_body_def();
    b.material = glass;
    floe_add_wall(w, &b, 2, +1);                   /* floor z = 0, hit from above */
    b.pos = (floe_vec3){0, 0, 0.1};
    int s = floe_add_sphere(w, &b, 0.01);          /* radius 1 cm, centre 10 cm up */

    int touching = 0, bounces = 0;
    double v_in = 0, next_print = 0;
    while (floe_time(w) < 0.5) {
        if (floe_step(w) != FLOE_OK) {
            fprintf(stderr, "%s\n", floe_last_error(w));
            return 1;
        }
        double t = floe_time(w);
        double z = floe_positions(w)[s].z, vz = floe_velocities(w)[s].z;
        int now = floe_contact_count(w) > 0;       /* the bead touches the floor */
        if (now && !touching) {
            v_in = -vz;
            printf("t = %.3f s  lands at %.2f m/s\n", t, v_in);
        }
        if (!now && touching)
            printf("t = %.3f s  bounce %d: leaves at %.2f m/s (restitution %.2f)\n",
                   t, ++bounces, vz, vz / v_in);
        touching = now;
        if (t >= next_print) {
            printf("t = %.3f s  z = %.4f m\n", t, z);
            next_print += 0.1;
        }
    }
    printf("%d bounces in %.1f s (%lld steps of %.1e s)\n", bounces, floe_time(w),
           (long long)floe_step_count(w), floe_dt(w));
    floe_world_destroy(w);
    return 0;
}
