/* The one place where contact models are registered. */
#include "models/model.h"
#include <string.h>

extern const floe_model floe_model_linear;
extern const floe_model floe_model_linel6;
extern const floe_model floe_model_ice;
extern const floe_model floe_model_softbond;
extern const floe_model floe_model_hertz;

/* Index 0 is the fallback for mixed material pairs (docs/decisions.md#model-of-a-mixed-material-pair-g7).
 * One model per line: adding a model is one line here and its extern above. */
/* clang-format off */
static const floe_model *const models[] = {
    &floe_model_linear,
    &floe_model_linel6,
    &floe_model_ice,
    &floe_model_softbond,
    &floe_model_hertz,
};
/* clang-format on */

int floe_registry_count(void) { return (int)(sizeof models / sizeof models[0]); }
const floe_model *floe_registry_get(int i) { return i >= 0 && i < floe_registry_count() ? models[i] : NULL; }
int floe_registry_find(const char *name) {
    if (!name) return -1;
    for (int i = 0; i < floe_registry_count(); i++)
        if (strcmp(models[i]->info.name, name) == 0) return i;
    return -1;
}

int floe_model_count(void) { return floe_registry_count(); }
const floe_model_info *floe_model_get(int i) {
    const floe_model *m = floe_registry_get(i);
    return m ? &m->info : NULL;
}
const floe_model_info *floe_model_find(const char *name) { return floe_model_get(floe_registry_find(name)); }
int floe_model_index(const char *name) { return floe_registry_find(name); }
