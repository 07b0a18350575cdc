/* Damaged restart files: a good restart file is copied and one
 * dataset or attribute is overwritten through the HDF5 API; the loader must
 * refuse the copy, naming that dataset or attribute, and `floe resume` must
 * exit with status 2. Never a crash, a hang or a run from garbage.
 *
 * usage: test_restart_damaged CLASS (CMake adds one CTest case per class:
 * bounds, world, skin, particles, pairs, contacts, shapes, run, cell, corpus).
 * "corpus" replays tests/fuzz/corpus/restart and tests/fuzz/crashes/restart
 * through the fuzzing harness. */
#include "check.h"
#include "core/world.h"
#include "io/restart.h"
#include "proc.h"

#define FUZZ_RESTART_ENTRY fuzz_restart_one
#include "fuzz/fuzz_restart.c"

#include <dirent.h>
#include <sys/stat.h>

static char tmp[256];
static char good[512]; /* the intact restart file */
static int ncases, nrefused;

/* Copies the good file to `dst`, opens the copy for writing. */
static hid_t copy_of_good(const char *dst) {
    size_t len = 0;
    char *bytes = check_slurp(good, &len);
    FILE *f = fopen(dst, "wb");
    int ok = bytes && f && fwrite(bytes, 1, len, f) == len;
    if (f) fclose(f);
    free(bytes);
    return ok ? H5Fopen(dst, H5F_ACC_RDWR, H5P_DEFAULT) : -1;
}

typedef int damage_fn(hid_t f);

/* Damages a copy with `fn`, which must succeed; the loader must refuse it
 * with a message naming `name` (and, if given, containing `why`). With
 * `cli`, `floe resume FILE` must exit 2 with the same message. */
static void expect_refused(const char *label, damage_fn *fn, const char *name, const char *why, int cli) {
    char path[700], err[2048];
    snprintf(path, sizeof path, "%s/damaged_%d.h5", tmp, ncases++);
    hid_t f = copy_of_good(path);
    int damaged = f >= 0 && fn(f) == 0;
    if (f >= 0) H5Fclose(f);
    if (!damaged) {
        fprintf(stderr, "%s: could not damage the copy\n", label);
        CHECK(0);
        return;
    }
    floe_restart r;
    int rc = floe_restart_load(path, &r, err, sizeof err);
    if (rc == 0) {
        fprintf(stderr, "%s: the damaged file was accepted\n", label);
        CHECK(0);
        floe_restart_free(&r);
        return;
    }
    int named = strstr(err, name) != NULL && (!why || strstr(err, why) != NULL);
    if (!named)
        fprintf(stderr, "%s: the message does not name %s%s%s: %s\n", label, name, why ? " / " : "", why ? why : "",
                err);
    CHECK(named);
    nrefused += named;
    REPORT("%-22s %s\n", label, strstr(err, ": /") ? strstr(err, ": /") + 2 : err);
    if (cli) {
        char log[600];
        snprintf(log, sizeof log, "%s/resume.log", tmp);
        const char *argv[] = {"floe", "resume", path, NULL};
        int st = run_cli(argv, log, 0);
        char *msg = check_slurp(log, NULL);
        CHECK(st == 2 && msg && strstr(msg, name));
        if (st != 2) fprintf(stderr, "%s: floe resume exited with %d: %s\n", label, st, msg ? msg : "");
        free(msg);
    }
}

/* ---- one damage each ------------------------------------------------------- */

#define SETF(fname, path, idx, val) \
    static int fname(hid_t f) { return h5m_set(f, path, idx, val, 0); }
#define SETI(fname, path, idx, val) \
    static int fname(hid_t f) { return h5m_set(f, path, idx, 0, val); }
#define RETYPE(fname, path, val) \
    static int fname(hid_t f) { return h5m_replace(f, path, H5T_IEEE_F64LE, 0, 0, val); }

/* bounds: the broad phase sizes its grid from /particles/bound */
SETF(bound_huge, "/particles/bound", 3, 1e308)
SETF(bound_int_max, "/particles/bound", 3, 2147483647.0)
SETF(bound_nan, "/particles/bound", 3, NAN)
SETF(bound_zero, "/particles/bound", 4, 0)
SETF(radius_negative, "/particles/radius", 4, -0.01)

/* world: step, time and dt counters */
RETYPE(step_nan, "/world@step", NAN)
RETYPE(last_dyn_dt_nan, "/world@last_dyn_dt", NAN)
SETI(step_negative, "/world@step", 0, -5)
SETI(last_dyn_dt_future, "/world@last_dyn_dt", 0, 1000000)
SETF(time_nan, "/world@time", 0, NAN)
SETF(dt_nan, "/world@dt", 0, NAN)
SETF(dt_zero, "/world@dt", 0, 0)
SETF(dt_safety_big, "/world@dt_safety", 0, 5)
SETI(threads_huge, "/world@threads", 0, 100000)
SETF(gravity_inf, "/world@gravity", 2, INFINITY)
SETF(energy_nan, "/energy@elastic", 0, NAN)

/* skin: the Verlet skin of the pair search */
SETF(skin_nan, "/world@skin", 0, NAN)
SETF(skin_inf, "/world@skin", 0, INFINITY)
SETF(skin_negative, "/world@skin", 0, -1)
SETF(margin_nan, "/broadphase@margin", 0, NAN)

/* particles */
SETF(pos_nan, "/particles/pos", 5, NAN)
SETF(pos_huge, "/particles/pos", 5, 1e308)
SETF(vel_inf, "/particles/vel", 7, INFINITY)
static int ori_zero(hid_t f) {
    int rc = 0;
    for (int k = 0; k < 4; k++) rc |= h5m_set(f, "/particles/ori", 4 * 2 + k, 0, 0);
    return rc;
}
SETF(mass_negative, "/particles/mass", 3, -1)
SETF(mass_zero, "/particles/mass", 3, 0)
SETI(material_missing, "/particles/material", 3, 99)
SETI(shape_unknown, "/particles/shape", 3, 9)
SETI(groups_unknown, "/particles/groups", 3, 1ll << 30)
SETI(blocked_bits, "/particles/blocked", 3, 1 << 10)
SETF(angmom_inf, "/particles/angmom", 3, INFINITY)

/* pairs: the broad-phase pair list */
static int pair_twice(hid_t f) { return h5m_copy_row(f, "/broadphase/pairs", 0, 1, 3); }
SETI(pair_self, "/broadphase/pairs", 1, 0) /* row 0: a, b = a's id */
SETI(pair_out_of_range, "/broadphase/pairs", 1, 100000)
SETI(pair_bad_contact, "/broadphase/pairs", 2, 100000)

/* contacts */
SETI(contact_a_out_of_range, "/contacts/a", 0, 100000)
static int contact_twice(hid_t f) {
    /* the second contact takes the first's particles and flags (which
     * depend on the bodies' shapes), and no pair */
    int rc = h5m_copy_row(f, "/contacts/a", 0, 1, 1) | h5m_copy_row(f, "/contacts/b", 0, 1, 1) |
             h5m_copy_row(f, "/contacts/flags", 0, 1, 1);
    int64_t pair = -1;
    rc |= h5m_set(f, "/contacts/pair", 1, 0, pair);
    /* and the pair that pointed at the second contact forgets it */
    hid_t ds = H5Dopen2(f, "/broadphase/pairs", H5P_DEFAULT);
    hid_t sp = ds >= 0 ? H5Dget_space(ds) : -1;
    hsize_t d[2] = {0, 0};
    if (sp < 0 || H5Sget_simple_extent_dims(sp, d, NULL) != 2) rc = -1;
    int32_t *p = calloc(d[0] * 3 + 1, sizeof *p);
    if (!rc && p && H5Dread(ds, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, p) >= 0) {
        for (hsize_t i = 0; i < d[0]; i++)
            if (p[3 * i + 2] == 1) p[3 * i + 2] = -1;
        rc |= H5Dwrite(ds, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, p) < 0;
    }
    free(p);
    if (sp >= 0) H5Sclose(sp);
    if (ds >= 0) H5Dclose(ds);
    return rc;
}
SETF(normal_nan, "/contacts/normal", 0, NAN)
SETF(kn_negative, "/contacts/kn", 0, -1)
SETI(flags_garbage, "/contacts/flags", 0, 255)
SETF(force_inf, "/contacts/force", 0, INFINITY)
SETI(contact_instance, "/contacts/instance", 0, 9999)
static int state_nan(hid_t f) { /* a NaN in the first double of a contact's model state */
    double nan = NAN;
    unsigned char b[8];
    memcpy(b, &nan, 8);
    int rc = 0;
    for (int k = 0; k < 8; k++) rc |= h5m_set(f, "/contacts/state", k, 0, b[k]);
    return rc;
}

/* shapes and types of datasets */
static int pos_two_columns(hid_t f) { return h5m_replace(f, "/particles/pos", H5T_IEEE_F64LE, 10, 2, 0); }
static int material_as_float(hid_t f) { return h5m_replace(f, "/particles/material", H5T_IEEE_F64LE, 10, 0, 0.5); }
static int pos_as_int(hid_t f) { return h5m_replace(f, "/particles/pos", H5T_STD_I32LE, 10, 3, 0); }
static int vel_missing(hid_t f) { return h5m_delete(f, "/particles/vel"); }
static int pairs_rows(hid_t f) { return h5m_replace(f, "/broadphase/pairs", H5T_STD_I32LE, 2, 2, 0); }
static int skin_missing(hid_t f) { return h5m_delete(f, "/world@skin"); }

/* run and outputs */
SETI(total_steps_negative, "/run@total_steps", 0, -1)
SETF(duration_nan, "/run@duration", 0, NAN)
SETI(stream_negative, "/output/streams", 3, -7)
SETI(width_huge, "/output@width", 0, 99)
SETF(interval_nan, "/output_config@every_interval", 1, NAN)
SETI(csv_bytes_bad, "/output@csv_bytes", 0, -5)
static int frames_disorder(hid_t f) { return h5m_copy_row(f, "/output/frame_step", 0, 1, 1); }

/* cell: the periodic cell of the "cell" class's good file (x and y
 * periodic, z not). A cell matrix whose vectors span no volume, one that
 * is not the identity along z, a cell narrower than twice the pair search
 * distance (0.03 m against 2 x (2 x 0.01 + skin 0.001) = 0.042 m, in H
 * and in the H the pair list was built with), a velocity gradient or a
 * servo along z: the engine could not run them (a zero H made a resumed
 * run stop at its next pair search, "the cell is -nan m wide"). */
static int cell_h_zero(hid_t f) {
    int rc = 0;
    for (int k = 0; k < 9; k++) rc |= h5m_set(f, "/cell@h", k, 0, 0);
    return rc;
}
SETF(cell_h_nan, "/cell@h", 0, NAN)
static int cell_narrow(hid_t f) { return h5m_set(f, "/cell@h", 0, 0.03, 0) | h5m_set(f, "/cell@h_ref", 0, 0.03, 0); }
SETF(cell_h0_not_identity, "/cell@h0", 8, 2)
SETF(cell_gradient_z, "/cell@velocity_gradient", 2, 1)
SETI(cell_servo_z, "/cell@servo_axes", 0, 4)

/* ---- the good file ------------------------------------------------------------ */

static const char *scene_text =
    "world: {gravity: [0, 0, -9.81], dt: auto}\n"
    "run: {steps: 40}\n"
    "materials: [{name: m, model: ice, density: 900, young: 3e6}]\n"
    "models: {ice: {bonds0: 255, bond_tol: 0.1}}\n"
    "walls: [{axis: z, pos: 0, sense: 1}]\n"
    "generators:\n"
    "  - lattice: {origin: [0, 0, 0.0099], spacing: 0.0199, counts: [3, 3, 1], radius: 0.01}\n"
    "output: {vtk: {every: 5}, energy: {every: 5}}\n";

/* The "cell" class's: the same sheet in a cell periodic in x and y, three
 * spacings wide, bonded across the faces. */
static const char *cell_scene_text =
    "world: {gravity: [0, 0, -9.81], dt: auto}\n"
    "run: {steps: 40}\n"
    "materials: [{name: m, model: ice, density: 900, young: 3e6}]\n"
    "models: {ice: {bonds0: 255, bond_tol: 0.1}}\n"
    "periodic: {x: [-0.00995, 0.04975], y: [-0.00995, 0.04975]}\n"
    "walls: [{axis: z, pos: 0, sense: 1}]\n"
    "generators:\n"
    "  - lattice: {origin: [0, 0, 0.0099], spacing: 0.0199, counts: [3, 3, 1], radius: 0.01}\n"
    "output: {vtk: {every: 5}, energy: {every: 5}}\n";

static int make_good(const char *text) {
    char scene[400], out[400], log[400];
    check_write_tmp(tmp, "scene.yaml", text, scene, sizeof scene);
    snprintf(out, sizeof out, "%s/run", tmp);
    snprintf(log, sizeof log, "%s/run.log", tmp);
    const char *argv[] = {"floe", "run", scene, "--out", out, "--threads", "1", "--stop-at", "20", NULL};
    CHECK(run_cli(argv, log, 0) == 0);
    snprintf(good, sizeof good, "%s/restart_000000000020.h5", out);
    floe_restart r;
    char err[2048];
    if (floe_restart_load(good, &r, err, sizeof err) != 0) {
        fprintf(stderr, "the good restart does not load: %s\n", err);
        return 0;
    }
    /* the damages below need contacts, pairs and frames to damage */
    int ok = r.scene.world->ncon >= 2 && r.scene.world->bp.npairs >= 2 && r.output.nframes >= 2;
    if (!ok)
        fprintf(stderr, "the good restart has %d contacts, %d pairs, %zu frames: too few to damage\n",
                r.scene.world->ncon, r.scene.world->bp.npairs, r.output.nframes);
    CHECK(ok);
    floe_restart_free(&r);
    return ok;
}

typedef struct damage_case {
    const char *label;
    damage_fn *fn;
    const char *name; /* what the message must name */
    const char *why;  /* and say (NULL: anything) */
} damage_case;

#define CASE(fn, name, why) \
    { #fn, fn, name, why }

static const damage_case bounds_cases[] = {
    CASE(bound_huge, "/particles/bound", "bounding radius"), CASE(bound_int_max, "/particles/bound", NULL),
    CASE(bound_nan, "/particles/bound", NULL), CASE(bound_zero, "/particles/bound", NULL),
    CASE(radius_negative, "/particles/radius", NULL)};
static const damage_case world_cases[] = {
    CASE(step_nan, "/world@step", "integer"),   CASE(last_dyn_dt_nan, "/world@last_dyn_dt", "integer"),
    CASE(step_negative, "/world@step", NULL),   CASE(last_dyn_dt_future, "/world@last_dyn_dt", NULL),
    CASE(time_nan, "/world@time", NULL),        CASE(dt_nan, "/world@dt", NULL),
    CASE(dt_zero, "/world@dt", NULL),           CASE(dt_safety_big, "/world@dt_safety", NULL),
    CASE(threads_huge, "/world@threads", NULL), CASE(gravity_inf, "/world@gravity", NULL),
    CASE(energy_nan, "/energy@elastic", NULL)};
static const damage_case skin_cases[] = {CASE(skin_nan, "/world@skin", NULL), CASE(skin_inf, "/world@skin", NULL),
                                         CASE(skin_negative, "/world@skin", NULL),
                                         CASE(margin_nan, "/broadphase@margin", NULL)};
static const damage_case particle_cases[] = {CASE(pos_nan, "/particles/pos", NULL),
                                             CASE(pos_huge, "/particles/pos", NULL),
                                             CASE(vel_inf, "/particles/vel", NULL),
                                             CASE(ori_zero, "/particles/ori", NULL),
                                             CASE(mass_negative, "/particles/mass", NULL),
                                             CASE(mass_zero, "/particles/mass", NULL),
                                             CASE(material_missing, "/particles/material", "material 99"),
                                             CASE(shape_unknown, "/particles/shape", "bad shape 9"),
                                             CASE(groups_unknown, "/particles/groups", NULL),
                                             CASE(blocked_bits, "/particles/blocked", NULL),
                                             CASE(angmom_inf, "/particles/angmom", NULL)};
static const damage_case pair_cases[] = {
    CASE(pair_twice, "/broadphase/pairs", NULL), CASE(pair_self, "/broadphase/pairs", NULL),
    CASE(pair_out_of_range, "/broadphase/pairs", "pair 0"), CASE(pair_bad_contact, "/broadphase/pairs", "pair 0")};
static const damage_case contact_cases[] = {CASE(contact_a_out_of_range, "/contacts/a", "contact 0"),
                                            CASE(contact_twice, "/contacts/a", "earlier contact"),
                                            CASE(normal_nan, "/contacts/normal", NULL),
                                            CASE(kn_negative, "/contacts/kn", NULL),
                                            CASE(flags_garbage, "/contacts/flags", NULL),
                                            CASE(force_inf, "/contacts/force", NULL),
                                            CASE(contact_instance, "/contacts/instance", "bad instance"),
                                            CASE(state_nan, "/contacts/state", NULL)};
static const damage_case shape_cases[] = {
    CASE(pos_two_columns, "/particles/pos", NULL),        CASE(material_as_float, "/particles/material", "integers"),
    CASE(pos_as_int, "/particles/pos", "floating-point"), CASE(vel_missing, "/particles/vel", "missing"),
    CASE(pairs_rows, "/broadphase/pairs", NULL),          CASE(skin_missing, "/world@skin", "missing")};
static const damage_case run_cases[] = {CASE(total_steps_negative, "/run@total_steps", NULL),
                                        CASE(duration_nan, "/run@duration", NULL),
                                        CASE(stream_negative, "/output/streams", NULL),
                                        CASE(width_huge, "/output@width", NULL),
                                        CASE(interval_nan, "/output_config@every_interval", NULL),
                                        CASE(csv_bytes_bad, "/output@csv_bytes", NULL),
                                        CASE(frames_disorder, "/output/frame_step", NULL)};

static const damage_case cell_cases[] = {
    CASE(cell_h_zero, "/cell@h", "det H = 0"),
    CASE(cell_h_nan, "/cell@h", NULL),
    CASE(cell_narrow, "/cell@h_ref", "less than twice the pair search distance"),
    CASE(cell_h0_not_identity, "/cell@h0", "H[2][2] = 2: the row and column of axis z, which is not periodic"),
    CASE(cell_gradient_z, "/cell@velocity_gradient", "L[0][2] = 1 1/s needs both x and z periodic"),
    CASE(cell_servo_z, "/cell@servo_axes", "not periodic")};

typedef struct damage_class {
    const char *name;
    const damage_case *cases;
    int n;
} damage_class;
#define CLASS(name, arr) \
    { name, arr, (int)(sizeof arr / sizeof *arr) }
static const damage_class classes[] = {
    CLASS("bounds", bounds_cases),      CLASS("world", world_cases), CLASS("skin", skin_cases),
    CLASS("particles", particle_cases), CLASS("pairs", pair_cases),  CLASS("contacts", contact_cases),
    CLASS("shapes", shape_cases),       CLASS("run", run_cases),     CLASS("cell", cell_cases)};

/* Replays every file of the restart fuzzer's corpus and crash directories. */
static int replay(const char *sub) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/../fuzz/%s", FLOE_TEST_DATA, sub);
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char p[1400];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        size_t len = 0;
        char *bytes = check_slurp(p, &len);
        if (bytes) fuzz_restart_one((const uint8_t *)bytes, len);
        free(bytes);
        n++;
    }
    if (d) closedir(d);
    return n;
}

int main(int argc, char **argv) {
    const char *which = argc > 1 ? argv[1] : "";
    if (!strcmp(which, "corpus")) {
        int nc = replay("corpus/restart"), nx = replay("crashes/restart");
        CHECK(nc > 0);
        REPORT("replayed %d restart corpus inputs and %d crash regressions\n", nc, nx);
        return CHECK_DONE();
    }
    const damage_class *cl = NULL;
    for (size_t i = 0; i < sizeof classes / sizeof *classes; i++)
        if (!strcmp(classes[i].name, which)) cl = &classes[i];
    if (!cl) {
        fprintf(stderr,
                "usage: test_restart_damaged bounds|world|skin|particles|pairs|contacts|shapes|run|cell|corpus\n");
        return 2;
    }
    snprintf(tmp, sizeof tmp, "/tmp/floe_damaged_XXXXXX");
    CHECK(mkdtemp(tmp) != NULL);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (make_good(!strcmp(which, "cell") ? cell_scene_text : scene_text))
        for (int i = 0; i < cl->n; i++)
            expect_refused(cl->cases[i].label, cl->cases[i].fn, cl->cases[i].name, cl->cases[i].why, i == 0);
    REPORT("%s: %d of %d damaged restart files refused with the dataset's name\n", cl->name, nrefused, cl->n);
    if (!check_failures) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
        CHECK(system(cmd) == 0);
    }
    return CHECK_DONE();
}
