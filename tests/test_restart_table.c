/* The tables of a restart file's run settings, output configuration and
 * output counters (src/io/restart_table.c) and the layout they give.
 *
 * 1. Coverage: the lines of each table tile their struct (floe_restart,
 *    floe_history_column, floe_named_region, floe_output_state): a member
 *    without a line fails here, as the world's do in test_snapshot.c.
 * 2. The fixture tests/data/restart_table_v9.h5, a format-9 restart file
 *    written from tests/data/restart_table.yaml at step 20 (`floe run
 *    scene.yaml --out DIR --threads 1 --stop-at 20` with the scene
 *    tests/data/restart_table.yaml copied to scene.yaml),
 *    loads with every run item's value (closed form: the scene's keys), and
 *    the file this floe writes from what it loaded holds the same bytes
 *    (every group, item, type, attribute and value in the same order).
 * 3. A fresh run of the scene to step 20 writes a file with the fixture's
 *    layout: the same groups, datasets and attributes with the same type
 *    class, size, sign and dimensions, listed through the HDF5 API.
 * 4. Resuming the fixture with `floe resume` to step 40 gives bitwise the
 *    world of an uninterrupted run to step 40 (floe__snapshot_diff: every
 *    member of the snapshot's table).
 * 5. Damaged copies of the fixture, one value each, in the items the
 *    conversions and the run lines give (test_restart_damaged's good file
 *    has no history columns or regions): refused, naming the item and why.
 * A format change (FLOE_RESTART_FORMAT) or a change of results needs a new
 * fixture, written by the command above with the floe before the change. */
#include "check.h"
#include "core/snapshot.h"
#include "core/world.h"
#include "io/restart.h"
#include "io/restart_table.h"
#include "fuzz/h5_mutate.h"
#include "proc.h"

#include <hdf5.h>
#include <math.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp[256];

/* ---- 1. coverage ----------------------------------------------------------------- */

static int by_offset(const void *x, const void *y) {
    const floe_snap_field *a = *(const floe_snap_field *const *)x, *b = *(const floe_snap_field *const *)y;
    return (a->offset > b->offset) - (a->offset < b->offset);
}

static size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

/* The lines of s (but its doc texts, which have no member) tile it: each
 * member starts where the previous one ends, rounded up to its alignment,
 * and the struct ends after the last, rounded up to its own. */
static int tiles(const floe_snap_struct *s) {
    const floe_snap_field *f[128];
    int nf = 0;
    for (const floe_snap_field *x = s->fields[0]; x && x->member && nf < 128; x++)
        if (x->role != FLOE_SNAP_DOC) f[nf++] = x;
    qsort(f, (size_t)nf, sizeof *f, by_offset);
    size_t end = 0;
    for (int i = 0; i < nf; i++) {
        if (f[i]->offset != align_up(end, f[i]->align)) {
            fprintf(stderr, "struct %s: bytes %zu to %zu before member %s have no line in its table\n", s->name, end,
                    f[i]->offset, f[i]->member);
            return 0;
        }
        end = f[i]->offset + f[i]->size;
    }
    if (s->size != align_up(end, s->align)) {
        fprintf(stderr, "struct %s: bytes %zu to %zu after member %s have no line in its table\n", s->name, end,
                s->size, f[nf - 1]->member);
        return 0;
    }
    return 1;
}

/* s and the structs its lines hold, each tiled; *n counts them. */
static int tiles_all(const floe_snap_struct *s, int *n) {
    int ok = tiles(s);
    ++*n;
    for (const floe_snap_field *f = s->fields[0]; f->member; f++)
        if (f->sub) ok += tiles_all(f->sub, n);
    return ok;
}

static void coverage(void) {
    int n = 0, ok = tiles_all(&floe_io_run_table, &n) + tiles_all(&floe_io_output_table, &n);
    /* floe_restart, floe_output_config, floe_history_column, floe_named_region, floe_output_state */
    CHECK(n == 5 && ok == n);
    REPORT("coverage: %d of %d structs of the run tables tiled by their lines\n", ok, n);
}

/* ---- 2. the fixture: values, and the same bytes written back ---------------------- */

static void fixture(const char *fx) {
    floe_restart r;
    char err[2048], path[400];
    if (floe_restart_load(fx, &r, err, sizeof err) != 0) {
        fprintf(stderr, "the fixture does not load: %s\n", err);
        CHECK(0);
        return;
    }
    const floe_output_config *o = &r.scene.out;
    /* the scene's keys: steps 40; vtk every 5; energy by time (interval 1e-4:
     * period FLOE_OUTPUT_BY_TIME); progress every 7; history every 3, seven
     * columns; regions core (a box) and all (whole); frames at 0, 5, ..., 20 */
    CHECK(r.scene.steps == 40 && r.scene.duration == 0 && r.total_steps == 40 && r.restart_every == 0);
    CHECK(!strcmp(r.scene.path, "scene.yaml"));
    CHECK(o->vtk.steps == 5 && o->energy.interval == 1e-4 && o->progress.steps == 7 && o->history.steps == 3);
    CHECK(o->vtk_contacts == 1 && o->vtk_boundaries == 1 && o->final_state == 1);
    CHECK(o->n_history_cols == 7 && o->n_regions == 2);
    if (o->n_history_cols == 7 && o->n_regions == 2) {
        const floe_history_column *h = o->history_cols;
        CHECK(!strcmp(h[0].name, "z1") && h[0].kind == FLOE_HIST_PARTICLE && h[0].a == 1 &&
              !strcmp(h[0].quantity, "pos.z"));
        CHECK(h[1].kind == FLOE_HIST_CONTACT && h[1].a == 0 && h[1].b == 1);
        CHECK(h[2].kind == FLOE_HIST_GROUP && h[2].area == 0.01);
        CHECK(h[5].kind == FLOE_HIST_REGION && !h[5].region.whole && h[5].region.hi.z == 0.03);
        CHECK(h[6].kind == FLOE_HIST_REGION && h[6].region.whole == 1 && h[6].region.lo.x == -1);
        CHECK(!strcmp(o->regions[1].name, "all") && o->regions[1].region.whole == 1 && !o->regions[0].region.whole);
    }
    const floe_output_state *s = &r.output;
    CHECK(r.has_output && s->nframes == 5 && s->frame_step[4] == 20 && s->width == 6);
    CHECK(s->vtk.period == 5 && s->vtk.next == 25 && s->energy.period == FLOE_OUTPUT_BY_TIME);
    CHECK(s->models_seen == 1ull << floe_model_index("ice"));
    REPORT("fixture: %d history columns, %d regions, %zu frames, models seen 0x%llx\n", o->n_history_cols, o->n_regions,
           s->nframes, (unsigned long long)s->models_seen);
    snprintf(path, sizeof path, "%s/written.h5", tmp);
    CHECK(floe_restart_write(path, &r, err, sizeof err) == 0);
    int same = check_same_file(fx, path);
    CHECK(same);
    REPORT("fixture written back by this floe: %s\n", same ? "the same bytes" : "DIFFERENT bytes");
    floe_restart_free(&r);
}

/* ---- 3. the layout of a fresh file ------------------------------------------------------ */

typedef struct listing {
    char *text;
    size_t len, cap;
} listing;

static void add(listing *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(listing *l, const char *fmt, ...) {
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (l->len + (size_t)n + 1 > l->cap) {
        l->cap = 2 * (l->len + (size_t)n + 1);
        l->text = realloc(l->text, l->cap);
    }
    memcpy(l->text + l->len, line, (size_t)n + 1);
    l->len += (size_t)n;
}

/* "class size sign rank dims" of a type and space. */
static void describe(listing *l, hid_t type, hid_t space) {
    H5T_class_t k = H5Tget_class(type);
    int rank = H5Sget_simple_extent_ndims(space);
    hsize_t d[8] = {0};
    if (rank > 0 && rank <= 8) H5Sget_simple_extent_dims(space, d, NULL);
    add(l, " class %d size %zu sign %d rank %d", (int)k, H5Tget_size(type),
        k == H5T_INTEGER ? (int)H5Tget_sign(type) : -1, rank);
    for (int i = 0; i < rank && i < 8; i++) add(l, " %llu", (unsigned long long)d[i]);
    add(l, "\n");
}

static herr_t list_attr(hid_t loc, const char *name, const H5A_info_t *info, void *data) {
    (void)info;
    listing *l = data;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT), t = H5Aget_type(a), s = H5Aget_space(a);
    add(l, "  @%s", name);
    describe(l, t, s);
    H5Sclose(s);
    H5Tclose(t);
    H5Aclose(a);
    return 0;
}

static herr_t list_link(hid_t root, const char *name, const H5L_info_t *info, void *data) {
    (void)info;
    listing *l = data;
    hid_t o = H5Oopen(root, name, H5P_DEFAULT);
    if (H5Iget_type(o) == H5I_DATASET) {
        hid_t t = H5Dget_type(o), s = H5Dget_space(o);
        add(l, "/%s", name);
        describe(l, t, s);
        H5Sclose(s);
        H5Tclose(t);
    } else {
        add(l, "/%s/\n", name);
    }
    hsize_t k = 0;
    H5Aiterate2(o, H5_INDEX_NAME, H5_ITER_INC, &k, list_attr, l);
    H5Oclose(o);
    return 0;
}

/* Every group, dataset and attribute of a file in name order, one a line. */
static char *layout(const char *path) {
    listing l = {NULL, 0, 0};
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0) return NULL;
    add(&l, "/\n");
    hsize_t k = 0;
    H5Aiterate2(f, H5_INDEX_NAME, H5_ITER_INC, &k, list_attr, &l);
    H5Lvisit(f, H5_INDEX_NAME, H5_ITER_INC, list_link, &l);
    H5Fclose(f);
    return l.text;
}

/* The first line where a and b differ, on stderr. */
static void first_difference(const char *a, const char *b) {
    while (*a && *b) {
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        if (la != lb || memcmp(a, b, la)) {
            fprintf(stderr, "fixture: %.*s\nthis floe: %.*s\n", (int)la, a, (int)lb, b);
            return;
        }
        a += la + (a[la] == '\n');
        b += lb + (b[lb] == '\n');
    }
    fprintf(stderr, "fixture: %s\nthis floe: %s\n", *a ? a : "(end)", *b ? b : "(end)");
}

static int run_scene(const char *scene, const char *out, const char *stop) {
    char log[400];
    snprintf(log, sizeof log, "%s/run.log", tmp);
    const char *argv[] = {"floe", "run", scene, "--out", out, "--threads", "1", "--stop-at", stop, NULL};
    return run_cli(argv, log, 0);
}

static void fresh_layout(const char *fx, const char *scene) {
    char out[400], path[500];
    snprintf(out, sizeof out, "%s/fresh20", tmp);
    CHECK(run_scene(scene, out, "20") == 0);
    snprintf(path, sizeof path, "%s/restart_000000000020.h5", out);
    char *a = layout(fx), *b = layout(path);
    int same = a && b && !strcmp(a, b);
    if (!same && a && b) first_difference(a, b);
    CHECK(same);
    int lines = 0;
    for (const char *p = a; p && *p; p++) lines += *p == '\n';
    /* not an empty listing: the groups of the run tables and items of each */
    CHECK(a && strstr(a, "\n/run/\n  @duration") &&
          strstr(a, "\n/output_config/history_columns/region_lo_hi_whole_area") && strstr(a, "\n/output/models_seen") &&
          strstr(a, "\n  @every_order"));
    REPORT("fresh file: %s the fixture's layout (%d lines: groups, datasets, attributes)\n",
           same ? "has" : "DIFFERS from", lines);
    free(a);
    free(b);
}

/* ---- 4. resuming the fixture ------------------------------------------------------------- */

static void resume(const char *fx, const char *scene) {
    char dir[400], copy[500], log[400], a[500], b[500], err[2048], what[512] = "";
    snprintf(dir, sizeof dir, "%s/resumed", tmp);
    mkdir(dir, 0755);
    snprintf(copy, sizeof copy, "%s/restart_000000000020.h5", dir);
    size_t len = 0;
    char *bytes = check_slurp(fx, &len);
    FILE *f = fopen(copy, "wb");
    CHECK(bytes && f && fwrite(bytes, 1, len, f) == len);
    if (f) fclose(f);
    free(bytes);
    snprintf(log, sizeof log, "%s/resume.log", tmp);
    const char *argv[] = {"floe", "resume", dir, "--threads", "1", "--stop-at", "40", NULL};
    CHECK(run_cli(argv, log, 0) == 0);
    char out[400];
    snprintf(out, sizeof out, "%s/fresh40", tmp);
    CHECK(run_scene(scene, out, "40") == 0);
    snprintf(a, sizeof a, "%s/restart_000000000040.h5", dir);
    snprintf(b, sizeof b, "%s/restart_000000000040.h5", out);
    floe_restart ra, rb;
    int la = floe_restart_load(a, &ra, err, sizeof err) == 0,
        lb = la && floe_restart_load(b, &rb, err, sizeof err) == 0;
    if (!la || !lb) fprintf(stderr, "%s\n", err);
    CHECK(la && lb);
    if (la && lb) {
        int diff = floe__snapshot_diff(ra.scene.world, rb.scene.world, what, sizeof what);
        if (diff) fprintf(stderr, "resumed fixture and uninterrupted run differ at step 40: %s\n", what);
        CHECK(!diff && floe_step_count(ra.scene.world) == 40);
        REPORT("fixture resumed to step 40: %s the uninterrupted run\n", diff ? "DIFFERS from" : "bitwise");
    }
    if (lb) floe_restart_free(&rb);
    if (la) floe_restart_free(&ra);
}

/* ---- 5. damaged run items ------------------------------------------------------------ */

typedef struct damage {
    const char *path;  /* the item damaged */
    long long index;   /* the value (flattened) */
    double f;          /* the new value, of a float item */
    int64_t i;         /* ... of an integer item */
    const char *why;   /* in the message */
    const char *where; /* the item the message names, if not `path` */
} damage;

static void damaged(const char *fx) {
    static const damage cases[] = {
        {"/output_config/regions/lo_hi_whole", 6, 0.5, 0, "row 0: 0.5 is not a whole number within a 32-bit integer"},
        {"/output_config/history_columns/region_lo_hi_whole_area", 5 * 8 + 6, 2, 0, "column 5: whole: 2 is not 0 or 1"},
        {"/output_config/history_columns/region_lo_hi_whole_area", 5 * 8, NAN, 0, "not a finite box"},
        {"/output_config/history_columns/kind_a_b_group_energy", 0, 0, 9, "column 0: kind: 9 is outside [0, 6]"},
        {"/output_config/history_columns/kind_a_b_group_energy", 1, 0, 99, "column 'z1': no particle 99",
         "/output_config/history_columns: "},
        {"/output_config@every_steps", 1, 0, -5, "energy: -5 is outside [0, 2^60]"},
        {"/output_config@vtk_contacts", 0, 0, 5, "5 is not 0 or 1"},
        {"/run@restart_every", 0, 0, -1, "-1 is outside [0, 2^60]"},
        {"/output/frame_time", 2, INFINITY, 0, "frame 2: inf is not finite"},
        {"/output@width", 0, 0, 0, "0 is outside [1, 19]"},
    };
    int n = (int)(sizeof cases / sizeof *cases), refused = 0;
    size_t len = 0;
    char *bytes = check_slurp(fx, &len);
    for (int k = 0; bytes && k < n; k++) {
        const damage *d = &cases[k];
        char path[400], err[2048];
        snprintf(path, sizeof path, "%s/damaged_%d.h5", tmp, k);
        FILE *f = fopen(path, "wb");
        int ok = f && fwrite(bytes, 1, len, f) == len;
        if (f) fclose(f);
        hid_t h = ok ? H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT) : -1;
        ok = h >= 0 && h5m_set(h, d->path, d->index, d->f, d->i) == 0;
        if (h >= 0) H5Fclose(h);
        CHECK(ok);
        floe_restart r;
        int rc = ok ? floe_restart_load(path, &r, err, sizeof err) : -1;
        if (rc == 0) {
            fprintf(stderr, "%s[%lld]: the damaged file was accepted\n", d->path, d->index);
            floe_restart_free(&r);
        }
        int named = rc != 0 && strstr(err, d->where ? d->where : d->path) && strstr(err, d->why);
        if (rc != 0 && !named)
            fprintf(stderr, "%s[%lld]: the message lacks '%s': %s\n", d->path, d->index, d->why, err);
        CHECK(named);
        refused += named;
        if (rc != 0) REPORT("  %s\n", strstr(err, ": /") ? strstr(err, ": /") + 2 : err);
    }
    free(bytes);
    REPORT("damaged run items: %d of %d refused, naming the item and why\n", refused, n);
}

int main(void) {
    snprintf(tmp, sizeof tmp, "/tmp/floe_rtable_XXXXXX");
    CHECK(mkdtemp(tmp) != NULL);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    const char *fx = FLOE_TEST_DATA "/restart_table_v9.h5", *scene = "scene.yaml";
    /* the fixture was written from "scene.yaml" in the working directory:
     * /run@scene holds that name, whose length its type has */
    char *text = check_slurp(FLOE_TEST_DATA "/restart_table.yaml", NULL), spath[400];
    CHECK(text != NULL);
    check_write_tmp(tmp, "scene.yaml", text ? text : "", spath, sizeof spath);
    free(text);
    CHECK(chdir(tmp) == 0);
    coverage();
    fixture(fx);
    fresh_layout(fx, scene);
    resume(fx, scene);
    damaged(fx);
    if (!check_failures) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
        CHECK(system(cmd) == 0);
    }
    return CHECK_DONE();
}
