/* A test-side reader for the VTK XML files floe writes (src/io/vtk.c):
 * .vtu/.vtp with every array in one raw appended block, each block behind
 * a UInt64 byte count. It reads the XML part (piece counts, each DataArray's
 * name, type, section, components and offset) and leaves the appended data
 * in place; vtk_read also validates the file, vtk_parse only parses it.
 * The caller frees v->buf. */
#ifndef FLOE_TEST_VTK_READ_H
#define FLOE_TEST_VTK_READ_H

#include "check.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { VTK_MAX_ARRAYS = 64 };

typedef struct vtk_arr {
    char name[96], type[16], section[16];
    int ncomp;
    long tuples; /* FieldData only */
    uint64_t offset;
} vtk_arr;

typedef struct vtk_file {
    char *buf;
    size_t len;
    long points, cells, lines, polys; /* -1 where the piece does not say */
    vtk_arr arr[VTK_MAX_ARRAYS];
    int narr;
    const unsigned char *app; /* first byte after '_' */
} vtk_file;

static inline long attr_long(const char *s, const char *key) {
    char pat[64];
    snprintf(pat, sizeof pat, " %s=\"", key);
    const char *p = strstr(s, pat);
    return p ? strtol(p + strlen(pat), NULL, 10) : -1;
}

static inline void attr_str(const char *s, const char *key, char *out, size_t cap) {
    char pat[64];
    snprintf(pat, sizeof pat, " %s=\"", key);
    const char *p = strstr(s, pat);
    out[0] = '\0';
    if (!p) return;
    p += strlen(pat);
    size_t i = 0;
    while (p[i] && p[i] != '"' && i + 1 < cap) {
        out[i] = p[i];
        i++;
    }
    out[i] = '\0';
}

static inline size_t type_size(const char *t) {
    if (!strcmp(t, "Float64") || !strcmp(t, "Int64") || !strcmp(t, "UInt64")) return 8;
    if (!strcmp(t, "Int32") || !strcmp(t, "UInt32") || !strcmp(t, "Float32")) return 4;
    if (!strcmp(t, "UInt8") || !strcmp(t, "Int8")) return 1;
    return 0;
}

static inline int by_offset(const void *a, const void *b) {
    uint64_t x = ((const vtk_arr *)a)->offset, y = ((const vtk_arr *)b)->offset;
    return x < y ? -1 : x > y;
}

/* Cells of a section: a PolyData piece's Lines and Polys count apart. */
static inline long section_cells(const vtk_file *v, const char *section, long ncell) {
    if (!strcmp(section, "Lines") && v->lines >= 0) return v->lines;
    if (!strcmp(section, "Polys") && v->polys >= 0) return v->polys;
    return ncell;
}

/* Every block's UInt64 byte count against the declared shape; the blocks,
 * in offset order (v->arr is sorted so), must tile the appended data exactly. */
static inline int vtk_check_blocks(const char *path, vtk_file *v) {
    qsort(v->arr, (size_t)v->narr, sizeof v->arr[0], by_offset);
    long ncell = v->cells >= 0 ? v->cells : (v->lines > 0 ? v->lines : 0) + (v->polys > 0 ? v->polys : 0);
    uint64_t expect_off = 0;
    int bad = 0;
    for (int i = 0; i < v->narr; i++) {
        const vtk_arr *a = &v->arr[i];
        uint64_t nbytes;
        if (v->app + a->offset + 8 > (const unsigned char *)v->buf + v->len) return -1;
        memcpy(&nbytes, v->app + a->offset, 8);
        long tuples;
        if (!strcmp(a->section, "FieldData")) tuples = a->tuples;
        else if (!strcmp(a->section, "PointData") || !strcmp(a->section, "Points")) tuples = v->points;
        else if (!strcmp(a->section, "CellData")) tuples = ncell;
        else if (!strcmp(a->name, "connectivity")) {
            /* its length is the last offset of its section (Cells, Lines or Polys) */
            const vtk_arr *off = NULL;
            for (int j = 0; j < v->narr; j++)
                if (!strcmp(v->arr[j].name, "offsets") && !strcmp(v->arr[j].section, a->section)) off = &v->arr[j];
            long nsec = section_cells(v, a->section, ncell);
            tuples = 0;
            if (off && nsec > 0) {
                int64_t last;
                memcpy(&last, v->app + off->offset + 8 + 8 * (uint64_t)(nsec - 1), 8);
                tuples = (long)last;
            }
        } else tuples = section_cells(v, a->section, ncell);
        uint64_t want = (uint64_t)tuples * (uint64_t)a->ncomp * type_size(a->type);
        if (nbytes != want || a->offset != expect_off || type_size(a->type) == 0) {
            fprintf(stderr, "%s: array %s: %" PRIu64 " bytes at %" PRIu64 ", expected %" PRIu64 " at %" PRIu64 "\n",
                    path, a->name, nbytes, a->offset, want, expect_off);
            bad = 1;
        }
        expect_off = a->offset + 8 + nbytes;
    }
    const char *tail = (const char *)v->app + expect_off;
    if (tail > v->buf + v->len || strcmp(tail, "\n  </AppendedData>\n</VTKFile>\n") != 0) {
        fprintf(stderr, "%s: appended data does not end where the blocks do\n", path);
        bad = 1;
    }
    return bad ? -1 : 0;
}

/* Reads `path` and parses the XML up to the appended data. With `validate`,
 * also CHECKs the header and that every array is appended, then checks the
 * blocks (vtk_check_blocks). Returns 0, or -1 if unreadable or invalid. */
static inline int vtk_load(const char *path, vtk_file *v, int validate) {
    memset(v, 0, sizeof *v);
    v->buf = check_slurp(path, &v->len);
    if (!v->buf) {
        fprintf(stderr, "cannot read %s\n", path);
        return -1;
    }
    char *app = strstr(v->buf, "<AppendedData encoding=\"raw\">");
    if (!app) return -1;
    char *us = strchr(app, '_');
    if (!us) return -1;
    v->app = (const unsigned char *)us + 1;
    *app = '\0'; /* the XML part is now a string */
    if (validate) {
        CHECK(strncmp(v->buf, "<?xml version=\"1.0\"?>\n<VTKFile ", 30) == 0);
        CHECK(strstr(v->buf, "header_type=\"UInt64\"") != NULL);
        CHECK(strstr(v->buf, "byte_order=\"LittleEndian\"") || strstr(v->buf, "byte_order=\"BigEndian\""));
    }
    char *piece = strstr(v->buf, "<Piece ");
    if (!piece) return -1;
    v->points = attr_long(piece, "NumberOfPoints");
    v->cells = attr_long(piece, "NumberOfCells");
    v->lines = attr_long(piece, "NumberOfLines");
    v->polys = attr_long(piece, "NumberOfPolys");
    char section[16] = "";
    for (char *line = v->buf; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        const char *t = line;
        while (*t == ' ') t++;
        static const char *const secs[] = {"FieldData", "PointData", "CellData", "Points", "Cells", "Lines", "Polys"};
        for (int s = 0; s < 7; s++) {
            size_t n = strlen(secs[s]);
            if (t[0] == '<' && !strncmp(t + 1, secs[s], n) && (t[n + 1] == '>' || t[n + 1] == ' '))
                snprintf(section, sizeof section, "%s", secs[s]);
        }
        if (!strncmp(t, "<DataArray ", 11) && v->narr < VTK_MAX_ARRAYS) {
            vtk_arr *a = &v->arr[v->narr++];
            attr_str(t, "Name", a->name, sizeof a->name);
            attr_str(t, "type", a->type, sizeof a->type);
            snprintf(a->section, sizeof a->section, "%s", section);
            a->ncomp = (int)attr_long(t, "NumberOfComponents");
            a->tuples = attr_long(t, "NumberOfTuples");
            a->offset = (uint64_t)attr_long(t, "offset");
            if (validate) CHECK(strstr(t, "format=\"appended\"") != NULL);
        }
        if (nl) *nl = '\n';
        line = nl ? nl + 1 : NULL;
    }
    *app = '<';
    return validate ? vtk_check_blocks(path, v) : 0;
}

/* Parsed and validated. */
static inline int vtk_read(const char *path, vtk_file *v) { return vtk_load(path, v, 1); }

/* Parsed only. */
static inline int vtk_parse(const char *path, vtk_file *v) { return vtk_load(path, v, 0); }

/* The first array called `name`, in any section. */
static inline const vtk_arr *vtk_find(const vtk_file *v, const char *name) {
    for (int i = 0; i < v->narr; i++)
        if (!strcmp(v->arr[i].name, name)) return &v->arr[i];
    return NULL;
}

/* The first array called `name` in `section` ("PointData", "Points", ...). */
static inline const vtk_arr *vtk_find_in(const vtk_file *v, const char *section, const char *name) {
    for (int i = 0; i < v->narr; i++)
        if (!strcmp(v->arr[i].name, name) && !strcmp(v->arr[i].section, section)) return &v->arr[i];
    return NULL;
}

/* Value i of a Float64 array. */
static inline double vtk_f64(const vtk_file *v, const vtk_arr *a, size_t i) {
    double x;
    memcpy(&x, v->app + a->offset + 8 + 8 * i, 8);
    return x;
}

/* Data of array a (NULL if a is): its byte count must match n tuples of
 * `size` bytes each, else NULL. */
static inline const unsigned char *vtk_block(const vtk_file *v, const vtk_arr *a, uint64_t n, size_t size) {
    if (!a) return NULL;
    uint64_t nbytes;
    memcpy(&nbytes, v->app + a->offset, 8);
    if (nbytes != n * (uint64_t)a->ncomp * size) return NULL;
    return v->app + a->offset + 8;
}

#endif
