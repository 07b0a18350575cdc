/* History quantities (see quantity.h, docs/outputs.md and
 * docs/measurements.md). */
#include "io/quantity.h"
#include "base/vec.h"
#include "io/io_err.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* "pos.y" with prefix "pos" -> 1; -1 if q is not prefix.x|y|z. */
static int vec_component(const char *q, const char *prefix) {
    size_t n = strlen(prefix);
    if (strncmp(q, prefix, n) != 0 || q[n] != '.' || q[n + 1] == '\0' || q[n + 2] != '\0') return -1;
    switch (q[n + 1]) {
        case 'x':
            return 0;
        case 'y':
            return 1;
        case 'z':
            return 2;
        default:
            return -1;
    }
}

enum { PQ_POS, PQ_VEL, PQ_ANGVEL, PQ_FORCE, PQ_TORQUE, PQ_ORI, PQ_COUNT };
static const char *const particle_q[PQ_COUNT] = {"pos", "vel", "angvel", "force", "torque", "ori"};

/* Particle quantity -> (which array, component), or -1. */
static int particle_quantity(const char *q, int *k) {
    for (int i = 0; i < PQ_ORI; i++)
        if ((*k = vec_component(q, particle_q[i])) >= 0) return i;
    if (strncmp(q, "ori.", 4) == 0 && q[4] && !q[5]) {
        const char *p = strchr("wxyz", q[4]);
        if (p) {
            *k = (int)(p - "wxyz");
            return PQ_ORI;
        }
    }
    return -1;
}

enum { CQ_FN, CQ_FT, CQ_FTY, CQ_FTZ, CQ_TW, CQ_TR, CQ_TRY, CQ_TRZ, CQ_UN, CQ_COUNT };
static const char *const contact_q[CQ_COUNT] = {"fn", "ft", "ft.y", "ft.z", "tw", "tr", "tr.y", "tr.z", "un"};

static int contact_quantity(const char *q) {
    for (int i = 0; i < CQ_COUNT; i++)
        if (strcmp(q, contact_q[i]) == 0) return i;
    return strcmp(q, "uN") == 0 ? CQ_UN : -1;
}

/* NQ_CELL: H_ij (9), NQ_STRAIN: the cell's strain (9), NQ_CELL_VOLUME, NQ_CELL_PHASE (docs/periodic.md) */
enum {
    NQ_CONTACTS,
    NQ_STEP,
    NQ_TIME,
    NQ_PARTICLES,
    NQ_DT,
    NQ_BONDED,
    NQ_BREAKS,
    NQ_INSERTED,
    NQ_INSERTED_MASS,
    NQ_REMOVED,
    NQ_REMOVED_MASS,
    NQ_CELL,
    NQ_STRAIN = NQ_CELL + 9,
    NQ_CELL_VOLUME = NQ_STRAIN + 9,
    NQ_CELL_PHASE,
    NQ_COUNT
};
static const char *const counter_q[NQ_COUNT] = {
    "contacts",      "step",      "time",         "particles", "dt",        "bonded",      "breaks",    "inserted",
    "inserted_mass", "removed",   "removed_mass", "cell.xx",   "cell.xy",   "cell.xz",     "cell.yx",   "cell.yy",
    "cell.yz",       "cell.zx",   "cell.zy",      "cell.zz",   "strain.xx", "strain.xy",   "strain.xz", "strain.yx",
    "strain.yy",     "strain.yz", "strain.zx",    "strain.zy", "strain.zz", "cell.volume", "cell.phase"};

/* Bodies (or their mass) that every inlet inserted / every sink removed. */
static double supply_total(const floe_world *w, int q) {
    double t = 0;
    if (q == NQ_INSERTED || q == NQ_INSERTED_MASS)
        for (int k = 0; k < floe_inlet_count(w); k++) {
            floe_inlet_stats s;
            floe_inlet_get(w, k, &s, NULL);
            t += q == NQ_INSERTED ? (double)s.inserted : s.mass;
        }
    else
        for (int k = 0; k < floe_sink_count(w); k++) {
            floe_sink_stats s;
            floe_sink_get(w, k, &s, NULL);
            t += q == NQ_REMOVED ? (double)s.removed : s.mass;
        }
    return t;
}

static int counter_quantity(const char *q) {
    for (int i = 0; i < NQ_COUNT; i++)
        if (strcmp(q, counter_q[i]) == 0) return i;
    return -1;
}

static int group_quantity(const char *q, int *k) {
    if ((*k = vec_component(q, "force")) >= 0) return 0;
    if ((*k = vec_component(q, "torque")) >= 0) return 1;
    if ((*k = vec_component(q, "stress")) >= 0) return 2; /* force / area */
    /* a servo's last step (floe_group_servo) and the current phase */
    static const char *const servo[] = {"servo.measured", "servo.target", "servo.velocity"};
    for (*k = 0; *k < 3; ++*k)
        if (!strcmp(q, servo[*k])) return 3;
    *k = 0;
    if (!strcmp(q, "phase")) return 4;
    return -1;
}

/* ---- measurements (docs/measurements.md) ------------------------------- */

/* The families of region quantities (quantity.h). */
enum { RF_STRESS, RF_FABRIC, RF_COORD, RF_SOLID, RF_VOLUME, RF_COUNT };
#define RF_VALUES FLOE_QUANTITY_FAMILY_VALUES

static const struct region_q {
    const char *name;
    int family, index;
} region_q[] = {
    {"stress.xx", RF_STRESS, 0},        {"stress.xy", RF_STRESS, 1},     {"stress.xz", RF_STRESS, 2},
    {"stress.yx", RF_STRESS, 3},        {"stress.yy", RF_STRESS, 4},     {"stress.yz", RF_STRESS, 5},
    {"stress.zx", RF_STRESS, 6},        {"stress.zy", RF_STRESS, 7},     {"stress.zz", RF_STRESS, 8},
    {"stress.mean", RF_STRESS, 9},      {"solid_fraction", RF_SOLID, 0}, {"coordination", RF_COORD, 0},
    {"coordination.mech", RF_COORD, 1}, {"particles", RF_COORD, 2},      {"rattlers", RF_COORD, 3},
    {"fabric.xx", RF_FABRIC, 0},        {"fabric.xy", RF_FABRIC, 1},     {"fabric.xz", RF_FABRIC, 2},
    {"fabric.yx", RF_FABRIC, 3},        {"fabric.yy", RF_FABRIC, 4},     {"fabric.yz", RF_FABRIC, 5},
    {"fabric.zx", RF_FABRIC, 6},        {"fabric.zy", RF_FABRIC, 7},     {"fabric.zz", RF_FABRIC, 8},
    {"fabric.contacts", RF_FABRIC, 9},  {"volume", RF_VOLUME, 0},
};
#define N_REGION_Q ((int)(sizeof region_q / sizeof *region_q))

static const char *const plane_q[] = {"count", "count_pos", "count_neg", "mass", "mass_pos", "mass_neg"};
#define N_PLANE_Q ((int)(sizeof plane_q / sizeof *plane_q))
_Static_assert(N_REGION_Q == FLOE_REGION_QUANTITIES, "FLOE_REGION_QUANTITIES counts region_q");
_Static_assert(N_PLANE_Q == FLOE_PLANE_QUANTITIES, "FLOE_PLANE_QUANTITIES counts plane_q");

int floe_history_region_quantities(const char **names, int cap) {
    for (int i = 0; i < N_REGION_Q && i < cap; i++) names[i] = region_q[i].name;
    return N_REGION_Q;
}

int floe_history_plane_quantities(const char **names, int cap) {
    for (int i = 0; i < N_PLANE_Q && i < cap; i++) names[i] = plane_q[i];
    return N_PLANE_Q;
}

static int region_quantity(const char *q) {
    for (int i = 0; i < N_REGION_Q; i++)
        if (!strcmp(q, region_q[i].name)) return i;
    return -1;
}

static int plane_quantity(const char *q) {
    for (int i = 0; i < N_PLANE_Q; i++)
        if (!strcmp(q, plane_q[i])) return i;
    return -1;
}

/* Every value of a family over region r into v[RF_VALUES]; NaN on failure. */
static void region_family(const floe_world *w, const floe_region *r, int family, double *v) {
    for (int i = 0; i < RF_VALUES; i++) v[i] = NAN;
    switch (family) {
        case RF_STRESS:
            if (floe_stress_tensor(w, r, v) == FLOE_OK) v[9] = (v[0] + v[4] + v[8]) / 3;
            break;
        case RF_FABRIC: {
            int n = 0;
            if (floe_fabric_tensor(w, r, v, &n) == FLOE_OK) v[9] = n;
            break;
        }
        case RF_COORD: {
            floe_coordination_info ci;
            if (floe_coordination(w, r, &ci) == FLOE_OK) {
                v[0] = ci.z;
                v[1] = ci.z_mech;
                v[2] = ci.particles;
                v[3] = ci.rattlers;
            }
            break;
        }
        case RF_SOLID:
            if (floe_solid_fraction(w, r, &v[0]) != FLOE_OK) v[0] = NAN;
            break;
        default:
            v[0] = (r->hi.x - r->lo.x) * (r->hi.y - r->lo.y) * (r->hi.z - r->lo.z);
            break;
    }
}

static int region_ok(const floe_region *r) {
    const double m = FLOE_MAX_COORD;
    const floe_vec3 lo = r->lo, hi = r->hi;
    return (r->whole == 0 || r->whole == 1) && fabs(lo.x) <= m && fabs(lo.y) <= m && fabs(lo.z) <= m &&
           fabs(hi.x) <= m && fabs(hi.y) <= m && fabs(hi.z) <= m && lo.x < hi.x && lo.y < hi.y && lo.z < hi.z;
}

static int same_region(const floe_region *a, const floe_region *b) {
    return a->whole == b->whole && a->lo.x == b->lo.x && a->lo.y == b->lo.y && a->lo.z == b->lo.z &&
           a->hi.x == b->hi.x && a->hi.y == b->hi.y && a->hi.z == b->hi.z;
}

static double region_value(const floe_world *w, const floe_history_column *col, floe_quantity_cache *rc) {
    int q = region_quantity(col->quantity);
    if (q < 0 || !region_ok(&col->region)) return NAN;
    int fam = region_q[q].family;
    if (rc)
        for (int i = 0; i < rc->n; i++)
            if (rc->e[i].family == fam && same_region(&rc->e[i].r, &col->region)) return rc->e[i].v[region_q[q].index];
    double v[RF_VALUES];
    region_family(w, &col->region, fam, v);
    if (rc && rc->n < FLOE_QUANTITY_CACHE) {
        rc->e[rc->n].family = fam;
        rc->e[rc->n].r = col->region;
        memcpy(rc->e[rc->n].v, v, sizeof v);
        rc->n++;
    }
    return v[region_q[q].index];
}

static double plane_value(const floe_world *w, const floe_history_column *col) {
    floe_plane_count pc;
    int q = plane_quantity(col->quantity);
    if (q < 0 || col->a < 0 || col->a >= floe_plane_counter_count(w) || floe_plane_counter_get(w, col->a, &pc))
        return NAN;
    switch (q) {
        case 0:
            return (double)(pc.crossed_pos - pc.crossed_neg);
        case 1:
            return (double)pc.crossed_pos;
        case 2:
            return (double)pc.crossed_neg;
        case 3:
            return pc.mass_pos - pc.mass_neg;
        case 4:
            return pc.mass_pos;
        default:
            return pc.mass_neg;
    }
}

int floe_history_check(const floe_world *w, const floe_history_column *col, char *err, size_t errlen) {
    int np = floe_particle_count(w), k;
    switch (col->kind) {
        case FLOE_HIST_PARTICLE:
            if (particle_quantity(col->quantity, &k) < 0) {
                floe_io_err(err, errlen,
                            "history column '%s': unknown particle quantity '%s' "
                            "(pos|vel|angvel|force|torque.x|y|z, ori.w|x|y|z)",
                            col->name, col->quantity);
                return -1;
            }
            if (col->a < 0 || col->a >= np) {
                floe_io_err(err, errlen, "history column '%s': no particle %d (the world has %d)", col->name, col->a,
                            np);
                return -1;
            }
            return 0;
        case FLOE_HIST_CONTACT:
            if (contact_quantity(col->quantity) < 0) {
                floe_io_err(err, errlen,
                            "history column '%s': unknown contact quantity '%s' "
                            "(fn, ft, ft.y, ft.z, tw, tr, tr.y, tr.z, un)",
                            col->name, col->quantity);
                return -1;
            }
            if (col->a < 0 || col->a >= np || col->b < 0 || col->b >= np || col->a == col->b) {
                floe_io_err(err, errlen, "history column '%s': bad particle pair (%d, %d) (the world has %d)",
                            col->name, col->a, col->b, np);
                return -1;
            }
            return 0;
        case FLOE_HIST_GROUP:
            if (group_quantity(col->quantity, &k) < 0) {
                floe_io_err(err, errlen,
                            "history column '%s': unknown group quantity '%s' "
                            "(force|torque|stress.x|y|z, servo.measured|target|velocity, phase)",
                            col->name, col->quantity);
                return -1;
            }
            if (group_quantity(col->quantity, &k) == 2 && !(col->area > 0 && col->area <= FLOE_MAX_COORD)) {
                floe_io_err(err, errlen,
                            "history column '%s': %s needs the area the force is divided by, positive and at "
                            "most %g (got %g)",
                            col->name, col->quantity, FLOE_MAX_COORD, col->area);
                return -1;
            }
            if (col->group < 0 || col->group >= floe_group_count(w)) {
                floe_io_err(err, errlen, "history column '%s': no group %d (the world has %d)", col->name, col->group,
                            floe_group_count(w));
                return -1;
            }
            return 0;
        case FLOE_HIST_ENERGY:
            if (col->energy < 0 || col->energy >= FLOE_E_COUNT) {
                floe_io_err(err, errlen, "history column '%s': energy term %d out of range [0, %d)", col->name,
                            col->energy, (int)FLOE_E_COUNT);
                return -1;
            }
            return 0;
        case FLOE_HIST_COUNTER:
            if (counter_quantity(col->quantity) < 0) {
                floe_io_err(err, errlen,
                            "history column '%s': unknown counter '%s' "
                            "(contacts, step, time, particles, dt, bonded, breaks, inserted, inserted_mass, removed, "
                            "removed_mass, cell.xx..zz, strain.xx..zz, cell.volume, cell.phase)",
                            col->name, col->quantity);
                return -1;
            }
            return 0;
        case FLOE_HIST_REGION:
            if (region_quantity(col->quantity) < 0) {
                floe_io_err(err, errlen,
                            "history column '%s': unknown region quantity '%s' (stress.xx..zz, stress.mean, "
                            "solid_fraction, coordination, coordination.mech, particles, rattlers, "
                            "fabric.xx..zz, fabric.contacts, volume)",
                            col->name, col->quantity);
                return -1;
            }
            if (!region_ok(&col->region)) {
                const floe_region *r = &col->region;
                floe_io_err(err, errlen,
                            "history column '%s': region box (%g, %g, %g) .. (%g, %g, %g) must be finite with "
                            "min < max on every axis (whole %d: 0 or 1)",
                            col->name, r->lo.x, r->lo.y, r->lo.z, r->hi.x, r->hi.y, r->hi.z, r->whole);
                return -1;
            }
            return 0;
        case FLOE_HIST_PLANE:
            if (plane_quantity(col->quantity) < 0) {
                floe_io_err(err, errlen,
                            "history column '%s': unknown plane quantity '%s' "
                            "(count, count_pos, count_neg, mass, mass_pos, mass_neg)",
                            col->name, col->quantity);
                return -1;
            }
            if (col->a < 0 || col->a >= floe_plane_counter_count(w)) {
                floe_io_err(err, errlen, "history column '%s': no plane counter %d (the world has %d)", col->name,
                            col->a, floe_plane_counter_count(w));
                return -1;
            }
            return 0;
    }
    floe_io_err(err, errlen, "history column '%s': unknown kind %d", col->name, (int)col->kind);
    return -1;
}

double floe_history_value(const floe_world *w, const floe_history_column *col, const double *energy) {
    return floe_history_value_cached(w, col, energy, NULL);
}

double floe_history_value_cached(const floe_world *w, const floe_history_column *col, const double *energy,
                                 floe_quantity_cache *rc) {
    int np = floe_particle_count(w), k = 0;
    switch (col->kind) {
        case FLOE_HIST_PARTICLE: {
            int q = particle_quantity(col->quantity, &k), i = col->a;
            if (q < 0 || i < 0 || i >= np) return NAN;
            switch (q) {
                case PQ_POS:
                    return vcomp(floe_positions(w)[i], k);
                case PQ_VEL:
                    return vcomp(floe_velocities(w)[i], k);
                case PQ_ANGVEL:
                    return vcomp(floe_angular_velocities(w)[i], k);
                case PQ_FORCE:
                    return vcomp(floe_forces(w)[i], k);
                case PQ_TORQUE:
                    return vcomp(floe_torques(w)[i], k);
                default: {
                    floe_quat o = floe_orientations(w)[i];
                    return k == 0 ? o.w : k == 1 ? o.x : k == 2 ? o.y : o.z;
                }
            }
        }
        case FLOE_HIST_CONTACT: {
            int q = contact_quantity(col->quantity);
            if (q < 0) return NAN;
            int ci = floe_contact_find(w, col->a, col->b);
            floe_contact_info c;
            if (ci < 0 || floe_contact_get(w, ci, &c) != FLOE_OK) return 0.0; /* no contact: 0 */
            switch (q) {
                case CQ_FN:
                    return c.force.x;
                case CQ_FT:
                    return hypot(c.force.y, c.force.z);
                case CQ_FTY:
                    return c.force.y;
                case CQ_FTZ:
                    return c.force.z;
                case CQ_TW:
                    return c.torque.x;
                case CQ_TR:
                    return hypot(c.torque.y, c.torque.z);
                case CQ_TRY:
                    return c.torque.y;
                case CQ_TRZ:
                    return c.torque.z;
                default:
                    return c.uN;
            }
        }
        case FLOE_HIST_GROUP: {
            int q = group_quantity(col->quantity, &k);
            if (q < 0 || col->group < 0 || col->group >= floe_group_count(w)) return NAN;
            if (q == 2) return vcomp(floe_group_stress(w, col->group, col->area), k);
            if (q == 3) {
                double sv[3];
                floe_group_servo(w, col->group, sv);
                return sv[k];
            }
            if (q == 4) return floe_group_phase(w, col->group);
            return vcomp(q == 0 ? floe_group_force(w, col->group) : floe_group_torque(w, col->group), k);
        }
        case FLOE_HIST_ENERGY: {
            if (col->energy < 0 || col->energy >= FLOE_E_COUNT) return NAN;
            if (energy) return energy[col->energy];
            double e[FLOE_E_COUNT];
            floe_energy(w, e);
            return e[col->energy];
        }
        case FLOE_HIST_COUNTER:
            switch (counter_quantity(col->quantity)) {
                case NQ_CONTACTS:
                    return floe_contact_count(w);
                case NQ_STEP:
                    return (double)floe_step_count(w);
                case NQ_TIME:
                    return floe_time(w);
                case NQ_PARTICLES:
                    return np;
                case NQ_DT:
                    return floe_dt(w);
                case NQ_BONDED:
                    return floe_bonded_count(w);
                case NQ_BREAKS:
                    return (double)floe_break_count(w);
                case NQ_INSERTED:
                case NQ_INSERTED_MASS:
                case NQ_REMOVED:
                case NQ_REMOVED_MASS:
                    return supply_total(w, counter_quantity(col->quantity));
                default: {
                    int q = counter_quantity(col->quantity);
                    double m[9];
                    if (q >= NQ_CELL && q < NQ_STRAIN)
                        return floe_world_get_cell(w, m, NULL) >= 0 ? m[q - NQ_CELL] : NAN;
                    if (q >= NQ_STRAIN && q < NQ_CELL_VOLUME) {
                        floe_world_cell_strain(w, m);
                        return m[q - NQ_STRAIN];
                    }
                    if (q == NQ_CELL_VOLUME) return floe_world_cell_volume(w);
                    if (q == NQ_CELL_PHASE) return floe_world_cell_phase(w);
                    return NAN;
                }
            }
        case FLOE_HIST_REGION:
            return region_value(w, col, rc);
        case FLOE_HIST_PLANE:
            return plane_value(w, col);
    }
    return NAN;
}

/* ---- whole regions and planes (measurements.csv) ------------------------ */

void floe_region_values(const floe_world *w, const floe_region *r, double *v) {
    double f[RF_COUNT][RF_VALUES];
    for (int k = 0; k < RF_COUNT; k++) region_family(w, r, k, f[k]);
    for (int q = 0; q < N_REGION_Q; q++) v[q] = f[region_q[q].family][region_q[q].index];
}

void floe_plane_values(const floe_world *w, int k, double *v) {
    floe_history_column col;
    memset(&col, 0, sizeof col);
    col.kind = FLOE_HIST_PLANE;
    col.a = k;
    for (int q = 0; q < N_PLANE_Q; q++) {
        snprintf(col.quantity, sizeof col.quantity, "%s", plane_q[q]);
        v[q] = plane_value(w, &col);
    }
}
