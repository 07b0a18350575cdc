/* libFuzzer harness: the restart loader (src/io/restart.c, restart_check.c,
 * and the world's snapshot it reads, src/core/snapshot.c) on damaged
 * restart files, then a few steps of the worlds it accepts.
 *
 * Structured mode (the default): at start-up the harness runs
 * tests/fuzz/restart_seed.yaml for 30 steps with its outputs and writes a
 * good restart file. Each input is a list of 6-byte records, each one damage
 * applied to a copy of that file through the HDF5 API (tests/fuzz/
 * h5_mutate.h): the record picks a numeric dataset or attribute of the file,
 * an operation (set one value, set every value, copy a row over the next,
 * scale or shift a value, replace the object by a float one, by one with a
 * row more or less, delete it) and a value from a table of troublemakers
 * (0, -1, NaN, inf, 1e308, 2^31-1, ...) or 8 raw bytes of the input. This
 * reaches the loader's checks, not HDF5's parser, which a raw byte fuzzer
 * mostly meets.
 *
 * Raw mode (FLOE_FUZZ_RESTART_RAW=1 in the environment): the input is the
 * file itself. Failures inside HDF5's parser are HDF5's, not floe's.
 *
 * tests/test_restart_damaged.c ("corpus") replays the corpus and crashes. */
#include "core/world.h"
#include "fuzz/h5_mutate.h"
#include "io/output.h"
#include "io/restart.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FUZZ_RESTART_ENTRY
#define FUZZ_RESTART_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_RESTART_ENTRY(const uint8_t *data, size_t size);

enum { FR_MAX_TARGETS = 512 };

static struct {
    char dir[256];
    unsigned char *seed; /* the good restart file */
    size_t seed_len;
    char targets[FR_MAX_TARGETS][160]; /* numeric datasets and attributes */
    int ntargets;
    int raw;
} fr;

static void fr_rm(const char *name) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", fr.dir, name);
    remove(p);
}

static void fr_cleanup(void) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fr.dir);
    if (system(cmd) != 0) fr_rm("in.h5");
    free(fr.seed);
}

static void fr_add_target(const char *path) {
    if (fr.ntargets < FR_MAX_TARGETS && strlen(path) < sizeof fr.targets[0])
        snprintf(fr.targets[fr.ntargets++], sizeof fr.targets[0], "%s", path);
}

typedef struct fr_obj {
    hid_t file;
    const char *path;
} fr_obj;

static herr_t fr_attr_cb(hid_t loc, const char *name, const H5A_info_t *info, void *arg) {
    (void)loc;
    (void)info;
    const fr_obj *o = arg;
    char p[200];
    snprintf(p, sizeof p, "%s@%s", strcmp(o->path, "/") ? o->path : "", name);
    int is_float;
    if (h5m_count(o->file, p, &is_float) >= 0) fr_add_target(p);
    return 0;
}

static herr_t fr_visit_cb(hid_t obj, const char *name, const H5O_info_t *info, void *arg) {
    hid_t file = *(hid_t *)arg;
    char p[200];
    snprintf(p, sizeof p, "/%s", strcmp(name, ".") ? name : "");
    if (!strcmp(name, ".")) snprintf(p, sizeof p, "/");
    int is_float;
    if (info->type == H5O_TYPE_DATASET && h5m_count(file, p, &is_float) >= 0) fr_add_target(p);
    fr_obj o = {file, p};
    hsize_t idx = 0;
    H5Aiterate_by_name(obj, name, H5_INDEX_NAME, H5_ITER_NATIVE, &idx, fr_attr_cb, &o, H5P_DEFAULT);
    return 0;
}

/* The good restart file: the seed scene after 30 steps, with outputs. */
static void fr_make_seed(void) {
    char path[600], out[400], err[2048];
    floe_scene sc;
    if (floe_scene_load(FLOE_TEST_DATA "/../fuzz/restart_seed.yaml", &sc, err, sizeof err) != 0) {
        fprintf(stderr, "fuzz_restart: %s\n", err);
        abort();
    }
    floe_set_threads(sc.world, 1);
    snprintf(out, sizeof out, "%s/out", fr.dir);
    floe_output *o = floe_output_open(out, &sc.out, sc.world, 100, err, sizeof err);
    if (!o) abort();
    for (int i = 0; i < 30; i++)
        if (floe_step(sc.world) != FLOE_OK || floe_output_step(o, sc.world) != 0) abort();
    floe_restart r;
    memset(&r, 0, sizeof r);
    r.scene = sc;
    r.total_steps = 100;
    r.has_output = floe_output_get_state(o, &r.output) == 0;
    snprintf(path, sizeof path, "%s/seed.h5", fr.dir);
    if (!r.has_output || floe_restart_write(path, &r, err, sizeof err) != 0) abort();
    floe_output_close(o, sc.world);
    floe_scene_free(&sc);
    FILE *f = fopen(path, "rb");
    if (!f) abort();
    fseek(f, 0, SEEK_END);
    fr.seed_len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    fr.seed = malloc(fr.seed_len);
    if (!fr.seed || fread(fr.seed, 1, fr.seed_len, f) != fr.seed_len) abort();
    fclose(f);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0) abort();
    H5Ovisit(file, H5_INDEX_NAME, H5_ITER_NATIVE, fr_visit_cb, &file);
    H5Fclose(file);
    if (fr.ntargets < 50) abort(); /* the walk found too little: the harness is broken */
}

static void fr_init(void) {
    snprintf(fr.dir, sizeof fr.dir, "/tmp/floe_fuzz_restart_XXXXXX");
    if (!mkdtemp(fr.dir)) abort();
    atexit(fr_cleanup);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    const char *raw = getenv("FLOE_FUZZ_RESTART_RAW");
    fr.raw = raw && *raw && strcmp(raw, "0");
    if (!fr.raw) fr_make_seed();
}

/* ---- structured mutations ------------------------------------------------------- */

static const double fr_doubles[] = {
    0,     -0.0,  1,      -1,       0.5,       2,   1e-300,       5e-324,        1e15,         1.0000001e15,
    1e100, 1e308, -1e308, INFINITY, -INFINITY, NAN, 2147483647.0, -2147483648.0, 4294967296.0, 9.3e18,
    1e-9,  0.01,  3,      7,        1e-6};
/* clang-format off */
static const int64_t fr_ints[] = {
    0, 1, -1, 2, 3, 5, 7, 9, 31, 32, 63, 64, 127, 128, 255, 256, 65535,
    2147483647, -2147483647 - 1, INT64_MAX, INT64_MIN, 1 << 30, -2, 100000, (int64_t)1 << 62};
/* clang-format on */
#define FR_N(a) (sizeof a / sizeof *a)

/* Rows and columns (1 for 1-D) of a dataset; 0 rows for an attribute. */
static void fr_dims(hid_t file, const char *path, hsize_t *rows, hsize_t *cols) {
    *rows = 0;
    *cols = 1;
    if (strchr(path, '@')) return;
    hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
    hid_t sp = ds >= 0 ? H5Dget_space(ds) : -1;
    hsize_t d[3] = {0, 1, 1};
    int rank = sp >= 0 ? H5Sget_simple_extent_dims(sp, d, NULL) : 0;
    *rows = d[0];
    for (int k = 1; k < rank; k++) *cols *= d[k];
    if (sp >= 0) H5Sclose(sp);
    if (ds >= 0) H5Dclose(ds);
}

typedef struct fr_scale {
    long long index;
    double f;
    int64_t i;
} fr_scale;

static void fr_scale_cb(void *values, long long n, int is_float, void *arg) {
    const fr_scale *s = arg;
    if (n <= 0) return;
    long long k = s->index % n;
    if (is_float) ((double *)values)[k] *= s->f;
    else { /* wrapping: the value may already be at the end of the range */ int64_t *v = (int64_t *)values + k;
        *v = (int64_t)((uint64_t)*v + (uint64_t)s->i);
    }
}

static void fr_mutate(hid_t file, const uint8_t *rec, const uint8_t **extra, const uint8_t *end) {
    const char *path = fr.targets[(rec[0] | rec[1] << 8) % fr.ntargets];
    int op = rec[2] % 8;
    long long idx = rec[3] | rec[4] << 8;
    double f = fr_doubles[rec[5] % FR_N(fr_doubles)];
    int64_t i = fr_ints[rec[5] % FR_N(fr_ints)];
    int is_float;
    long long n = h5m_count(file, path, &is_float);
    if (n < 0) return; /* deleted or replaced by an earlier record */
    hsize_t rows, cols;
    fr_dims(file, path, &rows, &cols);
    switch (op) {
        case 0:
            h5m_set(file, path, n ? idx % n : 0, f, i);
            break;
        case 1: /* 8 raw bytes of the input */
            if (end - *extra >= 8) {
                memcpy(&f, *extra, 8);
                memcpy(&i, *extra, 8);
                *extra += 8;
            }
            h5m_set(file, path, n ? idx % n : 0, f, i);
            break;
        case 2:
            h5m_set_all(file, path, f, i);
            break;
        case 3:
            if (rows >= 2)
                h5m_copy_row(file, path, idx % (long long)(rows - 1), idx % (long long)(rows - 1) + 1, (long long)cols);
            break;
        case 4: { /* scale a float by a near-one or signed factor; shift an integer */
            static const double factors[] = {-1, 2, 0.5, 1 + 1e-15, 1 - 1e-9, 1e10, 0};
            fr_scale s = {idx, factors[rec[5] % FR_N(factors)], (int64_t)(rec[5] % 5) - 2};
            h5m_edit(file, path, fr_scale_cb, &s);
            break;
        }
        case 5: /* the same values' count as floats (integers where floats belong, too) */
            h5m_replace(file, path, H5T_IEEE_F64LE, rows, cols > 1 ? cols : 0, f);
            break;
        case 6: /* a row more or fewer */
            if (rows > 0)
                h5m_replace(file, path, is_float ? H5T_IEEE_F64LE : H5T_STD_I32LE, rec[5] & 1 ? rows + 1 : rows - 1,
                            cols > 1 ? cols : 0, f);
            break;
        default:
            h5m_delete(file, path);
    }
}

/* Writes the input's file to in.h5: the seed damaged by the records, or the raw bytes. */
static int fr_build(const uint8_t *data, size_t size, char *path, size_t pathlen) {
    snprintf(path, pathlen, "%s/in.h5", fr.dir);
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (fr.raw) {
        if (size) fwrite(data, 1, size, f);
        fclose(f);
        return 0;
    }
    fwrite(fr.seed, 1, fr.seed_len, f);
    fclose(f);
    hid_t file = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (file < 0) abort();
    const uint8_t *end = data + size, *extra = data + 6 * (size / 6 < 8 ? size / 6 : 8);
    for (size_t k = 0; k + 6 <= size && k < 6 * 8; k += 6) fr_mutate(file, data + k, &extra, end);
    H5Fclose(file);
    return 0;
}

int FUZZ_RESTART_ENTRY(const uint8_t *data, size_t size) {
    if (!fr.dir[0]) fr_init();
    char path[600], err[2048];
    fr_build(data, size, path, sizeof path);
    floe_restart r;
    err[0] = 0;
    if (floe_restart_load(path, &r, err, sizeof err) != 0) {
        if (!err[0]) __builtin_trap(); /* a refusal always says why */
        return 0;
    }
    /* what loads must run: a few steps of small worlds */
    floe_world *w = r.scene.world;
    if (floe_particle_count(w) <= 300 && w->ncon <= 20000 && !r.stopped) {
        floe_set_threads(w, 1);
        for (int i = 0; i < 20 && floe_step(w) == FLOE_OK; i++) {}
    }
    floe_restart_free(&r);
    return 0;
}
