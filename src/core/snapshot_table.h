/* The types of the snapshot's table
 * (docs/architecture.md#the-snapshot-of-the-world): a member of a struct
 * with its offset, size and role, and for state the item that carries it
 * and the check a loaded value must pass. The tables are in
 * snapshot_members.c; the shape store's entries are built from the shape
 * classes in snapshot_shapes.c. */
#ifndef FLOE_CORE_SNAPSHOT_TABLE_H
#define FLOE_CORE_SNAPSHOT_TABLE_H

#include "core/snapshot_item.h"
#include "core/world.h"

/* FLOE_SNAP_MAX_LENGTH and FLOE_SNAP_MAX_COUNT, the limits of loaded values, are
 * public (include/floe/floe_snapshot.h). */

typedef enum floe_snap_role {
    FLOE_SNAP_STATE,     /* saved and restored */
    FLOE_SNAP_COUNT,     /* the number of rows of arrays in the snapshot (their item's rows give it) */
    FLOE_SNAP_DERIVED,   /* recomputed on load from the state */
    FLOE_SNAP_TRANSIENT, /* not state: capacities, scratch, this step's events, messages */
    FLOE_SNAP_SHAPES,    /* the shape store: state described by the shape classes (snapshot_shapes.c) */
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

/* Stored differently from memory; each has its code in snapshot.c. */
typedef enum floe_snap_conv {
    FLOE_CONV_NONE,
    FLOE_CONV_MODEL,      /* a registry index, stored as the model's name */
    FLOE_CONV_MAT_PARAMS, /* material parameters in the model's key order, zero past its own */
    FLOE_CONV_LAW_PARAMS, /* law parameters, the same */
    FLOE_CONV_IF_VALID,   /* zeros while the broad phase has no pair list (the array holds nothing) */
    FLOE_CONV_STATE,      /* the model state blob: rows of the world's state stride */
} floe_snap_conv;

/* A kind of row: particles, contacts, ... and the world member counting them. */
typedef struct floe_snap_rows {
    const char *noun;       /* "particle": messages say "particle 5" */
    size_t count_offset;    /* of the int count in struct floe_world */
    const char *count_item; /* the item whose rows give the count on load ("particles/pos") */
} floe_snap_rows;

typedef struct floe_snap_struct floe_snap_struct;

typedef struct floe_snap_field {
    const char *member; /* the C member */
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

#endif
