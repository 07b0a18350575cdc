/* Weighted recursive coordinate bisection (src/mpi/rcb.h), against cases
 * whose parts follow by hand: equal weights on a line cut into equal runs;
 * a heavy body balanced by many light ones; the longest side cut first;
 * ties in position cut by id; the parts independent of the input's order;
 * and the weights of a world counted from its contacts and bonds. */
#include "check.h"
#include "mpi/rcb.h"

#include <stdint.h>

int main(void) {
    enum { N = 12 };
    floe_vec3 pos[N];
    double wt[N];
    int64_t id[N];
    int part[N];

    /* 12 bodies of weight 1 on the x axis, 4 parts: 3 consecutive bodies each */
    for (int i = 0; i < N; i++) pos[i] = (floe_vec3){i * 0.1, 0, 0}, wt[i] = 1, id[i] = i;
    CHECK(floe_rcb(pos, wt, id, N, 4, part) == 0);
    for (int i = 0; i < N; i++) CHECK(part[i] == i / 3);
    CHECK_NEAR(floe_rcb_imbalance(wt, part, N, 4), 1.0, 0);

    /* 3 parts (cuts 1 | 2): 4, 4, 4 bodies */
    CHECK(floe_rcb(pos, wt, id, N, 3, part) == 0);
    for (int i = 0; i < N; i++) CHECK(part[i] == i / 4);

    /* body 0 weighs 11, the others 1 each: 2 parts of 11 */
    wt[0] = 11;
    CHECK(floe_rcb(pos, wt, id, N, 2, part) == 0);
    CHECK(part[0] == 0);
    for (int i = 1; i < N; i++) CHECK(part[i] == 1);
    CHECK_NEAR(floe_rcb_imbalance(wt, part, N, 2), 1.0, 0);
    wt[0] = 1;

    /* a 6 x 2 grid, longer along y: the first cut goes across y */
    for (int i = 0; i < N; i++) pos[i] = (floe_vec3){(i % 2) * 0.1, (i / 2) * 0.1, 0};
    CHECK(floe_rcb(pos, wt, id, N, 2, part) == 0);
    for (int i = 0; i < N; i++) CHECK(part[i] == (i / 2 >= 3));

    /* every body at one point: the ids order them, the lower half to part 0 */
    for (int i = 0; i < N; i++) pos[i] = (floe_vec3){1, 2, 3}, id[i] = 100 - 7 * i;
    CHECK(floe_rcb(pos, wt, id, N, 2, part) == 0);
    for (int i = 0; i < N; i++) CHECK(part[i] == (i < 6)); /* the 6 largest ids are i < 6 */

    /* the input reversed: every id keeps its part */
    floe_vec3 rpos[N];
    double rwt[N];
    int64_t rid[N];
    int rpart[N];
    for (int i = 0; i < N; i++) {
        pos[i] = (floe_vec3){0.37 * ((i * 5) % N), 0.11 * ((i * 7) % N), 0.05 * i};
        wt[i] = 1 + (i % 3);
        id[i] = i;
    }
    for (int i = 0; i < N; i++) rpos[i] = pos[N - 1 - i], rwt[i] = wt[N - 1 - i], rid[i] = id[N - 1 - i];
    CHECK(floe_rcb(pos, wt, id, N, 3, part) == 0);
    CHECK(floe_rcb(rpos, rwt, rid, N, 3, rpart) == 0);
    for (int i = 0; i < N; i++) CHECK(part[i] == rpart[N - 1 - i]);

    /* bad input is refused */
    wt[3] = 0;
    CHECK(floe_rcb(pos, wt, id, N, 2, part) == -1);
    CHECK(floe_rcb(pos, wt, id, N, 0, part) == -1);

    /* the weights of a world: two spheres touching, a third alone */
    floe_world *w = floe_world_create(NULL);
    int m = floe_add_material(w, "g", "linear");
    floe_body_def d = floe_default_body_def();
    d.material = m;
    d.pos = (floe_vec3){0, 0, 0};
    floe_add_sphere(w, &d, 0.01);
    d.pos = (floe_vec3){0.019, 0, 0};
    floe_add_sphere(w, &d, 0.01);
    d.pos = (floe_vec3){1, 0, 0};
    floe_add_sphere(w, &d, 0.01);
    CHECK(floe_start(w) == FLOE_OK);
    CHECK(floe_contact_count(w) == 1);
    double ww[3];
    CHECK(floe_rcb_weights(w, ww) == 0);
    CHECK(ww[0] == 2 && ww[1] == 2 && ww[2] == 1);
    floe_world_destroy(w);
    return CHECK_DONE();
}
