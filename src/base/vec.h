/* Small inline 3-vector and quaternion algebra (double precision). */
#ifndef FLOE_BASE_VEC_H
#define FLOE_BASE_VEC_H

#include <math.h>
#include <floe/floe.h>

#define FLOE_PI 3.14159265358979323846

/* Functions the batched contact loops call: always inlined, since a call
 * left in a loop stops it from being vectorized. */
#define FLOE_KERNEL static inline __attribute__((always_inline))

/* A function whose loops copy contact records into lanes, one lane at a
 * time. GCC (12, -march=native on AMD Zen) turned the Ice kernel's copy
 * into AVX-512 gathers through the lanes' record pointers, which took a
 * third of the bonded sheet's step; with the scalar copy the sheet takes
 * 0.817 of its time (docs/performance.md, item 32). Other compilers: as
 * they see fit. */
#if defined(__GNUC__) && !defined(__clang__)
#define FLOE_GATHER_LANES static __attribute__((noinline, optimize("no-tree-vectorize")))
#else
#define FLOE_GATHER_LANES static __attribute__((noinline))
#endif

typedef floe_vec3 vec3;
typedef floe_quat quat;

static inline vec3 v3(double x, double y, double z) { return (vec3){x, y, z}; }
static inline vec3 vadd(vec3 a, vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline vec3 vsub(vec3 a, vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline vec3 vscale(vec3 a, double s) { return v3(a.x * s, a.y * s, a.z * s); }
static inline vec3 vneg(vec3 a) { return v3(-a.x, -a.y, -a.z); }
static inline vec3 vmul(vec3 a, vec3 b) { return v3(a.x * b.x, a.y * b.y, a.z * b.z); }
static inline vec3 vmadd(vec3 a, vec3 b, double s) { return v3(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s); }
static inline double vdot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline vec3 vcross(vec3 a, vec3 b) {
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double vlen2(vec3 a) { return vdot(a, a); }
static inline double vlen(vec3 a) { return sqrt(vdot(a, a)); }
static inline vec3 vnormalize(vec3 a) {
    double l = vlen(a);
    return l > 0 ? vscale(a, 1.0 / l) : a;
}
/* The unit vector along a, scaled by its largest component first so that
 * neither the length of a huge vector overflows nor that of a tiny one
 * underflows; zero for a zero or non-finite a. */
static inline vec3 vdirection(vec3 a) {
    double big = fmax(fabs(a.x), fmax(fabs(a.y), fabs(a.z)));
    if (!(big > 0) || !isfinite(big)) return v3(0, 0, 0);
    return vnormalize(vscale(a, 1.0 / big));
}
static inline double vcomp(vec3 a, int i) { return i == 0 ? a.x : (i == 1 ? a.y : a.z); }
static inline void vset(vec3 *a, int i, double s) {
    if (i == 0) a->x = s;
    else if (i == 1) a->y = s;
    else a->z = s;
}
/* 1 if no component is NaN or infinite (inf * 0 and NaN * 0 are NaN). */
static inline int visfinite(vec3 a) {
    double z = a.x * 0.0 + a.y * 0.0 + a.z * 0.0;
    return z == z;
}

static inline quat qidentity(void) { return (quat){1, 0, 0, 0}; }
static inline quat qmul(quat a, quat b) {
    return (quat){a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                  a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}
static inline quat qconj(quat q) { return (quat){q.w, -q.x, -q.y, -q.z}; }
static inline quat qnormalize(quat q) {
    double l = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z), s = 1.0 / l;
    return l > 0 ? (quat){q.w * s, q.x * s, q.y * s, q.z * s} : qidentity();
}
/* Rotates v by unit quaternion q. */
static inline vec3 qrotate(quat q, vec3 v) {
    vec3 u = v3(q.x, q.y, q.z);
    vec3 t = vscale(vcross(u, v), 2.0);
    return vadd(vadd(v, vscale(t, q.w)), vcross(u, t));
}
/* Rotation by angle |w|*dt about w. Small angles (every DEM step, nearly)
 * use the series of cos(a/2) and sin(a/2)/a to machine precision, without
 * the cost of sin and cos. */
static inline quat qfrom_rotvec(vec3 w, double dt) {
    double a2 = vlen2(w) * dt * dt, c, s; /* s: sin(a/2) / |w| */
    if (a2 < 1e-4) {
        /* products with the reciprocals, not divisions (a division takes
         * as long as a dozen products): they change a term of at most 1e-6
         * relative by an ulp of its own, below the ulp of c and s */
        c = 1 - a2 * (1.0 / 8) * (1 - a2 * (1.0 / 48) * (1 - a2 * (1.0 / 120)));
        s = 0.5 * dt * (1 - a2 * (1.0 / 24) * (1 - a2 * (1.0 / 80) * (1 - a2 * (1.0 / 168))));
    } else {
        double a = sqrt(a2);
        c = cos(0.5 * a);
        s = sin(0.5 * a) / (a / dt);
    }
    return (quat){c, w.x * s, w.y * s, w.z * s};
}

#endif
