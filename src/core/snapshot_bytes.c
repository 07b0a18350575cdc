/* The snapshot in memory: a self-contained byte form of its items
 * (snapshot.h), written and read through the same visitor as restart
 * files. Meant for pickling a world from Python and for sending worlds
 * between processes of one machine type.
 *
 * Layout: "FLOESNAP", u32 format version, u32 byte-order mark 0x01020304 as
 * the writer stored it (a reader of the other byte order refuses), u64
 * item count; then per item: u16 group length, group, u16 name length,
 * name, u8 attr, u8 type, u8 rank, u8 0, u64 dims[3], u64 data bytes, data
 * (values in the writer's byte order; text: per string a u32 length and its
 * bytes). Items marked doc are left out. */
#include <floe/floe_snapshot.h> /* floe_snapshot_to_bytes, floe_snapshot_from_bytes */

#include "core/snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char magic[8] = {'F', 'L', 'O', 'E', 'S', 'N', 'A', 'P'};
enum { BOM = 0x01020304 };

/* ---- writing --------------------------------------------------------------------- */

typedef struct bw {
    floe_buf b;
    uint64_t nitems;
} bw;

static void u16(floe_buf *b, uint16_t v) { floe__buf_append(b, &v, 2); }
static void u32(floe_buf *b, uint32_t v) { floe__buf_append(b, &v, 4); }
static void u64(floe_buf *b, uint64_t v) { floe__buf_append(b, &v, 8); }

static size_t values_of(const floe_snap_item *it) {
    size_t n = 1;
    for (int k = 0; k < it->rank; k++) n *= it->dims[k];
    return n;
}

static int bw_put(void *ctx, const floe_snap_item *it) {
    bw *w = ctx;
    if (it->doc) return 0;
    size_t gl = strlen(it->group), nl = strlen(it->name);
    if (gl > 65535 || nl > 65535 || it->rank < 0 || it->rank > 3) return -1;
    u16(&w->b, (uint16_t)gl);
    floe__buf_append(&w->b, it->group, gl);
    u16(&w->b, (uint16_t)nl);
    floe__buf_append(&w->b, it->name, nl);
    uint8_t head[4] = {(uint8_t)it->attr, (uint8_t)it->type, (uint8_t)it->rank, 0};
    floe__buf_append(&w->b, head, 4);
    for (int k = 0; k < 3; k++) u64(&w->b, k < it->rank ? it->dims[k] : 0);
    size_t n = values_of(it);
    if (it->type == FLOE_SNAP_STR) {
        const char *const *s = it->rank ? (const char *const *)it->data : (const char *const *)&it->data;
        uint64_t bytes = 0;
        for (size_t i = 0; i < n; i++) bytes += 4 + strlen(s[i]);
        u64(&w->b, bytes);
        for (size_t i = 0; i < n; i++) {
            size_t len = strlen(s[i]);
            u32(&w->b, (uint32_t)len);
            floe__buf_append(&w->b, s[i], len);
        }
    } else {
        size_t bytes = n * floe__snap_type_size(it->type);
        u64(&w->b, bytes);
        if (bytes) floe__buf_append(&w->b, it->data, bytes);
    }
    w->nitems++;
    return w->b.bad ? -1 : 0;
}

int floe_snapshot_to_bytes(const floe_world *w, unsigned char **bytes, size_t *len, char *err, size_t errlen) {
    bw b;
    memset(&b, 0, sizeof b);
    floe__buf_append(&b.b, magic, 8);
    u32(&b.b, FLOE_SNAPSHOT_FORMAT);
    u32(&b.b, BOM);
    u64(&b.b, 0); /* the item count, set at the end */
    floe_snap_writer wr = {&b, bw_put};
    *bytes = NULL;
    *len = 0;
    if (floe_snapshot_write(w, &wr, err, errlen) != 0 || b.b.bad) {
        if (b.b.bad && err && errlen) snprintf(err, errlen, "out of memory writing the snapshot");
        floe__buf_free(&b.b);
        return -1;
    }
    memcpy(b.b.s + 16, &b.nitems, 8);
    *bytes = (unsigned char *)b.b.s;
    *len = b.b.len;
    return 0;
}

/* ---- reading ---------------------------------------------------------------------- */

typedef struct entry {
    const char *group, *name;
    size_t glen, nlen;
    int attr, type, rank;
    size_t dims[3], n; /* n values */
    const unsigned char *data;
    size_t bytes;
} entry;

typedef struct br {
    entry *e;
    size_t n;
} br;

static int take(const unsigned char **p, const unsigned char *end, void *dst, size_t n) {
    if ((size_t)(end - *p) < n) return -1;
    memcpy(dst, *p, n);
    *p += n;
    return 0;
}

/* Parses the items; NULL with err on a damaged or foreign buffer. */
static int parse(br *r, const unsigned char *bytes, size_t len, char *err, size_t errlen) {
    const unsigned char *p = bytes, *end = bytes + len;
    char m[8];
    uint32_t ver = 0, bom = 0;
    uint64_t n = 0;
    if (take(&p, end, m, 8) || memcmp(m, magic, 8) || take(&p, end, &ver, 4) || take(&p, end, &bom, 4) ||
        take(&p, end, &n, 8)) {
        snprintf(err, errlen, "not a floe snapshot (no header)");
        return -1;
    }
    if (bom != BOM) {
        snprintf(err, errlen, "the snapshot was written on a machine of the other byte order");
        return -1;
    }
    if (ver != FLOE_SNAPSHOT_FORMAT) {
        snprintf(err, errlen, "snapshot format version %u: this floe (%s) reads version %d only", ver, FLOE_VERSION,
                 FLOE_SNAPSHOT_FORMAT);
        return -1;
    }
    if (n > len / 24) { /* every item takes at least 24 bytes */
        snprintf(err, errlen, "damaged snapshot: %llu items in %zu bytes", (unsigned long long)n, len);
        return -1;
    }
    r->e = calloc((size_t)n + 1, sizeof *r->e);
    if (!r->e) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (r->n = 0; r->n < n; r->n++) {
        entry *e = &r->e[r->n];
        uint16_t gl, nl;
        uint8_t head[4];
        uint64_t d[3], nbytes;
        int bad = take(&p, end, &gl, 2) || (size_t)(end - p) < gl;
        if (!bad) e->group = (const char *)p, e->glen = gl, p += gl;
        bad = bad || take(&p, end, &nl, 2) || (size_t)(end - p) < nl;
        if (!bad) e->name = (const char *)p, e->nlen = nl, p += nl;
        bad = bad || take(&p, end, head, 4) || take(&p, end, d, 24) || take(&p, end, &nbytes, 8) ||
              (uint64_t)(end - p) < nbytes || head[1] >= FLOE_SNAP_NTYPES || head[2] > 3;
        size_t nv = 1;
        for (int k = 0; !bad && k < head[2]; k++) {
            if (d[k] > len || (nv && d[k] > len / nv)) bad = 1; /* more values than bytes */
            else nv *= (size_t)d[k];
        }
        if (!bad && head[1] != FLOE_SNAP_STR && nv * floe__snap_type_size(head[1]) != nbytes) bad = 1;
        if (bad) {
            snprintf(err, errlen, "damaged snapshot: item %zu", r->n);
            return -1;
        }
        e->attr = head[0];
        e->type = head[1];
        e->rank = head[2];
        for (int k = 0; k < 3; k++) e->dims[k] = (size_t)d[k];
        e->n = nv;
        e->data = p;
        e->bytes = (size_t)nbytes;
        p += nbytes;
    }
    return 0;
}

static const entry *lookup(const br *r, const char *group, const char *name, int attr) {
    size_t gl = strlen(group), nl = strlen(name);
    for (size_t i = 0; i < r->n; i++) {
        const entry *e = &r->e[i];
        if (e->attr == attr && e->glen == gl && e->nlen == nl && !memcmp(e->group, group, gl) &&
            !memcmp(e->name, name, nl))
            return e;
    }
    return NULL;
}

static int br_has_group(void *ctx, const char *group) {
    const br *r = ctx;
    size_t gl = strlen(group);
    for (size_t i = 0; i < r->n; i++)
        if (r->e[i].glen >= gl && !memcmp(r->e[i].group, group, gl) && (r->e[i].glen == gl || r->e[i].group[gl] == '/'))
            return 1;
    return 0;
}

static int br_find(void *ctx, const char *group, const char *name, int attr, floe_snap_found *f) {
    const entry *e = lookup(ctx, group, name, attr);
    if (!e) return 0;
    f->klass = e->type == FLOE_SNAP_F64 ? 'f' : e->type == FLOE_SNAP_STR ? 's' : 'i';
    f->rank = e->rank;
    for (int k = 0; k < 3; k++) f->dims[k] = e->dims[k];
    return 1;
}

static int br_read(void *ctx, const char *group, const char *name, int attr, floe_snap_type t, void *dst) {
    const entry *e = lookup(ctx, group, name, attr);
    if (!e || e->type == FLOE_SNAP_STR || (t == FLOE_SNAP_F64) != (e->type == FLOE_SNAP_F64)) return -1;
    if ((floe_snap_type)e->type == t) {
        memcpy(dst, e->data, e->bytes);
        return 0;
    }
    /* widened to t: every integer type to I64; raw bytes (U8) from a wider
     * type are cut, as HDF5 would (the model state's check sees them) */
#define WIDEN(T)                                                  \
    for (size_t i = 0; i < e->n; i++) {                           \
        T x;                                                      \
        memcpy(&x, e->data + i * sizeof x, sizeof x);             \
        if (t == FLOE_SNAP_I64) ((int64_t *)dst)[i] = (int64_t)x; \
        else ((uint8_t *)dst)[i] = (uint8_t)x;                    \
    }
    switch (e->type) {
        case FLOE_SNAP_I64:
            WIDEN(int64_t);
            break;
        case FLOE_SNAP_I32:
            WIDEN(int32_t);
            break;
        case FLOE_SNAP_U32:
            WIDEN(uint32_t);
            break;
        case FLOE_SNAP_U16:
            WIDEN(uint16_t);
            break;
        default:
            WIDEN(uint8_t);
    }
#undef WIDEN
    return 0;
}

static char **br_read_strings(void *ctx, const char *group, const char *name, int attr, size_t n) {
    const entry *e = lookup(ctx, group, name, attr);
    if (!e || e->type != FLOE_SNAP_STR || e->n != n) return NULL;
    char **out = malloc(sizeof *out * (n + 1) + e->bytes + n + 1);
    if (!out) return NULL;
    char *text = (char *)(out + n + 1);
    const unsigned char *p = e->data, *end = e->data + e->bytes;
    for (size_t i = 0; i < n; i++) {
        uint32_t len;
        if (take(&p, end, &len, 4) || (size_t)(end - p) < len) {
            free(out);
            return NULL;
        }
        memcpy(text, p, len);
        text[len] = 0;
        out[i] = text;
        text += len + 1;
        p += len;
    }
    return out;
}

floe_world *floe_snapshot_from_bytes(const unsigned char *bytes, size_t len, char *err, size_t errlen) {
    br r = {0};
    char tmp[1];
    if (!err || !errlen) err = tmp, errlen = sizeof tmp;
    floe_world *w = NULL;
    if (parse(&r, bytes, len, err, errlen) == 0) {
        floe_snap_reader rd = {&r, br_has_group, br_find, br_read, br_read_strings};
        w = floe_snapshot_read(&rd, err, errlen, NULL);
    }
    free(r.e);
    return w;
}
