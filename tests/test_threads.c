/* Determinism: the same pile run with 1, 2 and 3 threads must give
 * bitwise identical particle states, contact forces and energies. Work is
 * split in fixed blocks and reduced in block order, so the thread count
 * cannot change the arithmetic. 2560 particles span several blocks.
 * The thread tuner (core/threads.h): its choice from trial samples, the
 * counts the steps of a trial use, the hold before a change of the work
 * starts another, and a tuned run equal bit for bit to one on a fixed
 * count. Where threads cut the bodies (floe__work_cut):
 * the block boundaries nearest equal shares of the estimated work. The
 * force buffers of the contact parts are zero again after every step. */
#include "check.h"
#include "core/batch.h"
#include "core/step.h"
#include "core/threads.h"
#include "pile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Between steps the force buffers of contact parts 1.. hold zeros and no
 * chunk of them is flagged as written: the merge took every sum a part
 * added (step.c, floe_part_sums in core/batch.h). A chunk written but not
 * flagged would keep its sums out of the forces, and in the buffer. */
static int parts_clean(const floe_world *w) {
    const unsigned char *buf = w->scratch[SCR_PART_SUMS], *touched = floe__lines_start(w->scratch[SCR_PART_TOUCHED]);
    size_t nbuf = sizeof(floe_vec3) * 2 * (size_t)w->np * (FLOE_PARTS - 1);
    size_t ntouch = (size_t)floe_touch_chunks(w->np) * (FLOE_PARTS - 1);
    if (!buf || !touched || w->scratch_size[SCR_PART_SUMS] < nbuf ||
        w->scratch_size[SCR_PART_TOUCHED] < floe__lines_slot(ntouch))
        return 0;
    for (size_t i = 0; i < nbuf; i++)
        if (buf[i]) return 0;
    for (size_t i = 0; i < ntouch; i++)
        if (touched[i]) return 0;
    return 1;
}

/* What a thread of the contact pass writes at every contact has cache
 * lines of its own (floe__scratch_lines, world.h): the world's touched
 * chunks, the buffer's, and the kernels' list before the parts' work areas
 * (step.c, prepare_pass; docs/performance.md, item 38). */
static int own_lines(const floe_world *w) {
    const unsigned char *slot = w->scratch[SCR_PART_TOUCHED], *t = floe__lines_start(w->scratch[SCR_PART_TOUCHED]);
    const size_t ntouch = (size_t)floe_touch_chunks(w->np) * (FLOE_PARTS - 1);
    const unsigned char *b = w->scratch[SCR_BATCH], *kinds = floe__lines_start(w->scratch[SCR_BATCH]);
    return (uintptr_t)w->ftouch % FLOE_LINE == 0 && (uintptr_t)t % FLOE_LINE == 0 && t > slot &&
           t + floe__lines(ntouch) <= slot + w->scratch_size[SCR_PART_TOUCHED] && (uintptr_t)kinds % FLOE_LINE == 0 &&
           kinds > b && kinds + floe__lines(sizeof(int) * (size_t)w->ninsts) < b + w->scratch_size[SCR_BATCH];
}

static floe_world *run(int threads) {
    floe_world *w = make_pile(16, 16, 10, 0.1, 0.5, threads);
    uint64_t seed = 99; /* stir the lattice so that contacts form at once */
    for (int i = 0; i < floe_particle_count(w); i++)
        if (floe_particle_shape(w, i) == FLOE_SHAPE_SPHERE)
            floe_set_velocity(w, i,
                              (floe_vec3){pile_rand(&seed) - 0.5, pile_rand(&seed) - 0.5, pile_rand(&seed) - 0.5});
    int clean = 1;
    for (int s = 0; s < 3000; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        clean &= parts_clean(w);
    }
    CHECK(clean);
    CHECK(own_lines(w));
    return w;
}

#define SAME(arr) CHECK(memcmp(arr(a), arr(b), sizeof *arr(a) * (size_t)n) == 0)

/* The choice: means (the wall time a run sees) without the longest 1 in
 * 16 samples (at least one), and the ceiling only when at least 5 %
 * faster; long steps of a descheduled thread that come often decide
 * against the ceiling even when most of its steps are short. */
static void test_choose(void) {
    double one[5] = {10, 10, 10, 10, 10}, fast[5] = {9, 9, 9, 9, 11}, close[5] = {9.6, 9.6, 9.6, 9.6, 9.6},
           busy[5] = {5, 5, 5, 40, 40};
    CHECK(floe__threads_choose(one, fast, 5, 2) == 2);  /* without 11 and a 10: 36 < 0.95 * 40 */
    CHECK(floe__threads_choose(one, close, 5, 2) == 1); /* 38.4 >= 38 */
    CHECK(floe__threads_choose(one, busy, 5, 2) == 1);  /* median 5, but 55 > 40 */
    CHECK(floe__threads_choose(one, busy, 4, 2) == 2);  /* the first 4 samples only: 15 < 28.5 */
    CHECK(floe__threads_choose(fast, one, 5, 4) == 1);
    CHECK(floe__threads_choose(one, fast, 5, 1) == 1);
    CHECK(floe__threads_choose(one, fast, 0, 2) == 1);
    /* the cores other processes leave: rounded, at least 1, at most the ceiling */
    CHECK(floe__threads_room(2, 2, -1) == 2 && floe__threads_room(2, 2, 0.3) == 2 &&
          floe__threads_room(2, 2, 0.6) == 1);
    CHECK(floe__threads_room(2, 2, 5) == 1 && floe__threads_room(8, 8, 3.2) == 5 && floe__threads_room(4, 8, 1) == 4);
    /* their use from two readings: busy time less ours over the wall time */
    floe_cpu_sample a = {10, 1, 100, 1}, b = {12, 2, 101, 1};
    CHECK(floe__cpu_others(a, b, 0.2) == 1 && floe__cpu_others(a, b, 2) == -1);
    b.own = 5; /* our clock read after the machine's: never below 0 */
    CHECK(floe__cpu_others(a, b, 0.2) == 0);
    b.ok = 0;
    CHECK(floe__cpu_others(a, b, 0.2) == -1);
    /* a trial that confirms the count before it doubles the hold, up to
     * the period; one that changes it resets the hold */
    floe_thread_tuner tt = {.best = 2, .hold = FLOE_TUNE_STEPS};
    floe__threads_decided(&tt, 2);
    CHECK(tt.hold == 2 * FLOE_TUNE_STEPS && tt.best == 2 && tt.trials == 1);
    for (int k = 0; k < 10; k++) floe__threads_decided(&tt, 2);
    CHECK(tt.hold == FLOE_TUNE_PERIOD && tt.trials == 11);
    floe__threads_decided(&tt, 1);
    CHECK(tt.hold == FLOE_TUNE_STEPS && tt.best == 1);
    floe__threads_decided(&tt, 1);
    CHECK(tt.hold == 2 * FLOE_TUNE_STEPS && tt.best == 1 && tt.trials == 13);
    a = floe__cpu_sample();
    CHECK(a.wall > 0 && a.own >= 0 && floe__cpu_count() >= 1);
#ifdef __linux__
    CHECK(a.ok && a.machine > 0);
#endif
    /* of 32 samples the 2 longest of each count do not count (steps that
     * rebuilt the pair list), a third does: 30 x 8 + 2 x 100 against 30 x
     * 10 chooses the ceiling, 29 x 8 + 3 x 100 does not */
    double t32[32], n32[32];
    for (int i = 0; i < 32; i++) t32[i] = 10, n32[i] = i < 2 ? 100 : 8;
    CHECK(floe__threads_choose(t32, n32, 32, 2) == 2);
    n32[2] = 100;
    CHECK(floe__threads_choose(t32, n32, 32, 2) == 1);
    /* a trial ends early only when the ceiling takes over twice as long,
     * the longest sample of each left out: one hold-up does not decide */
    double slow[5] = {21, 21, 21, 21, 21}, twice[5] = {20, 20, 20, 20, 20}, jolt[5] = {1000, 10, 10, 10, 10};
    CHECK(floe__threads_lose(one, slow, 5) && !floe__threads_lose(one, twice, 5) && !floe__threads_lose(one, jolt, 5));
    CHECK(!floe__threads_lose(one, slow, 0) && !floe__threads_lose(one, slow, 1));
}

/* Cuts of a cumulative work load: the boundary nearest t / nt of the
 * whole, monotone in t, from 0 to nb; worked by hand below. */
static void test_work_cut(void) {
    const double even[] = {0, 1, 2, 3, 4};
    CHECK(floe__work_cut(even, 4, 0, 2) == 0 && floe__work_cut(even, 4, 1, 2) == 2 &&
          floe__work_cut(even, 4, 2, 2) == 4);
    /* thirds: 4/3 lies nearer 1 than 2, 8/3 nearer 3 than 2 */
    CHECK(floe__work_cut(even, 4, 1, 3) == 1 && floe__work_cut(even, 4, 2, 3) == 3);
    /* a pile in the first block (10 of 14): alone it is nearer half than nothing */
    const double pile[] = {0, 10, 11, 12, 13, 14};
    CHECK(floe__work_cut(pile, 5, 1, 2) == 1);
    CHECK(floe__work_cut(pile, 5, 1, 1) == 5 && floe__work_cut(pile, 5, 0, 1) == 0);
    /* random loads: monotone, and no boundary nearer the target than the one chosen */
    uint64_t seed = 7;
    for (int trial = 0; trial < 200; trial++) {
        double load[33] = {0};
        int nb = 1 + trial % 32;
        for (int b = 0; b < nb; b++) load[b + 1] = load[b] + 1 + 50 * pile_rand(&seed) * (b % 3 == 0);
        for (int nt = 1; nt <= 5; nt++)
            for (int t = 0, prev = 0; t <= nt; t++) {
                int c = floe__work_cut(load, nb, t, nt);
                double target = load[nb] * t / nt;
                CHECK(c >= prev && c >= 0 && c <= nb);
                for (int b = 0; t > 0 && t < nt && b <= nb; b++)
                    CHECK(fabs(load[c] - target) <= fabs(load[b] - target));
                prev = c;
            }
    }
}

/* The merge of the parts' force buffers reads only the chunks a part
 * flagged (floe_part_sums): 4096 spheres in a row that touch nothing but
 * the last 256, each beside one sphere 1024 places before it. Every
 * contact is then in part 1 (its bodies' blocks hold the second half of
 * the work), and bodies A and B of each lie in different chunks; a flag
 * missed on either side leaves that body's force out (and in the buffer).
 * The two forces of a pair are F and -F added to +0: exactly opposite. */
static void test_merge_chunks(void) {
    const double r = 0.01;
    floe_world_def def = floe_default_world_def();
    def.gravity = (floe_vec3){0, 0, 0};
    def.dt = 1e-6;
    def.threads = 1;
    floe_world *w = floe_world_create(&def);
    floe_set_thread_tuning(w, 0);
    int m = floe_add_material(w, "grain", "linear");
    floe_material_set(w, m, "young", 1e7);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    for (int i = 0; i < 4096; i++) {
        int j = i < 3840 ? i : i - 1024;
        bd.pos = (floe_vec3){3 * r * j, i < 3840 ? 0 : 1.9 * r, 0};
        floe_add_sphere(w, &bd, r);
    }
    CHECK(floe_step(w) == FLOE_OK && floe_step(w) == FLOE_OK);
    CHECK(floe_contact_count(w) == 256);
    const floe_vec3 *f = floe_forces(w);
    int opposite = 0;
    for (int i = 3840; i < 4096; i++) {
        floe_vec3 fa = f[i - 1024], fb = f[i];
        opposite += fb.y > 0 && fa.x == -fb.x && fa.y == -fb.y && fa.z == -fb.z;
    }
    CHECK(opposite == 256);
    CHECK(parts_clean(w));
    floe_world_destroy(w);
}

/* The tuner's clock set back as if the run had started `ago` seconds
 * earlier: its first reading of the other processes' use is then due. */
static void started_ago(floe_world *w, double ago) {
    CHECK(floe_start(w) == FLOE_OK);
    w->tune.since.wall -= ago;
}

/* Before the first reading of the others' use (0.2 s after the start) the
 * steps run on one thread and no trial starts; /proc/stat is on every
 * Linux this runs on. Then a trial's steps alternate the ceiling and 1
 * thread in blocks, to its end or to the end of a pair of blocks where the
 * ceiling clearly lost, or no trial runs where other processes leave one
 * core (which of these happens depends on the machine's timing and load;
 * all are checked); then the choice holds until the next trial; results
 * equal those of a fixed count. */
static void test_tuner(void) {
    /* 72 spheres: fewer contacts than the slack of a workload change (256), so one trial */
    floe_world *t = make_pile(6, 6, 2, 0.1, 0.5, 2), *f = make_pile(6, 6, 2, 0.1, 0.5, 2);
    floe_set_thread_tuning(t, 1);
    CHECK(floe_start(t) == FLOE_OK && t->tune.since.ok);
    int first = 1;
    for (int s = 0; s < 8 && floe__cpu_wall() - t->tune.since.wall < 0.1; s++) {
        CHECK(floe_step(t) == FLOE_OK && floe_step(f) == FLOE_OK);
        first = first && t->tune.now == 1 && t->tune.start < 0 && t->tune.trials == 0;
    }
    CHECK(first);
    started_ago(t, 1.0);
    int used[FLOE_TUNE_STEPS + 8], ok = 1;
    for (int s = 0; s < FLOE_TUNE_STEPS + 8; s++) {
        CHECK(floe_step(t) == FLOE_OK && floe_step(f) == FLOE_OK);
        used[s] = t->tune.now;
        ok = ok && f->tune.now == 2;
    }
    CHECK(ok);
    /* the trial's steps: to its end, or to where it was cut short */
    const int end = t->tune.cut_short ? 2 * FLOE_TUNE_BLOCK * t->tune.n1 / FLOE_TUNE_BLOCK : FLOE_TUNE_STEPS;
    for (int s = 0; s < end; s++) ok = ok && used[s] == (s / FLOE_TUNE_BLOCK % 2 ? 1 : 2);
    CHECK(ok && t->tune.trials == 1 && t->tune.n1 == end / 2 && t->tune.nn == end / 2 &&
          end % (2 * FLOE_TUNE_BLOCK) == 0);
    CHECK(end > 0 || t->tune.room == 1);
    CHECK(!t->tune.cut_short || t->tune.best == 1);
    CHECK(t->tune.room >= 1 && t->tune.room <= 2);
    for (int s = end; s < FLOE_TUNE_STEPS + 8; s++) ok = ok && used[s] == t->tune.best;
    CHECK(ok && floe_thread_count(t) == 2);
    int n = floe_particle_count(t);
    CHECK(memcmp(floe_positions(t), floe_positions(f), sizeof(floe_vec3) * (size_t)n) == 0);
    CHECK(memcmp(floe_velocities(t), floe_velocities(f), sizeof(floe_vec3) * (size_t)n) == 0);
    REPORT("tuner: the trial chose %d thread(s) (means over %d steps each%s)\n", t->tune.best, t->tune.n1,
           t->tune.cut_short ? ", cut short" : "");
    floe_world_destroy(t);
    floe_world_destroy(f);
    /* a workload that changes starts a new trial: a stirred pile whose
     * contacts form after the first trial */
    t = make_pile(16, 16, 4, 0.1, 0.5, 2);
    floe_set_thread_tuning(t, 1);
    started_ago(t, 1.0);
    uint64_t seed = 5;
    for (int i = 0; i < floe_particle_count(t); i++)
        if (floe_particle_shape(t, i) == FLOE_SHAPE_SPHERE)
            floe_set_velocity(t, i, (floe_vec3){10 * (pile_rand(&seed) - 0.5), 10 * (pile_rand(&seed) - 0.5), 0});
    int64_t hold1 = 0, start1 = -1; /* the hold the first trial's choice set, and where that trial began */
    for (int s = 0; s < 2000 && t->tune.trials < 2; s++) {
        CHECK(floe_step(t) == FLOE_OK);
        if (t->tune.trials == 1 && start1 < 0) hold1 = t->tune.hold, start1 = t->tune.start;
    }
    CHECK(t->tune.trials == 2 && t->tune.start > 0 && t->tune.start < FLOE_TUNE_PERIOD && t->tune.ncon0 > 256);
    CHECK(start1 >= 0 && hold1 >= FLOE_TUNE_STEPS && t->tune.start - start1 >= hold1); /* not before the hold */
    /* a change of the work within the hold starts no trial; after it, one */
    t->tune.start = t->step;
    t->tune.hold = 4 * FLOE_TUNE_STEPS;
    t->tune.ncon0 = 0;
    t->tune.cut_short = 0;
    int64_t at = t->step;
    int ncon = t->ncon;
    t->ncon = 1000;
    t->step = at + 2 * FLOE_TUNE_STEPS;
    floe__threads_before(t);
    CHECK(t->tune.start == at);
    t->step = at + 4 * FLOE_TUNE_STEPS;
    floe__threads_before(t);
    CHECK(t->tune.start == t->step && t->tune.ncon0 == 1000);
    t->ncon = ncon;
    t->step = at;
    REPORT("tuner: a second trial at step %lld, %d contacts\n", (long long)t->tune.start, t->tune.ncon0);
    floe_world_destroy(t);
}

int main(void) {
    test_choose();
    test_work_cut();
    test_tuner();
    test_merge_chunks();
    floe_world *a = run(1);
    for (int threads = 2; threads <= 3; threads++) { /* 3: a thread between two others */
        floe_world *b = run(threads);
        int failed = check_failures, n = floe_particle_count(a);
        CHECK(n == floe_particle_count(b));
        SAME(floe_positions);
        SAME(floe_velocities);
        SAME(floe_angular_velocities);
        SAME(floe_orientations);
        SAME(floe_forces);
        SAME(floe_torques);
        int nc = floe_contact_count(a);
        CHECK(nc == floe_contact_count(b) && nc > 100);
        for (int k = 0; k < nc && k < floe_contact_count(b); k++) {
            floe_contact_info ca, cb;
            floe_contact_get(a, k, &ca);
            floe_contact_get(b, k, &cb);
            CHECK(ca.a == cb.a && ca.b == cb.b && memcmp(&ca.force, &cb.force, sizeof ca.force) == 0 &&
                  memcmp(&ca.torque, &cb.torque, sizeof ca.torque) == 0);
        }
        double ea[FLOE_E_COUNT], eb[FLOE_E_COUNT];
        floe_energy(a, ea);
        floe_energy(b, eb);
        CHECK(memcmp(ea, eb, sizeof ea) == 0);
        REPORT("1 vs %d threads: %d particles, %d contacts after 3000 steps: %s\n", threads, n, nc,
               check_failures > failed ? "DIFFERENT" : "bitwise identical");
        floe_world_destroy(b);
    }
    floe_world_destroy(a);
    return CHECK_DONE();
}
