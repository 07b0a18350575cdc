/* contacts.csv carries what floe's own stress is made of
 * (docs/outputs.md#contactscsv-final-state): two frictional packings are
 * run by the command line, and the Love-Weber stress of their whole
 * region is recomputed from particles.csv and contacts.csv alone,
 *
 *   sigma_ij = (1/V) sum_c l_i f_j,  l = (x_B + s) - x_A,  f = (fx, fy, fz),
 *
 * x_A, x_B the centres (a wall's end is the contact point px, py, pz), s
 * the image shift (sx, sy, sz), V the cell's volume from history.csv
 * (counter cell.volume) or the region's from measurements.csv; it must
 * equal the stress measurements.csv reports (floe_stress_tensor) to 1e-12
 * of its largest component (the same sums in the same order: measured
 * equal to the bit). The packings:
 *
 * 1. 377 frictional spheres in a periodic cell compressed and sheared at
 *    once (L = -2 I + 10 e_x e_y, 1000 steps: H_xy is not zero, so the
 *    image offsets alone would not give the shifts): 1149 contacts, 162
 *    of them frictional through the faces;
 * 2. 176 frictional spheres settling under gravity in a box of five
 *    frictional walls: 356 contacts, 80 of them frictional with a wall
 *    (whose branch starts at the contact point).
 *
 * Measured: both stresses equal to the bit; the body sums to 3e-15.
 * Before contacts.csv had the global force, the image shift and the
 * torques, none of this could be computed from the files (the test stops
 * at the missing columns).
 *
 * And the columns' signs: every body's force and torque summed from the
 * rows (f and the torque tax.. on A, -f and tbx.. on B) equal its force and
 * torque in particles.csv to 1e-12 of the largest (the engine sums the
 * same terms in another order). */
#include "check.h"
#include "proc.h"

#include <stdlib.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/floe_test_contacts_csv_XXXXXX";

/* A CSV table in memory: the header's names and every row's fields. */
typedef struct table {
    char *text;
    int ncol, nrow;
    char **head;
    char ***rows;
} table;

static int split_line(char *s, char **f, int cap) {
    int n = 0;
    while (n < cap) {
        f[n++] = s;
        char *c = strchr(s, ',');
        if (!c) break;
        *c = 0;
        s = c + 1;
    }
    return n;
}

static int read_table(const char *dir, const char *name, table *t) {
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    memset(t, 0, sizeof *t);
    t->text = check_slurp(path, NULL);
    if (!t->text) return -1;
    int lines = 0;
    for (char *p = t->text; *p; p++) lines += *p == '\n';
    char **line = calloc((size_t)lines + 1, sizeof *line);
    int n = 0;
    for (char *p = strtok(t->text, "\n"); p && n <= lines; p = strtok(NULL, "\n")) line[n++] = p;
    if (n == 0) {
        free(line);
        return -1;
    }
    t->head = calloc(256, sizeof *t->head);
    t->ncol = split_line(line[0], t->head, 256);
    t->nrow = n - 1;
    t->rows = calloc((size_t)n, sizeof *t->rows);
    for (int i = 1; i < n; i++) {
        t->rows[i - 1] = calloc((size_t)t->ncol + 1, sizeof **t->rows);
        CHECK(split_line(line[i], t->rows[i - 1], t->ncol) == t->ncol);
    }
    free(line);
    return 0;
}

static void free_table(table *t) {
    for (int i = 0; i < t->nrow; i++) free(t->rows[i]);
    free(t->rows);
    free(t->head);
    free(t->text);
}

static int col(const table *t, const char *name) {
    for (int k = 0; k < t->ncol; k++)
        if (!strcmp(t->head[k], name)) return k;
    fprintf(stderr, "test_contacts_csv: no column %s\n", name);
    check_failures++;
    return -1;
}

/* Row r's values of the three columns starting at `name` (x, y, z). */
static void vec_at(const table *t, int r, const char *name, double v[3]) {
    int c = col(t, name);
    for (int k = 0; k < 3; k++) v[k] = c >= 0 ? strtod(t->rows[r][c + k], NULL) : NAN;
}

static double num_at(const table *t, int r, const char *name) {
    int c = col(t, name);
    return c >= 0 ? strtod(t->rows[r][c], NULL) : NAN;
}

/* The value of quantity q of region `name` in measurements.csv. */
static double measured(const table *m, const char *name, const char *q) {
    for (int r = 0; r < m->nrow; r++)
        if (!strcmp(m->rows[r][1], name) && !strcmp(m->rows[r][2], q)) return strtod(m->rows[r][3], NULL);
    CHECK(0);
    return NAN;
}

static void run_scene(const char *name, const char *text, char *out, size_t len) {
    char scene[512], log[600];
    check_write_tmp(tmpdir, name, text, scene, sizeof scene);
    snprintf(out, len, "%s/%s.out", tmpdir, name);
    snprintf(log, sizeof log, "%s.log", out);
    const char *argv[] = {"floe", "run", scene, "--out", out, NULL};
    int rc = run_cli(argv, log, 0);
    CHECK(rc == 0);
    if (rc != 0) {
        char *l = check_slurp(log, NULL);
        fprintf(stderr, "%s\n", l ? l : "(no log)");
        free(l);
    }
}

/* Recomputes the stress of region `region` of the run in `out` (volume:
 * history's cell.volume if cell, else the region's) and checks it and the
 * bodies' sums. Returns the largest difference relative to max |sigma|. */
static double check_run(const char *what, const char *out, const char *region, int cell, int *images, int *walls) {
    table p, c, m;
    CHECK(read_table(out, "particles.csv", &p) == 0);
    CHECK(read_table(out, "contacts.csv", &c) == 0);
    CHECK(read_table(out, "measurements.csv", &m) == 0);
    double V = measured(&m, region, "volume");
    if (cell) {
        table h;
        CHECK(read_table(out, "history.csv", &h) == 0);
        V = num_at(&h, h.nrow - 1, "volume");
        CHECK(num_at(&h, h.nrow - 1, "step") == 1000);
        free_table(&h);
    }
    const int np = p.nrow, cs = col(&p, "shape");
    double(*x)[3] = calloc((size_t)np, sizeof *x), (*fsum)[6] = calloc((size_t)np, sizeof *fsum);
    int *particle = calloc((size_t)np, sizeof *particle);
    for (int i = 0; i < np; i++) {
        CHECK(atoi(p.rows[i][0]) == i);
        vec_at(&p, i, "x", x[i]);
        particle[i] = cs >= 0 && strcmp(p.rows[i][cs], "wall") != 0;
    }
    double s[9] = {0};
    *images = *walls = 0;
    int sheared = 0;
    for (int r = 0; r < c.nrow; r++) {
        int a = atoi(c.rows[r][0]), b = atoi(c.rows[r][1]);
        double f[3], pt[3], sh[3], im[3], ta[3], tb[3];
        vec_at(&c, r, "fx", f);
        vec_at(&c, r, "px", pt);
        vec_at(&c, r, "sx", sh);
        vec_at(&c, r, "ix", im);
        vec_at(&c, r, "tax", ta);
        vec_at(&c, r, "tbx", tb);
        int friction = num_at(&c, r, "fty") != 0 || num_at(&c, r, "ftz") != 0;
        if (im[0] != 0 || im[1] != 0 || im[2] != 0) {
            *images += friction;
            /* a sheared cell: the shift is not the offsets times the sides */
            sheared |= im[1] != 0 && sh[0] != 0;
        }
        if (!particle[a]) *walls += friction;
        /* the branch from A's end to B's end: centres (B's image's), or
         * the contact point for a wall (measure.c, contact_branch) */
        double l[3];
        for (int k = 0; k < 3; k++) {
            double pa = particle[a] ? x[a][k] : pt[k], pb = particle[b] ? x[b][k] + sh[k] : pt[k];
            l[k] = pb - pa;
        }
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) s[3 * i + j] += l[i] * f[j];
        for (int k = 0; k < 3; k++) {
            fsum[a][k] += f[k];
            fsum[b][k] -= f[k];
            fsum[a][3 + k] += ta[k];
            fsum[b][3 + k] += tb[k];
        }
    }
    static const char *const q[9] = {"stress.xx", "stress.xy", "stress.xz", "stress.yx", "stress.yy",
                                     "stress.yz", "stress.zx", "stress.zy", "stress.zz"};
    double want[9], big = 0, diff = 0;
    for (int k = 0; k < 9; k++) big = fmax(big, fabs(want[k] = measured(&m, region, q[k])));
    for (int k = 0; k < 9; k++) diff = fmax(diff, fabs(s[k] / V - want[k]) / big);
    /* the bodies' sums against particles.csv */
    double fbig = 0, tbig = 0, fdiff = 0, tdiff = 0;
    for (int i = 0; i < np; i++) {
        double fp[3], tp[3];
        vec_at(&p, i, "fx", fp);
        vec_at(&p, i, "tx", tp);
        for (int k = 0; k < 3; k++) {
            fbig = fmax(fbig, fabs(fp[k]));
            tbig = fmax(tbig, fabs(tp[k]));
            fdiff = fmax(fdiff, fabs(fsum[i][k] - fp[k]));
            tdiff = fmax(tdiff, fabs(fsum[i][3 + k] - tp[k]));
        }
    }
    REPORT("%s: %d contacts (%d frictional through an image, %d frictional with a wall); stress from the files "
           "against floe's: largest difference %.3g of %.6g Pa; body sums: force %.3g, torque %.3g relative\n",
           what, c.nrow, *images, *walls, diff, big, fdiff / fbig, tdiff / tbig);
    CHECK(big > 0);
    CHECK(diff <= 1e-12);
    CHECK(fdiff <= 1e-12 * fbig);
    CHECK(tdiff <= 1e-12 * tbig);
    if (cell) CHECK(sheared);
    free(x);
    free(fsum);
    free(particle);
    free_table(&p);
    free_table(&c);
    free_table(&m);
    return diff;
}

static const char *const periodic_scene =
    "world: {gravity: [0, 0, 0], dt: auto, dt_safety: 0.5, threads: 1}\n"
    "run: {steps: 1000}\n"
    "materials:\n"
    "  - {name: grain, model: linear, density: 2500, young: 5e6, kt_div_kn: 0.5, tan_phi: 0.4}\n"
    "periodic:\n"
    "  x: [0, 0.05]\n"
    "  y: [0, 0.05]\n"
    "  z: [0, 0.05]\n"
    "  velocity_gradient: [[-2, 10, 0], [0, -2, 0], [0, 0, -2]]\n"
    "  affine_velocities: true\n"
    "generators:\n"
    "  - dense: {box: [[0, 0, 0], [0.05, 0.05, 0.05]], radius: [0.003, 0.004], solid_fraction: 0.56, seed: 5,\n"
    "            material: grain}\n"
    "output:\n"
    "  final_state: true\n"
    "  regions:\n"
    "    - {name: cell, min: [0, 0, 0], max: [0.05, 0.05, 0.05], whole: true}\n"
    "  history:\n"
    "    every: 1000\n"
    "    columns:\n"
    "      - {name: volume, counter: cell.volume}\n";

static const char *const box_scene =
    "world: {gravity: [0, 0, -9.81], dt: auto, dt_safety: 0.5, threads: 1, damping: 0.3}\n"
    "run: {steps: 2000}\n"
    "materials:\n"
    "  - {name: grain, model: linear, density: 2500, young: 5e6, kt_div_kn: 0.5, tan_phi: 0.4}\n"
    "  - {name: steel, model: linear, density: 7800, young: 5e6, kt_div_kn: 0.5, tan_phi: 0.3}\n"
    "walls:\n"
    "  - {axis: z, pos: 0.0, sense: 1, material: steel}\n"
    "  - {axis: x, pos: 0.0, sense: 1, material: steel}\n"
    "  - {axis: x, pos: 0.04, sense: -1, material: steel}\n"
    "  - {axis: y, pos: 0.0, sense: 1, material: steel}\n"
    "  - {axis: y, pos: 0.04, sense: -1, material: steel}\n"
    "generators:\n"
    "  - dense: {box: [[0, 0, 0], [0.04, 0.04, 0.04]], radius: [0.003, 0.004], solid_fraction: 0.5, seed: 2,\n"
    "            material: grain}\n"
    "output:\n"
    "  final_state: true\n"
    "  regions:\n"
    "    - {name: box, min: [0, 0, 0], max: [0.04, 0.04, 0.04], whole: true}\n";

int main(void) {
    if (!mkdtemp(tmpdir)) return 1;
    char out[600];
    int images, walls;
    run_scene("periodic.yaml", periodic_scene, out, sizeof out);
    check_run("periodic cell, compressed and sheared", out, "cell", 1, &images, &walls);
    CHECK(images > 50);
    run_scene("box.yaml", box_scene, out, sizeof out);
    check_run("box of walls under gravity", out, "box", 0, &images, &walls);
    CHECK(walls > 20 && images == 0);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
