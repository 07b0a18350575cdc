/* The `periodic` section of a scene (docs/scene-format.md#periodic,
 * docs/periodic.md): the periods of the periodic axes, the cell's velocity
 * gradient and the affine start of the bodies' velocities. The API checks
 * the ranges; its messages are reported at the key. */
#include "io/scene_internal.h"

#include <stdio.h>
#include <string.h>

static const char *const keys[] = {"x", "y", "z", "velocity_gradient", "affine_velocities", "servo"};
static const char *const axes[] = {"x", "y", "z"};
static const char *const servo_keys[] = {"stress", "gain", "max_rate"};

/* servo: {y: {stress: -100, gain: 1e-3, max_rate: 10}, ...} */
static int servo(scene_ctx *c, sy_node *sec) {
    sy_doc *d = c->d;
    if (sy_want_map(d, sec, "periodic.servo")) return -1;
    if (sy_check_keys(d, sec, "periodic.servo", axes, 3)) return -1;
    for (int k = 0; k < 3; k++) {
        sy_node *n = sy_get(d, sec, axes[k]);
        if (!n) continue;
        char where[64];
        snprintf(where, sizeof where, "periodic.servo.%s", axes[k]);
        if (sy_want_map(d, n, where) || sy_check_keys(d, n, where, servo_keys, 3)) return -1;
        double v[3] = {0, 0, 1e6};
        sy_node *at[3];
        for (int j = 0; j < 3; j++) {
            sy_node *x = at[j] = sy_get(d, n, servo_keys[j]);
            char w2[96];
            snprintf(w2, sizeof w2, "%s.%s", where, servo_keys[j]);
            if (!x) {
                if (j < 2) return sy_missing(d, n, where, servo_keys[j]);
                continue;
            }
            if (sy_number(d, x, w2, &v[j])) return -1;
        }
        if (floe_world_set_cell_servo(c->w, k, v[0], v[1], v[2]) != FLOE_OK) {
            /* at the value the engine names first ("fn: gain = ...") */
            const char *e = strstr(floe_last_error(c->w), ": ");
            for (int j = 0; e && j < 3; j++) {
                size_t len = strlen(servo_keys[j]);
                if (at[j] && !strncmp(e + 2, servo_keys[j], len) && e[2 + len] == ' ') {
                    char w2[96];
                    snprintf(w2, sizeof w2, "%s.%s", where, servo_keys[j]);
                    return scene_world_error(c, at[j], w2);
                }
            }
            return scene_world_error(c, n, where);
        }
    }
    return 0;
}

/* [lo, hi] at `where` */
static int period(sy_doc *d, sy_node *n, const char *where, double *lo, double *hi) {
    if (sy_want_seq(d, n, where)) return -1;
    if (sy_seq_size(n) != 2)
        return sy_error(d, n, "%s: give the period as [lo, hi] in m (2 numbers, lo < hi), not %d", where,
                        sy_seq_size(n));
    char w2[64];
    snprintf(w2, sizeof w2, "%s[0]", where);
    if (sy_number(d, sy_seq_item(d, n, 0), w2, lo)) return -1;
    snprintf(w2, sizeof w2, "%s[1]", where);
    if (sy_number(d, sy_seq_item(d, n, 1), w2, hi)) return -1;
    if (!(*lo < *hi)) return sy_error(d, n, "%s: the period [%g, %g] m needs lo < hi", where, *lo, *hi);
    return 0;
}

/* three rows of three numbers [1/s] */
static int gradient(sy_doc *d, sy_node *n, double l[9]) {
    const char *where = "periodic.velocity_gradient";
    if (sy_want_seq(d, n, where)) return -1;
    if (sy_seq_size(n) != 3)
        return sy_error(d, n, "%s: give L as 3 rows of 3 numbers in 1/s, [[dvx/dx, dvx/dy, dvx/dz], ...], not %d rows",
                        where, sy_seq_size(n));
    for (int i = 0; i < 3; i++) {
        sy_node *row = sy_seq_item(d, n, i);
        char w2[64];
        snprintf(w2, sizeof w2, "%s[%d]", where, i);
        if (sy_want_seq(d, row, w2)) return -1;
        if (sy_seq_size(row) != 3)
            return sy_error(d, row, "%s: a row of L has 3 numbers, not %d", w2, sy_seq_size(row));
        for (int j = 0; j < 3; j++) {
            snprintf(w2, sizeof w2, "%s[%d][%d]", where, i, j);
            if (sy_number(d, sy_seq_item(d, row, j), w2, &l[3 * i + j])) return -1;
        }
    }
    return 0;
}

int scene_periodic(scene_ctx *c, sy_node *sec) {
    sy_doc *d = c->d;
    if (sy_want_map(d, sec, "periodic")) return -1;
    if (sy_check_keys(d, sec, "periodic", keys, (int)(sizeof keys / sizeof *keys))) return -1;
    int any = 0;
    for (int k = 0; k < 3; k++) {
        sy_node *n = sy_get(d, sec, keys[k]);
        if (!n) continue;
        char where[32];
        snprintf(where, sizeof where, "periodic.%s", keys[k]);
        double lo, hi;
        if (period(d, n, where, &lo, &hi)) return -1;
        if (floe_world_set_periodic(c->w, k, lo, hi) != FLOE_OK) return scene_world_error(c, n, where);
        any = 1;
    }
    if (!any) return sy_error(d, sec, "periodic: give the period of at least one axis (x, y or z: [lo, hi] in m)");
    sy_node *n = sy_get(d, sec, "velocity_gradient");
    if (n) {
        double l[9];
        if (gradient(d, n, l)) return -1;
        if (floe_world_set_velocity_gradient(c->w, l) != FLOE_OK)
            return scene_world_error(c, n, "periodic.velocity_gradient");
    }
    if ((n = sy_get(d, sec, "servo")) && servo(c, n)) return -1;
    int affine = 0;
    if ((n = sy_get(d, sec, "affine_velocities")) && sy_bool(d, n, "periodic.affine_velocities", &affine)) return -1;
    return 0;
}

int scene_periodic_bodies(scene_ctx *c, sy_node *sec) {
    sy_node *n = sy_get(c->d, sec, "affine_velocities");
    int affine = 0;
    if (n && sy_bool(c->d, n, "periodic.affine_velocities", &affine)) return -1;
    if (affine && floe_world_affine_velocities(c->w) != FLOE_OK)
        return scene_world_error(c, n, "periodic.affine_velocities");
    return 0;
}
