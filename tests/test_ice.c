/* Contact-level tests of the Ice model (docs/models/ice.md, docs/decisions.md#ice).
 * Two spheres of R = 0.01 m with IceMat defaults (E = 1e9 Pa, ktDivKn 0.2,
 * breakN 1e-4, alpha (1, 1), beta (0.1, 0.1, 0.1), mu 0.05), both fully
 * blocked and driven by prescribed velocities. */
#include "check.h"
#include "events.h"
#include "core/world.h" /* batch_off: the per-contact path only */

#define PI 3.14159265358979323846
static const double R = 0.01;

/* expected values, computed by hand from Woo's formulas (current lens) */
static const double KN = 1.5707963e7, KW = 986.9604, KR = 4934.8022;
static const double FNB = 31.415927, FTB = 3.1415927, TWB = 5.568328e-3, TRB = 5.568328e-2;
enum { S_BONDS, S_BONDED, S_UN0, S_KW, S_KR, S_FNB, S_FTB, S_TWB, S_TRB };

typedef struct pair {
    floe_world *w;
    int a, b, events[FLOE_EVENT_COUNT];
    uint32_t last_detail;
    floe_event last_break;
} pair;

static void on_event(const floe_event *ev, void *user) {
    pair *p = user;
    p->events[ev->type]++;
    if (ev->type == FLOE_EVENT_BOND_BROKEN) {
        p->last_detail = ev->detail;
        p->last_break = *ev;
    }
}

static floe_status step(pair *p) { return step_events(p->w, on_event, p); }

static void make(pair *p, double overlap, int bonds0, int bonds1, int ini_eqlb, double dt) {
    floe_world_def def = floe_default_world_def();
    def.dt = dt;
    *p = (pair){0};
    p->w = floe_world_create(&def);
    int m = floe_add_material(p->w, "ice", "ice");
    floe_model_set(p->w, "ice", "bonds0", bonds0);
    floe_model_set(p->w, "ice", "bonds1", bonds1);
    floe_model_set(p->w, "ice", "ini_eqlb", ini_eqlb);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.blocked = FLOE_DOF_ALL;
    p->a = floe_add_sphere(p->w, &bd, R);
    bd.pos = (floe_vec3){2 * R - overlap, 0, 0};
    p->b = floe_add_sphere(p->w, &bd, R);
}

static int state(const pair *p, double *s) {
    int k = floe_contact_find(p->w, p->a, p->b);
    return k >= 0 ? floe_contact_state(p->w, k, s, 16) : 0;
}

static floe_contact_info info(const pair *p) {
    floe_contact_info ci = {0};
    floe_contact_get(p->w, floe_contact_find(p->w, p->a, p->b), &ci);
    return ci;
}

static void test_parameters(void) {
    pair p;
    make(&p, 0, 15, 15, 1, 1e-7);
    step(&p);
    double s[16];
    CHECK(state(&p, s) == 9);
    floe_contact_info ci = info(&p);
    CHECK_REL(ci.kn, KN, 1e-7);
    CHECK_REL(ci.kt, 0.2 * KN, 1e-7);
    CHECK_REL(s[S_KW], KW, 1e-7);
    CHECK_REL(s[S_KR], KR, 1e-7);
    CHECK_REL(s[S_FNB], FNB, 1e-7);
    CHECK_REL(s[S_FTB], FTB, 1e-7);
    CHECK_REL(s[S_TWB], TWB, 1e-6);
    CHECK_REL(s[S_TRB], TRB, 1e-6);
    CHECK(s[S_BONDS] == 15 && s[S_BONDED] == 1);
    REPORT("IceMat defaults, R = 0.01: kn = %.8g, k_w = %.7g, k_r = %.8g, F_nb = %.8g, F_tb = %.8g, "
           "T_wb = %.7g, T_rb = %.7g\n",
           ci.kn, s[S_KW], s[S_KR], s[S_FNB], s[S_FTB], s[S_TWB], s[S_TRB]);
    floe_world_destroy(p.w);
}

/* Drives one sense with a constant rate until the bond breaks; checks the
 * load just before matched the limit within one increment, and that the
 * break event reports the load that broke the bond (over the limit by at
 * most one increment) and the sense, whether the contact survives (shear,
 * twist, roll: its kept load is then cut back by plasticity) or not
 * (normal). batch_off: every step through the per-contact path; the
 * batched kernel must give the same event (returned in *ev). */
static void test_break_sense(int sense, int batch_off, floe_event *ev) {
    const double dt = 1e-7;
    /* only the driven sense is breakable: bonds = all bonded | brk bit of the sense */
    int bonds = 15 | (16 << sense);
    pair p;
    /* compressed by 1e-7 (ini_eqlb off) so that shear, twist, roll breaks leave a
     * contact in compression; the normal test starts touching */
    make(&p, sense == 0 ? 0 : 1e-7, bonds, bonds, sense == 0, dt);
    p.w->batch_off = batch_off;
    double rate = 0, limit = 0, k = 0;
    if (sense == 0) {
        floe_set_velocity(p.w, p.b, (floe_vec3){1e-3, 0, 0});
        rate = 1e-3;
        limit = FNB;
        k = KN;
    }
    if (sense == 1) {
        floe_set_velocity(p.w, p.b, (floe_vec3){0, 1e-3, 0});
        rate = 1e-3;
        limit = FTB;
        k = 0.2 * KN;
    }
    if (sense == 2) {
        floe_set_angular_velocity(p.w, p.b, (floe_vec3){1, 0, 0});
        rate = 1;
        limit = TWB;
        k = KW;
    }
    if (sense == 3) {
        floe_set_angular_velocity(p.w, p.b, (floe_vec3){0, 0, 1});
        rate = 1;
        limit = TRB;
        k = KR;
    }
    double last_load = 0;
    int steps = 0;
    while (p.events[FLOE_EVENT_BOND_BROKEN] == 0 && steps < 100000) {
        floe_contact_info ci = info(&p);
        double load[4] = {ci.force.x, hypot(ci.force.y, ci.force.z), fabs(ci.torque.x),
                          hypot(ci.torque.y, ci.torque.z)};
        last_load = load[sense];
        step(&p);
        steps++;
    }
    double inc = k * rate * dt;
    REPORT("sense %d: broke at step %d with load %.7g before the last increment (limit %.7g, increment %.2g)\n", sense,
           steps, last_load, limit, inc);
    CHECK(p.events[FLOE_EVENT_BOND_BROKEN] == 1);
    CHECK(p.last_detail == (1u << sense)); /* the driven sense exceeded its limit */
    CHECK(last_load <= limit && last_load > limit - 1.01 * inc);
    /* the event: the trial load, over the limit */
    floe_vec3 f = p.last_break.force, m = p.last_break.torque;
    double logged[4] = {f.x, hypot(f.y, f.z), fabs(m.x), hypot(m.y, m.z)};
    REPORT("sense %d (%s path): break event load %.7g (limit %.7g), detail %u\n", sense,
           batch_off ? "per-contact" : "batched", logged[sense], limit, p.last_break.detail);
    CHECK(logged[sense] > limit * (1 - 1e-7) && logged[sense] <= limit + 1.01 * inc); /* limit: 8 digits */
    CHECK_NEAR(logged[sense], last_load + inc, 1e-6 * limit);
    *ev = p.last_break;
    double s[16];
    if (sense == 0) {
        /* in tension: deleted in the same step as the break */
        CHECK(floe_contact_count(p.w) == 0 && p.events[FLOE_EVENT_CONTACT_DELETED] == 1);
    } else {
        CHECK(state(&p, s) == 9);
        CHECK(s[S_BONDS] == (bonds & ~15) && s[S_BONDED] == 0); /* all four senses unbonded at once */
        floe_contact_info ci = info(&p);
        double p_n = -ci.force.x, rc = R; /* contact radius sqrt(A/pi) = R */
        CHECK(p_n > 0);
        /* the formerly bonded senses are now limited by plasticity */
        CHECK(hypot(ci.force.y, ci.force.z) <= 0.5 * p_n * (1 + 1e-12));
        CHECK(fabs(ci.torque.x) <= rc * p_n * 0.5 * (1 + 1e-12));
        CHECK(hypot(ci.torque.y, ci.torque.z) <= rc * p_n * 0.05 * (1 + 1e-12));
    }
    floe_world_destroy(p.w);
}

/* An unbonded contact is deleted as soon as it is in tension (Fn > 0). */
static void test_unbonded_tension(void) {
    pair p;
    make(&p, 2e-7, 0, 0, 1, 1e-7);
    floe_set_velocity(p.w, p.b, (floe_vec3){1e-3, 0, 0});
    step(&p); /* created at t = 0 with uN0 = -2e-7, then opened by 1e-10: Fn > 0 */
    CHECK(p.events[FLOE_EVENT_CONTACT_CREATED] == 1 && p.events[FLOE_EVENT_CONTACT_DELETED] == 1);
    CHECK(floe_contact_count(p.w) == 0);
    step(&p); /* still overlapping: created afresh, with a new uN0 (Woo's behaviour) */
    CHECK(p.events[FLOE_EVENT_CONTACT_CREATED] == 2 && floe_contact_count(p.w) == 1);
    floe_world_destroy(p.w);
}

/* bonds0 for contacts created while step < step01, bonds1 after; a contact
 * deleted and re-formed is new and takes bonds1. */
static void test_bonds0_bonds1(void) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-6;
    floe_world *w = floe_world_create(&def);
    int m = floe_add_material(w, "ice", "ice");
    floe_model_set(w, "ice", "bonds0", 31); /* bonded in all senses, breakable in N */
    floe_model_set(w, "ice", "bonds1", 3);
    floe_model_set(w, "ice", "step01", 3);
    floe_body_def bd = floe_default_body_def();
    bd.material = m;
    bd.blocked = FLOE_DOF_ALL;
    int a = floe_add_sphere(w, &bd, R);
    bd.pos = (floe_vec3){2 * R - 1e-6, 0, 0};
    int b = floe_add_sphere(w, &bd, R); /* touching at t = 0 */
    bd.pos = (floe_vec3){0, 2 * R + 3.5e-6, 0};
    bd.vel = (floe_vec3){0, -1, 0};
    int c = floe_add_sphere(w, &bd, R); /* arrives after ~3.5 steps */
    double s[16];
    for (int i = 0; i < 6; i++) floe_step(w);
    CHECK(floe_contact_state(w, floe_contact_find(w, a, b), s, 16) == 9 && s[0] == 31);
    int kc = floe_contact_find(w, a, c);
    CHECK(kc >= 0);
    floe_contact_info ci;
    floe_contact_get(w, kc, &ci);
    CHECK(ci.step_created >= 3);
    CHECK(floe_contact_state(w, kc, s, 16) == 9 && s[0] == 3);
    /* pull b away until its bond breaks, then push it back: the new contact takes bonds1 */
    floe_set_velocity(w, b, (floe_vec3){1, 0, 0});
    for (int i = 0; i < 20 && floe_contact_find(w, a, b) >= 0; i++) floe_step(w);
    CHECK(floe_contact_find(w, a, b) < 0);
    floe_set_velocity(w, b, (floe_vec3){-1, 0, 0});
    for (int i = 0; i < 20 && floe_contact_find(w, a, b) < 0; i++) floe_step(w);
    int kb = floe_contact_find(w, a, b);
    CHECK(kb >= 0 && floe_contact_state(w, kb, s, 16) == 9 && s[0] == 3);
    floe_world_destroy(w);
}

/* Plastic limits of unbonded senses: with p = -Fn and rho = sqrt(A/pi) = R,
 * |Ft| <= p tan_phi, |Tw| <= rho p tan_phi for both signs of twist
 * (docs/decisions.md#ice-twisting-slip-in-both-directions-i3), |Tr| <= rho p mu. */
static void test_plastic_limits(void) {
    const double ov = 1e-6, p_n = KN * ov;
    const double lim_t = p_n * 0.5, lim_w = R * p_n * 0.5, lim_r = R * p_n * 0.05;
    for (int sign = -1; sign <= 1; sign += 2) {
        pair p;
        make(&p, ov, 0, 0, 0, 1e-7); /* unbonded, ini_eqlb off: Fn = -kn ov */
        floe_set_angular_velocity(p.w, p.b, (floe_vec3){sign * 10.0, 0, 0});
        for (int i = 0; i < 2000; i++) step(&p);
        floe_contact_info ci = info(&p);
        REPORT("twist %+d: Tw = %.7g (limit %.7g)\n", sign, ci.torque.x, sign * lim_w);
        CHECK_REL(ci.torque.x, sign * lim_w, 1e-6);
        double e[FLOE_E_COUNT];
        floe_energy(p.w, e);
        CHECK(e[FLOE_E_PLASTIC] > 0);
        floe_world_destroy(p.w);
    }
    pair p;
    make(&p, ov, 0, 0, 0, 1e-7);
    floe_set_angular_velocity(p.w, p.b, (floe_vec3){0, 0, 1.0}); /* rolls B: bends and shears */
    for (int i = 0; i < 200; i++) step(&p);
    floe_contact_info ci = info(&p);
    CHECK_REL(hypot(ci.torque.y, ci.torque.z), lim_r, 1e-6);
    CHECK(hypot(ci.force.y, ci.force.z) < lim_t); /* shear still elastic */
    floe_set_angular_velocity(p.w, p.b, (floe_vec3){0, 0, 0});
    floe_set_velocity(p.w, p.b, (floe_vec3){0, 0, 1e-2}); /* slide */
    for (int i = 0; i < 3000; i++) step(&p);
    ci = info(&p);
    CHECK_REL(hypot(ci.force.y, ci.force.z), -ci.force.x * 0.5, 1e-9); /* p changed slightly with the slide */
    CHECK_REL(-ci.force.x, p_n, 1e-3);
    floe_world_destroy(p.w);
}

/* Energy balance of a breaking run: a heavy ball (Linear contacts with the
 * ice) punches through a bonded 12 x 12 plate at 5 m/s, no damping, no
 * gravity. Kinetic + elastic + plastic + broken must stay equal to the
 * initial kinetic energy. Tolerance 1e-2 of it (contact onsets and bond
 * breaks are sampled once per step; measured below). */
static void test_breaking_energy(void) {
    floe_world_def def = floe_default_world_def();
    floe_world *w = floe_world_create(&def);
    int ice = floe_add_material(w, "ice", "ice");
    int steel = floe_add_material(w, "steel", "linear");
    floe_material_set(w, steel, "density", 7800);
    floe_model_set(w, "ice", "bonds0", 255);
    floe_model_set(w, "ice", "bond_tol", 1e-6);
    floe_body_def bd = floe_default_body_def();
    bd.material = ice;
    for (int j = 0; j < 12; j++)
        for (int i = 0; i < 12; i++) {
            bd.pos = (floe_vec3){2 * R * i, 2 * R * j, 0};
            floe_add_sphere(w, &bd, R);
        }
    bd.material = steel;
    bd.pos = (floe_vec3){11 * R, 11 * R, 4.5 * R};
    bd.vel = (floe_vec3){0, 0, -5};
    floe_add_sphere(w, &bd, 3 * R);
    double e[FLOE_E_COUNT], e0 = 0, worst = 0;
    for (int s = 0; s < 4000; s++) {
        floe_step(w);
        floe_energy(w, e);
        if (s == 0) e0 = e[FLOE_E_TOTAL];
        worst = fmax(worst, fabs(e[FLOE_E_TOTAL] - e0));
    }
    REPORT("punch-through: %lld bonds broken; kinetic %.4g, elastic %.3g, plastic %.3g, broken %.3g J; "
           "worst |total - total0| = %.3g J = %.2e of the initial %.4g J\n",
           (long long)floe_break_count(w), e[FLOE_E_KINETIC] + e[FLOE_E_ROTATIONAL], e[FLOE_E_ELASTIC],
           e[FLOE_E_PLASTIC], e[FLOE_E_BROKEN], worst, worst / e0, e0);
    CHECK(floe_break_count(w) > 10);
    CHECK(e[FLOE_E_BROKEN] > 0);
    CHECK(worst < 1e-2 * e0);
    floe_world_destroy(w);
}

int main(void) {
    test_parameters();
    test_plastic_limits();
    test_breaking_energy();
    for (int s = 0; s < 4; s++) {
        floe_event batched, single;
        test_break_sense(s, 0, &batched);
        test_break_sense(s, 1, &single);
        CHECK(memcmp(&batched, &single, sizeof batched) == 0); /* both paths: the same event, bit for bit */
    }
    test_unbonded_tension();
    test_bonds0_bonds1();
    return CHECK_DONE();
}
