/* Typed, positioned access to a YAML document tree (see scene_yaml.h). */
#include "io/scene_yaml.h"
#include "base/mem.h"
#include "io/io_err.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ------------------------------------------------------------ */

static int sy_verror_at(sy_doc *d, size_t line, size_t col, const char *fmt, va_list ap) {
    if (d->failed || !d->err || d->errlen == 0) {
        d->failed = 1;
        return -1;
    }
    d->failed = 1;
    int k = snprintf(d->err, d->errlen, "%s:%zu:%zu: ", d->path, line, col);
    if (k >= 0 && (size_t)k < d->errlen) vsnprintf(d->err + k, d->errlen - (size_t)k, fmt, ap);
    return -1;
}

static int sy_error_at(sy_doc *d, size_t line, size_t col, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sy_verror_at(d, line, col, fmt, ap);
    va_end(ap);
    return -1;
}

int sy_error(sy_doc *d, sy_node *n, const char *fmt, ...) {
    /* libyaml marks are 0-based; messages are 1-based like compilers'. */
    size_t line = n ? (size_t)n->start_mark.line + 1 : 1;
    size_t col = n ? (size_t)n->start_mark.column + 1 : 1;
    va_list ap;
    va_start(ap, fmt);
    sy_verror_at(d, line, col, fmt, ap);
    va_end(ap);
    return -1;
}

int sy_error_msg(sy_doc *d, const char *msg) {
    if (!d->failed && d->err && d->errlen) snprintf(d->err, d->errlen, "%s", msg);
    d->failed = 1;
    return -1;
}

/* ---- loading ------------------------------------------------------------ */

/* Larger scene files are refused: the parsed document takes several times
 * the text, and a device such as /dev/zero never ends. */
#define SCENE_MAX_FILE_BYTES ((size_t)1 << 30)

static unsigned char *read_file(const char *path, size_t *len, int *err_no) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        *err_no = errno;
        return NULL;
    }
    /* sy_load checked the file before; it may still grow while read */
    unsigned char *buf = floe_io_read_all(f, SCENE_MAX_FILE_BYTES, len, err_no);
    fclose(f);
    return buf;
}

/* Line and column (1-based) of a byte offset, for reader errors which carry
 * only an offset. */
static void offset_to_pos(const unsigned char *buf, size_t len, size_t off, size_t *line, size_t *col) {
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off && i < len; i++) {
        if (buf[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

/* libyaml's messages for the common slips, in words a scene's author knows.
 * c is the character at the problem mark (0 if none). NULL: no translation. */
static const char *plain_words(const yaml_parser_t *p, int c) {
    const char *problem = p->problem ? p->problem : "", *context = p->context ? p->context : "";
    if (!strcmp(problem, "found character that cannot start any token")) {
        if (c == '\t') return "tabs are not allowed for indentation in YAML; indent with spaces";
        if (c == '@' || c == '`') return "a value cannot start with '@' or '`' in YAML; put the text in quotes";
        return NULL;
    }
    if (strstr(context, "quoted scalar"))
        return "unclosed quote: the quoted text that starts here has no closing quote";
    if (!strcmp(problem, "mapping values are not allowed in this context"))
        return "unexpected ':' here: a value that contains ': ' must be quoted, or the line is indented "
               "more than the keys above it";
    if (!strcmp(problem, "did not find expected key"))
        return "bad indentation: this line is not aligned with the keys of the mapping above it; indent "
               "every key of a mapping by the same number of spaces";
    if (!strcmp(problem, "did not find expected '-' indicator"))
        return "bad indentation: this line is not aligned with the '- ' items of the list above it";
    if (!strcmp(problem, "could not find expected ':'"))
        return "missing ':' after a key (write 'key: value', with a space after the colon)";
    if (!strcmp(problem, "did not find expected ',' or ']'")) return "missing ',' or closing ']' in a [ ... ] list";
    if (!strcmp(problem, "did not find expected ',' or '}'")) return "missing ',' or closing '}' in a { ... } mapping";
    if (!strcmp(problem, "block sequence entries are not allowed in this context"))
        return "unexpected '- ' list item here: a list goes on the lines below its key, indented";
    return NULL;
}

static int parser_error(sy_doc *d, const yaml_parser_t *p, const unsigned char *buf, size_t len) {
    const char *problem = p->problem ? p->problem : "unknown error";
    if (p->error == YAML_MEMORY_ERROR) return sy_error_at(d, 1, 1, "out of memory while parsing YAML");
    if (p->error == YAML_READER_ERROR) {
        size_t line, col;
        offset_to_pos(buf, len, p->problem_offset, &line, &col);
        return sy_error_at(d, line, col, "YAML error: %s", problem);
    }
    size_t line = p->problem_mark.line + 1, col = p->problem_mark.column + 1;
    size_t at = p->problem_mark.index;
    const char *words = plain_words(p, at < len ? buf[at] : 0);
    if (words && p->context && strstr(p->context, "quoted scalar")) /* where the quote opens */
        return sy_error_at(d, p->context_mark.line + 1, p->context_mark.column + 1, "%s", words);
    /* libyaml's context ("while parsing a block mapping") as the thing it names */
    const char *ctx = p->context ? p->context : "";
    const char *what = strstr(ctx, "mapping")                                 ? "mapping"
                       : strstr(ctx, "simple key")                            ? "key"
                       : strstr(ctx, "collection") || strstr(ctx, "sequence") ? "list"
                                                                              : NULL;
    if (words && what) {
        return sy_error_at(d, line, col, "%s (the %s starts at line %zu, column %zu)", words, what,
                           p->context_mark.line + 1, p->context_mark.column + 1);
    }
    if (words) return sy_error_at(d, line, col, "%s", words);
    if (p->context)
        return sy_error_at(d, line, col, "YAML syntax error: %s (%s at line %zu, column %zu)", problem, p->context,
                           p->context_mark.line + 1, p->context_mark.column + 1);
    return sy_error_at(d, line, col, "YAML syntax error: %s", problem);
}

/* ---- the document tree ------------------------------------------------------ */

/* Scalar texts live in blocks of this size (longer texts get their own);
 * blocks this large are mapped, so freeing them returns the memory to the
 * system before the run. */
#define SY_TEXT_BLOCK ((size_t)1 << 20)

struct sy_chunk {
    sy_chunk *next;
    size_t used, cap;
    char data[];
};

static char *text_alloc(sy_doc *d, size_t n) {
    sy_chunk *c = d->text;
    if (c && c->cap - c->used >= n) {
        char *p = c->data + c->used;
        c->used += n;
        return p;
    }
    size_t cap = n > SY_TEXT_BLOCK / 4 ? n : SY_TEXT_BLOCK;
    c = malloc(sizeof *c + cap);
    if (!c) return NULL;
    c->used = n;
    c->cap = cap;
    if (cap == n && d->text) {
        /* a long text: keep filling the current block afterwards */
        c->next = d->text->next;
        d->text->next = c;
    } else {
        c->next = d->text;
        d->text = c;
    }
    return c->data;
}

/* Grows *arr (elements of `size` bytes) to hold at least n + 1. */
static int grow(void **arr, size_t *cap, size_t n, size_t size) {
    if (n >= UINT32_MAX) return -1; /* indices are 32-bit; the 1 GiB file limit keeps far below */
    return floe__grow_size(arr, cap, n + 1, size) ? 0 : -1;
}

typedef struct sy_anchor {
    char *name;
    uint32_t node;
    yaml_mark_t mark;
} sy_anchor;

typedef struct sy_open {
    uint32_t node; /* the sequence or mapping being filled */
    size_t first;  /* its first child in the composer's stack */
} sy_open;

/* State of the composer: children of the open collections wait on a stack
 * and move to d->kids, contiguous, when their collection ends. */
typedef struct sy_composer {
    uint32_t *stack;
    size_t n_stack, cap_stack;
    sy_open *open;
    size_t n_open, cap_open;
    sy_anchor *anchors;
    size_t n_anchors, cap_anchors;
} sy_composer;

static void composer_free(sy_composer *k) {
    for (size_t i = 0; i < k->n_anchors; i++) free(k->anchors[i].name);
    free(k->anchors);
    free(k->stack);
    free(k->open);
    memset(k, 0, sizeof *k);
}

/* A new node from an event; registers its anchor. -1: out of memory; -2:
 * composer error already recorded. */
static int add_node(sy_doc *d, sy_composer *k, yaml_node_type_t type, const yaml_mark_t *mark,
                    const yaml_char_t *anchor, uint32_t *index) {
    if (grow((void **)&d->nodes, &d->cap_nodes, d->n_nodes, sizeof *d->nodes)) return -1;
    *index = (uint32_t)d->n_nodes;
    sy_yaml_node *n = &d->nodes[d->n_nodes++];
    memset(n, 0, sizeof *n);
    n->type = type;
    n->start_mark.line = mark->line > UINT32_MAX ? UINT32_MAX : (uint32_t)mark->line;
    n->start_mark.column = mark->column > UINT32_MAX ? UINT32_MAX : (uint32_t)mark->column;
    if (!anchor) return 0;
    for (size_t i = 0; i < k->n_anchors; i++)
        if (!strcmp(k->anchors[i].name, (const char *)anchor)) {
            /* libyaml's loader refuses redefined anchors; so does this one */
            sy_error_at(d, mark->line + 1, mark->column + 1,
                        "YAML syntax error: second occurrence (found duplicate "
                        "anchor; first occurrence at line %zu, column %zu)",
                        k->anchors[i].mark.line + 1, k->anchors[i].mark.column + 1);
            return -2;
        }
    if (grow((void **)&k->anchors, &k->cap_anchors, k->n_anchors, sizeof *k->anchors)) return -1;
    size_t len = strlen((const char *)anchor);
    char *name = malloc(len + 1);
    if (!name) return -1;
    memcpy(name, anchor, len + 1);
    k->anchors[k->n_anchors++] = (sy_anchor){name, *index, *mark};
    return 0;
}

/* Child `index` of the innermost open collection (if any: the root has none). */
static int add_child(sy_composer *k, uint32_t index) {
    if (!k->n_open) return 0;
    if (grow((void **)&k->stack, &k->cap_stack, k->n_stack, sizeof *k->stack)) return -1;
    k->stack[k->n_stack++] = index;
    return 0;
}

/* Deepest nesting of lists and mappings accepted. A scene needs about 6
 * levels; refusing deeper input at once also bounds libyaml's work, which
 * grows with the square of the depth of an unfinished flow collection. */
#define SY_MAX_DEPTH 64

/* Builds one document's tree into d from the parser's events, after its
 * DOCUMENT-START event up to and including DOCUMENT-END. 0, or -1 with the
 * error recorded. */
static int compose(sy_doc *d, yaml_parser_t *p, const unsigned char *buf, size_t len) {
    sy_composer k = {0};
    yaml_event_t ev;
    int rc = -1, oom = 0;
    for (;;) {
        if (!yaml_parser_parse(p, &ev)) {
            parser_error(d, p, buf, len);
            break;
        }
        uint32_t index;
        int st = 0;
        if (ev.type == YAML_DOCUMENT_END_EVENT) {
            yaml_event_delete(&ev);
            rc = 0;
            break;
        }
        switch (ev.type) {
            case YAML_ALIAS_EVENT: {
                size_t i = 0;
                while (i < k.n_anchors && strcmp(k.anchors[i].name, (const char *)ev.data.alias.anchor)) i++;
                if (i == k.n_anchors) {
                    sy_error_at(d, ev.start_mark.line + 1, ev.start_mark.column + 1,
                                "YAML syntax error: found undefined alias");
                    st = -2;
                } else {
                    st = add_child(&k, k.anchors[i].node);
                }
                break;
            }
            case YAML_SCALAR_EVENT: {
                size_t n = ev.data.scalar.length;
                char *text = n < UINT32_MAX ? text_alloc(d, n + 1) : NULL;
                if (!text) {
                    st = -1;
                    break;
                }
                memcpy(text, ev.data.scalar.value, n);
                text[n] = 0;
                st = add_node(d, &k, YAML_SCALAR_NODE, &ev.start_mark, ev.data.scalar.anchor, &index);
                if (!st) {
                    d->nodes[index].data.scalar.value = (yaml_char_t *)text;
                    d->nodes[index].data.scalar.length = (uint32_t)n;
                    d->nodes[index].data.scalar.style = ev.data.scalar.style;
                    st = add_child(&k, index);
                }
                break;
            }
            case YAML_SEQUENCE_START_EVENT:
            case YAML_MAPPING_START_EVENT: {
                int seq = ev.type == YAML_SEQUENCE_START_EVENT;
                if (k.n_open >= SY_MAX_DEPTH) {
                    sy_error_at(d, ev.start_mark.line + 1, ev.start_mark.column + 1,
                                "lists and mappings nested more than %d deep (a scene needs a handful of levels; "
                                "is a closing ']' or '}' missing, or is this not a scene file?)",
                                SY_MAX_DEPTH);
                    st = -2;
                    break;
                }
                st = add_node(d, &k, seq ? YAML_SEQUENCE_NODE : YAML_MAPPING_NODE, &ev.start_mark,
                              seq ? ev.data.sequence_start.anchor : ev.data.mapping_start.anchor, &index);
                if (!st) st = add_child(&k, index);
                if (!st && grow((void **)&k.open, &k.cap_open, k.n_open, sizeof *k.open)) st = -1;
                if (!st) k.open[k.n_open++] = (sy_open){index, k.n_stack};
                break;
            }
            case YAML_SEQUENCE_END_EVENT:
            case YAML_MAPPING_END_EVENT: {
                sy_open o = k.open[--k.n_open];
                size_t n = k.n_stack - o.first;
                while (!st && d->n_kids + n > d->cap_kids)
                    if (grow((void **)&d->kids, &d->cap_kids, d->cap_kids, sizeof *d->kids)) st = -1;
                if (st) break;
                sy_yaml_node *node = &d->nodes[o.node];
                node->data.children.first = (uint32_t)d->n_kids;
                node->data.children.count = (uint32_t)(node->type == YAML_MAPPING_NODE ? n / 2 : n);
                if (n) /* an empty collection may have no arrays yet */
                    memcpy(d->kids + d->n_kids, k.stack + o.first, n * sizeof *d->kids);
                d->n_kids += n;
                k.n_stack = o.first;
                break;
            }
            default:
                break;
        }
        yaml_event_delete(&ev);
        if (st) {
            oom = st == -1;
            break;
        }
    }
    if (oom) sy_error_at(d, 1, 1, "out of memory while parsing YAML");
    composer_free(&k);
    return rc;
}

static void tree_free(sy_doc *d) {
    free(d->nodes);
    free(d->kids);
    while (d->text) {
        sy_chunk *c = d->text;
        d->text = c->next;
        free(c);
    }
    d->nodes = NULL;
    d->kids = NULL;
    d->n_nodes = d->cap_nodes = d->n_kids = d->cap_kids = 0;
}

/* The next event: 1 if it starts a document, 0 if it ends the stream, -1 on
 * a parser error (recorded). */
static int next_document(sy_doc *d, yaml_parser_t *p, const unsigned char *buf, size_t len) {
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(p, &ev)) return parser_error(d, p, buf, len);
        yaml_event_type_t t = ev.type;
        yaml_event_delete(&ev);
        if (t == YAML_DOCUMENT_START_EVENT) return 1;
        if (t == YAML_STREAM_END_EVENT) return 0;
        /* YAML_STREAM_START_EVENT */
    }
}

int sy_load(sy_doc *d, const char *path, char *err, size_t errlen) {
    memset(d, 0, sizeof *d);
    d->path = path;
    d->err = err;
    d->errlen = errlen;
    size_t len = 0;
    int err_no = 0;
    char why[256];
    /* a device or FIFO is refused before reading: /dev/zero never ends */
    if (floe_io_input_file(path, (double)SCENE_MAX_FILE_BYTES, why, sizeof why))
        return sy_error_at(d, 1, 1, "cannot read scene file: %s", why);
    unsigned char *buf = read_file(path, &len, &err_no);
    if (!buf) return sy_error_at(d, 1, 1, "cannot read scene file: %s", strerror(err_no));

    yaml_parser_t p;
    if (!yaml_parser_initialize(&p)) {
        free(buf);
        return sy_error_at(d, 1, 1, "cannot initialise the YAML parser");
    }
    yaml_parser_set_input_string(&p, buf, len);
    d->loaded = 1;
    int rc = next_document(d, &p, buf, len);
    if (rc == 0) {
        rc = sy_error_at(d, 1, 1, "empty scene file");
    } else if (rc == 1 && !(rc = compose(d, &p, buf, len))) {
        if (!d->n_nodes) {
            rc = sy_error_at(d, 1, 1, "empty scene file");
        } else {
            /* A second document would be silently ignored otherwise; a
             * syntax error in it is reported first, as libyaml's loader does. */
            int more = next_document(d, &p, buf, len);
            if (more < 0) {
                rc = -1;
            } else if (more) {
                sy_doc extra = {.path = path, .err = err, .errlen = errlen, .loaded = 1};
                rc = compose(&extra, &p, buf, len);
                d->failed = extra.failed;
                if (!rc && extra.n_nodes)
                    rc = sy_error(d, &extra.nodes[0], "a scene file holds one YAML document; found a second one");
                tree_free(&extra);
            }
        }
    }
    yaml_parser_delete(&p);
    free(buf);
    if (rc) sy_free(d);
    return rc ? -1 : 0;
}

void sy_free(sy_doc *d) {
    if (d->loaded) tree_free(d);
    d->loaded = 0;
}

sy_node *sy_root(sy_doc *d) { return d->loaded && d->n_nodes ? &d->nodes[0] : NULL; }

/* ---- structure ---------------------------------------------------------- */

int sy_is_map(sy_node *n) { return n && n->type == YAML_MAPPING_NODE; }
int sy_is_seq(sy_node *n) { return n && n->type == YAML_SEQUENCE_NODE; }

static const char *sval(sy_node *n) { return (const char *)n->data.scalar.value; }

int sy_is_null(sy_node *n) {
    if (!n) return 1;
    if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) return 0;
    const char *s = sval(n);
    return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL");
}

const char *sy_type_name(sy_node *n) {
    if (!n || sy_is_null(n)) return "nothing";
    if (n->type == YAML_MAPPING_NODE) return "a mapping";
    if (n->type == YAML_SEQUENCE_NODE) return "a list";
    return "text";
}

int sy_map_size(sy_node *n) { return sy_is_map(n) ? (int)n->data.children.count : 0; }

sy_node *sy_map_key(sy_doc *d, sy_node *map, int i) {
    return &d->nodes[d->kids[map->data.children.first + 2 * (size_t)i]];
}

sy_node *sy_map_value(sy_doc *d, sy_node *map, int i) {
    return &d->nodes[d->kids[map->data.children.first + 2 * (size_t)i + 1]];
}

int sy_seq_size(sy_node *n) { return sy_is_seq(n) ? (int)n->data.children.count : 0; }

sy_node *sy_seq_item(sy_doc *d, sy_node *seq, int i) {
    return &d->nodes[d->kids[seq->data.children.first + (size_t)i]];
}

static int is_scalar_text(sy_node *n) {
    return n && n->type == YAML_SCALAR_NODE && strlen(sval(n)) == n->data.scalar.length;
}

sy_node *sy_get(sy_doc *d, sy_node *map, const char *key) {
    int n = sy_map_size(map);
    for (int i = 0; i < n; i++) {
        sy_node *k = sy_map_key(d, map, i);
        if (k && k->type == YAML_SCALAR_NODE && !strcmp(sval(k), key)) return sy_map_value(d, map, i);
    }
    return NULL;
}

static void describe(char *buf, size_t len, sy_node *n) {
    if (n && n->type == YAML_SCALAR_NODE && !sy_is_null(n)) {
        floe_io_quote(buf, len, sval(n));
    } else {
        snprintf(buf, len, "%s", sy_type_name(n));
    }
}

static const char *in_where(const char *where, char *buf, size_t len) {
    if (!where || !*where) snprintf(buf, len, "at the top level");
    else snprintf(buf, len, "in %s", where);
    return buf;
}

int sy_want_map(sy_doc *d, sy_node *n, const char *where) {
    if (sy_is_map(n)) return 0;
    char got[160];
    describe(got, sizeof got, n);
    /* A file whose top level is text is not a scene (perhaps not YAML at
     * all): its text is not echoed. */
    if (!*where && n && n->type == YAML_SCALAR_NODE) snprintf(got, sizeof got, "text (this is not a scene file)");
    return sy_error(d, n, "%s: expected a mapping (key: value pairs), got %s", *where ? where : "scene", got);
}

int sy_want_seq(sy_doc *d, sy_node *n, const char *where) {
    if (sy_is_seq(n)) return 0;
    char got[160];
    describe(got, sizeof got, n);
    return sy_error(d, n, "%s: expected a list, got %s", where, got);
}

int sy_missing(sy_doc *d, sy_node *map, const char *where, const char *key) {
    char w[300];
    return sy_error(d, map, "missing required key '%s' %s", key, in_where(where, w, sizeof w));
}

static void list_keys(char *buf, size_t len, const char *const *allowed, int n) {
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < n && k + 1 < len; i++) {
        int m = snprintf(buf + k, len - k, "%s%s", i ? ", " : "", allowed[i]);
        if (m < 0) break;
        k += (size_t)m;
    }
}

int sy_check_keys(sy_doc *d, sy_node *map, const char *where, const char *const *allowed, int n_allowed) {
    if (sy_want_map(d, map, where)) return -1;
    int n = sy_map_size(map);
    char w[300];
    for (int i = 0; i < n; i++) {
        sy_node *k = sy_map_key(d, map, i);
        if (!is_scalar_text(k) || sy_is_null(k))
            return sy_error(d, k, "keys must be plain names %s", in_where(where, w, sizeof w));
        const char *key = sval(k);
        int known = 0;
        for (int a = 0; a < n_allowed && !known; a++) known = !strcmp(key, allowed[a]);
        if (!known) {
            const char *s = sy_suggest(key, allowed, n_allowed);
            if (s)
                return sy_error(d, k, "unknown key '%s' %s; did you mean '%s'?", key, in_where(where, w, sizeof w), s);
            char keys[600];
            list_keys(keys, sizeof keys, allowed, n_allowed);
            return sy_error(d, k, "unknown key '%s' %s; allowed keys: %s", key, in_where(where, w, sizeof w), keys);
        }
        for (int j = 0; j < i; j++) {
            sy_node *kj = sy_map_key(d, map, j);
            if (!strcmp(sval(kj), key))
                return sy_error(d, k, "duplicate key '%s' %s (first given at line %zu)", key,
                                in_where(where, w, sizeof w), (size_t)kj->start_mark.line + 1);
        }
    }
    return 0;
}

/* ---- suggestions ---------------------------------------------------------- */

/* Optimal-string-alignment edit distance. */
static int edit_distance(const char *a, const char *b) {
    enum { MAXL = 64 };
    size_t la = strlen(a), lb = strlen(b);
    if (la >= MAXL || lb >= MAXL) return (int)(la > lb ? la : lb);
    /* Three rows of the optimal-string-alignment table: a transposition
     * ("raduis") costs one edit like a typo. */
    int r0[MAXL + 1], r1[MAXL + 1], r2[MAXL + 1];
    int *pp = r0, *p = r1, *c = r2;
    for (size_t j = 0; j <= lb; j++) p[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        c[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cost = a[i - 1] != b[j - 1];
            int v = p[j] + 1;
            if (c[j - 1] + 1 < v) v = c[j - 1] + 1;
            if (p[j - 1] + cost < v) v = p[j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && pp[j - 2] + 1 < v) v = pp[j - 2] + 1;
            c[j] = v;
        }
        int *t = pp;
        pp = p;
        p = c;
        c = t;
    }
    return p[lb];
}

const char *sy_suggest(const char *word, const char *const *cands, int n) {
    size_t len = strlen(word);
    int limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
    const char *best = NULL;
    int best_d = limit + 1;
    for (int i = 0; i < n; i++) {
        int dd = edit_distance(word, cands[i]);
        if (dd < best_d) {
            best_d = dd;
            best = cands[i];
        }
    }
    /* An abbreviation ("lin" for "linear") is too far by edit distance. */
    for (int i = 0; i < n && !best && len >= 3; i++)
        if (!strncmp(word, cands[i], len)) best = cands[i];
    return best;
}

/* ---- scalars ------------------------------------------------------------ */

static int all_in(const char *s, const char *set) {
    if (!*s) return 0;
    for (; *s; s++)
        if (!strchr(set, *s)) return 0;
    return 1;
}

int sy_parse_number(const char *s, double *out) {
    const char *p = s;
    int neg = 0;
    if (*p == '+' || *p == '-') neg = *p++ == '-';
    if (!strcmp(p, ".inf") || !strcmp(p, ".Inf") || !strcmp(p, ".INF")) {
        *out = neg ? -INFINITY : INFINITY;
        return 0;
    }
    if (p == s && (!strcmp(p, ".nan") || !strcmp(p, ".NaN") || !strcmp(p, ".NAN"))) {
        *out = NAN;
        return 0;
    }
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'o' || p[1] == 'b')) {
        const char *digits = p[1] == 'x' ? "0123456789abcdefABCDEF" : p[1] == 'o' ? "01234567" : "01";
        int base = p[1] == 'x' ? 16 : p[1] == 'o' ? 8 : 2;
        if (!all_in(p + 2, digits)) return -1;
        errno = 0;
        unsigned long long v = strtoull(p + 2, NULL, base);
        if (errno) return -1;
        *out = neg ? -(double)v : (double)v;
        return 0;
    }
    return sy_parse_decimal(s, out);
}

int sy_parse_decimal(const char *s, double *out) {
    /* [+-] digits [. digits] [e[+-]digits], at least one mantissa digit.
     * Validated here so that strtod's extra forms (hex, hex floats, "nan",
     * "inf", leading spaces) are not accepted. */
    const char *p = s + (*s == '+' || *s == '-');
    const char *q = p;
    int mant = 0;
    while (*q >= '0' && *q <= '9') q++, mant++;
    if (*q == '.') {
        q++;
        while (*q >= '0' && *q <= '9') q++, mant++;
    }
    if (!mant) return -1;
    if (*q == 'e' || *q == 'E') {
        q++;
        if (*q == '+' || *q == '-') q++;
        if (!(*q >= '0' && *q <= '9')) return -1;
        while (*q >= '0' && *q <= '9') q++;
    }
    if (*q) return -1;
    errno = 0;
    double v = strtod(s, NULL);
    if (errno == ERANGE && isinf(v)) return -1; /* 1e999 */
    *out = v;
    return 0;
}

int sy_str(sy_doc *d, sy_node *n, const char *where, const char **out) {
    if (!is_scalar_text(n) || sy_is_null(n)) {
        char got[160];
        describe(got, sizeof got, n);
        return sy_error(d, n, "%s: expected a name (text), got %s", where, got);
    }
    *out = sval(n);
    return 0;
}

int sy_number(sy_doc *d, sy_node *n, const char *where, double *out) {
    char got[160];
    describe(got, sizeof got, n);
    if (!is_scalar_text(n) || sy_is_null(n)) return sy_error(d, n, "%s: expected a number, got %s", where, got);
    const char *s = sval(n);
    /* Quoted scalars are strings in YAML; only the 0b/0x/0o integer forms
     * (bit masks such as Ice bonds: "0b00101111") are accepted quoted. */
    int quoted = n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
    if (quoted && !(s[0] == '0' && (s[1] == 'b' || s[1] == 'x' || s[1] == 'o')))
        return sy_error(d, n, "%s: expected a number, got the quoted text %s", where, got);
    double v;
    if (sy_parse_number(s, &v)) return sy_error(d, n, "%s: expected a number, got %s", where, got);
    if (isnan(v)) return sy_error(d, n, "%s: NaN is not allowed", where);
    *out = v;
    return 0;
}

/* Formats a range bound for messages ("1e+09", "inf"). */
static void fmt_bound(char *buf, size_t len, double v) {
    if (isinf(v)) snprintf(buf, len, "%s", v > 0 ? "inf" : "-inf");
    else snprintf(buf, len, "%.10g", v);
}

int sy_range(sy_doc *d, sy_node *n, const char *where, double v, double lo, double hi, int lo_open, int hi_open) {
    int ok = (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
    if (ok) return 0;
    char a[32], b[32];
    fmt_bound(a, sizeof a, lo);
    fmt_bound(b, sizeof b, hi);
    return sy_error(d, n, "%s = %s is out of range %c%s, %s%c", where, sval(n), lo_open ? '(' : '[', a, b,
                    hi_open ? ')' : ']');
}

int sy_number_in(sy_doc *d, sy_node *n, const char *where, double *out, double lo, double hi, int lo_open,
                 int hi_open) {
    double v;
    if (sy_number(d, n, where, &v) || sy_range(d, n, where, v, lo, hi, lo_open, hi_open)) return -1;
    *out = v;
    return 0;
}

int sy_int(sy_doc *d, sy_node *n, const char *where, int64_t *out, int64_t lo, int64_t hi) {
    double v;
    if (sy_number(d, n, where, &v)) return -1;
    const char *s = sval(n);
    int64_t iv;
    const char *p = s + (*s == '+' || *s == '-');
    if (all_in(p, "0123456789")) {
        /* Plain decimal integers are converted exactly (seeds > 2^53). */
        errno = 0;
        long long ll = strtoll(s, NULL, 10);
        if (errno) goto range;
        iv = ll;
    } else {
        if (v != floor(v) || isinf(v)) return sy_error(d, n, "%s = %s must be an integer", where, s);
        if (v < -9.2e18 || v > 9.2e18) goto range;
        iv = (int64_t)v;
    }
    if (iv < lo || iv > hi) goto range;
    *out = iv;
    return 0;
range:
    /* the true bound, also for INT64_MAX: 1e19 is out of range, "inf" would say otherwise */
    return sy_error(d, n, "%s = %s is out of range [%lld, %lld]", where, s, (long long)lo, (long long)hi);
}

int sy_is_bool(sy_node *n, int *out) {
    if (!is_scalar_text(n) || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) return 0;
    const char *s = sval(n);
    if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE")) {
        *out = 1;
        return 1;
    }
    if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE")) {
        *out = 0;
        return 1;
    }
    return 0;
}

int sy_is_text(sy_node *n, const char *s) { return is_scalar_text(n) && !strcmp(sval(n), s); }

int sy_bool(sy_doc *d, sy_node *n, const char *where, int *out) {
    if (sy_is_bool(n, out)) return 0;
    char got[160];
    describe(got, sizeof got, n);
    return sy_error(d, n, "%s: expected true or false, got %s", where, got);
}

int sy_vec3(sy_doc *d, sy_node *n, const char *where, floe_vec3 *out) {
    if (!sy_is_seq(n) || sy_seq_size(n) != 3) {
        char got[160];
        if (sy_is_seq(n)) snprintf(got, sizeof got, "a list of %d", sy_seq_size(n));
        else describe(got, sizeof got, n);
        return sy_error(d, n, "%s: expected a list of 3 numbers [x, y, z], got %s", where, got);
    }
    double v[3];
    for (int i = 0; i < 3; i++) {
        char w[300];
        snprintf(w, sizeof w, "%s[%d]", where, i);
        if (sy_number_in(d, sy_seq_item(d, n, i), w, &v[i], -INFINITY, INFINITY, 1, 1)) return -1;
    }
    out->x = v[0];
    out->y = v[1];
    out->z = v[2];
    return 0;
}

int sy_point(sy_doc *d, sy_node *n, const char *where, floe_vec3 *out) {
    if (sy_vec3(d, n, where, out)) return -1;
    const double v[3] = {out->x, out->y, out->z};
    for (int i = 0; i < 3; i++) {
        char w[300];
        snprintf(w, sizeof w, "%s[%d]", where, i);
        if (sy_range(d, sy_seq_item(d, n, i), w, v[i], -SY_MAX_COORD, SY_MAX_COORD, 0, 0)) return -1;
    }
    return 0;
}

int sy_scalar_or_vec3(sy_doc *d, sy_node *n, const char *where, floe_vec3 *out) {
    if (sy_is_seq(n)) return sy_vec3(d, n, where, out);
    double v;
    if (!is_scalar_text(n) || sy_is_null(n)) {
        char got[160];
        describe(got, sizeof got, n);
        return sy_error(d, n, "%s: expected a number or a list of 3 numbers, got %s", where, got);
    }
    if (sy_number_in(d, n, where, &v, -INFINITY, INFINITY, 1, 1)) return -1;
    out->x = out->y = out->z = v;
    return 0;
}
