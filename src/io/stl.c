/* STL reader (see stl.h). */
#include "io/stl.h"
#include "base/mem.h"
#include "io/io_err.h"
#include "io/scene_yaml.h" /* sy_parse_decimal: the number syntax of data files */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void floe_stl_free(floe_stl *s) {
    if (!s) return;
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* ---- binary -------------------------------------------------------------- */

static uint32_t le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float lef32(const unsigned char *p) {
    uint32_t u = le32(p);
    float f;
    memcpy(&f, &u, sizeof f); /* IEEE-754 single on every supported platform */
    return f;
}

static int parse_binary(const char *name, const unsigned char *buf, size_t len, floe_stl *out, char *err,
                        size_t errlen) {
    uint64_t n = le32(buf + 80);
    uint64_t need = 84 + 50 * n;
    if (need != len)
        return floe_io_err(err, errlen,
                           "%s: binary STL header announces %llu triangles (%llu bytes) but the file has %zu bytes "
                           "(truncated or not an STL file)",
                           name, (unsigned long long)n, (unsigned long long)need, len);
    floe_vec3 *v = n ? malloc((size_t)n * 3 * sizeof *v) : NULL;
    if (n && !v) return floe_io_err(err, errlen, "%s: out of memory for %llu triangles", name, (unsigned long long)n);
    for (uint64_t t = 0; t < n; t++) {
        const unsigned char *rec = buf + 84 + 50 * t + 12; /* skip the normal */
        double c[9];
        for (size_t k = 0; k < 9; k++) {
            float f = lef32(rec + 4 * k);
            if (!isfinite(f)) {
                free(v);
                return floe_io_err(err, errlen,
                                   "%s: binary STL triangle %llu (byte offset %llu) has a non-finite "
                                   "vertex coordinate",
                                   name, (unsigned long long)t, (unsigned long long)(84 + 50 * t + 12 + 4 * k));
            }
            c[k] = f;
        }
        for (size_t k = 0; k < 3; k++) v[3 * t + k] = (floe_vec3){c[3 * k], c[3 * k + 1], c[3 * k + 2]};
    }
    out->v = v;
    out->n_tri = (size_t)n;
    out->binary = 1;
    return 0;
}

/* ---- ASCII --------------------------------------------------------------- */

typedef struct lexer {
    const char *name;
    const unsigned char *p, *end;
    size_t line, col;   /* position of p, 1-based */
    size_t tline, tcol; /* position of the last token */
    char tok[72];
    char *err;
    size_t errlen;
} lexer;

static int is_space(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

static void adv(lexer *L) {
    if (*L->p == '\n') {
        L->line++;
        L->col = 1;
    } else {
        L->col++;
    }
    L->p++;
}

/* Next whitespace-separated token into L->tok; 0 at end of file, -1 on error. */
static int next_tok(lexer *L) {
    while (L->p < L->end && is_space(*L->p)) adv(L);
    L->tline = L->line;
    L->tcol = L->col;
    if (L->p >= L->end) return 0;
    size_t n = 0;
    while (L->p < L->end && !is_space(*L->p)) {
        unsigned char c = *L->p;
        if (c < 0x20 || c == 0x7f)
            return floe_io_err(L->err, L->errlen, "%s:%zu:%zu: unexpected byte 0x%02x in ASCII STL", L->name, L->line,
                               L->col, c);
        /* A truncated token could read as a different number. */
        if (n + 1 >= sizeof L->tok)
            return floe_io_err(L->err, L->errlen, "%s:%zu:%zu: token longer than %zu characters", L->name, L->tline,
                               L->tcol, sizeof L->tok - 1);
        L->tok[n++] = (char)c;
        adv(L);
    }
    L->tok[n] = 0;
    return 1;
}

static void skip_line(lexer *L) {
    while (L->p < L->end && *L->p != '\n') adv(L);
}

static int word_is(const char *tok, const char *kw) {
    for (; *tok && *kw; tok++, kw++) {
        char c = *tok;
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != *kw) return 0;
    }
    return !*tok && !*kw;
}

static int expect(lexer *L, const char *kw) {
    int r = next_tok(L);
    if (r < 0) return -1;
    if (r == 0)
        return floe_io_err(L->err, L->errlen, "%s:%zu:%zu: unexpected end of file, expected '%s'", L->name, L->tline,
                           L->tcol, kw);
    char q[160];
    if (!word_is(L->tok, kw))
        return floe_io_err(L->err, L->errlen, "%s:%zu:%zu: expected '%s', got %s", L->name, L->tline, L->tcol, kw,
                           floe_io_quote(q, sizeof q, L->tok));
    return 0;
}

static int read_num(lexer *L, double *out) {
    int r = next_tok(L);
    if (r < 0) return -1;
    if (r == 0)
        return floe_io_err(L->err, L->errlen, "%s:%zu:%zu: unexpected end of file, expected a number", L->name,
                           L->tline, L->tcol);
    /* decimal only, as in particle tables: strtod would take 0x10, inf and nan */
    double v;
    char q[160];
    if (sy_parse_decimal(L->tok, &v) || !isfinite(v))
        return floe_io_err(L->err, L->errlen, "%s:%zu:%zu: expected a finite decimal number, got %s", L->name, L->tline,
                           L->tcol, floe_io_quote(q, sizeof q, L->tok));
    *out = v;
    return 0;
}

static int parse_ascii(const char *name, const unsigned char *buf, size_t len, floe_stl *out, char *err,
                       size_t errlen) {
    lexer L = {.name = name, .p = buf, .end = buf + len, .line = 1, .col = 1, .err = err, .errlen = errlen};
    floe_vec3 *v = NULL;
    size_t n = 0, cap = 0;
    int rc = -1;
    if (expect(&L, "solid")) goto done;
    skip_line(&L); /* the solid's name may contain spaces */
    for (;;) {
        int r = next_tok(&L);
        if (r < 0) goto done;
        if (r == 0) {
            floe_io_err(err, errlen,
                        "%s:%zu:%zu: unexpected end of file, expected 'facet' or 'endsolid' "
                        "(truncated file?)",
                        name, L.tline, L.tcol);
            goto done;
        }
        if (word_is(L.tok, "endsolid")) {
            skip_line(&L);
            r = next_tok(&L);
            if (r < 0) goto done;
            if (r == 0) break;
            /* Some exporters write several solids into one file. */
            if (!word_is(L.tok, "solid")) {
                char q[160];
                floe_io_err(err, errlen, "%s:%zu:%zu: expected 'solid' or end of file after 'endsolid', got %s", name,
                            L.tline, L.tcol, floe_io_quote(q, sizeof q, L.tok));
                goto done;
            }
            skip_line(&L);
            continue;
        }
        if (!word_is(L.tok, "facet")) {
            char q[160];
            floe_io_err(err, errlen, "%s:%zu:%zu: expected 'facet' or 'endsolid', got %s", name, L.tline, L.tcol,
                        floe_io_quote(q, sizeof q, L.tok));
            goto done;
        }
        double tmp;
        if (expect(&L, "normal") || read_num(&L, &tmp) || read_num(&L, &tmp) || read_num(&L, &tmp) ||
            expect(&L, "outer") || expect(&L, "loop"))
            goto done;
        if (!floe__grow_size((void **)&v, &cap, n + 1, 3 * sizeof *v)) {
            floe_io_err(err, errlen, "%s: out of memory after %zu triangles", name, n);
            goto done;
        }
        for (int k = 0; k < 3; k++) {
            floe_vec3 *p = &v[3 * n + (size_t)k];
            if (expect(&L, "vertex") || read_num(&L, &p->x) || read_num(&L, &p->y) || read_num(&L, &p->z)) goto done;
        }
        if (expect(&L, "endloop") || expect(&L, "endfacet")) goto done;
        n++;
    }
    out->v = v;
    out->n_tri = n;
    out->binary = 0;
    v = NULL;
    rc = 0;
done:
    free(v);
    return rc;
}

/* ---- format detection ----------------------------------------------------- */

static int starts_with_solid(const unsigned char *buf, size_t len) {
    size_t i = 0;
    while (i < len && is_space(buf[i])) i++;
    if (len - i < 5) return 0;
    char w[6];
    memcpy(w, buf + i, 5);
    w[5] = 0;
    return word_is(w, "solid");
}

/* Binary files may also begin with "solid" (some exporters write it into the
 * 80-byte header); text content in the first kilobyte decides. */
static int looks_like_text(const unsigned char *buf, size_t len) {
    size_t m = len < 1024 ? len : 1024;
    for (size_t i = 0; i < m; i++) {
        unsigned char c = buf[i];
        if ((c < 0x20 && !is_space(c)) || c == 0x7f) return 0;
    }
    return 1;
}

int floe_stl_parse(const char *name, const unsigned char *buf, size_t len, floe_stl *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (starts_with_solid(buf, len) && looks_like_text(buf, len)) return parse_ascii(name, buf, len, out, err, errlen);
    if (len >= 84) return parse_binary(name, buf, len, out, err, errlen); /* reports the size mismatch */
    return floe_io_err(err, errlen,
                       "%s: not an STL file (%zu bytes: too short for binary STL, and not ASCII "
                       "STL text starting with 'solid')",
                       name, len);
}

/* 2 GiB of binary STL is 43 million triangles, about 16 GiB of facets:
 * the scene size guard would refuse them anyway, so stop reading there. */
#define FLOE_STL_MAX_BYTES ((size_t)1 << 31)

int floe_stl_read(const char *path, floe_stl *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    char why[256];
    /* before reading: /dev/zero would be read up to the limit, a FIFO would block */
    if (floe_io_input_file(path, (double)FLOE_STL_MAX_BYTES, why, sizeof why))
        return floe_io_err(err, errlen, "%s: cannot open: %s", path, why);
    FILE *f = fopen(path, "rb");
    if (!f) return floe_io_err(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    size_t len;
    int rc = 0, e;
    unsigned char *buf = floe_io_read_all(f, FLOE_STL_MAX_BYTES, &len, &e);
    if (e == EFBIG)
        rc = floe_io_err(err, errlen,
                         "%s: larger than %.0f GiB: as facets its triangles would need more memory "
                         "than a scene may use (or it is not a regular file)",
                         path, (double)FLOE_STL_MAX_BYTES / (1 << 30));
    else if (e == ENOMEM) rc = floe_io_err(err, errlen, "%s: out of memory reading %zu bytes", path, len);
    else if (e) rc = floe_io_err(err, errlen, "%s: read error: %s", path, strerror(e));
    fclose(f);
    if (!rc) rc = floe_stl_parse(path, buf, len, out, err, errlen);
    free(buf);
    return rc;
}
