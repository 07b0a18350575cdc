/* Events pulled after each step (floe_events): the step-0 events are there
 * after floe_start; any number of readers (here the output layer writing
 * events.csv and two plain readers) see the same list, and reading takes
 * nothing away; the sequence is the same for 1 and 2 threads; a step that
 * breaks 100 000 bonds lists all of them, and the next step starts empty;
 * a world told to record only some event types (floe_set_event_types)
 * lists exactly those of the full sequence, and counts breaks the same. */
#include "check.h"
#include "io/output.h"
#include "pile.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { NSTEPS = 300 };

/* Every event of a run, in order. */
typedef struct seq {
    floe_event *ev;
    int n, cap;
} seq;

static void seq_add(seq *s, floe_event_list l) {
    if (s->n + l.count > s->cap) {
        s->cap = 2 * (s->n + l.count);
        s->ev = realloc(s->ev, sizeof *s->ev * (size_t)s->cap);
        if (!s->ev) exit(2);
    }
    if (l.count) memcpy(s->ev + s->n, l.events, sizeof *s->ev * (size_t)l.count);
    s->n += l.count;
}

/* A stirred pile (several contact slices, contacts made and lost at once). */
static floe_world *gas(int threads) {
    const double V = 20; /* m/s: contacts form within ~50 steps */
    floe_world *w = make_pile(16, 16, 4, 0, 0.5, threads);
    uint64_t seed = 7;
    for (int i = 0; i < floe_particle_count(w); i++)
        if (floe_particle_shape(w, i) == FLOE_SHAPE_SPHERE)
            floe_set_velocity(
                w, i,
                (floe_vec3){V * (pile_rand(&seed) - 0.5), V * (pile_rand(&seed) - 0.5), V * (pile_rand(&seed) - 0.5)});
    return w;
}

/* Two overlapping spheres: one contact, created at step 0. */
static floe_world *pair(void) {
    floe_world *w = floe_world_create(NULL);
    int m = floe_add_material(w, "grain", "linear");
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    floe_add_sphere(w, &bd, 0.01);
    bd.pos = (floe_vec3){0.019, 0, 0};
    floe_add_sphere(w, &bd, 0.01);
    return w;
}

static void test_start(void) {
    floe_world *w = pair();
    floe_event_list l = floe_events(w);
    CHECK(l.count == 0 && l.events == NULL && l.serial == 0);
    CHECK(floe_start(w) == FLOE_OK);
    l = floe_events(w);
    CHECK(l.count == 1 && l.serial == 1);
    if (l.count == 1)
        CHECK(l.events[0].type == FLOE_EVENT_CONTACT_CREATED && l.events[0].step == 0 && l.events[0].a == 0 &&
              l.events[0].b == 1 && l.events[0].force.x < 0);
    CHECK(floe_start(w) == FLOE_OK); /* started already: the list stays */
    CHECK(floe_events(w).count == 1 && floe_events(w).serial == 1);
    CHECK(floe_step(w) == FLOE_OK);
    l = floe_events(w);
    CHECK(l.serial == 2);
    for (int i = 0; i < l.count; i++) CHECK(l.events[i].step == 1);
    floe_world_destroy(w);

    /* a first floe_step that starts the world: the step-0 events first */
    w = pair();
    CHECK(floe_step(w) == FLOE_OK);
    l = floe_events(w);
    CHECK(l.count >= 1 && l.serial == 1);
    if (l.count >= 1) CHECK(l.events[0].type == FLOE_EVENT_CONTACT_CREATED && l.events[0].step == 0);
    floe_world_destroy(w);
}

/* The output layer and two readers, each keeping its own serial. */
static void test_readers(const char *tmp) {
    char dir[512], path[600], err[512] = "";
    snprintf(dir, sizeof dir, "%s/out", tmp);
    floe_output_config cfg;
    memset(&cfg, 0, sizeof cfg); /* events.csv only, every type */
    floe_world *w = gas(2);
    floe_output *o = floe_output_open(dir, &cfg, w, NSTEPS, err, sizeof err);
    CHECK(o != NULL);
    if (!o) {
        fprintf(stderr, "open: %s\n", err);
        floe_world_destroy(w);
        return;
    }
    seq a = {0}, b = {0};
    uint64_t seen_a = 0, seen_b = 0;
    for (int s = 0; s <= NSTEPS; s++) {
        if (s > 0) {
            CHECK(floe_step(w) == FLOE_OK);
            CHECK(floe_output_step(o, w) == 0);
        }
        floe_event_list la = floe_events(w);
        CHECK(la.serial == seen_a + 1); /* the start (by the output layer), then one per step */
        seen_a = la.serial;
        seq_add(&a, la);
        if (s % 2 == 0) { /* every other step a reads twice: the same list */
            floe_event_list again = floe_events(w);
            CHECK(again.events == la.events && again.count == la.count && again.serial == la.serial);
        }
        floe_event_list lb = floe_events(w);
        CHECK(lb.serial == seen_b + 1);
        seen_b = lb.serial;
        seq_add(&b, lb);
    }
    CHECK(floe_output_snapshot(o, w) == 0); /* the same step again: no rows twice */
    CHECK(a.n == b.n && a.n > 1000 && memcmp(a.ev, b.ev, sizeof *a.ev * (size_t)a.n) == 0);
    int created = 0, deleted = 0;
    for (int i = 0; i < a.n; i++) {
        created += a.ev[i].type == FLOE_EVENT_CONTACT_CREATED;
        deleted += a.ev[i].type == FLOE_EVENT_CONTACT_DELETED;
        if (i) CHECK(a.ev[i].step >= a.ev[i - 1].step);
    }
    CHECK(created - deleted == floe_contact_count(w) && deleted > 100);
    REPORT("readers: %d events in %d steps (%d created, %d deleted), read alike by two readers\n", a.n, NSTEPS, created,
           deleted);

    /* steps the outputs did not follow: their events are gone, and that is said */
    CHECK(floe_step(w) == FLOE_OK);
    CHECK(floe_step(w) == FLOE_OK);
    CHECK(floe_output_step(o, w) != 0);
    REPORT("outputs skipped a step: %s\n", floe_output_error(o));
    CHECK(strstr(floe_output_error(o), "after every floe_step") != NULL);
    floe_output_close(o, w);

    /* events.csv: the header and one row per event the readers saw (and
     * the last step's, read after the skipped one) */
    snprintf(path, sizeof path, "%s/events.csv", dir);
    size_t len = 0;
    char *text = check_slurp(path, &len);
    CHECK(text != NULL);
    int rows = -1;
    for (size_t i = 0; text && i < len; i++) rows += text[i] == '\n';
    CHECK(rows == a.n + floe_events(w).count);
    free(text);
    unlink(path);
    snprintf(path, sizeof path, "%s/.floe.lock", dir);
    unlink(path);
    CHECK(rmdir(dir) == 0);
    free(a.ev);
    free(b.ev);
    floe_world_destroy(w);
}

static seq run_types(int threads, uint32_t types) {
    floe_world *w = gas(threads);
    CHECK(floe_event_types(w) == FLOE_EVENTS_ALL);
    CHECK(floe_set_event_types(w, types) == FLOE_OK && floe_event_types(w) == types);
    seq s = {0};
    CHECK(floe_start(w) == FLOE_OK);
    seq_add(&s, floe_events(w));
    for (int i = 0; i < NSTEPS; i++) {
        CHECK(floe_step(w) == FLOE_OK);
        seq_add(&s, floe_events(w));
    }
    CHECK(floe_thread_count(w) == threads);
    floe_world_destroy(w);
    return s;
}

static seq run(int threads) { return run_types(threads, FLOE_EVENTS_ALL); }

/* The same events in the same order, bit for bit, for 1 and 2 threads. */
static void test_threads(void) {
    seq a = run(1), b = run(2);
    CHECK(a.n == b.n && a.n > 1000);
    CHECK(a.n == b.n && memcmp(a.ev, b.ev, sizeof *a.ev * (size_t)a.n) == 0);
    free(a.ev);
    free(b.ev);
}

static floe_world *chain(int N);

/* Deletions only: the full sequence filtered to them, bit for bit; none:
 * an empty list every step; a mask beyond the event types is refused. */
static void test_types(void) {
    seq all = run(1), del = run_types(2, 1u << FLOE_EVENT_CONTACT_DELETED), none = run_types(1, 0);
    int n = 0, same = 1;
    for (int i = 0; i < all.n; i++) {
        if (all.ev[i].type != FLOE_EVENT_CONTACT_DELETED) continue;
        same = same && n < del.n && memcmp(&all.ev[i], &del.ev[n], sizeof all.ev[i]) == 0;
        n++;
    }
    CHECK(n > 100 && n == del.n && same);
    CHECK(none.n == 0);
    floe_world *w = pair();
    CHECK(floe_set_event_types(w, FLOE_EVENTS_ALL + 1) == FLOE_ERR_ARG);
    CHECK(strstr(floe_last_error(w), "beyond the 9 event types") != NULL);
    CHECK(floe_event_types(w) == FLOE_EVENTS_ALL);
    floe_world_destroy(w);
    /* breaks are counted whatever is recorded */
    w = chain(10);
    CHECK(floe_set_event_types(w, 0) == FLOE_OK);
    CHECK(floe_step(w) == FLOE_OK && floe_step(w) == FLOE_OK);
    CHECK(floe_break_count(w) == 10 && floe_events(w).count == 0);
    floe_world_destroy(w);
    free(all.ev);
    free(del.ev);
    free(none.ev);
}

/* A chain of N + 1 touching ice spheres, bonded at step 0 (breakable in
 * tension only), pulled apart so that every bond breaks in step 1. */
static floe_world *chain(int N) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-5;
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "ice", "ice");
    CHECK(floe_model_set(w, "ice", "bonds0", 15 | 16) == FLOE_OK);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.blocked = FLOE_DOF_ALL; /* moves with its velocity */
    for (int i = 0; i <= N; i++) {
        bd.pos = (floe_vec3){i, 0, 0};         /* radius 0.5: touching, exactly */
        bd.vel = (floe_vec3){100.0 * i, 0, 0}; /* each bond: 1 mm per step, 10x its breaking elongation */
        floe_add_sphere(w, &bd, 0.5);
    }
    return w;
}

static void test_break_storm(void) {
    enum { N = 100000 };
    floe_world *w = chain(N);
    CHECK(floe_start(w) == FLOE_OK);
    floe_event_list l = floe_events(w);
    CHECK(l.count == N && floe_contact_count(w) == N);
    CHECK(floe_step(w) == FLOE_OK);
    l = floe_events(w);
    /* per contact, in contact order: broken, then deleted (in tension) */
    CHECK(l.count == 2 * N && floe_contact_count(w) == 0 && floe_break_count(w) == N);
    int ok = 1;
    for (int i = 0; i + 1 < l.count && ok; i += 2)
        ok = l.events[i].type == FLOE_EVENT_BOND_BROKEN && l.events[i + 1].type == FLOE_EVENT_CONTACT_DELETED &&
             l.events[i].a == l.events[i + 1].a && l.events[i].step == 1 && (l.events[i].detail & 1);
    CHECK(ok);
    REPORT("break storm: %d events in one step (%lld bonds broken)\n", l.count, (long long)floe_break_count(w));
    CHECK(floe_step(w) == FLOE_OK); /* the next step starts an empty list */
    CHECK(floe_events(w).count == 0 && floe_events(w).serial == 3);
    floe_world_destroy(w);
}

int main(void) {
    char tmp[] = "/tmp/floe_test_events_XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    test_start();
    test_readers(tmp);
    test_threads();
    test_types();
    test_break_storm();
    rmdir(tmp);
    return CHECK_DONE();
}
