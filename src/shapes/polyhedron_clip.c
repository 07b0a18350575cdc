/* Convex polytopes as loops of points, clipped by half-spaces: what the
 * volume-based contacts of polyhedra measure (docs/geometry.md,
 * "Polyhedra"). Each face is clipped alone (Sutherland-Hodgman); the cut
 * face is the convex hull, in the plane, of the points where edges cross it,
 * so that points repeated by neighbouring faces do no harm. */
#include "shapes/polyhedron_clip.h"

#include <string.h>

void floe_polyhedron_face_plane(const floe_polyhedron *p, int f, vec3 *n, double *d) {
    /* Newell's normal of the loop: exact for planar loops, robust for thin ones */
    vec3 s = v3(0, 0, 0), c = v3(0, 0, 0);
    int a = p->start[f], b = p->start[f + 1];
    for (int k = a; k < b; k++) {
        vec3 u = p->v[p->corner[k]], w = p->v[p->corner[k + 1 < b ? k + 1 : a]];
        s = vadd(s, vcross(u, w));
        c = vadd(c, u);
    }
    *n = vnormalize(s);
    *d = vdot(*n, c) / (b - a);
}

void floe_clip_from_poly(floe_clip *c, const floe_polyhedron *p, const floe_pose *pose, vec3 o, int tag) {
    vec3 x = vsub(pose->x, o);
    c->nf = c->np = c->overflow = 0;
    for (int f = 0; f < p->nf; f++) {
        c->start[c->nf] = c->np;
        c->tag[c->nf++] = tag;
        for (int k = p->start[f]; k < p->start[f + 1]; k++)
            c->pt[c->np++] = vadd(x, qrotate(pose->q, p->v[p->corner[k]]));
    }
    c->start[c->nf] = c->np;
}

/* 2D convex hull (Andrew's monotone chain) of m points, counterclockwise;
 * returns the hull's size, its points' indices in idx. */
static int hull2(int m, const double *u, const double *w, int *idx) {
    int ord[FLOE_CLIP_MAXP];
    for (int i = 0; i < m; i++) ord[i] = i;
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0; j--) {
            int a = ord[j - 1], b = ord[j];
            if (u[a] < u[b] || (u[a] == u[b] && w[a] <= w[b])) break;
            ord[j - 1] = b;
            ord[j] = a;
        }
    int h = 0;
#define CROSS(o, a, b) ((u[a] - u[o]) * (w[b] - w[o]) - (w[a] - w[o]) * (u[b] - u[o]))
    for (int i = 0; i < m; i++) {
        while (h >= 2 && CROSS(idx[h - 2], idx[h - 1], ord[i]) <= 0) h--;
        idx[h++] = ord[i];
    }
    for (int i = m - 2, lo = h + 1; i >= 0; i--) {
        while (h >= lo && CROSS(idx[h - 2], idx[h - 1], ord[i]) <= 0) h--;
        idx[h++] = ord[i];
    }
#undef CROSS
    return h > 1 ? h - 1 : h;
}

void floe_clip_plane(floe_clip *c, vec3 n, double d, int tag) {
    int out = 0;
    for (int k = 0; k < c->np && !out; k++) out = vdot(n, c->pt[k]) > d;
    if (!out || c->nf == 0) return; /* all inside: nothing to cut */
    static _Thread_local floe_clip r;
    static _Thread_local vec3 cut[FLOE_CLIP_MAXP];
    int ncut = 0;
    r.nf = r.np = 0;
    r.overflow = c->overflow;
    for (int f = 0; f < c->nf; f++) {
        int a = c->start[f], b = c->start[f + 1], first = r.np;
        for (int k = a; k < b; k++) {
            vec3 p = c->pt[k], q = c->pt[k + 1 < b ? k + 1 : a];
            double dp = vdot(n, p) - d, dq = vdot(n, q) - d;
            if (r.np + 2 > FLOE_CLIP_MAXP || ncut + 2 > FLOE_CLIP_MAXP) {
                r.overflow = 1;
                break;
            }
            if (dp <= 0) r.pt[r.np++] = p;
            if (dp == 0) cut[ncut++] = p;
            if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) {
                vec3 x = vmadd(p, vsub(q, p), dp / (dp - dq));
                r.pt[r.np++] = x;
                cut[ncut++] = x;
            }
        }
        if (r.np - first >= 3 && r.nf < FLOE_CLIP_MAXF) {
            r.start[r.nf] = first;
            r.tag[r.nf++] = c->tag[f];
        } else {
            r.np = first;
        }
    }
    if (ncut >= 3 && r.nf < FLOE_CLIP_MAXF) {
        /* the cut face: counterclockwise about n, its outward normal */
        vec3 u = fabs(n.x) < 0.6 ? vnormalize(vcross(n, v3(1, 0, 0))) : vnormalize(vcross(n, v3(0, 1, 0)));
        vec3 w = vcross(n, u);
        static _Thread_local double cu[FLOE_CLIP_MAXP], cw[FLOE_CLIP_MAXP];
        static _Thread_local int idx[FLOE_CLIP_MAXP + 1];
        for (int k = 0; k < ncut; k++) {
            cu[k] = vdot(cut[k], u);
            cw[k] = vdot(cut[k], w);
        }
        int h = hull2(ncut, cu, cw, idx);
        if (h >= 3 && r.np + h <= FLOE_CLIP_MAXP) {
            r.start[r.nf] = r.np;
            r.tag[r.nf++] = tag;
            for (int k = 0; k < h; k++) r.pt[r.np++] = cut[idx[k]];
        }
    }
    r.start[r.nf] = r.np;
    if (r.nf < 4) r.nf = r.np = 0; /* nothing left with a volume */
    c->nf = r.nf;
    c->np = r.np;
    c->overflow = r.overflow;
    memcpy(c->start, r.start, sizeof(int) * (size_t)(r.nf + 1));
    memcpy(c->tag, r.tag, sizeof(int) * (size_t)r.nf);
    memcpy(c->pt, r.pt, sizeof(vec3) * (size_t)r.np);
}

void floe_clip_measure(const floe_clip *c, int tag, double *vol, vec3 *centroid, vec3 *area, vec3 *area_centroid) {
    double V6 = 0, at = 0;
    vec3 g = v3(0, 0, 0), S = v3(0, 0, 0), ac = v3(0, 0, 0);
    vec3 r = c->np ? c->pt[0] : v3(0, 0, 0);
    for (int f = 0; f < c->nf; f++) {
        int a0 = c->start[f], b0 = c->start[f + 1];
        vec3 a = vsub(c->pt[a0], r);
        for (int k = a0 + 1; k + 1 < b0; k++) {
            vec3 b = vsub(c->pt[k], r), d = vsub(c->pt[k + 1], r);
            double v6 = vdot(a, vcross(b, d));
            V6 += v6;
            g = vmadd(g, vadd(a, vadd(b, d)), v6 / 4);
            if (c->tag[f] == tag) {
                vec3 s = vscale(vcross(vsub(b, a), vsub(d, a)), 0.5);
                double sa = vlen(s);
                S = vadd(S, s);
                at += sa;
                ac = vmadd(ac, vadd(a, vadd(b, d)), sa / 3);
            }
        }
    }
    *vol = V6 / 6;
    *centroid = V6 > 0 ? vadd(r, vscale(g, 1 / V6)) : r;
    *area = S;
    *area_centroid = at > 0 ? vadd(r, vscale(ac, 1 / at)) : r;
}

double floe_poly_box_volume(const floe_polyhedron *p, const floe_pose *pose, vec3 lo, vec3 hi) {
    static _Thread_local floe_clip k;
    vec3 o = pose->x;
    floe_clip_from_poly(&k, p, pose, o, 0);
    for (int a = 0; a < 3 && k.nf; a++) {
        vec3 e = v3(a == 0, a == 1, a == 2);
        floe_clip_plane(&k, e, vcomp(hi, a) - vcomp(o, a), 1);
        if (k.nf) floe_clip_plane(&k, vneg(e), vcomp(o, a) - vcomp(lo, a), 1);
    }
    if (!k.nf) return 0;
    double V;
    vec3 c, S, ac;
    floe_clip_measure(&k, 1, &V, &c, &S, &ac);
    return V > 0 ? V : 0;
}

vec3 floe_clip_moment(const floe_clip *c, int tag) {
    vec3 m = v3(0, 0, 0);
    for (int f = 0; f < c->nf; f++) {
        if (c->tag[f] != tag) continue;
        int a0 = c->start[f], b0 = c->start[f + 1];
        vec3 a = c->pt[a0];
        for (int k = a0 + 1; k + 1 < b0; k++) {
            vec3 b = c->pt[k], d = c->pt[k + 1];
            vec3 s = vscale(vcross(vsub(b, a), vsub(d, a)), 0.5), g = vscale(vadd(a, vadd(b, d)), 1.0 / 3);
            m = vadd(m, vcross(g, s));
        }
    }
    return m;
}
