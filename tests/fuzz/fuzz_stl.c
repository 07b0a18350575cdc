/* libFuzzer harness: the STL reader (ASCII and binary) on arbitrary bytes.
 * Build: cmake -DCMAKE_C_COMPILER=clang-14 -DFLOE_FUZZ=ON; run:
 * fuzz_stl tests/fuzz/corpus/stl (see tests/fuzz/README.md).
 * tests/test_fuzz_regress.c replays the corpus and every crash found. */
#include "io/stl.h"

#include <stdint.h>
#include <string.h>

#ifndef FUZZ_STL_ENTRY
#define FUZZ_STL_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_STL_ENTRY(const uint8_t *data, size_t size);

int FUZZ_STL_ENTRY(const uint8_t *data, size_t size) {
    floe_stl m;
    char err[512];
    if (floe_stl_parse("fuzz.stl", size ? data : (const uint8_t *)"", size, &m, err, sizeof err) == 0) {
        /* every vertex is finite, as the reader promises */
        for (size_t i = 0; i < 3 * m.n_tri; i++)
            if (!(m.v[i].x - m.v[i].x == 0) || !(m.v[i].y - m.v[i].y == 0) || !(m.v[i].z - m.v[i].z == 0))
                __builtin_trap();
        floe_stl_free(&m);
    } else if (!err[0]) {
        __builtin_trap(); /* a refusal always says why */
    }
    return 0;
}
