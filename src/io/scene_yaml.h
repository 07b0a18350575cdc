/* Typed access to a YAML document tree (built by sy_load from libyaml's
 * events, see sy_yaml_node) with positioned error messages.
 *
 * Every getter validates one node and, on failure, records the first error as
 * "file:line:col: message" (1-based line and column) and returns -1. Later
 * errors never overwrite the first one, so callers may simply propagate -1.
 * `where` is the dotted key path used in messages, e.g. "particles[2].radius". */
#ifndef FLOE_IO_SCENE_YAML_H
#define FLOE_IO_SCENE_YAML_H

#include <stddef.h>
#include <stdint.h>
#include <yaml.h>

#include <floe/floe.h>

/* A node of the document tree. The tree is built from libyaml's events
 * rather than with yaml_parser_load: libyaml's document costs about 2 KB for a
 * particle entry such as {radius: 0.005, pos: [x, y, z], material: bead}
 * (a 96-byte node with its own tag string and 16-slot child stacks for each
 * of its 10 nodes), this one under 500 bytes (32-byte nodes, children in one
 * shared array, texts in large blocks). Member names follow yaml_node_t. */
typedef struct sy_yaml_node {
    yaml_node_type_t type; /* YAML_SCALAR_NODE, _SEQUENCE_NODE or _MAPPING_NODE */
    struct {
        uint32_t line, column;
    } start_mark; /* 0-based, as libyaml's marks */
    union {
        struct {
            yaml_char_t *value; /* NUL-terminated (may hold other NULs: see length) */
            uint32_t length;
            yaml_scalar_style_t style;
        } scalar;
        struct {
            uint32_t first, count; /* sy_doc.kids[first ..]: items, or key, value pairs */
        } children;
    } data;
} sy_yaml_node;

typedef struct sy_chunk sy_chunk;

typedef struct sy_doc {
    const char *path;    /* file name used in messages */
    sy_yaml_node *nodes; /* nodes[0] is the root */
    size_t n_nodes, cap_nodes;
    uint32_t *kids; /* node indices of every sequence's and mapping's children */
    size_t n_kids, cap_kids;
    sy_chunk *text; /* scalar texts */
    int loaded;     /* the tree must be freed */
    char *err;
    size_t errlen;
    int failed;
} sy_doc;

typedef const sy_yaml_node sy_node;

/* Reads and parses `path` (exactly one YAML document). */
int sy_load(sy_doc *d, const char *path, char *err, size_t errlen);
void sy_free(sy_doc *d);
sy_node *sy_root(sy_doc *d);

/* Records "path:line:col: message" at node n (or 1:1 if n is NULL). Returns -1. */
int sy_error(sy_doc *d, sy_node *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Records a complete message (already "file:line:col: ..."), e.g. one about
 * another file the scene names. Returns -1. */
int sy_error_msg(sy_doc *d, const char *msg);

/* ---- structure -------------------------------------------------------- */

int sy_is_map(sy_node *n);
int sy_is_seq(sy_node *n);
int sy_is_null(sy_node *n);           /* empty, "~" or "null" plain scalar */
const char *sy_type_name(sy_node *n); /* "a mapping", "a list", "'text'" ... for messages */

int sy_map_size(sy_node *n);
sy_node *sy_map_key(sy_doc *d, sy_node *map, int i);
sy_node *sy_map_value(sy_doc *d, sy_node *map, int i);
int sy_seq_size(sy_node *n);
sy_node *sy_seq_item(sy_doc *d, sy_node *seq, int i);

/* Value of `key` in `map`, or NULL. Keys are assumed checked by sy_check_keys. */
sy_node *sy_get(sy_doc *d, sy_node *map, const char *key);

/* Requires a mapping whose keys are scalars, unique and in `allowed`
 * (n_allowed entries). `where` names the mapping ("particles[2]"; "" for the
 * top level). Unknown keys get an edit-distance suggestion. */
int sy_check_keys(sy_doc *d, sy_node *map, const char *where, const char *const *allowed, int n_allowed);
/* Requires a mapping / a list at `where`. */
int sy_want_map(sy_doc *d, sy_node *n, const char *where);
int sy_want_seq(sy_doc *d, sy_node *n, const char *where);
/* Error for a missing required key of `map`. */
int sy_missing(sy_doc *d, sy_node *map, const char *where, const char *key);

/* ---- scalars ---------------------------------------------------------- */

/* Closest candidate within a small edit distance, or NULL. */
const char *sy_suggest(const char *word, const char *const *cands, int n);

/* Parses YAML number forms: 1, -2, 1e-3, 2.5E9, .5, +.inf, -.inf, .nan,
 * 0x1F, 0o17, 0b101. Returns 0 on success. */
int sy_parse_number(const char *s, double *out);
/* Only the finite decimal forms: [+-]digits[.digits][e[+-]digits] (also
 * .5, 5.). The one number syntax of data files (particle tables, ASCII STL):
 * no hex, no inf or nan. Returns 0 on success. */
int sy_parse_decimal(const char *s, double *out);

int sy_str(sy_doc *d, sy_node *n, const char *where, const char **out);
int sy_number(sy_doc *d, sy_node *n, const char *where, double *out);
/* Range check of a value read from scalar n (the message quotes n's text). */
int sy_range(sy_doc *d, sy_node *n, const char *where, double v, double lo, double hi, int lo_open, int hi_open);
/* Number in a range; open bounds excluded; message "where = v is out of range [lo, hi)". */
int sy_number_in(sy_doc *d, sy_node *n, const char *where, double *out, double lo, double hi, int lo_open, int hi_open);
/* Integral value in [lo, hi]; accepts 1e6-style forms when integral. */
int sy_int(sy_doc *d, sy_node *n, const char *where, int64_t *out, int64_t lo, int64_t hi);
int sy_bool(sy_doc *d, sy_node *n, const char *where, int *out);
/* 1 if n is a plain true/false scalar (value in *out), else 0; no error. */
int sy_is_bool(sy_node *n, int *out);
/* 1 if n is a scalar whose text equals s. */
int sy_is_text(sy_node *n, const char *s);
/* List of exactly 3 finite numbers. */
int sy_vec3(sy_doc *d, sy_node *n, const char *where, floe_vec3 *out);

/* Largest magnitude of a coordinate or a length in a scene or a particle
 * table, in m. Far beyond any granular scene (a light-hour is 1.1e12 m), and
 * far below where differences, squares and cell counts of coordinates
 * overflow (1e308): such values are typing slips, refused at once. */
#define SY_MAX_COORD 1e12
/* A point: sy_vec3 with every component in [-SY_MAX_COORD, SY_MAX_COORD]. */
int sy_point(sy_doc *d, sy_node *n, const char *where, floe_vec3 *out);
/* Either one finite number (all three components) or a list of 3. */
int sy_scalar_or_vec3(sy_doc *d, sy_node *n, const char *where, floe_vec3 *out);

#endif
