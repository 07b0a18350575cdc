/* Helpers every part of the scene loader shares (scene.c, scene_bodies.c,
 * scene_output.c, scene_check.c): key paths for messages, warnings, schema
 * values, material and group names. */
#include "io/scene_common.h"
#include <floe/floe_shape.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *scene_path(char *buf, const char *base, const char *key) {
    if (base && *base) snprintf(buf, SCENE_PATH, "%s.%s", base, key);
    else snprintf(buf, SCENE_PATH, "%s", key);
    return buf;
}

const char *scene_index(char *buf, const char *base, int i) {
    snprintf(buf, SCENE_PATH, "%s[%d]", base, i);
    return buf;
}

int scene_world_error(scene_ctx *c, sy_node *at, const char *where) {
    return sy_error(c->d, at, "%s: %s", where, floe_last_error(c->w));
}

int scene_warn(scene_ctx *c, sy_node *n, const char *fmt, ...) {
    char msg[1024];
    int k = snprintf(msg, sizeof msg, "%s:%u:%u: warning: ", c->d->path, n ? n->start_mark.line + 1 : 1,
                     n ? n->start_mark.column + 1 : 1);
    va_list ap;
    va_start(ap, fmt);
    if (k >= 0 && (size_t)k < sizeof msg) vsnprintf(msg + k, sizeof msg - (size_t)k, fmt, ap);
    va_end(ap);
    floe__buf_printf(&c->warnings, "%s\n", msg);
    return c->warnings.bad ? sy_error(c->d, n, "out of memory") : 0;
}

/* Bit-mask parameters (spec->bits lists the bit names) also accept a list of
 * bit names: [bondN, bondT, brkT]. */
static int bit_names(scene_ctx *c, sy_node *n, const char *where, const floe_param_spec *spec, double *out) {
    enum { MAXBITS = 64 };
    char names[512];
    const char *bit[MAXBITS];
    int nb = 0;
    snprintf(names, sizeof names, "%s", spec->bits);
    for (char *tok = names, *end; tok && nb < MAXBITS; tok = end) {
        end = strchr(tok, ',');
        if (end) *end++ = 0;
        bit[nb++] = tok;
    }
    uint64_t mask = 0;
    for (int i = 0; i < sy_seq_size(n); i++) {
        char p[SCENE_PATH];
        const char *name;
        sy_node *item = sy_seq_item(c->d, n, i);
        scene_index(p, where, i);
        if (sy_str(c->d, item, p, &name)) return -1;
        int b = 0;
        while (b < nb && strcmp(bit[b], name)) b++;
        if (b == nb) {
            char hint[600];
            const char *sug = sy_suggest(name, bit, nb);
            if (sug) snprintf(hint, sizeof hint, "did you mean '%s'?", sug);
            else snprintf(hint, sizeof hint, "bits are %s", spec->bits);
            return sy_error(c->d, item, "%s: unknown bit '%s'; %s", p, name, hint);
        }
        mask |= 1ull << b;
    }
    *out = (double)mask;
    if (!(*out >= spec->min && *out <= spec->max))
        return sy_error(c->d, n, "%s = %llu is out of range [%g, %g]", where, (unsigned long long)mask, spec->min,
                        spec->max);
    return 0;
}

int scene_param(scene_ctx *c, sy_node *n, const char *where, const floe_param_spec *spec, double *out) {
    int b;
    double v;
    if (spec->bits && sy_is_seq(n)) return bit_names(c, n, where, spec, out);
    if (sy_is_bool(n, &b)) v = b;
    else if (sy_number(c->d, n, where, &v)) return -1;
    /* Masks and flags are integers whatever their range says. */
    int integral = spec->bits || (spec->unit && (!strcmp(spec->unit, "bool") || !strcmp(spec->unit, "int")));
    if (integral && v != floor(v))
        return sy_error(c->d, n, "%s = %s must be an integer", where, (const char *)n->data.scalar.value);
    if (sy_range(c->d, n, where, v, spec->min, spec->max, spec->min_open, spec->max_open)) return -1;
    *out = v;
    return 0;
}

/* Message tail listing `names`, or a suggestion for `word`. */
void scene_name_hint(char *buf, size_t len, const char *word, const char *const *names, int n, const char *what) {
    const char *s = sy_suggest(word, names, n);
    if (s) {
        snprintf(buf, len, "; did you mean '%s'?", s);
        return;
    }
    if (n == 0) {
        snprintf(buf, len, " (no %s are declared)", what);
        return;
    }
    size_t k = (size_t)snprintf(buf, len, "; known %s: ", what);
    for (int i = 0; i < n && k + 1 < len; i++) {
        int m = snprintf(buf + k, len - k, "%s%s", i ? ", " : "", names[i]);
        if (m < 0) break;
        k += (size_t)m;
    }
}

int scene_find_material(scene_ctx *c, const char *name, char *hint, size_t len) {
    int id = floe_find_material(c->w, name);
    if (id >= 0) return id;
    int nm = floe_material_count(c->w);
    const char **names = malloc(sizeof *names * (size_t)(nm ? nm : 1));
    hint[0] = 0;
    if (names) {
        for (int i = 0; i < nm; i++) names[i] = floe_material_name(c->w, i);
        scene_name_hint(hint, len, name, names, nm, "materials");
        free(names);
    }
    return -1;
}

int scene_material_by_name(scene_ctx *c, sy_node *n, const char *where, int *mat) {
    const char *name;
    if (sy_str(c->d, n, where, &name)) return -1;
    char hint[512];
    int id = scene_find_material(c, name, hint, sizeof hint);
    if (id >= 0) {
        *mat = id;
        return 0;
    }
    return sy_error(c->d, n, "%s: unknown material '%s'%s", where, name, hint);
}

int scene_material(scene_ctx *c, sy_node *map, const char *where, int *mat) {
    sy_node *n = sy_get(c->d, map, "material");
    if (!n) {
        int nm = floe_material_count(c->w);
        if (nm == 1) {
            *mat = 0; /* a single declared material is the default */
            return 0;
        }
        return sy_error(c->d, map, "missing required key 'material' in %s (%s)", where,
                        nm ? "required when more than one material is declared" : "no materials are declared");
    }
    char p[SCENE_PATH];
    return scene_material_by_name(c, n, scene_path(p, where, "material"), mat);
}

static int group_one(scene_ctx *c, sy_node *n, const char *where, uint32_t *mask) {
    const char *name;
    if (sy_str(c->d, n, where, &name)) return -1;
    int g = floe_find_group(c->w, name);
    if (g < 0) {
        /* Undeclared groups are created on first use (pass 0, file order). */
        g = floe_add_group(c->w, name);
        if (g < 0) return scene_world_error(c, n, where);
    }
    *mask |= 1u << g;
    return 0;
}

int scene_groups(scene_ctx *c, sy_node *n, const char *where, uint32_t *mask) {
    if (!sy_is_seq(n)) return group_one(c, n, where, mask);
    for (int i = 0; i < sy_seq_size(n); i++) {
        char p[SCENE_PATH];
        if (group_one(c, sy_seq_item(c->d, n, i), scene_index(p, where, i), mask)) return -1;
    }
    return 0;
}

const floe_shape_info *scene_shape_section(const char *key) {
    for (int i = 0; i < FLOE_SHAPE_COUNT; i++)
        if (!strcmp(floe_shape_at(i)->section, key)) return floe_shape_at(i);
    return NULL;
}

int scene_interrupted(void *ctx) {
    scene_ctx *c = ctx;
    if (!c->stopped && c->interrupt && c->interrupt(c->interrupt_ctx)) c->stopped = 1;
    return c->stopped;
}

int scene_stopped(scene_ctx *c, sy_node *at) {
    return sy_error(c->d, at, "interrupted while loading the scene (at this item)");
}
