/* libFuzzer harness: the scene loader (YAML parsing, validation, bodies,
 * generators, meshes, outputs) on arbitrary text, then a few steps of small
 * worlds. The input is written to scene.yaml in a private directory that
 * also holds the STL files of tests/data, so mesh sections can load them.
 * A 256 MiB memory budget stands in for the 16 GiB one (the fuzzer's own
 * limit is 2 GiB). tests/test_fuzz_regress.c replays the corpus and every
 * crash found. */
#include "io/scene.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FUZZ_SCENE_ENTRY
#define FUZZ_SCENE_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_SCENE_ENTRY(const uint8_t *data, size_t size);

/* The harness's own scratch directory (per process). */
static char fuzz_dir[256];

static void fuzz_copy(const char *name) {
    char src[1024], dst[512];
    snprintf(src, sizeof src, "%s/%s", FLOE_TEST_DATA, name);
    snprintf(dst, sizeof dst, "%s/%s", fuzz_dir, name);
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    char buf[4096];
    size_t n;
    while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
    if (in) fclose(in);
    if (out) fclose(out);
}

static const char *const fuzz_files[] = {
    "ramp_ascii.stl",           "ramp_binary.stl", "bad_garbage.stl", "bad_truncated_ascii.stl",
    "bad_truncated_binary.stl", "hex_ascii.stl",   "scene.yaml"};

static void fuzz_cleanup(void) {
    for (size_t i = 0; i < sizeof fuzz_files / sizeof *fuzz_files; i++) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", fuzz_dir, fuzz_files[i]);
        remove(p);
    }
    rmdir(fuzz_dir);
}

int FUZZ_SCENE_ENTRY(const uint8_t *data, size_t size) {
    if (!fuzz_dir[0]) {
        snprintf(fuzz_dir, sizeof fuzz_dir, "/tmp/floe_fuzz_scene_XXXXXX");
        if (!mkdtemp(fuzz_dir)) abort();
        atexit(fuzz_cleanup);
        for (size_t i = 0; i + 1 < sizeof fuzz_files / sizeof *fuzz_files; i++) fuzz_copy(fuzz_files[i]);
    }
    char path[300];
    snprintf(path, sizeof path, "%s/scene.yaml", fuzz_dir);
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (size) fwrite(data, 1, size, f);
    fclose(f);
    floe_scene sc;
    char err[2048];
    if (floe_scene_load_limited(path, 256.0 * 1024 * 1024, &sc, err, sizeof err) != 0) {
        if (!err[0]) __builtin_trap(); /* a refusal always says why */
        return 0;
    }
    /* small worlds also take a few steps: values that load must not crash
     * the engine; inlets may fill them to 20,000 particles (a step of a
     * million insertions would outlast the fuzzer's timeout) */
    if (floe_particle_count(sc.world) <= 300) {
        floe_set_threads(sc.world, 1);
        floe_set_particle_budget(sc.world, 20000);
        for (int i = 0; i < 3 && floe_step(sc.world) == FLOE_OK; i++) {}
    }
    floe_scene_free(&sc);
    return 0;
}
