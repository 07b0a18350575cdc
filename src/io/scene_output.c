/* The `output` section of a scene: cadences, history columns, defaults. */
#include "io/scene_output.h"
#include "io/quantity.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NKEYS(a) ((int)(sizeof(a) / sizeof *(a)))

void scene_output_init(floe_output_config *out) {
    memset(out, 0, sizeof *out);
    out->vtk_contacts = 1;
    out->vtk_boundaries = 1;
    out->vtk_shapes = 1;
    out->final_state = 1;
    /* by default only bond breaks: created/deleted rows swamp granular runs */
    out->events_skip = ~(1u << FLOE_EVENT_BOND_BROKEN | 1u << FLOE_EVENT_INLET_SHORT | 1u << FLOE_EVENT_ENERGY_ERROR);
}

/* `events: all | none | [created, deleted, broken, activated, slip_change]` */
static int events(scene_ctx *c, sy_node *n, floe_output_config *out) {
    static const char *const names[FLOE_EVENT_COUNT] = {"created",   "deleted",     "broken",
                                                        "activated", "slip_change", "inserted",
                                                        "removed",   "inlet_short", "energy_error"};
    sy_doc *d = c->d;
    if (sy_is_text(n, "all")) {
        out->events_skip = 0;
        return 0;
    }
    if (sy_is_text(n, "none")) {
        out->events_skip = ~0u;
        return 0;
    }
    if (!sy_is_seq(n))
        return sy_error(d, n,
                        "output.events: expected all, none or a list of event types "
                        "(created, deleted, broken, activated, slip_change, inserted, removed, inlet_short, "
                        "energy_error)");
    out->events_skip = ~0u;
    for (int i = 0; i < sy_seq_size(n); i++) {
        sy_node *it = sy_seq_item(d, n, i);
        int t = -1;
        for (int k = 0; k < FLOE_EVENT_COUNT; k++)
            if (sy_is_text(it, names[k])) t = k;
        if (t < 0)
            return sy_error(
                d, it,
                "output.events[%d]: unknown event type; expected created, deleted, broken, activated, slip_change, "
                "inserted, removed, inlet_short or energy_error",
                i);
        out->events_skip &= ~(1u << t);
    }
    return 0;
}

static int64_t fraction(int64_t total, int64_t parts) {
    int64_t n = total / parts;
    return n > 0 ? n : 1;
}

/* Cadences not given in the file are resolved here, once the run length is
 * known, so consumers only see "every N steps", "every T seconds" or 0 = off. */
void scene_output_defaults(scene_ctx *c, floe_output_config *out, int64_t total) {
    if (!c->set_vtk) out->vtk = (floe_every){fraction(total, 100), 0};
    if (!c->set_energy) out->energy = (floe_every){fraction(total, 1000), 0};
    if (!c->set_history) out->history = (floe_every){out->n_history_cols ? fraction(total, 1000) : 0, 0};
    if (!c->set_progress) out->progress = (floe_every){fraction(total, 100), 0};
}

/* `every: N` or `interval: T` in map (at most one). Sets *set if either. */
static int cadence_keys(scene_ctx *c, sy_node *map, const char *where, floe_every *e, int *set) {
    sy_doc *d = c->d;
    char p[SCENE_PATH];
    sy_node *ev = sy_get(d, map, "every"), *iv = sy_get(d, map, "interval");
    if (ev && iv) return sy_error(d, iv, "%s: give either 'every' (steps) or 'interval' (seconds), not both", where);
    if (ev) {
        *e = (floe_every){0, 0};
        *set = 1;
        return sy_int(d, ev, scene_path(p, where, "every"), &e->steps, 0, INT64_MAX);
    }
    if (iv) {
        *e = (floe_every){0, 0};
        *set = 1;
        return sy_number_in(d, iv, scene_path(p, where, "interval"), &e->interval, 0, INFINITY, 1, 1);
    }
    return 0;
}

/* A cadence section: true (defaults), false (off) or a mapping. Returns 1 if
 * it was a mapping (the caller reads its other keys), 0 if boolean, -1 on error. */
static int cadence(scene_ctx *c, sy_node *n, const char *where, floe_every *e, int *set, const char *const *keys,
                   int nkeys) {
    int b;
    if (sy_is_bool(n, &b)) {
        if (!b) {
            *e = (floe_every){0, 0};
            *set = 1;
        }
        return 0;
    }
    if (sy_check_keys(c->d, n, where, keys, nkeys) || cadence_keys(c, n, where, e, set)) return -1;
    return 1;
}

/* ---- history columns --------------------------------------------------------- */

static int pick(scene_ctx *c, sy_node *n, const char *where, const char *what, const char *const *names, int nn,
                int *out) {
    const char *s;
    if (sy_str(c->d, n, where, &s)) return -1;
    for (int i = 0; i < nn; i++)
        if (!strcmp(s, names[i])) {
            *out = i;
            return 0;
        }
    const char *sug = sy_suggest(s, names, nn);
    char list[512];
    size_t k = 0;
    list[0] = 0;
    for (int i = 0; i < nn && k + 1 < sizeof list; i++) {
        int m = snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "", names[i]);
        if (m < 0) break;
        k += (size_t)m;
    }
    if (sug) return sy_error(c->d, n, "%s: unknown %s '%s'; did you mean '%s'?", where, what, s, sug);
    if (nn == 0) return sy_error(c->d, n, "%s: unknown %s '%s' (none are defined)", where, what, s);
    return sy_error(c->d, n, "%s: unknown %s '%s'; allowed: %s", where, what, s, list);
}

/* ---- regions and plane counters (measurements.md) ------------------------------- */

static int measure_regions(scene_ctx *c, sy_node *n, floe_output_config *out) {
    static const char *const keys[] = {"name", "min", "max", "whole"};
    sy_doc *d = c->d;
    if (sy_want_seq(d, n, "output.regions")) return -1;
    int nr = sy_seq_size(n);
    if (nr > SCENE_MAX_REGIONS) return sy_error(d, n, "output.regions: %d regions, at most %d", nr, SCENE_MAX_REGIONS);
    out->regions = calloc((size_t)nr + 1, sizeof *out->regions);
    if (!out->regions) return sy_error(d, n, "out of memory");
    for (int i = 0; i < nr; i++) {
        sy_node *item = sy_seq_item(d, n, i), *k;
        char where[SCENE_PATH], p[SCENE_PATH];
        scene_index(where, "output.regions", i);
        if (sy_check_keys(d, item, where, keys, NKEYS(keys))) return -1;
        floe_named_region *r = &out->regions[i];
        const char *name;
        if (!(k = sy_get(d, item, "name"))) return sy_missing(d, item, where, "name");
        if (sy_str(d, k, scene_path(p, where, "name"), &name)) return -1;
        if (!*name || strlen(name) >= sizeof r->name || strpbrk(name, ",\"\r\n"))
            return sy_error(d, k, "%s: 1 to %zu characters, no commas, quotes or line breaks", p, sizeof r->name - 1);
        for (int j = 0; j < i; j++)
            if (!strcmp(out->regions[j].name, name)) return sy_error(d, k, "%s: region '%s' is defined twice", p, name);
        snprintf(r->name, sizeof r->name, "%s", name);
        if (!(k = sy_get(d, item, "min"))) return sy_missing(d, item, where, "min");
        if (sy_point(d, k, scene_path(p, where, "min"), &r->region.lo)) return -1;
        sy_node *kx = sy_get(d, item, "max");
        if (!kx) return sy_missing(d, item, where, "max");
        if (sy_point(d, kx, scene_path(p, where, "max"), &r->region.hi)) return -1;
        if (!(r->region.lo.x < r->region.hi.x && r->region.lo.y < r->region.hi.y && r->region.lo.z < r->region.hi.z))
            return sy_error(d, kx, "%s: every component must be larger than in min (the box has no volume)", p);
        if ((k = sy_get(d, item, "whole")) && sy_bool(d, k, scene_path(p, where, "whole"), &r->region.whole)) return -1;
        out->n_regions = i + 1;
    }
    return 0;
}

static int measure_planes(scene_ctx *c, sy_node *n) {
    static const char *const keys[] = {"name", "point", "normal", "group"};
    sy_doc *d = c->d;
    if (sy_want_seq(d, n, "output.planes")) return -1;
    for (int i = 0; i < sy_seq_size(n); i++) {
        sy_node *item = sy_seq_item(d, n, i), *k;
        char where[SCENE_PATH], p[SCENE_PATH];
        scene_index(where, "output.planes", i);
        if (sy_check_keys(d, item, where, keys, NKEYS(keys))) return -1;
        const char *name;
        floe_vec3 point, normal;
        int group = -1;
        if (!(k = sy_get(d, item, "name"))) return sy_missing(d, item, where, "name");
        if (sy_str(d, k, scene_path(p, where, "name"), &name)) return -1;
        if (strpbrk(name, ",\"\r\n"))
            return sy_error(d, k, "%s: a name in measurements.csv cannot contain commas, quotes or line breaks", p);
        if (floe_find_plane_counter(c->w, name) >= 0) return sy_error(d, k, "%s: plane '%s' is defined twice", p, name);
        sy_node *nn = item;
        if (!(k = sy_get(d, item, "point"))) return sy_missing(d, item, where, "point");
        if (sy_point(d, k, scene_path(p, where, "point"), &point)) return -1;
        if (!(k = sy_get(d, item, "normal"))) return sy_missing(d, item, where, "normal");
        if (sy_vec3(d, k, scene_path(p, where, "normal"), &normal)) return -1;
        nn = k;
        if (normal.x == 0 && normal.y == 0 && normal.z == 0)
            return sy_error(d, k, "%s: (0, 0, 0) has no direction; give the side counted as positive", p);
        if ((k = sy_get(d, item, "group"))) {
            int ng = floe_group_count(c->w);
            const char *names[FLOE_MAX_GROUPS];
            for (int g = 0; g < ng && g < FLOE_MAX_GROUPS; g++) names[g] = floe_group_name(c->w, g);
            if (pick(c, k, scene_path(p, where, "group"), "group", names, ng, &group)) return -1;
        }
        if (floe_add_plane_counter(c->w, name, point, normal, group) < 0) return scene_world_error(c, nn, where);
    }
    return 0;
}

/* The quantities the history writer (csv.c) understands. */
static const char *const body_quantities[] = {
    "pos.x",   "pos.y",   "pos.z",    "vel.x",    "vel.y",    "vel.z", "angvel.x", "angvel.y", "angvel.z", "force.x",
    "force.y", "force.z", "torque.x", "torque.y", "torque.z", "ori.w", "ori.x",    "ori.y",    "ori.z"};
static const char *const group_quantities[] = {
    "force.x",  "force.y",  "force.z",        "torque.x",     "torque.y",       "torque.z", "stress.x",
    "stress.y", "stress.z", "servo.measured", "servo.target", "servo.velocity", "phase"};
static const char *const contact_quantities[] = {"fn", "ft", "ft.y", "ft.z", "tw", "tr", "tr.y", "tr.z", "un"};
/* the run's counters, the inlets' and sinks' (docs/supply.md), the periodic cell's (docs/periodic.md) */
static const char *const counters[] = {
    "contacts",      "step",      "time",         "particles", "dt",        "bonded",      "breaks",    "inserted",
    "inserted_mass", "removed",   "removed_mass", "cell.xx",   "cell.xy",   "cell.xz",     "cell.yx",   "cell.yy",
    "cell.yz",       "cell.zx",   "cell.zy",      "cell.zz",   "strain.xx", "strain.xy",   "strain.xz", "strain.yx",
    "strain.yy",     "strain.yz", "strain.zx",    "strain.zy", "strain.zz", "cell.volume", "cell.phase"};

static int particle_id(scene_ctx *c, sy_node *n, const char *where, int *id) {
    int64_t np = (int64_t)c->count, v;
    if (np == 0) return sy_error(c->d, n, "%s: the scene has no particles", where);
    if (sy_int(c->d, n, where, &v, 0, np - 1)) return -1;
    *id = (int)v;
    return 0;
}

static int history_column(scene_ctx *c, sy_node *item, const char *where, floe_history_column *col,
                          const floe_history_column *prev, int nprev, const floe_output_config *out) {
    static const char *const keys[] = {"name",    "particle", "contact", "group",    "energy",
                                       "counter", "region",   "plane",   "quantity", "area"};
    static const char *const kinds[] = {"particle", "contact", "group", "energy", "counter", "region", "plane"};
    enum { CLASSIC_KINDS = 5 }; /* region and plane columns are checked on their own (below) */
    sy_doc *d = c->d;
    char p[SCENE_PATH];
    sy_node *n;
    if (sy_check_keys(d, item, where, keys, NKEYS(keys))) return -1;
    memset(col, 0, sizeof *col);
    col->a = col->b = col->group = col->energy = -1;

    const char *name;
    if (!(n = sy_get(d, item, "name"))) return sy_missing(d, item, where, "name");
    if (sy_str(d, n, scene_path(p, where, "name"), &name)) return -1;
    if (strlen(name) >= sizeof col->name)
        return sy_error(d, n, "%s: longer than %zu characters", p, sizeof col->name - 1);
    if (strpbrk(name, ",\"\r\n"))
        return sy_error(d, n, "%s: a CSV column name cannot contain commas, quotes or line breaks", p);
    /* history.csv starts with these two; a column of the same name would head a second copy of it */
    static const char *const builtin[] = {"step", "time"};
    for (int i = 0; i < NKEYS(builtin); i++)
        if (!strcmp(name, builtin[i]))
            return sy_error(d, n,
                            "%s: '%s' duplicates the built-in column '%s' of history.csv (every row starts with "
                            "step, time); remove this entry, or give it another name",
                            p, name, builtin[i]);
    for (int i = 0; i < nprev; i++)
        if (!strcmp(prev[i].name, name)) return sy_error(d, n, "%s: column '%s' is defined twice", p, name);
    snprintf(col->name, sizeof col->name, "%s", name);

    int kind = -1;
    /* a measurement column (region or plane) names nothing else */
    for (int k = CLASSIC_KINDS; k < NKEYS(kinds); k++) {
        if (!sy_get(d, item, kinds[k])) continue;
        if (kind >= 0) return sy_error(d, item, "%s: give either 'region' or 'plane', not both", where);
        kind = k;
    }
    for (int k = 0; k < CLASSIC_KINDS; k++) {
        if (!sy_get(d, item, kinds[k])) continue;
        if (kind >= CLASSIC_KINDS)
            return sy_error(d, item, "%s: a '%s' column takes no '%s' (found both)", where, kinds[kind], kinds[k]);
        if (kind >= 0)
            return sy_error(d, item,
                            "%s: give only one of particle, contact, group, energy, counter (found '%s' and '%s')",
                            where, kinds[kind], kinds[k]);
        kind = k;
    }
    if (kind < 0)
        return sy_error(d, item, "%s: give one of particle, contact, group, energy, counter, region, plane", where);
    sy_node *src = sy_get(d, item, kinds[kind]);
    sy_node *qn = sy_get(d, item, "quantity"), *an = sy_get(d, item, "area");
    scene_path(p, where, kinds[kind]);
    int q = 0;
    char qp[SCENE_PATH];
    scene_path(qp, where, "quantity");
    if (kind == 3 || kind == 4) {
        if (qn) return sy_error(d, qn, "%s: not used with '%s'", qp, kinds[kind]);
    } else if (!qn) {
        return sy_missing(d, item, where, "quantity");
    }
    if (an && kind != 2) return sy_error(d, an, "%s.area: only a group's stress.x|y|z takes an area", where);
    switch (kind) {
        case 0:
            col->kind = FLOE_HIST_PARTICLE;
            if (particle_id(c, src, p, &col->a) ||
                pick(c, qn, qp, "quantity", body_quantities, NKEYS(body_quantities), &q))
                return -1;
            snprintf(col->quantity, sizeof col->quantity, "%s", body_quantities[q]);
            break;
        case 1: {
            col->kind = FLOE_HIST_CONTACT;
            if (!sy_is_seq(src) || sy_seq_size(src) != 2)
                return sy_error(d, src, "%s: expected two particle ids [a, b]", p);
            char e[SCENE_PATH];
            if (particle_id(c, sy_seq_item(d, src, 0), scene_index(e, p, 0), &col->a) ||
                particle_id(c, sy_seq_item(d, src, 1), scene_index(e, p, 1), &col->b))
                return -1;
            if (col->a == col->b) return sy_error(d, src, "%s: a contact needs two different particles", p);
            if (pick(c, qn, qp, "quantity", contact_quantities, NKEYS(contact_quantities), &q)) return -1;
            snprintf(col->quantity, sizeof col->quantity, "%s", contact_quantities[q]);
            break;
        }
        case 2: {
            col->kind = FLOE_HIST_GROUP;
            int ng = floe_group_count(c->w);
            const char *names[FLOE_MAX_GROUPS];
            for (int g = 0; g < ng && g < FLOE_MAX_GROUPS; g++) names[g] = floe_group_name(c->w, g);
            if (pick(c, src, p, "group", names, ng, &col->group) ||
                pick(c, qn, qp, "quantity", group_quantities, NKEYS(group_quantities), &q))
                return -1;
            snprintf(col->quantity, sizeof col->quantity, "%s", group_quantities[q]);
            int stress = !strncmp(col->quantity, "stress.", 7);
            char ap[SCENE_PATH];
            scene_path(ap, where, "area");
            if (stress && !an)
                return sy_error(d, item, "%s: %s is the group's force divided by an area: give 'area' (m^2)", where,
                                col->quantity);
            if (!stress && an) return sy_error(d, an, "%s: only stress.x|y|z takes an area", ap);
            if (an && sy_number_in(d, an, ap, &col->area, 0, FLOE_MAX_COORD, 1, 0)) return -1;
            break;
        }
        case 3: {
            col->kind = FLOE_HIST_ENERGY;
            const char *names[FLOE_E_COUNT];
            for (int t = 0; t < FLOE_E_COUNT; t++) names[t] = floe_energy_name((floe_energy_term)t);
            if (pick(c, src, p, "energy term", names, FLOE_E_COUNT, &col->energy)) return -1;
            snprintf(col->quantity, sizeof col->quantity, "%s", names[col->energy]);
            break;
        }
        case 4:
            col->kind = FLOE_HIST_COUNTER;
            if (pick(c, src, p, "counter", counters, NKEYS(counters), &q)) return -1;
            snprintf(col->quantity, sizeof col->quantity, "%s", counters[q]);
            break;
        case 5: {
            col->kind = FLOE_HIST_REGION;
            const char *names[SCENE_MAX_REGIONS], *qs[64];
            int r = 0, nq = floe_history_region_quantities(qs, 64);
            for (int i = 0; i < out->n_regions; i++) names[i] = out->regions[i].name;
            if (pick(c, src, p, "region (output.regions)", names, out->n_regions, &r) ||
                pick(c, qn, qp, "quantity", qs, nq, &q))
                return -1;
            col->region = out->regions[r].region;
            snprintf(col->quantity, sizeof col->quantity, "%s", qs[q]);
            break;
        }
        default: {
            col->kind = FLOE_HIST_PLANE;
            const char *names[FLOE_MAX_PLANE_COUNTERS], *qs[16];
            int np = floe_plane_counter_count(c->w), nq = floe_history_plane_quantities(qs, 16);
            floe_plane_count pc;
            for (int i = 0; i < np; i++) names[i] = floe_plane_counter_get(c->w, i, &pc) == FLOE_OK ? pc.name : "";
            if (pick(c, src, p, "plane (output.planes)", names, np, &col->a) || pick(c, qn, qp, "quantity", qs, nq, &q))
                return -1;
            snprintf(col->quantity, sizeof col->quantity, "%s", qs[q]);
            break;
        }
    }
    return 0;
}

static int history(scene_ctx *c, sy_node *n, floe_output_config *out) {
    static const char *const keys[] = {"every", "interval", "columns"};
    sy_doc *d = c->d;
    int b;
    if (sy_is_bool(n, &b)) {
        if (b) return sy_error(d, n, "output.history: give the columns to record (history: {columns: [...]})");
        c->set_history = 1;
        return 0;
    }
    if (sy_check_keys(d, n, "output.history", keys, NKEYS(keys)) ||
        cadence_keys(c, n, "output.history", &out->history, &c->set_history))
        return -1;
    sy_node *cols = sy_get(d, n, "columns");
    if (!cols) return sy_missing(d, n, "output.history", "columns");
    if (sy_want_seq(d, cols, "output.history.columns")) return -1;
    int nc = sy_seq_size(cols);
    if (nc == 0) return sy_error(d, cols, "output.history.columns: the list is empty");
    out->history_cols = calloc((size_t)nc, sizeof *out->history_cols);
    if (!out->history_cols) return sy_error(d, cols, "out of memory");
    for (int i = 0; i < nc; i++) {
        char where[SCENE_PATH];
        scene_index(where, "output.history.columns", i);
        if (history_column(c, sy_seq_item(d, cols, i), where, &out->history_cols[i], out->history_cols, i, out))
            return -1;
        out->n_history_cols = i + 1;
    }
    return 0;
}

int scene_output(scene_ctx *c, sy_node *sec, floe_output_config *out) {
    static const char *const keys[] = {"vtk",      "energy", "history", "final_state",
                                       "progress", "events", "regions", "planes"};
    static const char *const vtk_keys[] = {"every", "interval", "contacts", "boundaries", "shapes"};
    static const char *const every_keys[] = {"every", "interval"};
    sy_doc *d = c->d;
    sy_node *n;
    if (sy_check_keys(d, sec, "output", keys, NKEYS(keys))) return -1;
    if ((n = sy_get(d, sec, "vtk"))) {
        int r = cadence(c, n, "output.vtk", &out->vtk, &c->set_vtk, vtk_keys, NKEYS(vtk_keys));
        if (r < 0) return -1;
        sy_node *k;
        if (r && (k = sy_get(d, n, "contacts")) && sy_bool(d, k, "output.vtk.contacts", &out->vtk_contacts)) return -1;
        if (r && (k = sy_get(d, n, "boundaries")) && sy_bool(d, k, "output.vtk.boundaries", &out->vtk_boundaries))
            return -1;
        if (r && (k = sy_get(d, n, "shapes")) && sy_bool(d, k, "output.vtk.shapes", &out->vtk_shapes)) return -1;
    }
    if ((n = sy_get(d, sec, "energy")) &&
        cadence(c, n, "output.energy", &out->energy, &c->set_energy, every_keys, 2) < 0)
        return -1;
    if ((n = sy_get(d, sec, "progress")) &&
        cadence(c, n, "output.progress", &out->progress, &c->set_progress, every_keys, 2) < 0)
        return -1;
    /* regions and planes before the history columns that name them */
    if ((n = sy_get(d, sec, "regions")) && measure_regions(c, n, out)) return -1;
    if ((n = sy_get(d, sec, "planes")) && measure_planes(c, n)) return -1;
    if ((n = sy_get(d, sec, "history")) && history(c, n, out)) return -1;
    if ((n = sy_get(d, sec, "final_state")) && sy_bool(d, n, "output.final_state", &out->final_state)) return -1;
    if ((n = sy_get(d, sec, "events")) && events(c, n, out)) return -1;
    return 0;
}
