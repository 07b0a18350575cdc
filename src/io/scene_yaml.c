/* Typed, positioned access to a libyaml document (see scene_yaml.h). */
#include "scene_yaml.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ------------------------------------------------------------ */

static int sy_verror_at(sy_doc *d, size_t line, size_t col, const char *fmt, va_list ap)
{
    if (d->failed || !d->err || d->errlen == 0) {
        d->failed = 1;
        return -1;
    }
    d->failed = 1;
    int k = snprintf(d->err, d->errlen, "%s:%zu:%zu: ", d->path, line, col);
    if (k >= 0 && (size_t)k < d->errlen)
        vsnprintf(d->err + k, d->errlen - (size_t)k, fmt, ap);
    return -1;
}

static int sy_error_at(sy_doc *d, size_t line, size_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sy_verror_at(d, line, col, fmt, ap);
    va_end(ap);
    return -1;
}

int sy_error(sy_doc *d, sy_node *n, const char *fmt, ...)
{
    /* libyaml marks are 0-based; messages are 1-based like compilers'. */
    size_t line = n ? n->start_mark.line + 1 : 1;
    size_t col = n ? n->start_mark.column + 1 : 1;
    va_list ap;
    va_start(ap, fmt);
    sy_verror_at(d, line, col, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- loading ------------------------------------------------------------ */

/* Larger scene files are refused: the parsed document takes several times
 * the text, and a device such as /dev/zero never ends. */
#define SCENE_MAX_FILE_BYTES ((size_t)1 << 30)

static unsigned char *read_file(const char *path, size_t *len, int *err_no)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        *err_no = errno;
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) {
            if (ferror(f)) {
                *err_no = errno ? errno : EIO;
                free(buf);
                buf = NULL;
            }
            break;
        }
        if (cap >= SCENE_MAX_FILE_BYTES) {
            *err_no = EFBIG;
            free(buf);
            buf = NULL;
            break;
        }
        unsigned char *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            *err_no = ENOMEM;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Line and column (1-based) of a byte offset, for reader errors which carry
 * only an offset. */
static void offset_to_pos(const unsigned char *buf, size_t len, size_t off, size_t *line, size_t *col)
{
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

static int parser_error(sy_doc *d, const yaml_parser_t *p, const unsigned char *buf, size_t len)
{
    const char *problem = p->problem ? p->problem : "unknown error";
    if (p->error == YAML_MEMORY_ERROR)
        return sy_error_at(d, 1, 1, "out of memory while parsing YAML");
    if (p->error == YAML_READER_ERROR) {
        size_t line, col;
        offset_to_pos(buf, len, p->problem_offset, &line, &col);
        return sy_error_at(d, line, col, "YAML error: %s", problem);
    }
    size_t line = p->problem_mark.line + 1, col = p->problem_mark.column + 1;
    if (p->context)
        return sy_error_at(d, line, col, "YAML syntax error: %s (%s at line %zu, column %zu)", problem,
                           p->context, p->context_mark.line + 1, p->context_mark.column + 1);
    return sy_error_at(d, line, col, "YAML syntax error: %s", problem);
}

int sy_load(sy_doc *d, const char *path, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->path = path;
    d->err = err;
    d->errlen = errlen;
    size_t len = 0;
    int err_no = 0;
    unsigned char *buf = read_file(path, &len, &err_no);
    if (!buf)
        return sy_error_at(d, 1, 1, "cannot read scene file: %s", strerror(err_no));

    yaml_parser_t p;
    if (!yaml_parser_initialize(&p)) {
        free(buf);
        return sy_error_at(d, 1, 1, "cannot initialise the YAML parser");
    }
    yaml_parser_set_input_string(&p, buf, len);
    int rc = 0;
    if (!yaml_parser_load(&p, &d->doc)) {
        rc = parser_error(d, &p, buf, len);
    } else {
        d->loaded = 1;
        if (!yaml_document_get_root_node(&d->doc)) {
            rc = sy_error_at(d, 1, 1, "empty scene file");
        } else {
            /* A second document would be silently ignored otherwise. */
            yaml_document_t extra;
            if (!yaml_parser_load(&p, &extra)) {
                rc = parser_error(d, &p, buf, len);
            } else {
                yaml_node_t *r2 = yaml_document_get_root_node(&extra);
                if (r2)
                    rc = sy_error(d, r2, "a scene file holds one YAML document; found a second one");
                yaml_document_delete(&extra);
            }
        }
    }
    yaml_parser_delete(&p);
    free(buf);
    if (rc)
        sy_free(d);
    return rc;
}

void sy_free(sy_doc *d)
{
    if (d->loaded)
        yaml_document_delete(&d->doc);
    d->loaded = 0;
}

sy_node *sy_root(sy_doc *d)
{
    return d->loaded ? yaml_document_get_root_node(&d->doc) : NULL;
}

/* ---- structure ---------------------------------------------------------- */

int sy_is_map(sy_node *n) { return n && n->type == YAML_MAPPING_NODE; }
int sy_is_seq(sy_node *n) { return n && n->type == YAML_SEQUENCE_NODE; }

static const char *sval(sy_node *n) { return (const char *)n->data.scalar.value; }

int sy_is_null(sy_node *n)
{
    if (!n)
        return 1;
    if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return 0;
    const char *s = sval(n);
    return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL");
}

const char *sy_type_name(sy_node *n)
{
    if (!n || sy_is_null(n))
        return "nothing";
    if (n->type == YAML_MAPPING_NODE)
        return "a mapping";
    if (n->type == YAML_SEQUENCE_NODE)
        return "a list";
    return "text";
}

int sy_map_size(sy_node *n)
{
    return sy_is_map(n) ? (int)(n->data.mapping.pairs.top - n->data.mapping.pairs.start) : 0;
}

sy_node *sy_map_key(sy_doc *d, sy_node *map, int i)
{
    return yaml_document_get_node(&d->doc, map->data.mapping.pairs.start[i].key);
}

sy_node *sy_map_value(sy_doc *d, sy_node *map, int i)
{
    return yaml_document_get_node(&d->doc, map->data.mapping.pairs.start[i].value);
}

int sy_seq_size(sy_node *n)
{
    return sy_is_seq(n) ? (int)(n->data.sequence.items.top - n->data.sequence.items.start) : 0;
}

sy_node *sy_seq_item(sy_doc *d, sy_node *seq, int i)
{
    return yaml_document_get_node(&d->doc, seq->data.sequence.items.start[i]);
}

static int is_scalar_text(sy_node *n)
{
    return n && n->type == YAML_SCALAR_NODE && strlen(sval(n)) == n->data.scalar.length;
}

sy_node *sy_get(sy_doc *d, sy_node *map, const char *key)
{
    int n = sy_map_size(map);
    for (int i = 0; i < n; i++) {
        sy_node *k = sy_map_key(d, map, i);
        if (k && k->type == YAML_SCALAR_NODE && !strcmp(sval(k), key))
            return sy_map_value(d, map, i);
    }
    return NULL;
}

static void describe(char *buf, size_t len, sy_node *n)
{
    if (n && n->type == YAML_SCALAR_NODE && !sy_is_null(n)) {
        const char *s = sval(n);
        if (strlen(s) > 40)
            snprintf(buf, len, "'%.37s...'", s);
        else
            snprintf(buf, len, "'%s'", s);
    } else {
        snprintf(buf, len, "%s", sy_type_name(n));
    }
}

static const char *in_where(const char *where, char *buf, size_t len)
{
    if (!where || !*where)
        snprintf(buf, len, "at the top level");
    else
        snprintf(buf, len, "in %s", where);
    return buf;
}

int sy_want_map(sy_doc *d, sy_node *n, const char *where)
{
    if (sy_is_map(n))
        return 0;
    char got[64];
    describe(got, sizeof got, n);
    return sy_error(d, n, "%s: expected a mapping (key: value pairs), got %s", *where ? where : "scene", got);
}

int sy_want_seq(sy_doc *d, sy_node *n, const char *where)
{
    if (sy_is_seq(n))
        return 0;
    char got[64];
    describe(got, sizeof got, n);
    return sy_error(d, n, "%s: expected a list, got %s", where, got);
}

int sy_missing(sy_doc *d, sy_node *map, const char *where, const char *key)
{
    char w[300];
    return sy_error(d, map, "missing required key '%s' %s", key, in_where(where, w, sizeof w));
}

static void list_keys(char *buf, size_t len, const char *const *allowed, int n)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; i < n && k + 1 < len; i++) {
        int m = snprintf(buf + k, len - k, "%s%s", i ? ", " : "", allowed[i]);
        if (m < 0)
            break;
        k += (size_t)m;
    }
}

int sy_check_keys(sy_doc *d, sy_node *map, const char *where, const char *const *allowed, int n_allowed)
{
    if (sy_want_map(d, map, where))
        return -1;
    int n = sy_map_size(map);
    char w[300];
    for (int i = 0; i < n; i++) {
        sy_node *k = sy_map_key(d, map, i);
        if (!is_scalar_text(k) || sy_is_null(k))
            return sy_error(d, k, "keys must be plain names %s", in_where(where, w, sizeof w));
        const char *key = sval(k);
        int known = 0;
        for (int a = 0; a < n_allowed && !known; a++)
            known = !strcmp(key, allowed[a]);
        if (!known) {
            const char *s = sy_suggest(key, allowed, n_allowed);
            if (s)
                return sy_error(d, k, "unknown key '%s' %s; did you mean '%s'?", key,
                                in_where(where, w, sizeof w), s);
            char keys[600];
            list_keys(keys, sizeof keys, allowed, n_allowed);
            return sy_error(d, k, "unknown key '%s' %s; allowed keys: %s", key, in_where(where, w, sizeof w),
                            keys);
        }
        for (int j = 0; j < i; j++) {
            sy_node *kj = sy_map_key(d, map, j);
            if (!strcmp(sval(kj), key))
                return sy_error(d, k, "duplicate key '%s' %s (first given at line %zu)", key,
                                in_where(where, w, sizeof w), kj->start_mark.line + 1);
        }
    }
    return 0;
}

/* ---- suggestions ---------------------------------------------------------- */

int sy_edit_distance(const char *a, const char *b)
{
    enum { MAXL = 64 };
    size_t la = strlen(a), lb = strlen(b);
    if (la >= MAXL || lb >= MAXL)
        return (int)(la > lb ? la : lb);
    /* Three rows of the optimal-string-alignment table: a transposition
     * ("raduis") costs one edit like a typo. */
    int r0[MAXL + 1], r1[MAXL + 1], r2[MAXL + 1];
    int *pp = r0, *p = r1, *c = r2;
    for (size_t j = 0; j <= lb; j++)
        p[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        c[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int cost = a[i - 1] != b[j - 1];
            int v = p[j] + 1;
            if (c[j - 1] + 1 < v)
                v = c[j - 1] + 1;
            if (p[j - 1] + cost < v)
                v = p[j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && pp[j - 2] + 1 < v)
                v = pp[j - 2] + 1;
            c[j] = v;
        }
        int *t = pp;
        pp = p;
        p = c;
        c = t;
    }
    return p[lb];
}

const char *sy_suggest(const char *word, const char *const *cands, int n)
{
    size_t len = strlen(word);
    int limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
    const char *best = NULL;
    int best_d = limit + 1;
    for (int i = 0; i < n; i++) {
        int dd = sy_edit_distance(word, cands[i]);
        if (dd < best_d) {
            best_d = dd;
            best = cands[i];
        }
    }
    /* An abbreviation ("lin" for "linear") is too far by edit distance. */
    for (int i = 0; i < n && !best && len >= 3; i++)
        if (!strncmp(word, cands[i], len))
            best = cands[i];
    return best;
}

/* ---- scalars ------------------------------------------------------------ */

static int all_in(const char *s, const char *set)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!strchr(set, *s))
            return 0;
    return 1;
}

int sy_parse_number(const char *s, double *out)
{
    const char *p = s;
    int neg = 0;
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';
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
        if (!all_in(p + 2, digits))
            return -1;
        errno = 0;
        unsigned long long v = strtoull(p + 2, NULL, base);
        if (errno)
            return -1;
        *out = neg ? -(double)v : (double)v;
        return 0;
    }
    /* Decimal: digits [. digits] [e[+-]digits], at least one mantissa digit.
     * Validated here so that strtod's extra forms (hex floats, "nan", "inf",
     * leading spaces) are not accepted. */
    const char *q = p;
    int mant = 0;
    while (*q >= '0' && *q <= '9')
        q++, mant++;
    if (*q == '.') {
        q++;
        while (*q >= '0' && *q <= '9')
            q++, mant++;
    }
    if (!mant)
        return -1;
    if (*q == 'e' || *q == 'E') {
        q++;
        if (*q == '+' || *q == '-')
            q++;
        if (!(*q >= '0' && *q <= '9'))
            return -1;
        while (*q >= '0' && *q <= '9')
            q++;
    }
    if (*q)
        return -1;
    errno = 0;
    double v = strtod(s, NULL);
    if (errno == ERANGE && isinf(v))
        return -1;
    *out = v;
    return 0;
}

int sy_str(sy_doc *d, sy_node *n, const char *where, const char **out)
{
    if (!is_scalar_text(n) || sy_is_null(n)) {
        char got[64];
        describe(got, sizeof got, n);
        return sy_error(d, n, "%s: expected a name (text), got %s", where, got);
    }
    *out = sval(n);
    return 0;
}

int sy_number(sy_doc *d, sy_node *n, const char *where, double *out)
{
    char got[64];
    describe(got, sizeof got, n);
    if (!is_scalar_text(n) || sy_is_null(n))
        return sy_error(d, n, "%s: expected a number, got %s", where, got);
    const char *s = sval(n);
    /* Quoted scalars are strings in YAML; only the 0b/0x/0o integer forms
     * (bit masks such as Ice bonds: "0b00101111") are accepted quoted. */
    int quoted = n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
    if (quoted && !(s[0] == '0' && (s[1] == 'b' || s[1] == 'x' || s[1] == 'o')))
        return sy_error(d, n, "%s: expected a number, got the quoted text %s", where, got);
    double v;
    if (sy_parse_number(s, &v))
        return sy_error(d, n, "%s: expected a number, got %s", where, got);
    if (isnan(v))
        return sy_error(d, n, "%s: NaN is not allowed", where);
    *out = v;
    return 0;
}

void sy_fmt_bound(char *buf, size_t len, double v)
{
    if (isinf(v))
        snprintf(buf, len, "%s", v > 0 ? "inf" : "-inf");
    else
        snprintf(buf, len, "%.10g", v);
}

int sy_range(sy_doc *d, sy_node *n, const char *where, double v, double lo, double hi, int lo_open, int hi_open)
{
    int ok = (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
    if (ok)
        return 0;
    char a[32], b[32];
    sy_fmt_bound(a, sizeof a, lo);
    sy_fmt_bound(b, sizeof b, hi);
    return sy_error(d, n, "%s = %s is out of range %c%s, %s%c", where, sval(n), lo_open ? '(' : '[', a, b,
                    hi_open ? ')' : ']');
}

int sy_number_in(sy_doc *d, sy_node *n, const char *where, double *out, double lo, double hi, int lo_open,
                 int hi_open)
{
    double v;
    if (sy_number(d, n, where, &v) || sy_range(d, n, where, v, lo, hi, lo_open, hi_open))
        return -1;
    *out = v;
    return 0;
}

int sy_int(sy_doc *d, sy_node *n, const char *where, int64_t *out, int64_t lo, int64_t hi)
{
    double v;
    if (sy_number(d, n, where, &v))
        return -1;
    const char *s = sval(n);
    int64_t iv;
    const char *p = s + (*s == '+' || *s == '-');
    if (all_in(p, "0123456789")) {
        /* Plain decimal integers are converted exactly (seeds > 2^53). */
        errno = 0;
        long long ll = strtoll(s, NULL, 10);
        if (errno)
            goto range;
        iv = ll;
    } else {
        if (v != floor(v) || isinf(v))
            return sy_error(d, n, "%s = %s must be an integer", where, s);
        if (v < -9.2e18 || v > 9.2e18)
            goto range;
        iv = (int64_t)v;
    }
    if (iv < lo || iv > hi)
        goto range;
    *out = iv;
    return 0;
range:;
    char b[32];
    if (hi == INT64_MAX)
        snprintf(b, sizeof b, "inf)");
    else
        snprintf(b, sizeof b, "%lld]", (long long)hi);
    return sy_error(d, n, "%s = %s is out of range [%lld, %s", where, s, (long long)lo, b);
}

int sy_is_bool(sy_node *n, int *out)
{
    if (!is_scalar_text(n) || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return 0;
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

int sy_is_text(sy_node *n, const char *s)
{
    return is_scalar_text(n) && !strcmp(sval(n), s);
}

int sy_bool(sy_doc *d, sy_node *n, const char *where, int *out)
{
    if (sy_is_bool(n, out))
        return 0;
    char got[64];
    describe(got, sizeof got, n);
    return sy_error(d, n, "%s: expected true or false, got %s", where, got);
}

int sy_vec3(sy_doc *d, sy_node *n, const char *where, floe_vec3 *out)
{
    if (!sy_is_seq(n) || sy_seq_size(n) != 3) {
        char got[64];
        if (sy_is_seq(n))
            snprintf(got, sizeof got, "a list of %d", sy_seq_size(n));
        else
            describe(got, sizeof got, n);
        return sy_error(d, n, "%s: expected a list of 3 numbers [x, y, z], got %s", where, got);
    }
    double v[3];
    for (int i = 0; i < 3; i++) {
        char w[300];
        snprintf(w, sizeof w, "%s[%d]", where, i);
        if (sy_number_in(d, sy_seq_item(d, n, i), w, &v[i], -INFINITY, INFINITY, 1, 1))
            return -1;
    }
    out->x = v[0];
    out->y = v[1];
    out->z = v[2];
    return 0;
}

int sy_scalar_or_vec3(sy_doc *d, sy_node *n, const char *where, floe_vec3 *out)
{
    if (sy_is_seq(n))
        return sy_vec3(d, n, where, out);
    double v;
    if (!is_scalar_text(n) || sy_is_null(n)) {
        char got[64];
        describe(got, sizeof got, n);
        return sy_error(d, n, "%s: expected a number or a list of 3 numbers, got %s", where, got);
    }
    if (sy_number_in(d, n, where, &v, -INFINITY, INFINITY, 1, 1))
        return -1;
    out->x = out->y = out->z = v;
    return 0;
}
