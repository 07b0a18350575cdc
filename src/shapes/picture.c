/* Pictures of surfaces of revolution for the VTK writers (shape.h): the
 * capsule, the ellipsoid and the infinite cylinder share one pattern. */
#include "shapes/shape.h"

int floe_ring_faces(int32_t *corner, int seg, int rings, int poles) {
    int32_t r0 = poles ? 1 : 0, last = r0 + rings * seg;
    int t = 0;
    for (int j = 0; j < seg; j++) {
        int32_t j1 = (j + 1) % seg;
        if (poles) {
            corner[3 * t] = 0;
            corner[3 * t + 1] = r0 + j1;
            corner[3 * t + 2] = r0 + j;
            t++;
        }
        for (int k = 0; k + 1 < rings; k++) {
            int32_t a = r0 + k * seg + j, b = r0 + k * seg + j1;
            int32_t c = b + seg, d = a + seg;
            corner[3 * t] = a;
            corner[3 * t + 1] = b;
            corner[3 * t + 2] = c;
            corner[3 * t + 3] = a;
            corner[3 * t + 4] = c;
            corner[3 * t + 5] = d;
            t += 2;
        }
        if (poles) {
            int32_t a = r0 + (rings - 1) * seg + j, b = r0 + (rings - 1) * seg + j1;
            corner[3 * t] = a;
            corner[3 * t + 1] = b;
            corner[3 * t + 2] = last;
            t++;
        }
    }
    return t;
}

void floe_ring_dir(int j, int seg, double *c, double *s) {
    double a = 2 * FLOE_PI * j / seg;
    *c = cos(a);
    *s = sin(a);
}
