/* STL meshes placed for a world: the triangles of a file scaled, translated,
 * checked and reduced to the usable ones, with the area-weighted centroid
 * that is the mesh body's reference point. The scene loader's `meshes`
 * section and programs (floe_mesh_read in floe_io.h) share this code. */
#include <floe/floe_io.h> /* floe_mesh_read and floe_mesh_free are public */
#include "base/vec.h"
#include "io/io_err.h"
#include "io/scene_yaml.h"   /* SY_MAX_COORD: the scene's limit on coordinates holds for meshes of programs too */
#include <floe/floe_shape.h> /* floe_triangle_area2: the scenes' test of a triangle */
#include "io/stl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int in_bounds(floe_vec3 v) {
    return fabs(v.x) <= SY_MAX_COORD && fabs(v.y) <= SY_MAX_COORD && fabs(v.z) <= SY_MAX_COORD;
}

void floe_mesh_free(floe_mesh *m) {
    if (!m) return;
    free(m->v);
    memset(m, 0, sizeof *m);
}

int floe_mesh_read(const char *path, const char *name, floe_vec3 scale, floe_vec3 translate, int skip_degenerate,
                   floe_mesh *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (!path) return floe_io_err(err, errlen, "floe_mesh_read: no path (NULL)");
    if (!name) name = path;
    const double sc[3] = {scale.x, scale.y, scale.z}, tr[3] = {translate.x, translate.y, translate.z};
    for (int k = 0; k < 3; k++) {
        if (!(sc[k] > 0 && sc[k] <= SY_MAX_COORD))
            return floe_io_err(err, errlen, "scale: every component must be in (0, %g] (got %g)", SY_MAX_COORD, sc[k]);
        if (!(fabs(tr[k]) <= SY_MAX_COORD))
            return floe_io_err(err, errlen, "translate: every component must be finite and at most %g m (got %g)",
                               SY_MAX_COORD, tr[k]);
    }
    floe_stl s;
    if (floe_stl_read(path, &s, err, errlen)) return -1;
    out->v = malloc(sizeof *out->v * 3 * (s.n_tri ? s.n_tri : 1));
    if (!out->v) {
        floe_stl_free(&s);
        return floe_io_err(err, errlen, "%s: out of memory", name);
    }
    floe_vec3 sum = {0, 0, 0};
    double area = 0;
    for (size_t t = 0; t < s.n_tri; t++) {
        floe_vec3 v[3];
        for (int k = 0; k < 3; k++) {
            floe_vec3 a = s.v[3 * t + (size_t)k];
            v[k] = (floe_vec3){a.x * scale.x + translate.x, a.y * scale.y + translate.y, a.z * scale.z + translate.z};
            if (!in_bounds(v[k])) {
                floe_io_err(err, errlen,
                            "vertex %d of triangle %zu of '%s' lies at (%g, %g, %g) after scale and translate, "
                            "beyond the limit of %g m on coordinates",
                            k, t, name, v[k].x, v[k].y, v[k].z, SY_MAX_COORD);
                goto fail;
            }
        }
        double a = floe_triangle_area2(v);
        if (!(a > 0)) {
            if (skip_degenerate) {
                out->skipped++;
                continue;
            }
            floe_io_err(err, errlen,
                        "triangle %zu of '%s' is degenerate (zero area); fix the mesh or set skip_degenerate: true", t,
                        name);
            goto fail;
        }
        memcpy(&out->v[3 * out->n], v, sizeof v);
        out->n++;
        sum.x += a * (v[0].x + v[1].x + v[2].x) / 3;
        sum.y += a * (v[0].y + v[1].y + v[2].y) / 3;
        sum.z += a * (v[0].z + v[1].z + v[2].z) / 3;
        area += a;
    }
    floe_stl_free(&s);
    if (out->n == 0) {
        floe_mesh_free(out);
        return floe_io_err(err, errlen, "'%s' has no usable triangles", name);
    }
    out->centroid = (floe_vec3){sum.x / area, sum.y / area, sum.z / area};
    return 0;
fail:
    floe_stl_free(&s);
    floe_mesh_free(out);
    return -1;
}
