/* The quantities a history column names (docs/outputs.md, "history.csv"),
 * evaluated on a world: a particle's, a contact's, a group's, an energy
 * term, a counter, a region's measurement (docs/measurements.md) or a plane
 * counter's. The checks and values of single columns are public
 * (floe_history_check, floe_history_value in include/floe/floe_io.h: restart
 * checks and Python use them); this header adds what the writers and the
 * scene loader need: the names of the region and plane quantities, a value
 * that shares work within a row, and whole regions and planes at once. */
#ifndef FLOE_IO_QUANTITY_H
#define FLOE_IO_QUANTITY_H

#include <floe/floe_io.h>

/* How many region and plane quantities there are. */
#define FLOE_REGION_QUANTITIES 26
#define FLOE_PLANE_QUANTITIES 6

/* The quantities of FLOE_HIST_REGION and FLOE_HIST_PLANE columns: fills
 * up to `cap` names and returns how many there are. */
int floe_history_region_quantities(const char **names, int cap);
int floe_history_plane_quantities(const char **names, int cap);

/* A region quantity is one value of a family that is computed whole (the
 * nine components of a tensor come from one pass over the contacts): the
 * families computed for one history row, so that nine stress columns over
 * one region cost one pass. Start a row with n = 0. */
#define FLOE_QUANTITY_CACHE 16
#define FLOE_QUANTITY_FAMILY_VALUES 10
typedef struct floe_quantity_cache {
    int n;
    struct {
        int family;
        floe_region r;
        double v[FLOE_QUANTITY_FAMILY_VALUES];
    } e[FLOE_QUANTITY_CACHE];
} floe_quantity_cache;

/* floe_history_value with the row's cache (NULL: none). */
double floe_history_value_cached(const floe_world *w, const floe_history_column *col, const double *energy,
                                 floe_quantity_cache *qc);

/* Every region quantity over r, in the order of the names, into
 * v[FLOE_REGION_QUANTITIES] (NaN where a measurement fails). */
void floe_region_values(const floe_world *w, const floe_region *r, double *v);
/* Every quantity of plane counter k, in the order of the names, into
 * v[FLOE_PLANE_QUANTITIES] (NaN for a counter that does not exist). */
void floe_plane_values(const floe_world *w, int k, double *v);

#endif
