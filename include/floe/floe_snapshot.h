/* floe snapshots: the world's whole state as items, for restart files,
 * pickling and sending worlds between processes
 * (docs/architecture.md#the-snapshot-of-the-world). A snapshot is written
 * through a writer that receives one item at a time and read back through a
 * reader that looks items up; the byte form is a self-contained writer and
 * reader of its own. Part of the engine, libfloe. */
#ifndef FLOE_SNAPSHOT_H
#define FLOE_SNAPSHOT_H

#include <floe/floe.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The layout version of the snapshot's items: restart files carry it as
 * their format_version, the byte form in its header. A change of the items
 * (a new one, a removed one, a new meaning) bumps it; a reader refuses
 * other versions, naming both. */
#define FLOE_SNAPSHOT_FORMAT 9

/* Coordinates and sizes beyond this [m] are refused on load: far past any
 * physical domain, and small enough that distances, their squares and
 * masses stay finite in double precision
 * (docs/decisions.md#limits-of-lengths-and-counters-in-restart-files). */
#define FLOE_SNAP_MAX_LENGTH 1e15
/* Counters (steps, bytes) are at most 2^60: their sums and the next
 * multiple of a period stay far from overflowing. */
#define FLOE_SNAP_MAX_COUNT ((int64_t)1 << 60)

typedef enum floe_snap_type {
    FLOE_SNAP_F64,
    FLOE_SNAP_I64,
    FLOE_SNAP_I32,
    FLOE_SNAP_U32,
    FLOE_SNAP_U16,
    FLOE_SNAP_U8,
    FLOE_SNAP_STR, /* text: a char array member, or a name a conversion gives */
    FLOE_SNAP_NTYPES
} floe_snap_type;

/* ---- the visitor ------------------------------------------------------------ */

/* One item as a writer receives it. */
typedef struct floe_snap_item {
    const char *group; /* "particles", "contacts/model_state/ice"; "" is the root */
    const char *name;  /* "pos" */
    int attr;          /* 1: a few named values (HDF5: an attribute); 0: a table (a dataset) */
    floe_snap_type type;
    int rank; /* 0: one value; 1 to 3 */
    size_t dims[3];
    /* the values in row-major order; FLOE_SNAP_STR: `const char *const *`
     * (rank 1) or `const char *` (rank 0) */
    const void *data;
    int doc; /* for people reading the file only: never read back, a writer may drop it */
} floe_snap_item;

typedef struct floe_snap_writer {
    void *ctx;
    /* 0, or -1 when the item cannot be written (the writer keeps why). */
    int (*put)(void *ctx, const floe_snap_item *item);
} floe_snap_writer;

/* What a reader found of an item. */
typedef struct floe_snap_found {
    char klass; /* 'f' floating point, 'i' integer, 's' text, '?' anything else */
    int rank;   /* 0 to 3 */
    size_t dims[3];
} floe_snap_found;

typedef struct floe_snap_reader {
    void *ctx;
    /* 1 if the group exists. */
    int (*has_group)(void *ctx, const char *group);
    /* 1 and *f if the item exists, 0 if not. */
    int (*find)(void *ctx, const char *group, const char *name, int attr, floe_snap_found *f);
    /* Every value of a found item, converted to t: FLOE_SNAP_F64 (of a
     * floating-point item), FLOE_SNAP_I64 (of an integer one) or
     * FLOE_SNAP_U8 (raw bytes of an integer one). 0, or -1. */
    int (*read)(void *ctx, const char *group, const char *name, int attr, floe_snap_type t, void *dst);
    /* The n strings of a found text item (n = 1 for rank 0) as one block
     * to free(): n pointers, then the text; NULL if unreadable. */
    char **(*read_strings)(void *ctx, const char *group, const char *name, int attr, size_t n);
} floe_snap_reader;

typedef struct floe_snap_in floe_snap_in;
struct floe_snap_in {
    const floe_snap_reader *rd;
    char *err;
    size_t errlen;
    int bad;
};

/* ---- the world as a snapshot --------------------------------------------------- */

/* Writes every item of the world's state (and, marked doc, the model state
 * as named values and notes for readers). 0, or -1 with err. */
FLOE_API int floe_snapshot_write(const floe_world *w, const floe_snap_writer *wr, char *err, size_t errlen);

/* A new world from the items of rd, every value checked (the snapshot's
 * table, then the rules between its tables). NULL with err; *damaged (may
 * be NULL) is set when the snapshot was read but refused by a check. */
FLOE_API floe_world *floe_snapshot_read(const floe_snap_reader *rd, char *err, size_t errlen, int *damaged);

/* The snapshot in a self-contained binary form (malloc'd, free() it; doc
 * items left out): what Python's pickling and the sending of worlds between
 * processes use. 0, or -1 with err. */
FLOE_API int floe_snapshot_to_bytes(const floe_world *w, unsigned char **bytes, size_t *len, char *err, size_t errlen);
/* A new world from floe_snapshot_to_bytes's bytes, checked as
 * floe_snapshot_read checks; NULL with err. */
FLOE_API floe_world *floe_snapshot_from_bytes(const unsigned char *bytes, size_t len, char *err, size_t errlen);

/* ---- single items: a snapshot's readers and writers of other items ---------------- */

/* The first failure wins: unless *bad is set already, sets it and writes
 * "<where>: <message>" (just the message when where is NULL) into err;
 * every failure sink of the snapshot and the restart checks goes through
 * it. Returns -1. */
FLOE_API int floe_snap_vfail(int *bad, char *err, size_t errlen, const char *where, const char *fmt, va_list ap);
/* Records the first failure; returns -1. */
FLOE_API int floe_snap_fail(floe_snap_in *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "/group/name" or "/group@name" into buf. */
FLOE_API const char *floe_snap_path(const char *group, const char *name, int attr, char *buf, size_t n);
/* Whether the item exists (no message). */
FLOE_API int floe_snap_has(floe_snap_in *in, const char *group, const char *name, int attr);
/* Rows of a table (first dimension), at most 2^30; -1 with a message if it
 * is missing or unreadable. */
FLOE_API long floe_snap_rows_of(floe_snap_in *in, const char *group, const char *name);
/* Reads an item of exactly rows x cols values (rows 1 for an attribute:
 * cols values, a single one if cols is 1) into dst, values of type t
 * (integers are range-checked before they are narrowed). 0, or -1. */
FLOE_API int floe_snap_get(floe_snap_in *in, const char *group, const char *name, int attr, floe_snap_type t,
                           size_t rows, size_t cols, void *dst);
/* One integer attribute in [lo, hi] (lo on failure), one float attribute. */
FLOE_API int64_t floe_snap_get_int(floe_snap_in *in, const char *group, const char *name, int64_t lo, int64_t hi);
FLOE_API double floe_snap_get_f64(floe_snap_in *in, const char *group, const char *name);
/* A text attribute into buf (truncated to cap - 1). */
FLOE_API void floe_snap_get_text(floe_snap_in *in, const char *group, const char *name, char *buf, size_t cap);
/* n strings of a table (free() the block); NULL with a message. */
FLOE_API char **floe_snap_get_strings(floe_snap_in *in, const char *group, const char *name, size_t n);

/* Writes one item: rank 0 (one value), 1 (d0 values) or 2 (d0 x d1); doc: for
 * people reading it only. 0, or -1. */
FLOE_API int floe_snap_put(const floe_snap_writer *wr, const char *group, const char *name, int attr, floe_snap_type t,
                           int rank, size_t d0, size_t d1, const void *data, int doc);

/* ---- tables of structs ------------------------------------------------------------ */

/* A table describes the members of a struct: each member's role and, for
 * state, the item that carries it (group, name, type, columns), the check a
 * loaded value must pass and a conversion where the item differs from
 * memory. The world's table is the engine's
 * (docs/architecture.md#the-snapshot-of-the-world); other structs (a
 * restart file's run settings and output counters) have tables of the same
 * kind, walked by the same walker
 * (docs/decisions.md#one-walker-for-every-table-of-the-snapshots-kind). */

typedef enum floe_snap_role {
    FLOE_SNAP_STATE,     /* saved and restored */
    FLOE_SNAP_COUNT,     /* the number of rows of arrays in the snapshot (their item's rows give it) */
    FLOE_SNAP_DERIVED,   /* recomputed on load from the state */
    FLOE_SNAP_TRANSIENT, /* not state: capacities, scratch, this step's events, messages */
    FLOE_SNAP_SHAPES,    /* the shape store: state described by the shape classes (snapshot_shapes.c) */
    FLOE_SNAP_DOC,       /* no member: the text `note`, written as a doc item (never read back) */
} floe_snap_role;

/* What a loaded value must satisfy (every component of a row). */
typedef enum floe_snap_check {
    FLOE_CK_NONE,
    FLOE_CK_FINITE,
    FLOE_CK_NOT_NAN,         /* infinity allowed (a window without end) */
    FLOE_CK_NONNEG,          /* >= 0, infinity allowed */
    FLOE_CK_FINITE_NONNEG,   /* finite and >= 0 */
    FLOE_CK_LENGTH,          /* finite, |x| <= FLOE_SNAP_MAX_LENGTH */
    FLOE_CK_LENGTH_NONNEG,   /* ... and >= 0 */
    FLOE_CK_UNIT,            /* the row is a unit vector or quaternion */
    FLOE_CK_FINITE_OR_UNSET, /* finite, or every component NaN (not set) */
    FLOE_CK_FLAG,            /* 0 or 1 */
    FLOE_CK_COUNTER,         /* [0, FLOE_SNAP_MAX_COUNT] */
    FLOE_CK_RANGE,           /* [lo, hi] */
    FLOE_CK_RANGE_LO_OPEN,   /* (lo, hi] */
    FLOE_CK_RANGE_HI_OPEN,   /* [lo, hi) */
    FLOE_CK_ID,              /* a row of `ref`: [0, n) */
    FLOE_CK_ID_OR_NONE,      /* ... or -1 */
    FLOE_CK_MASK,            /* no bits beyond lo */
    FLOE_CK_GROUP_MASK,      /* bits of existing groups only */
} floe_snap_check;

/* Stored differently from memory; each has its code in the walker
 * (src/core/snapshot_walk.c). The world's own need a world (the registry's
 * models, the contact state, the broad phase); the last two serve any table. */
typedef enum floe_snap_conv {
    FLOE_CONV_NONE,
    FLOE_CONV_MODEL,      /* a registry index, stored as the model's name */
    FLOE_CONV_MAT_PARAMS, /* material parameters in the model's key order, zero past its own */
    FLOE_CONV_LAW_PARAMS, /* law parameters, the same */
    FLOE_CONV_IF_VALID,   /* zeros while the broad phase has no pair list (the array holds nothing) */
    FLOE_CONV_STATE,      /* the model state blob: rows of the world's state stride */
    FLOE_CONV_INT_AS_F64, /* an int member in a column of doubles (a whole number on load) */
    FLOE_CONV_MODEL_MASK, /* a uint64_t bit mask of registry indices, stored as the models' names (a table of
                             text, one row per bit set; names this floe lacks are dropped on load) */
} floe_snap_conv;

/* A kind of row: particles, contacts, ... and the world member counting them. */
typedef struct floe_snap_rows {
    const char *noun;       /* "particle": messages say "particle 5" */
    size_t count_offset;    /* of the count in the table's root struct (struct floe_world for the world) */
    const char *count_item; /* the item whose rows give the count on load ("particles/pos") */
    size_t count_size;      /* bytes of the count: 0 or sizeof(int) an int, sizeof(size_t) a size_t */
} floe_snap_rows;

typedef struct floe_snap_struct floe_snap_struct;

typedef struct floe_snap_field {
    const char *member; /* the C member (a path such as "scene.steps" in a flat table) */
    size_t offset, size, align;
    floe_snap_role role;
    /* state: the item carrying it (group, name; attr as in floe_snap_item) */
    const char *group, *name;
    int attr;
    floe_snap_type type;
    int ncomp;  /* values per row (chars for text) */
    int col;    /* first column in the item: several members can share one item */
    int shape2; /* > 0: the row is stored as a (ncomp / shape2) x shape2 table */
    /* an array member (a pointer, or an inline array with `inline_array`)
     * holds `rows` rows: values, or structs that `sub` describes */
    const floe_snap_rows *rows;
    int inline_array;
    const floe_snap_struct *sub; /* the member is (or points to) structs described there */
    floe_snap_check check;
    double lo, hi;             /* FLOE_CK_RANGE*, FLOE_CK_MASK */
    const floe_snap_rows *ref; /* FLOE_CK_ID* */
    floe_snap_conv conv;
    int built;        /* restored by the loader through the public API, which checks it (materials,
                  instances, groups' names, particles' shapes, schedule), not copied back */
    int optional;     /* an attribute of the world def that files of earlier versions lack: a file
                         without it keeps floe_default_world_def's value */
    const char *note; /* derived and transient members: how or why */
} floe_snap_field;

struct floe_snap_struct {
    const char *name; /* "floe_world" */
    size_t size, align;
    /* the members, in one or two lists, each ending with an entry whose
     * member is NULL */
    const floe_snap_field *fields[2];
};

/* Every item of the table of `root` (items in the order of their first
 * member in the lists) from the struct at obj, handed to wr. 0, or -1 with
 * err. */
FLOE_API int floe_snap_table_write(const floe_snap_struct *root, const void *obj, const floe_snap_writer *wr, char *err,
                                   size_t errlen);
/* Every item of the table of `root` into the struct at obj: the arrays of
 * rows are allocated (calloc, one spare row; their pointers in obj are
 * overwritten, so start from a zeroed struct) and their counts set from
 * the count items, then every value is read as its item says. 0, or -1
 * with the message in `in` (arrays already allocated stay in obj, to
 * free()). */
FLOE_API int floe_snap_table_read(const floe_snap_struct *root, void *obj, floe_snap_in *in);
/* Every value of the struct at obj checked as its member's line says
 * ("<item>: <row noun> r: component k: why"). 0, or -1 with err. */
FLOE_API int floe_snap_table_check(const floe_snap_struct *root, const void *obj, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
