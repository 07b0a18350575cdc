/* Inlets and sinks (supply.c, docs/supply.md). */
#ifndef FLOE_CORE_SUPPLY_H
#define FLOE_CORE_SUPPLY_H

#include "core/world.h"

/* After a step: the sinks remove, then the inlets insert (serial, in
 * their order). */
floe_status floe__supply_step(floe_world *w);

#endif
