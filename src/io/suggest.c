/* floe_suggest (floe_io.h): the scene loader's "did you mean", public. */
#include <floe/floe_io.h>

#include "io/scene_yaml.h"

const char *floe_suggest(const char *word, const char *const *cands, int n) { return sy_suggest(word, cands, n); }
