/* Particle tables: spheres read from a CSV file (scene key particles[i].file,
 * docs/scene-format.md "Particles from a file").
 *
 * The file is streamed: only one line is in memory at a time, so a table of
 * millions of spheres costs a fixed 64 KiB buffer. The first line that is not
 * blank or a comment ('#' as first non-blank character) is the header naming
 * the columns; x, y, z and radius are required. Every number is checked
 * (finite; radius in (0, inf)) and every error names the file, line and
 * column: "path:line:col: message" (1-based, columns counted in characters).
 * Names (material, group) are returned as text: the caller resolves them and
 * reports unknown ones with floe_pfile_error. */
#ifndef FLOE_IO_PARTICLE_FILE_H
#define FLOE_IO_PARTICLE_FILE_H

#include <stddef.h>

typedef enum pf_column {
    PF_X,
    PF_Y,
    PF_Z,
    PF_RADIUS, /* required */
    PF_VX,
    PF_VY,
    PF_VZ, /* initial velocity; the three go together */
    PF_WX,
    PF_WY,
    PF_WZ,       /* initial angular velocity; the three go together */
    PF_MATERIAL, /* material name; empty: the caller's default */
    PF_GROUP,    /* group names separated by ';'; empty: the caller's default */
    PF_NCOLS
} pf_column;

#define PF_NNUM 10 /* numeric columns: PF_X .. PF_WZ */

/* Longest line accepted, in bytes (without the line break). */
#define PF_MAX_LINE 65536

typedef struct pf_row {
    double v[PF_NNUM];    /* numeric columns; 0 for those not in the header */
    const char *material; /* material field, "" if empty or no such column */
    const char *group;    /* group field, "" if empty or no such column */
    size_t line;          /* 1-based line of the row in the file */
} pf_row;

typedef struct floe_pfile floe_pfile;

/* Opens `path` and reads its header. On failure returns NULL with a message
 * in err: if the file cannot be opened or read, *os_errno is set (non-zero)
 * and err is "path: cannot open: <strerror>"; otherwise *os_errno is 0 and
 * err is "path:line:col: message" (bad header). */
floe_pfile *floe_pfile_open(const char *path, int *os_errno, char *err, size_t errlen);
/* 1 if the header has column c. */
int floe_pfile_has(const floe_pfile *f, pf_column c);
/* Next data row: 1 with *row filled (its strings stay valid until the next
 * call), 0 at the end of the file, -1 on error (message in err). */
int floe_pfile_next(floe_pfile *f, pf_row *row, char *err, size_t errlen);
/* Formats "path:line:col: message" at column c of the last row returned
 * (its first character; the header if c is not in the file). Returns -1. */
int floe_pfile_error(const floe_pfile *f, pf_column c, char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* Data rows read so far. */
long long floe_pfile_rows(const floe_pfile *f);
void floe_pfile_close(floe_pfile *f);

#endif
