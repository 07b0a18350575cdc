/* Inlets and sinks (supply.c, docs/supply.md). */
#ifndef FLOE_CORE_SUPPLY_H
#define FLOE_CORE_SUPPLY_H

#include "core/world.h"

/* After a step: the sinks remove, then the inlets insert (serial, in
 * their order). */
floe_status floe__supply_step(floe_world *w);

/* The rules between an inlet's or a sink's values that a snapshot must
 * keep (floe__snapshot_check): 0, or -1 with the first broken one in why. */
int floe__supply_check(const floe_world *w, char *why, size_t len);

#endif
