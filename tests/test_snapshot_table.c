/* The walker of tables of the snapshot's kind on a root that is not the
 * world (include/floe/floe_snapshot.h: floe_snap_table_write, _read,
 * _check), through the public header alone and a visitor that keeps the
 * items in memory:
 *
 * 1. A struct with a value of the root, columns of several members in one
 *    item, an int stored as doubles, a bit mask of models stored as their
 *    names, a text, a doc text and an array of rows: written, read back
 *    into a zeroed struct, every member equal (exact: nothing is computed).
 *    The items are those the lines say (names, types, dimensions).
 * 2. The checks: a value outside its line's range is named with its item,
 *    row, column note and why; an int that is not a whole number is
 *    refused on read.
 * 3. Tables the walker cannot walk (a doc text sharing an item, members of
 *    one item of different types) are refused with the reason. */
#include "check.h"

#include <floe/floe_snapshot.h>

#include <math.h>
#include <stddef.h>

typedef struct row {
    double at[3];
    int whole;
    int id;
} row;

typedef struct thing {
    int64_t steps;
    double lo, hi;
    uint64_t models;
    char name[16];
    row *rows;
    int nrows;
} thing;

static const floe_snap_rows rows_of_thing = {"row", offsetof(thing, nrows), "thing/rows/at_whole", sizeof(int)};

#define M(T, m) .member = #m, .offset = offsetof(T, m), .size = sizeof(((T *)0)->m), .align = __alignof__(((T *)0)->m)
static const floe_snap_field row_fields[] = {
    {M(row, at), .role = FLOE_SNAP_STATE, .group = "thing/rows", .name = "at_whole", .type = FLOE_SNAP_F64, .ncomp = 3,
     .check = FLOE_CK_FINITE},
    {M(row, whole), .role = FLOE_SNAP_STATE, .group = "thing/rows", .name = "at_whole", .type = FLOE_SNAP_F64,
     .ncomp = 1, .col = 3, .conv = FLOE_CONV_INT_AS_F64, .check = FLOE_CK_FLAG, .note = "whole"},
    {M(row, id), .role = FLOE_SNAP_STATE, .group = "thing/rows", .name = "id", .type = FLOE_SNAP_I32, .ncomp = 1,
     .check = FLOE_CK_ID_OR_NONE, .ref = &rows_of_thing},
    {.member = NULL},
};
static const floe_snap_struct row_struct = {"row", sizeof(row), __alignof__(row), {row_fields}};

static const floe_snap_field thing_fields[] = {
    {M(thing, steps), .role = FLOE_SNAP_STATE, .group = "thing", .name = "steps", .attr = 1, .type = FLOE_SNAP_I64,
     .ncomp = 1, .check = FLOE_CK_COUNTER},
    {M(thing, lo), .role = FLOE_SNAP_STATE, .group = "thing", .name = "lo_hi", .attr = 1, .type = FLOE_SNAP_F64,
     .ncomp = 1, .col = 0, .check = FLOE_CK_RANGE, .lo = 0, .hi = 1, .note = "lo"},
    {M(thing, hi), .role = FLOE_SNAP_STATE, .group = "thing", .name = "lo_hi", .attr = 1, .type = FLOE_SNAP_F64,
     .ncomp = 1, .col = 1, .check = FLOE_CK_RANGE, .lo = 0, .hi = 1, .note = "hi"},
    {.member = "(doc)",
     .role = FLOE_SNAP_DOC,
     .group = "thing",
     .name = "lo_hi_doc",
     .attr = 1,
     .type = FLOE_SNAP_STR,
     .ncomp = 1,
     .note = "lo, hi: a window"},
    {M(thing, models), .role = FLOE_SNAP_STATE, .group = "thing", .name = "models", .type = FLOE_SNAP_STR, .ncomp = 1,
     .conv = FLOE_CONV_MODEL_MASK},
    {M(thing, name), .role = FLOE_SNAP_STATE, .group = "thing", .name = "name", .attr = 1, .type = FLOE_SNAP_STR,
     .ncomp = (int)sizeof(((thing *)0)->name)},
    {M(thing, rows), .role = FLOE_SNAP_STATE, .rows = &rows_of_thing, .sub = &row_struct},
    {M(thing, nrows), .role = FLOE_SNAP_COUNT, .rows = &rows_of_thing},
    {.member = NULL},
};
static const floe_snap_struct thing_table = {"thing", sizeof(thing), __alignof__(thing), {thing_fields}};

/* ---- a visitor in memory ------------------------------------------------------------ */

enum { MAX_ITEMS = 16 };

typedef struct stored {
    char group[64], name[64];
    int attr, rank, doc;
    floe_snap_type type;
    size_t dims[3], n;
    double f[64];
    int64_t i[64];
    char s[8][64];
} stored;

typedef struct store {
    stored items[MAX_ITEMS];
    int n;
} store;

static int put(void *ctx, const floe_snap_item *it) {
    store *st = ctx;
    if (st->n == MAX_ITEMS) return -1;
    stored *x = &st->items[st->n++];
    memset(x, 0, sizeof *x);
    snprintf(x->group, sizeof x->group, "%s", it->group);
    snprintf(x->name, sizeof x->name, "%s", it->name);
    x->attr = it->attr, x->rank = it->rank, x->doc = it->doc, x->type = it->type;
    x->n = 1;
    for (int k = 0; k < it->rank; k++) x->n *= (x->dims[k] = it->dims[k]);
    if (x->n > 64) return -1;
    for (size_t k = 0; k < x->n && it->data; k++) {
        if (it->type == FLOE_SNAP_STR)
            snprintf(x->s[k], 64, "%s", it->rank ? ((const char *const *)it->data)[k] : (const char *)it->data);
        else if (it->type == FLOE_SNAP_F64) x->f[k] = ((const double *)it->data)[k];
        else if (it->type == FLOE_SNAP_I64) x->i[k] = ((const int64_t *)it->data)[k];
        else if (it->type == FLOE_SNAP_I32) x->i[k] = ((const int32_t *)it->data)[k];
        else return -1; /* not used here */
    }
    return 0;
}

static stored *lookup(store *st, const char *group, const char *name, int attr) {
    for (int k = 0; k < st->n; k++)
        if (!strcmp(st->items[k].group, group) && !strcmp(st->items[k].name, name) && st->items[k].attr == attr)
            return &st->items[k];
    return NULL;
}

static int has_group(void *ctx, const char *group) {
    store *st = ctx;
    for (int k = 0; k < st->n; k++)
        if (!strcmp(st->items[k].group, group)) return 1;
    return 0;
}

static int find(void *ctx, const char *group, const char *name, int attr, floe_snap_found *f) {
    stored *x = lookup(ctx, group, name, attr);
    if (!x) return 0;
    f->klass = x->type == FLOE_SNAP_F64 ? 'f' : x->type == FLOE_SNAP_STR ? 's' : 'i';
    f->rank = x->rank;
    memcpy(f->dims, x->dims, sizeof f->dims);
    return 1;
}

static int read_values(void *ctx, const char *group, const char *name, int attr, floe_snap_type t, void *dst) {
    stored *x = lookup(ctx, group, name, attr);
    if (!x || (t != FLOE_SNAP_F64 && t != FLOE_SNAP_I64)) return -1;
    memcpy(dst, t == FLOE_SNAP_F64 ? (void *)x->f : (void *)x->i, 8 * x->n);
    return 0;
}

static char **read_strings(void *ctx, const char *group, const char *name, int attr, size_t n) {
    stored *x = lookup(ctx, group, name, attr);
    char **out = x ? malloc(sizeof *out * (n + 1) + 64 * (n + 1)) : NULL;
    for (size_t k = 0; out && k < n; k++) {
        out[k] = (char *)(out + n + 1) + 64 * k;
        memcpy(out[k], x->s[k], 64);
    }
    return out;
}

/* ---- the tests ------------------------------------------------------------------------ */

static int round_trip(void) {
    row rows[2] = {{{1, 2, 3}, 1, -1}, {{-4, 5.5, 1e-300}, 0, 0}};
    int ice = floe_model_index("ice"), linear = floe_model_index("linear");
    thing a = {123456789012345, 0.25, 0.75, (1ull << ice) | (1ull << linear), "a name", rows, 2};
    store st = {.n = 0};
    floe_snap_writer wr = {&st, put};
    char err[512] = "";
    CHECK(floe_snap_table_write(&thing_table, &a, &wr, err, sizeof err) == 0);
    /* the items the lines say, in the order of their first member */
    static const char *const want[] = {"steps", "lo_hi", "lo_hi_doc", "models", "name", "at_whole", "id"};
    int names = st.n == 7;
    for (int k = 0; names && k < 7; k++) names = !strcmp(st.items[k].name, want[k]);
    CHECK(names);
    stored *lh = lookup(&st, "thing", "lo_hi", 1), *aw = lookup(&st, "thing/rows", "at_whole", 0);
    stored *doc = lookup(&st, "thing", "lo_hi_doc", 1), *mo = lookup(&st, "thing", "models", 0);
    CHECK(lh && lh->rank == 1 && lh->dims[0] == 2 && lh->f[1] == 0.75);
    CHECK(aw && aw->type == FLOE_SNAP_F64 && aw->rank == 2 && aw->dims[0] == 2 && aw->dims[1] == 4 && aw->f[3] == 1 &&
          aw->f[7] == 0);
    CHECK(doc && doc->doc && !strcmp(doc->s[0], "lo, hi: a window"));
    CHECK(mo && mo->rank == 1 && mo->dims[0] == 2);

    thing b;
    memset(&b, 0, sizeof b);
    floe_snap_reader rd = {&st, has_group, find, read_values, read_strings};
    floe_snap_in in = {&rd, err, sizeof err, 0};
    int rc = floe_snap_table_read(&thing_table, &b, &in);
    if (rc) fprintf(stderr, "read: %s\n", err);
    CHECK(rc == 0 && b.nrows == 2 && b.rows);
    int same = rc == 0 && b.steps == a.steps && b.lo == a.lo && b.hi == a.hi && b.models == a.models &&
               !strcmp(b.name, a.name) && b.nrows == 2 && !memcmp(b.rows, a.rows, sizeof rows);
    CHECK(same);
    CHECK(floe_snap_table_check(&thing_table, &b, err, sizeof err) == 0);
    REPORT("round trip of a table of 7 items (columns of members, an int as doubles, a model mask as %zu names, a "
           "doc, rows): %s\n",
           mo ? mo->dims[0] : 0, same ? "every member equal" : "DIFFERENT");

    /* 2. checks: named with item, row, column and why */
    b.hi = 2;
    CHECK(floe_snap_table_check(&thing_table, &b, err, sizeof err) == -1 &&
          !strcmp(err, "/thing@lo_hi: hi: 2 is outside [0, 1]"));
    REPORT("check: %s\n", err);
    b.hi = 0.75;
    b.rows[1].whole = 3;
    CHECK(floe_snap_table_check(&thing_table, &b, err, sizeof err) == -1 &&
          !strcmp(err, "/thing/rows/at_whole: row 1: whole: 3 is not 0 or 1"));
    REPORT("check: %s\n", err);
    b.rows[1].whole = 0;
    b.rows[0].id = 2;
    CHECK(floe_snap_table_check(&thing_table, &b, err, sizeof err) == -1 &&
          !strcmp(err, "/thing/rows/id: row 0: row 2 does not exist (2 rows)"));
    REPORT("check: %s\n", err);
    free(b.rows);
    aw->f[7] = 0.5; /* row 1's whole */
    memset(&b, 0, sizeof b);
    in = (floe_snap_in){&rd, err, sizeof err, 0};
    CHECK(floe_snap_table_read(&thing_table, &b, &in) == -1 && strstr(err, "row 1: 0.5 is not a whole number"));
    REPORT("read: %s\n", err);
    free(b.rows);
    return same;
}

static void unwalkable(void) {
    static const floe_snap_field shared_doc[] = {
        {M(thing, lo), .role = FLOE_SNAP_STATE, .group = "thing", .name = "x", .attr = 1, .type = FLOE_SNAP_F64,
         .ncomp = 1},
        {.member = "(doc)",
         .role = FLOE_SNAP_DOC,
         .group = "thing",
         .name = "x",
         .attr = 1,
         .type = FLOE_SNAP_STR,
         .ncomp = 1,
         .note = "?"},
        {.member = NULL},
    };
    static const floe_snap_field mixed[] = {
        {M(thing, lo), .role = FLOE_SNAP_STATE, .group = "thing", .name = "x", .attr = 1, .type = FLOE_SNAP_F64,
         .ncomp = 1},
        {M(thing, steps), .role = FLOE_SNAP_STATE, .group = "thing", .name = "x", .attr = 1, .type = FLOE_SNAP_I64,
         .ncomp = 1, .col = 1},
        {.member = NULL},
    };
    const floe_snap_struct a = {"shared_doc", sizeof(thing), __alignof__(thing), {shared_doc}};
    const floe_snap_struct b = {"mixed", sizeof(thing), __alignof__(thing), {mixed}};
    thing x = {0};
    store st = {.n = 0};
    floe_snap_writer wr = {&st, put};
    char err[512] = "";
    CHECK(floe_snap_table_write(&a, &x, &wr, err, sizeof err) == -1 && strstr(err, "a doc text sharing its item"));
    REPORT("unwalkable: %s\n", err);
    CHECK(floe_snap_table_check(&b, &x, err, sizeof err) == -1 && strstr(err, "different rows, types"));
    REPORT("unwalkable: %s\n", err);
}

int main(void) {
    round_trip();
    unwalkable();
    return CHECK_DONE();
}
