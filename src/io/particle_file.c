/* Particle tables from CSV files (see particle_file.h). */
#include "io/particle_file.h"
#include "io/scene_yaml.h" /* sy_parse_decimal, sy_suggest: numbers and names as in scene files */
#include "io/io_err.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const col_names[PF_NCOLS] = {"x",  "y",  "z",  "radius", "vx",       "vy",
                                                "vz", "wx", "wy", "wz",     "material", "group"};

struct floe_pfile {
    FILE *fp;
    char *path;
    /* read buffer: a line with its line break always fits, plus a NUL */
    char *buf;
    size_t cap, start, end;
    int eof;
    size_t lineno;           /* lines read so far */
    char *orig;              /* the current line before splitting (for columns in messages) */
    int ncols;               /* columns in the header */
    pf_column col[PF_NCOLS]; /* header position -> column */
    int pos[PF_NCOLS];       /* column -> header position, -1 if absent */
    size_t header_line;
    size_t header_off[PF_NCOLS]; /* byte offset of each column's name in the header line */
    char *header;                /* copy of the header line */
    size_t row_line;             /* line of the last row */
    size_t row_off[PF_NCOLS];    /* byte offset of each field in that line */
    long long rows;
};

/* ---- messages ---------------------------------------------------------------- */

/* Character column (1-based) of byte offset `off` in `line`: UTF-8
 * continuation bytes do not count, as in YAML positions. */
static size_t char_col(const char *line, size_t off) {
    size_t c = 1;
    for (size_t i = 0; i < off && line[i]; i++)
        if (((unsigned char)line[i] & 0xC0) != 0x80) c++;
    return c;
}

static int verr(const floe_pfile *f, size_t line, size_t col, char *err, size_t errlen, const char *fmt, va_list ap) {
    if (!err || !errlen) return -1;
    int k = snprintf(err, errlen, "%s:%zu:%zu: ", f->path, line, col);
    if (k >= 0 && (size_t)k < errlen) vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
    return -1;
}

static int err_at(const floe_pfile *f, size_t line, size_t col, char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    verr(f, line, col, err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Error at byte offset `off` of the current line (f->orig). */
static int err_here(const floe_pfile *f, size_t off, char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    verr(f, f->lineno, char_col(f->orig, off), err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

int floe_pfile_error(const floe_pfile *f, pf_column c, char *err, size_t errlen, const char *fmt, ...) {
    size_t line = f->header_line, col = 1;
    if ((unsigned)c < PF_NCOLS && f->pos[c] >= 0) {
        if (f->rows > 0) {
            line = f->row_line;
            col = char_col(f->orig, f->row_off[c]);
        } else {
            col = char_col(f->header, f->header_off[c]);
        }
    }
    va_list ap;
    va_start(ap, fmt);
    verr(f, line, col, err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Text for messages: quoted, shortened and sanitised (floe_io_quote). */
static void quote(char *buf, size_t len, const char *s) { floe_io_quote(buf, len, s); }

/* An unknown header field: only its leading name characters are quoted.
 * The header is the first line of whatever file was named, perhaps not a
 * table at all ("root:x:0:0:..." -> 'root...'). */
static void quote_column(char *buf, size_t len, const char *s) {
    char name[FLOE_IO_QUOTE_MAX + 1];
    size_t n = 0;
    while (n < FLOE_IO_QUOTE_MAX && (s[n] == '_' || (s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
                                     (s[n] >= '0' && s[n] <= '9')))
        n++;
    memcpy(name, s, n);
    name[n] = 0;
    snprintf(buf, len, "'%s%s'", name, s[n] ? "..." : "");
}

static void list_columns(char *buf, size_t len, const floe_pfile *f) {
    size_t k = 0;
    buf[0] = 0;
    int n = f ? f->ncols : PF_NCOLS;
    for (int i = 0; i < n && k + 1 < len; i++) {
        int m = snprintf(buf + k, len - k, "%s%s", i ? ", " : "", col_names[f ? f->col[i] : (pf_column)i]);
        if (m < 0) break;
        k += (size_t)m;
    }
}

/* ---- lines ------------------------------------------------------------------ */

/* Next line without its line break (LF or CRLF), NUL-terminated, in place
 * in f->buf and copied to f->orig. 1: a line; 0: end of file; -1: error. */
static int read_line(floe_pfile *f, char **out, char *err, size_t errlen) {
    for (;;) {
        char *s = f->buf + f->start;
        size_t avail = f->end - f->start;
        char *nl = memchr(s, '\n', avail);
        if (nl || (f->eof && avail)) {
            size_t n = nl ? (size_t)(nl - s) : avail;
            f->start += nl ? n + 1 : n;
            f->lineno++;
            if (n && s[n - 1] == '\r') n--;
            s[n] = 0; /* buf has a spare byte for a last line without a line break */
            if (f->lineno == 1 && n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3)) {
                s += 3; /* a UTF-8 byte-order mark (spreadsheet exports) */
                n -= 3;
            }
            memcpy(f->orig, s, n + 1);
            const char *z = memchr(s, 0, n);
            if (z) return err_here(f, (size_t)(z - s), err, errlen, "NUL byte in the line (not a text table?)");
            *out = s;
            return 1;
        }
        if (f->eof) return 0;
        if (f->start) {
            memmove(f->buf, s, avail);
            f->start = 0;
            f->end = avail;
        }
        if (f->end == f->cap)
            return err_at(f, f->lineno + 1, 1, err, errlen, "line longer than %d bytes (not a text table?)",
                          PF_MAX_LINE);
        size_t got = fread(f->buf + f->end, 1, f->cap - f->end, f->fp);
        f->end += got;
        if (got == 0) {
            if (ferror(f->fp))
                return err_at(f, f->lineno + 1, 1, err, errlen, "read error: %s", strerror(errno ? errno : EIO));
            f->eof = 1;
        }
    }
}

/* Blank lines and comments ('#' as first non-blank character) are skipped. */
static int is_blank_or_comment(const char *s) {
    while (*s == ' ' || *s == '\t') s++;
    return !*s || *s == '#';
}

/* ---- fields ----------------------------------------------------------------- */

typedef struct cursor {
    char *line; /* start of the line (in f->buf) */
    char *p;    /* next unread byte */
    int done;   /* the last field has been returned */
} cursor;

/* Next comma-separated field: blanks around it are dropped; a field may be
 * quoted ("a, b" with "" for a quote) but must then end on the same line.
 * The field is NUL-terminated in place; *off is the byte offset of its first
 * non-blank character. 1: a field; 0: no more fields; -1: error. */
static int next_field(const floe_pfile *f, cursor *c, char **val, size_t *off, char *err, size_t errlen) {
    if (c->done) return 0;
    char *p = c->p;
    while (*p == ' ' || *p == '\t') p++;
    *off = (size_t)(p - c->line);
    char *v = p, *vend;
    if (*p == '"') {
        char *r = p + 1, *w = p + 1;
        v = w;
        for (;;) {
            if (!*r)
                return err_here(f, *off, err, errlen,
                                "unterminated quoted field (a quoted field must end on the "
                                "same line)");
            if (*r == '"') {
                if (r[1] != '"') {
                    r++;
                    break;
                }
                r++;
            }
            *w++ = *r++;
        }
        vend = w;
        while (*r == ' ' || *r == '\t') r++;
        if (*r && *r != ',')
            return err_here(f, (size_t)(r - c->line), err, errlen,
                            "unexpected text after the closing quote of a "
                            "field");
        p = r;
    } else {
        while (*p && *p != ',') p++;
        vend = p;
        while (vend > v && (vend[-1] == ' ' || vend[-1] == '\t')) vend--;
        char *q = memchr(v, '"', (size_t)(vend - v));
        if (q)
            return err_here(f, (size_t)(q - c->line), err, errlen,
                            "quote inside an unquoted field (quote the "
                            "whole field: \"...\")");
    }
    char sep = *p;
    *vend = 0;
    if (sep) c->p = p + 1;
    else c->done = 1;
    *val = v;
    return 1;
}

/* ---- header ------------------------------------------------------------------- */

static int find_column(const char *name) {
    for (int i = 0; i < PF_NCOLS; i++)
        if (!strcmp(name, col_names[i])) return i;
    return -1;
}

static int read_header(floe_pfile *f, char *err, size_t errlen) {
    char *line;
    int rc;
    while ((rc = read_line(f, &line, err, errlen)) == 1 && is_blank_or_comment(line))
        ;
    if (rc < 0) return -1;
    if (rc == 0)
        return err_at(f, 1, 1, err, errlen,
                      "no header row (the file is empty or holds only comments); the first "
                      "line must name the columns, e.g. x,y,z,radius");
    f->header_line = f->lineno;
    size_t len = strlen(f->orig);
    f->header = malloc(len + 1);
    if (!f->header) return err_at(f, f->lineno, 1, err, errlen, "out of memory");
    memcpy(f->header, f->orig, len + 1);
    cursor c = {line, line, 0};
    char *name;
    size_t off;
    while ((rc = next_field(f, &c, &name, &off, err, errlen)) == 1) {
        if (!*name) return err_here(f, off, err, errlen, "empty column name in the header");
        int id = find_column(name);
        char q[160];
        quote(q, sizeof q, name);
        if (id < 0) {
            double v;
            if (!sy_parse_decimal(name, &v))
                return err_here(f, off, err, errlen,
                                "expected a header row naming the columns (e.g. x,y,z,radius), "
                                "got the number %s",
                                q);
            quote_column(q, sizeof q, name);
            const char *s = sy_suggest(name, col_names, PF_NCOLS);
            if (s) return err_here(f, off, err, errlen, "unknown column %s; did you mean '%s'?", q, s);
            char all[256];
            list_columns(all, sizeof all, NULL);
            return err_here(f, off, err, errlen, "unknown column %s; known columns: %s", q, all);
        }
        if (f->pos[id] >= 0)
            return err_here(f, off, err, errlen, "duplicate column %s (first given at column %zu)", q,
                            char_col(f->header, f->header_off[id]));
        f->pos[id] = f->ncols;
        f->col[f->ncols++] = (pf_column)id;
        f->header_off[id] = off;
    }
    if (rc < 0) return -1;
    for (int id = PF_X; id <= PF_RADIUS; id++)
        if (f->pos[id] < 0)
            return err_at(f, f->header_line, 1, err, errlen,
                          "missing required column '%s' in the header (x, y, z "
                          "and radius are required)",
                          col_names[id]);
    /* velocities are whole vectors: a missing component is most likely a typo */
    for (int v = PF_VX; v <= PF_WX; v += 3) {
        int first = -1, missing = -1;
        for (int k = v; k < v + 3; k++) {
            if (f->pos[k] >= 0 && first < 0) first = k;
            if (f->pos[k] < 0 && missing < 0) missing = k;
        }
        if (first >= 0 && missing >= 0)
            return err_at(f, f->header_line, char_col(f->header, f->header_off[first]), err, errlen,
                          "columns %s, %s, %s go together: '%s' is missing", col_names[v], col_names[v + 1],
                          col_names[v + 2], col_names[missing]);
    }
    return 0;
}

floe_pfile *floe_pfile_open(const char *path, int *os_errno, char *err, size_t errlen) {
    *os_errno = 0;
    if (err && errlen) err[0] = 0;
    floe_pfile *f = calloc(1, sizeof *f);
    size_t plen = strlen(path);
    if (f) {
        f->cap = PF_MAX_LINE + 2; /* line + CR LF */
        f->buf = malloc(f->cap + 1);
        f->orig = malloc(f->cap + 1);
        f->path = malloc(plen + 1);
    }
    if (!f || !f->buf || !f->orig || !f->path) {
        *os_errno = ENOMEM;
        snprintf(err, errlen, "%s: out of memory", path);
        floe_pfile_close(f);
        return NULL;
    }
    memcpy(f->path, path, plen + 1);
    for (int i = 0; i < PF_NCOLS; i++) f->pos[i] = -1;
    char why[256];
    /* before opening: a FIFO would block, a device never end */
    int bad = floe_io_input_file(path, 0, why, sizeof why);
    if (bad) {
        *os_errno = bad;
        snprintf(err, errlen, "%s: cannot open: %s", path, why);
        floe_pfile_close(f);
        return NULL;
    }
    errno = 0;
    f->fp = fopen(path, "rb");
    int e = errno;
    if (f->fp) {
        /* A directory opens but cannot be read: report it like a missing file. */
        errno = 0;
        f->end = fread(f->buf, 1, f->cap, f->fp);
        if (f->end == 0 && ferror(f->fp)) {
            e = errno;
            fclose(f->fp);
            f->fp = NULL;
        }
    }
    if (!f->fp) {
        *os_errno = e ? e : EIO;
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(*os_errno));
        floe_pfile_close(f);
        return NULL;
    }
    if (read_header(f, err, errlen)) {
        floe_pfile_close(f);
        return NULL;
    }
    return f;
}

int floe_pfile_has(const floe_pfile *f, pf_column c) { return (unsigned)c < PF_NCOLS && f->pos[c] >= 0; }

long long floe_pfile_rows(const floe_pfile *f) { return f->rows; }

void floe_pfile_close(floe_pfile *f) {
    if (!f) return;
    if (f->fp) fclose(f->fp);
    free(f->buf);
    free(f->orig);
    free(f->header);
    free(f->path);
    free(f);
}

/* ---- rows ------------------------------------------------------------------------ */

/* Decimal numbers only (sy_parse_decimal, as in ASCII STL files); the YAML,
 * NumPy and Python spellings of NaN and infinity are recognised so that the
 * message says what is wrong with them. */
static int parse_number(const char *s, double *v) {
    if (!sy_parse_decimal(s, v)) return 0;
    const char *p = s + (*s == '+' || *s == '-');
    if (*p == '.' && (!strcasecmp(p, ".nan") || !strcasecmp(p, ".inf"))) p++;
    if (!strcasecmp(p, "nan")) {
        *v = NAN;
        return 0;
    }
    if (!strcasecmp(p, "inf") || !strcasecmp(p, "infinity")) {
        *v = *s == '-' ? -INFINITY : INFINITY;
        return 0;
    }
    return -1;
}

int floe_pfile_next(floe_pfile *f, pf_row *row, char *err, size_t errlen) {
    char *line;
    int rc;
    while ((rc = read_line(f, &line, err, errlen)) == 1 && is_blank_or_comment(line))
        ;
    if (rc <= 0) return rc;
    memset(row->v, 0, sizeof row->v);
    row->material = row->group = "";
    row->line = f->lineno;
    cursor c = {line, line, 0};
    char *val;
    size_t off;
    int n = 0;
    while ((rc = next_field(f, &c, &val, &off, err, errlen)) == 1) {
        if (n == f->ncols) {
            char cols[256];
            list_columns(cols, sizeof cols, f);
            return err_here(f, off, err, errlen, "too many fields: the header has %d columns (%s)", f->ncols, cols);
        }
        pf_column id = f->col[n++];
        f->row_off[id] = off;
        const char *name = col_names[id];
        if (id == PF_MATERIAL) {
            row->material = val;
            continue;
        }
        if (id == PF_GROUP) {
            row->group = val;
            continue;
        }
        double v;
        char q[160];
        if (!*val) return err_here(f, off, err, errlen, "%s: expected a number, got nothing", name);
        quote(q, sizeof q, val);
        if (parse_number(val, &v)) return err_here(f, off, err, errlen, "%s: expected a number, got %s", name, q);
        if (isnan(v)) return err_here(f, off, err, errlen, "%s: NaN is not allowed", name);
        /* coordinates and radii within the scene's limit (SY_MAX_COORD); velocities finite */
        int ok = id == PF_RADIUS ? v > 0 && v <= SY_MAX_COORD : id <= PF_Z ? fabs(v) <= SY_MAX_COORD : isfinite(v);
        if (!ok) {
            char lim[64];
            if (id == PF_RADIUS) snprintf(lim, sizeof lim, "(0, %g]", SY_MAX_COORD);
            else if (id <= PF_Z) snprintf(lim, sizeof lim, "[%g, %g]", -SY_MAX_COORD, SY_MAX_COORD);
            else snprintf(lim, sizeof lim, "(-inf, inf)");
            return err_here(f, off, err, errlen, "%s = %s is out of range %s", name, val, lim);
        }
        row->v[id] = v;
    }
    if (rc < 0) return -1;
    if (n < f->ncols)
        return err_here(f, strlen(f->orig), err, errlen, "too few fields: %d of %d, no value for column '%s'", n,
                        f->ncols, col_names[f->col[n]]);
    f->row_line = f->lineno;
    f->rows++;
    return 1;
}
