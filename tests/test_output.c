/* Output writers: a small world (two spheres on a wall, one falling onto the
 * other and bouncing off) runs with every output on; the files are read back
 * and checked against the public API: CSV headers and row counts, history
 * values equal to the API's, particles.csv positions bit-exact, VTK files
 * well-formed (declared counts, appended block sizes, contiguous blocks),
 * the .pvd listing every frame, events for created and deleted contacts.
 * Also: cadence from an interval, outputs off, a bad directory. */
#include "check.h"
#include "io/csv.h"
#include "io/output.h"
#include "io/vtk.h"
#include "vtk_read.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- file helpers ------------------------------------------------------ */


static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void rm_rf(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char sub[4096];
            snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
            rm_rf(sub);
        }
        if (d) closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* Lines of a text file, the header first; returns the count (0 if missing). */
static int read_lines(const char *path, char ***lines)
{
    char *text = check_slurp(path, NULL);
    *lines = NULL;
    if (!text) return 0;
    int n = 0, cap = 0;
    char **v = NULL;
    for (char *p = text, *nl; *p; p = nl + 1) {
        nl = strchr(p, '\n');
        if (!nl) {
            fprintf(stderr, "%s: last line has no newline\n", path);
            check_failures++;
            break;
        }
        *nl = '\0';
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            v = realloc(v, (size_t)cap * sizeof *v);
        }
        v[n++] = strdup(p);
    }
    free(text);
    *lines = v;
    return n;
}

static void free_lines(char **lines, int n)
{
    for (int i = 0; i < n; i++) free(lines[i]);
    free(lines);
}

/* Splits a CSV line (no quoted fields here) in place; returns the field count. */
static int split(char *line, char **f, int cap)
{
    int n = 0;
    for (char *p = line;; p++) {
        if (n < cap) f[n] = p;
        n++;
        p = strchr(p, ',');
        if (!p) break;
        *p = '\0';
    }
    return n;
}

static int column(const char *header, const char *name)
{
    char *h = strdup(header), *f[256];
    int n = split(h, f, 256), found = -1;
    for (int i = 0; i < n && i < 256; i++)
        if (!strcmp(f[i], name)) found = i;
    free(h);
    return found;
}

/* ---- VTK ------------------------------------------------------------- */

/* Entries of a .pvd: the file names, in order. */
static int pvd_files(const char *path, char files[][128], double *times, int cap)
{
    char *text = check_slurp(path, NULL);
    if (!text) return -1;
    CHECK(strstr(text, "<VTKFile type=\"Collection\"") != NULL);
    CHECK(strstr(text, "</Collection>\n</VTKFile>\n") != NULL);
    int n = 0;
    for (char *p = text; (p = strstr(p, "<DataSet ")); p++) {
        if (n < cap) {
            attr_str(p, "file", files[n], 128);
            char t[64];
            attr_str(p, "timestep", t, sizeof t);
            times[n] = strtod(t, NULL);
        }
        n++;
    }
    free(text);
    return n;
}

/* ---- the scene --------------------------------------------------------- */

enum { NSTEPS = 100, SNAP_STEP = 50 };

static floe_world *make_world_models(int *floor_group, const char *sphere_model);

static floe_world *make_world(int *floor_group) { return make_world_models(floor_group, "linear"); }

/* Spheres of `sphere_model`, the wall "linear" (the sphere-wall pair then
 * takes the fallback model, DECISIONS G7). */
static floe_world *make_world_models(int *floor_group, const char *sphere_model)
{
    floe_world_def def = floe_default_world_def();
    def.gravity = (floe_vec3){0, 0, -9.81};
    def.dt = 1e-6;
    floe_world *w = floe_world_create(&def);
    int mat = floe_add_material(w, "m", sphere_model);
    int wmat = strcmp(sphere_model, "linear") ? floe_add_material(w, "wall", "linear") : mat;
    CHECK(mat >= 0 && wmat >= 0);
    *floor_group = floe_add_group(w, "floor");
    const double R = 0.01;
    floe_body_def b = floe_default_body_def();
    b.material = mat;
    b.pos = (floe_vec3){0, 0, R - 1e-6};
    CHECK(floe_add_sphere(w, &b, R) == 0);
    b.pos = (floe_vec3){0.001, 0, 3 * R + 1e-5};
    b.vel = (floe_vec3){0, 0, -1};
    CHECK(floe_add_sphere(w, &b, R) == 1);
    floe_body_def wd = floe_default_body_def();
    wd.material = wmat;
    wd.groups = 1u << *floor_group;
    CHECK(floe_add_wall(w, &wd, 2, 1) == 2);
    return w;
}

static floe_history_column hcol(const char *name, floe_history_kind kind, const char *q)
{
    floe_history_column c;
    memset(&c, 0, sizeof c);
    snprintf(c.name, sizeof c.name, "%s", name);
    snprintf(c.quantity, sizeof c.quantity, "%s", q);
    c.kind = kind;
    return c;
}

enum { NHIST = 8 };

/* What each history column should hold, straight from the API. */
static void api_history(const floe_world *w, int g, double out[NHIST])
{
    out[0] = floe_positions(w)[1].z;
    out[1] = floe_velocities(w)[0].z;
    int ci = floe_contact_find(w, 0, 1);
    floe_contact_info info;
    out[2] = ci >= 0 && floe_contact_get(w, ci, &info) == FLOE_OK ? info.force.x : 0.0;
    out[3] = ci >= 0 ? info.uN : 0.0;
    out[4] = floe_group_force(w, g).z;
    double e[FLOE_E_COUNT];
    floe_energy(w, e);
    out[5] = e[FLOE_E_KINETIC];
    out[6] = floe_contact_count(w);
    out[7] = floe_time(w);
}

static void test_full_run(const char *tmp)
{
    int g;
    floe_world *w = make_world(&g);
    char dir[1024], path[4200];
    snprintf(dir, sizeof dir, "%s/run/nested", tmp); /* mkdir -p */

    floe_history_column cols[NHIST] = {
        hcol("b_z", FLOE_HIST_PARTICLE, "pos.z"),       hcol("a_vz", FLOE_HIST_PARTICLE, "vel.z"),
        hcol("fn_ab", FLOE_HIST_CONTACT, "fn"),         hcol("un_ab", FLOE_HIST_CONTACT, "un"),
        hcol("floor_fz", FLOE_HIST_GROUP, "force.z"),   hcol("ek", FLOE_HIST_ENERGY, "kinetic"),
        hcol("contacts", FLOE_HIST_COUNTER, "contacts"), hcol("t", FLOE_HIST_COUNTER, "time"),
    };
    cols[0].a = 1;
    cols[1].a = 0;
    cols[2].a = 0, cols[2].b = 1;
    cols[3].a = 1, cols[3].b = 0; /* either order finds the contact */
    cols[4].group = g;
    cols[5].energy = FLOE_E_KINETIC;

    floe_output_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.vtk.steps = 7;
    cfg.vtk_contacts = 1;
    cfg.vtk_boundaries = 1;
    cfg.energy.steps = 4;
    cfg.history.interval = 3e-6; /* 3 dt: steps 3, 6, ... although the summed time misses 3e-6 k by rounding */
    cfg.history_cols = cols;
    cfg.n_history_cols = NHIST;
    cfg.final_state = 1;

    char err[512] = "";
    floe_output *o = floe_output_open(dir, &cfg, w, NSTEPS, err, sizeof err);
    if (!o) fprintf(stderr, "open: %s\n", err);
    CHECK(o != NULL);
    if (!o) {
        floe_world_destroy(w);
        return;
    }
    double expect[NSTEPS + 2][NHIST];
    int64_t expect_step[NSTEPS + 2];
    int nexpect = 0, max_contacts = 0;
    api_history(w, g, expect[nexpect]);
    expect_step[nexpect++] = 0;
    for (int s = 1; s <= NSTEPS; s++) {
        CHECK(floe_step(w) == FLOE_OK);
        CHECK(floe_output_step(o, w) == 0);
        if (floe_contact_count(w) > max_contacts) max_contacts = floe_contact_count(w);
        if (s == SNAP_STEP) {
            CHECK(floe_output_snapshot(o, w) == 0);
            CHECK(floe_output_snapshot(o, w) == 0); /* same step: nothing new */
        }
        if (s == 60) {
            /* mid-run, what is on disk is complete: whole lines, a valid .pvd */
            char **mid;
            snprintf(path, sizeof path, "%s/energy.csv", dir);
            int nl = read_lines(path, &mid); /* flags a last line without '\n' */
            CHECK(nl == 1 + 16 + 1);         /* 0, 4, ..., 60 and the snapshot at 50 */
            free_lines(mid, nl);
            char files[64][128];
            double times[64];
            snprintf(path, sizeof path, "%s/particles.pvd", dir);
            CHECK(pvd_files(path, files, times, 64) == 9 + 1); /* 0, 7, ..., 56 and 50 */
        }
        if (s % 3 == 0 || s == SNAP_STEP || s == NSTEPS) {
            api_history(w, g, expect[nexpect]);
            expect_step[nexpect++] = s;
        }
    }
    CHECK(max_contacts == 2);
    CHECK(floe_output_close(o, w) == 0);

    /* energy.csv: steps 0, 4, ..., 100 plus the snapshot at 50 */
    char **lines;
    snprintf(path, sizeof path, "%s/energy.csv", dir);
    int n = read_lines(path, &lines);
    CHECK(n == 1 + 26 + 1);
    if (n > 0) {
        char want[1024] = "step,time";
        for (int t = 0; t < FLOE_E_COUNT; t++) {
            strcat(want, ",");
            strcat(want, floe_energy_name((floe_energy_term)t));
        }
        CHECK(strcmp(lines[0], want) == 0);
        char *f[64];
        for (int i = 1; i < n; i++) CHECK(split(lines[i], f, 64) == 2 + FLOE_E_COUNT);
        if (n > 2) CHECK(strtoll(lines[n - 1], NULL, 10) == NSTEPS);
    }
    free_lines(lines, n);

    /* history.csv: values equal to the API's at the same steps */
    snprintf(path, sizeof path, "%s/history.csv", dir);
    n = read_lines(path, &lines);
    CHECK(n == 1 + nexpect);
    if (n > 0) CHECK(strcmp(lines[0], "step,time,b_z,a_vz,fn_ab,un_ab,floor_fz,ek,contacts,t") == 0);
    int saw_contact = 0;
    for (int i = 1; i < n && i - 1 < nexpect; i++) {
        char *f[64];
        CHECK(split(lines[i], f, 64) == 2 + NHIST);
        CHECK(strtoll(f[0], NULL, 10) == expect_step[i - 1]);
        for (int k = 0; k < NHIST; k++) {
            double got = strtod(f[2 + k], NULL);
            if (got != expect[i - 1][k]) {
                fprintf(stderr, "history row %d (step %s) column %s: %s != %.17g\n", i, f[0],
                        cols[k].name, f[2 + k], expect[i - 1][k]);
                check_failures++;
            }
        }
        saw_contact |= expect[i - 1][2] != 0;
    }
    CHECK(saw_contact);
    free_lines(lines, n);

    /* events.csv: both contacts created, the bouncing one deleted */
    snprintf(path, sizeof path, "%s/events.csv", dir);
    n = read_lines(path, &lines);
    int created = 0, deleted = 0;
    if (n > 0) CHECK(strcmp(lines[0], "step,time,type,a,b,fn,ft_y,ft_z,tw,tr_y,tr_z,detail,value1,value2") == 0);
    for (int i = 1; i < n; i++) {
        char *f[64];
        CHECK(split(lines[i], f, 64) == 14);
        created += !strcmp(f[2], "created");
        deleted += !strcmp(f[2], "deleted");
    }
    REPORT("events: %d created, %d deleted\n", created, deleted);
    CHECK(created >= 2);
    CHECK(deleted >= 1);
    free_lines(lines, n);

    /* particles.csv round-trips the state bit for bit */
    snprintf(path, sizeof path, "%s/particles.csv", dir);
    n = read_lines(path, &lines);
    CHECK(n == 1 + floe_particle_count(w));
    if (n > 0) {
        CHECK(strcmp(lines[0], "id,shape,material,groups,blocked,x,y,z,vx,vy,vz,wx,wy,wz,qw,qx,qy,qz,"
                               "fx,fy,fz,tx,ty,tz,radius,mass") == 0);
        int cx = column(lines[0], "x"), cvz = column(lines[0], "vz"), cm = column(lines[0], "mass");
        for (int i = 1; i < n; i++) {
            char *f[64];
            CHECK(split(lines[i], f, 64) == 26);
            int id = atoi(f[0]);
            CHECK(id == i - 1);
            const floe_vec3 p = floe_positions(w)[id];
            CHECK(strtod(f[cx], NULL) == p.x && strtod(f[cx + 1], NULL) == p.y && strtod(f[cx + 2], NULL) == p.z);
            CHECK(strtod(f[cvz], NULL) == floe_velocities(w)[id].z);
            CHECK(strtod(f[cm], NULL) == floe_masses(w)[id]);
            CHECK(!strcmp(f[1], id == 2 ? "wall" : "sphere"));
        }
    }
    free_lines(lines, n);

    /* contacts.csv: one row per live contact, state columns named by the model */
    snprintf(path, sizeof path, "%s/contacts.csv", dir);
    n = read_lines(path, &lines);
    CHECK(n == 1 + floe_contact_count(w));
    if (n > 0) {
        static const char fixed[] = "a,b,model,uN,nx,ny,nz,px,py,pz,fn,fty,ftz,tw,try,trz,kn,kt,lens0,lens1,"
                                    "area,step_created";
        CHECK(strncmp(lines[0], fixed, sizeof fixed - 1) == 0);
        for (int i = 1; i < n; i++) {
            floe_contact_info ci;
            CHECK(floe_contact_get(w, i - 1, &ci) == FLOE_OK);
            const floe_model_info *mi = floe_model_find(ci.model);
            for (int k = 0; mi && k < mi->n_state; k++) CHECK(column(lines[0], mi->state_names[k]) >= 0);
            char *f[64];
            int nf = split(lines[i], f, 64);
            int hcount = 1;
            for (const char *q = lines[0]; *q; q++) hcount += *q == ',';
            CHECK(nf == hcount);
            CHECK(atoi(f[0]) == ci.a && atoi(f[1]) == ci.b && !strcmp(f[2], ci.model));
            CHECK(strtod(f[3], NULL) == ci.uN);
            CHECK(strtod(f[10], NULL) == ci.force.x);
            double st[16];
            int ns = floe_contact_state(w, i - 1, st, 16);
            if (ns > 0) CHECK(strtod(f[22], NULL) == st[0]);
        }
    }
    free_lines(lines, n);

    /* ParaView series: frames 0, 7, ..., 98, the snapshot at 50 and the final 100 */
    static const char *const series[3] = {"particles", "contacts", "boundaries"};
    for (int s = 0; s < 3; s++) {
        char files[64][128];
        double times[64];
        snprintf(path, sizeof path, "%s/%s.pvd", dir, series[s]);
        int nf = pvd_files(path, files, times, 64);
        CHECK(nf == 15 + 1 + 1);
        snprintf(path, sizeof path, "%s/%s.pvd.tmp", dir, series[s]);
        CHECK(!exists(path));
        for (int i = 0; i < nf && i < 64; i++) {
            if (i > 0) CHECK(times[i] > times[i - 1]);
            snprintf(path, sizeof path, "%.1023s/%.127s", dir, files[i]);
            vtk_file v;
            int rc = vtk_read(path, &v);
            if (rc) fprintf(stderr, "bad VTK file %s\n", path);
            CHECK(rc == 0);
            const vtk_arr *tv = vtk_find(&v, "TimeValue");
            CHECK(tv && vtk_f64(&v, tv, 0) == times[i]);
            if (s == 0) {
                CHECK(v.points == 2 && v.cells == 2);
                CHECK(vtk_find(&v, "radius") && vtk_find(&v, "velocity") && vtk_find(&v, "orientation") &&
                      vtk_find(&v, "mass") && vtk_find(&v, "groups") && vtk_find(&v, "material"));
            }
            if (s == 1) {
                CHECK(v.points == 2 * v.lines);
                CHECK(vtk_find(&v, "fn") && vtk_find(&v, "ft") && vtk_find(&v, "normal") &&
                      vtk_find(&v, "force_global") && vtk_find(&v, "uN") && vtk_find(&v, "model"));
            }
            if (s == 2) CHECK(v.points == 4 && v.polys == 1);
            if (s == 0 && i == nf - 1 && rc == 0) {
                /* the last frame holds the final positions exactly */
                const vtk_arr *pts = vtk_find(&v, "Points");
                for (int p = 0; pts && p < 2; p++) {
                    CHECK(vtk_f64(&v, pts, 3 * (size_t)p + 2) == floe_positions(w)[p].z);
                    CHECK(vtk_f64(&v, pts, 3 * (size_t)p) == floe_positions(w)[p].x);
                }
            }
            if (s == 1 && i == nf - 1 && rc == 0) CHECK(v.lines == floe_contact_count(w));
            if (s == 1 && rc == 0 && v.lines > 0) {
                /* state arrays of the linear model are there once a contact was seen */
                const floe_model_info *mi = floe_model_find("linear");
                for (int k = 0; mi && k < mi->n_state; k++) CHECK(vtk_find(&v, mi->state_names[k]) != NULL);
            }
            free(v.buf);
        }
    }
    floe_world_destroy(w);
}

/* A contacts frame with a known contact: line ends and arrays. */
static void test_contact_frame(const char *tmp)
{
    int g;
    floe_world *w = make_world(&g);
    /* a spinning facet far below everything: drawn, never touched */
    floe_body_def fd = floe_default_body_def();
    fd.pos = (floe_vec3){0.01, 0, -0.5};
    fd.angvel = (floe_vec3){0, 0, 2};
    const floe_vec3 tri[3] = {{-0.05, -0.05, -0.5}, {0.05, -0.05, -0.5}, {0, 0.05, -0.5}};
    CHECK(floe_add_facet(w, &fd, tri, 0.001) == 3);
    for (int s = 0; s < 55; s++) floe_step(w); /* both contacts are live at steps 48-75 */
    CHECK(floe_contact_count(w) == 2);
    floe_vtk *v = floe_vtk_create();
    char path[4200], err[512];
    snprintf(path, sizeof path, "%s/c.vtp", tmp);
    CHECK(floe_vtk_write_contacts(v, path, w, err, sizeof err) == 0);
    vtk_file f;
    CHECK(vtk_read(path, &f) == 0);
    CHECK(f.lines == 2 && f.points == 4);
    const vtk_arr *pts = vtk_find(&f, "Points"), *fn = vtk_find(&f, "fn"), *ida = vtk_find(&f, "id_a");
    CHECK(pts && fn && ida);
    for (int i = 0; pts && fn && ida && i < 2; i++) {
        floe_contact_info ci;
        floe_contact_get(w, i, &ci);
        CHECK(vtk_f64(&f, fn, (size_t)i) == ci.force.x);
        int32_t a;
        memcpy(&a, f.app + ida->offset + 8 + 4 * (size_t)i, 4);
        CHECK(a == ci.a);
        const floe_vec3 *pos = floe_positions(w);
        /* sphere ends at the centre; the wall end at the contact point */
        floe_vec3 ea = ci.a == 2 ? ci.point : pos[ci.a], eb = ci.b == 2 ? ci.point : pos[ci.b];
        CHECK(vtk_f64(&f, pts, 6 * (size_t)i + 2) == ea.z);
        CHECK(vtk_f64(&f, pts, 6 * (size_t)i + 5) == eb.z);
    }
    free(f.buf);

    /* boundaries: the wall quad lies in z = 0 and covers the spheres */
    snprintf(path, sizeof path, "%s/b.vtp", tmp);
    CHECK(floe_vtk_write_boundaries(v, path, w, err, sizeof err) == 0);
    CHECK(vtk_read(path, &f) == 0);
    pts = vtk_find(&f, "Points");
    CHECK(f.points == 4 + 3 && f.polys == 2);
    for (int p = 0; pts && p < 4; p++) {
        CHECK(vtk_f64(&f, pts, 3 * (size_t)p + 2) == 0.0);
        CHECK(fabs(vtk_f64(&f, pts, 3 * (size_t)p)) > 0.05);
    }
    /* the facet: its current vertices, with the rigid-body velocity at each */
    floe_vec3 vert[3];
    CHECK(floe_facet_vertices(w, 3, vert) == FLOE_OK);
    const vtk_arr *pvel = vtk_find(&f, "velocity");
    for (int k = 0; pts && pvel && k < 3; k++) {
        CHECK(vtk_f64(&f, pts, 3 * (size_t)(4 + k)) == vert[k].x);
        CHECK(vtk_f64(&f, pts, 3 * (size_t)(4 + k) + 1) == vert[k].y);
        floe_vec3 x = floe_positions(w)[3], om = floe_angular_velocities(w)[3];
        CHECK_NEAR(vtk_f64(&f, pvel, 3 * (size_t)(4 + k)), -om.z * (vert[k].y - x.y), 1e-12);
        CHECK_NEAR(vtk_f64(&f, pvel, 3 * (size_t)(4 + k) + 1), om.z * (vert[k].x - x.x), 1e-12);
    }
    free(f.buf);
    floe_vtk_destroy(v);
    floe_world_destroy(w);
}

/* Two models among the contacts: state columns are the union of their
 * names; not-applicable values are empty in CSV and NaN in VTK. */
static void test_mixed_models(const char *tmp)
{
    const floe_model_info *l6 = floe_model_find("linel6"), *lin = floe_model_find("linear");
    if (!l6 || !lin || l6->n_state == 0 || lin->n_state == 0) {
        REPORT("mixed models: skipped (needs linear and linel6 with state)\n");
        return;
    }
    int g;
    floe_world *w = make_world_models(&g, "linel6");
    for (int s = 0; s < 55; s++) floe_step(w);
    CHECK(floe_contact_count(w) == 2);
    char path[4200], err[512];
    snprintf(path, sizeof path, "%s/mixed.csv", tmp);
    CHECK(floe_csv_write_contacts(path, w, err, sizeof err) == 0);
    char **lines;
    int n = read_lines(path, &lines);
    CHECK(n == 3);
    int nl6 = 0;
    for (int i = 0; i < floe_contact_count(w); i++) {
        floe_contact_info ci;
        floe_contact_get(w, i, &ci);
        nl6 += !strcmp(ci.model, "linel6");
    }
    CHECK(nl6 == 1); /* sphere-sphere linel6, sphere-wall linear */
    if (n == 3) {
        int c_lin = column(lines[0], lin->state_names[0]), c_l6 = column(lines[0], l6->state_names[0]);
        CHECK(c_lin >= 22 && c_l6 >= 22);
        for (int i = 1; i < 3 && c_lin >= 0 && c_l6 >= 0; i++) {
            floe_contact_info ci;
            floe_contact_get(w, i - 1, &ci);
            char *f[64];
            split(lines[i], f, 64);
            int is_l6 = !strcmp(ci.model, "linel6");
            CHECK(is_l6 == !strcmp(f[2], "linel6"));
            CHECK((*f[c_lin] == '\0') == is_l6);
            CHECK((*f[c_l6] == '\0') == !is_l6);
        }
    }
    free_lines(lines, n);

    floe_vtk *v = floe_vtk_create();
    snprintf(path, sizeof path, "%s/mixed.vtp", tmp);
    CHECK(floe_vtk_write_contacts(v, path, w, err, sizeof err) == 0);
    vtk_file f;
    CHECK(vtk_read(path, &f) == 0);
    const vtk_arr *a_lin = vtk_find(&f, lin->state_names[0]), *a_l6 = vtk_find(&f, l6->state_names[0]);
    CHECK(a_lin && a_l6);
    for (int i = 0; a_lin && a_l6 && i < 2; i++) {
        floe_contact_info ci;
        floe_contact_get(w, i, &ci);
        int is_l6 = !strcmp(ci.model, "linel6");
        CHECK(isnan(vtk_f64(&f, a_lin, (size_t)i)) == is_l6);
        CHECK(isnan(vtk_f64(&f, a_l6, (size_t)i)) == !is_l6);
    }
    free(f.buf);
    floe_vtk_destroy(v);
    floe_world_destroy(w);
}

static void test_off_and_errors(const char *tmp)
{
    int g;
    floe_world *w = make_world(&g);
    floe_output_config cfg;
    memset(&cfg, 0, sizeof cfg); /* everything off */
    char dir[4200], path[4300], err[512] = "";
    snprintf(dir, sizeof dir, "%s/off", tmp);
    floe_output *o = floe_output_open(dir, &cfg, w, 10, err, sizeof err);
    CHECK(o != NULL);
    for (int s = 0; s < 10; s++) {
        floe_step(w);
        CHECK(floe_output_step(o, w) == 0);
    }
    CHECK(floe_output_close(o, w) == 0);
    snprintf(path, sizeof path, "%s/energy.csv", dir);
    CHECK(!exists(path));
    snprintf(path, sizeof path, "%s/particles.pvd", dir);
    CHECK(!exists(path));
    snprintf(path, sizeof path, "%s/particles.csv", dir);
    CHECK(!exists(path));
    snprintf(path, sizeof path, "%s/events.csv", dir);
    CHECK(exists(path));

    /* events: only some types, or none (no file) */
    static const uint32_t skip[2] = {1u << FLOE_EVENT_CONTACT_CREATED, (1u << FLOE_EVENT_COUNT) - 1};
    for (int k = 0; k < 2; k++) {
        floe_world *w2 = make_world(&g);
        cfg.events_skip = skip[k];
        snprintf(dir, sizeof dir, "%s/events%d", tmp, k);
        o = floe_output_open(dir, &cfg, w2, NSTEPS, err, sizeof err);
        CHECK(o != NULL);
        for (int s = 0; o && s < NSTEPS; s++) {
            floe_step(w2);
            CHECK(floe_output_step(o, w2) == 0);
        }
        CHECK(floe_output_close(o, w2) == 0);
        snprintf(path, sizeof path, "%s/events.csv", dir);
        char **lines;
        int n = read_lines(path, &lines), created = 0, deleted = 0;
        for (int i = 1; i < n; i++) {
            created += strstr(lines[i], ",created,") != NULL;
            deleted += strstr(lines[i], ",deleted,") != NULL;
        }
        free_lines(lines, n);
        if (k == 0) CHECK(created == 0 && deleted >= 1);
        else CHECK(!exists(path));
        floe_world_destroy(w2);
    }
    cfg.events_skip = 0;

    /* a file where the directory should be */
    snprintf(path, sizeof path, "%s/plain_file", tmp);
    FILE *f = fopen(path, "w");
    fputs("x\n", f);
    fclose(f);
    cfg.vtk.steps = 1;
    cfg.final_state = 1;
    err[0] = '\0';
    CHECK(floe_output_open(path, &cfg, w, 10, err, sizeof err) == NULL);
    CHECK(strstr(err, "not a directory") != NULL);
    REPORT("file as output dir: %s\n", err);
    snprintf(dir, sizeof dir, "%s/plain_file/sub", tmp);
    err[0] = '\0';
    CHECK(floe_output_open(dir, &cfg, w, 10, err, sizeof err) == NULL);
    CHECK(err[0] != '\0');
    REPORT("dir under a file: %s\n", err);

    /* a bad history column is refused with its name */
    floe_history_column c = hcol("nope", FLOE_HIST_PARTICLE, "pos.q");
    cfg.history.steps = 1;
    cfg.history_cols = &c;
    cfg.n_history_cols = 1;
    snprintf(dir, sizeof dir, "%s/badhist", tmp);
    err[0] = '\0';
    CHECK(floe_output_open(dir, &cfg, w, 10, err, sizeof err) == NULL);
    CHECK(strstr(err, "nope") != NULL);
    c = hcol("far", FLOE_HIST_PARTICLE, "pos.x");
    c.a = 99;
    CHECK(floe_output_open(dir, &cfg, w, 10, err, sizeof err) == NULL);
    CHECK(strstr(err, "far") != NULL);

    CHECK(floe_output_open("", &cfg, w, 10, err, sizeof err) == NULL);
    floe_world_destroy(w);
}

/* A full disk is an error with a message, not a crash or a torn line. */
static void test_write_errors(void)
{
    if (!exists("/dev/full")) return;
    char err[512] = "";
    floe_csv *c = floe_csv_open("/dev/full", err, sizeof err);
    CHECK(c != NULL);
    if (c) {
        CHECK(floe_csv_events_header(c) == 0); /* buffered */
        CHECK(floe_csv_flush(c) == -1);
        CHECK(strstr(floe_csv_error(c), "/dev/full") != NULL);
        REPORT("full disk: %s\n", floe_csv_error(c));
        CHECK(floe_csv_close(c, err, sizeof err) == -1);
    }
    int g;
    floe_world *w = make_world(&g);
    floe_vtk *v = floe_vtk_create();
    err[0] = '\0';
    CHECK(floe_vtk_write_particles(v, "/dev/full", w, err, sizeof err) == -1);
    CHECK(err[0] != '\0');
    CHECK(floe_vtk_write_particles(v, "/nonexistent_dir/x.vtu", w, err, sizeof err) == -1);
    CHECK(strstr(err, "/nonexistent_dir/x.vtu") != NULL);
    floe_vtk_destroy(v);
    floe_world_destroy(w);
}

/* Not asserted (tests never assert on wall time): a 100k-particle frame. */
static void time_big_frame(const char *tmp)
{
    floe_world *w = floe_world_create(NULL);
    int mat = floe_add_material(w, "m", "linear");
    floe_body_def b = floe_default_body_def();
    b.material = mat;
    for (int i = 0; i < 100000; i++) {
        b.pos = (floe_vec3){(i % 100) * 0.03, (i / 100 % 100) * 0.03, (i / 10000) * 0.03};
        floe_add_sphere(w, &b, 0.01);
    }
    floe_vtk *v = floe_vtk_create();
    char path[4200], err[512];
    snprintf(path, sizeof path, "%s/big.vtu", tmp);
    struct timespec t0, t1;
    double best = 1e9;
    for (int r = 0; r < 3; r++) {
        clock_gettime(CLOCK_MONOTONIC, &t0);
        CHECK(floe_vtk_write_particles(v, path, w, err, sizeof err) == 0);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double dt = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        if (dt < best) best = dt;
    }
    vtk_file f;
    CHECK(vtk_read(path, &f) == 0);
    CHECK(f.points == 100000);
    REPORT("100k-particle frame: %.1f MB in %.3f s\n", (double)f.len / 1e6, best);
    free(f.buf);
    unlink(path);
    floe_vtk_destroy(v);
    floe_world_destroy(w);
}

int main(void)
{
    char tmp[] = "/tmp/floe_test_output_XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    test_full_run(tmp);
    test_contact_frame(tmp);
    test_mixed_models(tmp);
    test_off_and_errors(tmp);
    test_write_errors();
    time_big_frame(tmp);
    if (check_failures == 0) rm_rf(tmp);
    else fprintf(stderr, "outputs kept in %s\n", tmp);
    return CHECK_DONE();
}
