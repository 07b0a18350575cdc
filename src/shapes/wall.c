/* Wall: axis-aligned infinite plane (docs/geometry.md#pairs-and-their-order). A is the wall, B the
 * sphere. A two-sided wall (sense 0) keeps the side it was touched from. */
#include "shapes/shape.h"

int floe_collide_wall_sphere(const floe_world *w, int a, int b, const floe_contact *prev, double gap,
                             floe_raw_contact *out) {
    return floe_wall_sphere(w, a, b, prev, gap, out);
}
