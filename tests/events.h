/* Test helper: one step, then each of its events (floe_events) handed to a
 * function, for the tests that count or keep events. */
#ifndef FLOE_TEST_EVENTS_H
#define FLOE_TEST_EVENTS_H

#include <floe/floe.h>

typedef void events_fn(const floe_event *ev, void *user);

static inline floe_status step_events(floe_world *w, events_fn *fn, void *user) {
    floe_status st = floe_step(w);
    floe_event_list l = floe_events(w);
    for (int i = 0; i < l.count; i++) fn(&l.events[i], user);
    return st;
}

#endif
