/* Output writers: a small world (two spheres on a wall, one falling onto the
 * other and bouncing off) runs with every output on; the files are read back
 * and checked against the public API: CSV headers and row counts, history
 * values equal to the API's, particles.csv positions bit-exact, VTK files
 * well-formed (declared counts, appended block sizes, contiguous blocks),
 * the .pvd listing every frame, events for created and deleted contacts.
 * Also: cadence from an interval, outputs off, a bad directory; interval
 * outputs on the first step at or after each multiple (also across a change
 * of dt and a resume); a fresh run removes floe's own files of an earlier
 * run and nothing else; the contacts frame at t = 0 shows the bonds made at
 * the start; no writes through symbolic links; one process per directory. */
#include "check.h"
#include "io/csv.h"
#include "io/output.h"
#include "io/scene.h"
#include "io/vtk.h"
#include "proc.h"
#include "vtk_read.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- file helpers ------------------------------------------------------ */

static int exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

static void rm_rf(const char *path) {
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
static int read_lines(const char *path, char ***lines) {
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

static void free_lines(char **lines, int n) {
    for (int i = 0; i < n; i++) free(lines[i]);
    free(lines);
}

/* Splits a CSV line (no quoted fields here) in place; returns the field count. */
static int split(char *line, char **f, int cap) {
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

static int column(const char *header, const char *name) {
    char *h = strdup(header), *f[256];
    int n = split(h, f, 256), found = -1;
    for (int i = 0; i < n && i < 256; i++)
        if (!strcmp(f[i], name)) found = i;
    free(h);
    return found;
}

/* ---- VTK ------------------------------------------------------------- */

/* Entries of a .pvd: the file names, in order. */
static int pvd_files(const char *path, char files[][128], double *times, int cap) {
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
 * takes the fallback model, docs/decisions.md#model-of-a-mixed-material-pair-g7). */
static floe_world *make_world_models(int *floor_group, const char *sphere_model) {
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

static floe_history_column hcol(const char *name, floe_history_kind kind, const char *q) {
    floe_history_column c;
    memset(&c, 0, sizeof c);
    snprintf(c.name, sizeof c.name, "%s", name);
    snprintf(c.quantity, sizeof c.quantity, "%s", q);
    c.kind = kind;
    return c;
}

enum { NHIST = 8 };

/* What each history column should hold, straight from the API. */
static void api_history(const floe_world *w, int g, double out[NHIST]) {
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

static void test_full_run(const char *tmp) {
    int g;
    floe_world *w = make_world(&g);
    char dir[1024], path[4200];
    snprintf(dir, sizeof dir, "%s/run/nested", tmp); /* mkdir -p */

    floe_history_column cols[NHIST] = {
        hcol("b_z", FLOE_HIST_PARTICLE, "pos.z"),        hcol("a_vz", FLOE_HIST_PARTICLE, "vel.z"),
        hcol("fn_ab", FLOE_HIST_CONTACT, "fn"),          hcol("un_ab", FLOE_HIST_CONTACT, "un"),
        hcol("floor_fz", FLOE_HIST_GROUP, "force.z"),    hcol("ek", FLOE_HIST_ENERGY, "kinetic"),
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
                fprintf(stderr, "history row %d (step %s) column %s: %s != %.17g\n", i, f[0], cols[k].name, f[2 + k],
                        expect[i - 1][k]);
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
                                    "area,step_created,fx,fy,fz,tax,tay,taz,tbx,tby,tbz,t1x,t1y,t1z,ix,iy,iz,"
                                    "sx,sy,sz";
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
            /* the global force, torques, frame and image, then the state */
            const int cf = column(lines[0], "fx"), cs = column(lines[0], "sz");
            CHECK(cf == 22 && cs == 39);
            if (cf == 22 && cs == 39) {
                const double want[18] = {ci.force_global.x, ci.force_global.y, ci.force_global.z, ci.torque_a.x,
                                         ci.torque_a.y,     ci.torque_a.z,     ci.torque_b.x,     ci.torque_b.y,
                                         ci.torque_b.z,     ci.t1.x,           ci.t1.y,           ci.t1.z,
                                         ci.image[0],       ci.image[1],       ci.image[2],       ci.image_shift.x,
                                         ci.image_shift.y,  ci.image_shift.z};
                for (int k = 0; k < 18; k++) CHECK(strtod(f[cf + k], NULL) == want[k]);
            }
            double st[16];
            int ns = floe_contact_state(w, i - 1, st, 16);
            if (ns > 0) CHECK(strtod(f[40], NULL) == st[0]);
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
static void test_contact_frame(const char *tmp) {
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

/* Frames of more particles and contacts than one window of the writer
 * (VTK_WINDOW = 8192 in vtk.c): a block of 22k overlapping spheres with
 * 63k contacts. Every tuple, across the windows' seams, holds what the API
 * says of its particle or contact. */
static void test_large_frames(const char *tmp) {
    floe_world_def def = floe_default_world_def();
    def.dt = 1e-7;
    floe_world *w = floe_world_create(&def);
    int mat = floe_add_material(w, "m", "linear");
    const double R = 0.01, s = 1.9 * R;
    floe_body_def b = floe_default_body_def();
    b.material = mat;
    for (int k = 0; k < 22; k++)
        for (int j = 0; j < 25; j++)
            for (int i = 0; i < 40; i++) {
                b.pos = (floe_vec3){i * s, j * s, k * s};
                floe_add_sphere(w, &b, R);
            }
    CHECK(floe_step(w) == FLOE_OK);
    const int n = floe_particle_count(w), nc = floe_contact_count(w);
    CHECK(n == 22000 && nc > 3 * 8192);
    floe_vtk *v = floe_vtk_create();
    char path[4200], err[512];
    snprintf(path, sizeof path, "%s/large.vtu", tmp);
    CHECK(floe_vtk_write_particles(v, path, w, err, sizeof err) == 0);
    vtk_file f;
    CHECK(vtk_read(path, &f) == 0);
    CHECK(f.points == n && f.cells == n);
    const vtk_arr *pts = vtk_find(&f, "Points"), *vel = vtk_find(&f, "velocity"), *id = vtk_find(&f, "id");
    const unsigned char *ids = vtk_block(&f, id, (uint64_t)n, 4);
    const unsigned char *off = vtk_block(&f, vtk_find(&f, "offsets"), (uint64_t)n, 8);
    int bad = !pts || !vel || !ids || !off;
    for (int i = 0; !bad && i < n; i++) {
        int32_t k;
        int64_t o;
        memcpy(&k, ids + 4 * (size_t)i, 4);
        memcpy(&o, off + 8 * (size_t)i, 8);
        floe_vec3 x = floe_positions(w)[i], u = floe_velocities(w)[i];
        bad = k != i || o != i + 1 || vtk_f64(&f, pts, 3 * (size_t)i) != x.x ||
              vtk_f64(&f, pts, 3 * (size_t)i + 2) != x.z || vtk_f64(&f, vel, 3 * (size_t)i + 1) != u.y;
    }
    CHECK(!bad);
    free(f.buf);

    snprintf(path, sizeof path, "%s/large.vtp", tmp);
    CHECK(floe_vtk_write_contacts(v, path, w, err, sizeof err) == 0);
    CHECK(vtk_read(path, &f) == 0);
    CHECK(f.lines == nc && f.points == 2 * nc);
    const vtk_arr *fn = vtk_find(&f, "fn"), *lpts = vtk_find(&f, "Points");
    const unsigned char *ia = vtk_block(&f, vtk_find(&f, "id_a"), (uint64_t)nc, 4);
    const unsigned char *conn = vtk_block(&f, vtk_find_in(&f, "Lines", "connectivity"), 2 * (uint64_t)nc, 8);
    bad = !fn || !lpts || !ia || !conn;
    for (int i = 0; !bad && i < nc; i++) {
        floe_contact_info ci;
        floe_contact_get(w, i, &ci);
        int32_t a;
        int64_t c0, c1;
        memcpy(&a, ia + 4 * (size_t)i, 4);
        memcpy(&c0, conn + 16 * (size_t)i, 8);
        memcpy(&c1, conn + 16 * (size_t)i + 8, 8);
        bad = a != ci.a || c0 != 2 * i || c1 != 2 * i + 1 || vtk_f64(&f, fn, (size_t)i) != ci.force.x ||
              vtk_f64(&f, lpts, 6 * (size_t)i + 3) != floe_positions(w)[ci.b].x;
    }
    CHECK(!bad);
    REPORT("frames of %d particles and %d contacts, windows of 8192: every tuple as the API says\n", n, nc);
    free(f.buf);
    floe_vtk_destroy(v);
    floe_world_destroy(w);
}

/* Two models among the contacts: state columns are the union of their
 * names; not-applicable values are empty in CSV and NaN in VTK. */
static void test_mixed_models(const char *tmp) {
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

static void test_off_and_errors(const char *tmp) {
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
    /* a column named like a built-in one would repeat the header's name (step,time,time) */
    c = hcol("time", FLOE_HIST_COUNTER, "time");
    err[0] = '\0';
    CHECK(floe_output_open(dir, &cfg, w, 10, err, sizeof err) == NULL);
    CHECK(strstr(err, "duplicates the built-in column 'time'") != NULL);
    REPORT("history column named time: %s\n", err);

    CHECK(floe_output_open("", &cfg, w, 10, err, sizeof err) == NULL);
    floe_world_destroy(w);
}

/* A full disk is an error with a message, not a crash or a torn line. */
static void test_write_errors(void) {
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

/* ---- interval cadence -------------------------------------------------- */

enum { IV_STEPS = 120, IV_DT_CHANGE = 60 };
static const double IV_VTK = 2.7e-6, IV_ENERGY = 4.3e-6, IV_HISTORY = 3.3e-6; /* dt does not divide them */

/* A run with interval cadences whose dt changes at step IV_DT_CHANGE (as
 * dt: auto does). cut_at > 0: the outputs are closed there (as a killed run
 * leaves them after a restart at that step) and resumed from their state. */
static void interval_run(const char *dir, int cut_at) {
    int g;
    floe_world *w = make_world(&g);
    floe_history_column col = hcol("n", FLOE_HIST_COUNTER, "contacts");
    floe_output_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.vtk.interval = IV_VTK;
    cfg.vtk_contacts = 1;
    cfg.energy.interval = IV_ENERGY;
    cfg.history.interval = IV_HISTORY;
    cfg.history_cols = &col;
    cfg.n_history_cols = 1;
    cfg.events_skip = ~0u;
    char err[512] = "";
    floe_output *o = floe_output_open(dir, &cfg, w, IV_STEPS, err, sizeof err);
    CHECK(o != NULL);
    for (int s = 1; o && s <= IV_STEPS; s++) {
        if (s == IV_DT_CHANGE + 1) CHECK(floe_set_dt(w, 0.7e-6) == FLOE_OK);
        CHECK(floe_step(w) == FLOE_OK);
        CHECK(floe_output_step(o, w) == 0);
        if (s != cut_at) continue;
        floe_output_state st, copy;
        CHECK(floe_output_get_state(o, &st) == 0);
        copy = st; /* the frame arrays belong to o */
        copy.frame_step = malloc(st.nframes * sizeof *st.frame_step + 1);
        copy.frame_time = malloc(st.nframes * sizeof *st.frame_time + 1);
        memcpy(copy.frame_step, st.frame_step, st.nframes * sizeof *st.frame_step);
        memcpy(copy.frame_time, st.frame_time, st.nframes * sizeof *st.frame_time);
        CHECK(copy.vtk.period == FLOE_OUTPUT_BY_TIME && copy.energy.period == FLOE_OUTPUT_BY_TIME);
        CHECK(floe_output_snapshot(o, w) == 0); /* what a run stopped here writes, the resume drops */
        CHECK(floe_output_close(o, w) == 0);
        o = floe_output_resume(dir, &cfg, w, &copy, err, sizeof err);
        if (!o) fprintf(stderr, "resume: %s\n", err);
        CHECK(o != NULL);
        free(copy.frame_step);
        free(copy.frame_time);
    }
    if (o) CHECK(floe_output_close(o, w) == 0);
    floe_world_destroy(w);
}

/* The output times t_k of one stream (t_0 = 0 is the initial state; the
 * last entry is the final snapshot at the end of the run): every multiple
 * k I up to the end has one, on the first step at or after it. */
static void check_times(const char *what, const double *t, int n, double interval) {
    const double t_end = IV_DT_CHANGE * 1e-6 + (IV_STEPS - IV_DT_CHANGE) * 0.7e-6;
    int want = (int)floor(t_end / interval) + 2; /* t = 0, the multiples, the end */
    REPORT("%s every %g s: %d outputs, %d expected; first at %.17g\n", what, interval, n, want, n > 1 ? t[1] : -1);
    CHECK(n == want);
    CHECK(n > 0 && t[0] == 0.0);
    for (int k = 1; k < n - 1; k++) {
        /* k I <= t_k < k I + dt; a step that is on k I but whose summed time
         * misses it by rounding (54 dt = 20 x 2.7e-6 s) is on time too */
        double dt = t[k] <= IV_DT_CHANGE * 1e-6 * (1 + 1e-9) ? 1e-6 : 0.7e-6, m = k * interval;
        if (!(m - 1e-6 * dt <= t[k] && t[k] < m + dt)) {
            fprintf(stderr, "%s: output %d at t = %.17g, expected in [%.17g, %.17g)\n", what, k, t[k], m, m + dt);
            check_failures++;
        }
    }
    if (n > 1) CHECK_NEAR(t[n - 1], t_end, 1e-15);
}

/* The time column of a CSV. */
static int csv_times(const char *path, double *t, int cap) {
    char **lines;
    int n = read_lines(path, &lines), m = 0;
    for (int i = 1; i < n; i++) {
        const char *c = strchr(lines[i], ',');
        if (c && m < cap) t[m++] = strtod(c + 1, NULL);
    }
    free_lines(lines, n);
    return m;
}

/* Names in a directory, sorted, joined by spaces (hidden files left out). */
static void listing(const char *dir, char *out, size_t cap) {
    struct dirent **e;
    int n = scandir(dir, &e, NULL, alphasort);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (e[i]->d_name[0] != '.' && strlen(out) + strlen(e[i]->d_name) + 2 < cap) {
            strcat(out, e[i]->d_name);
            strcat(out, " ");
        }
        free(e[i]);
    }
    if (n >= 0) free(e);
}

static void test_interval_times(const char *tmp) {
    char a[1024], b[1024], path[4200], path2[4200];
    snprintf(a, sizeof a, "%s/interval", tmp);
    snprintf(b, sizeof b, "%s/interval_resumed", tmp);
    interval_run(a, -1);
    interval_run(b, 47);

    double t[256];
    char files[256][128];
    snprintf(path, sizeof path, "%s/particles.pvd", a);
    int n = pvd_files(path, files, t, 256);
    check_times("vtk", t, n, IV_VTK);
    for (int i = 0; i < n && i < 256; i++) {
        /* the frame's own time is the one the collection lists */
        vtk_file v;
        snprintf(path, sizeof path, "%.1023s/%.127s", a, files[i]);
        CHECK(vtk_read(path, &v) == 0);
        const vtk_arr *tv = vtk_find(&v, "TimeValue");
        CHECK(tv && vtk_f64(&v, tv, 0) == t[i]);
        free(v.buf);
    }
    snprintf(path, sizeof path, "%s/energy.csv", a);
    check_times("energy", t, csv_times(path, t, 256), IV_ENERGY);
    snprintf(path, sizeof path, "%s/history.csv", a);
    check_times("history", t, csv_times(path, t, 256), IV_HISTORY);

    /* the run resumed at step 47 wrote the same files, byte for byte */
    static const char *const names[] = {"particles.pvd", "contacts.pvd", "energy.csv", "history.csv"};
    int same = 1;
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", a, names[i]);
        snprintf(path2, sizeof path2, "%s/%s", b, names[i]);
        same &= check_same_file(path, path2);
    }
    char la[8192], lb[8192];
    snprintf(path, sizeof path, "%s/vtk", a);
    snprintf(path2, sizeof path2, "%s/vtk", b);
    listing(path, la, sizeof la);
    listing(path2, lb, sizeof lb);
    same &= strcmp(la, lb) == 0;
    CHECK(same);
    REPORT("interval outputs resumed at step 47: identical files: %s\n", same ? "yes" : "NO");
}

/* ---- a fresh run in a used directory ------------------------------------ */

static void test_fresh_run(const char *tmp) {
    char dir[1024], vtk[1100], path[4200];
    snprintf(dir, sizeof dir, "%s/again", tmp);
    snprintf(vtk, sizeof vtk, "%s/vtk", dir);
    mkdir(dir, 0777);
    mkdir(vtk, 0777);
    /* the user's files, some with names close to floe's */
    static const char *const mine[] = {"notes.txt", "energy.csv.bak", "vtk/render_000001.png",
                                       "vtk/particles_final.vtu", "vtk/particles_000003.vtu.txt"};
    for (int i = 0; i < 5; i++) check_write_tmp(dir, mine[i], "mine\n", path, sizeof path);

    floe_history_column col = hcol("n", FLOE_HIST_COUNTER, "contacts");
    floe_output_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.vtk.steps = 1;
    cfg.vtk_contacts = cfg.vtk_boundaries = 1;
    cfg.energy.steps = 1;
    cfg.history.steps = 1;
    cfg.history_cols = &col;
    cfg.n_history_cols = 1;
    cfg.final_state = 1;
    for (int run = 0; run < 2; run++) {
        int g;
        floe_world *w = make_world(&g);
        char err[512] = "";
        floe_output *o = floe_output_open(dir, &cfg, w, 100, err, sizeof err);
        CHECK(o != NULL);
        for (int s = 0; o && s < (run ? 7 : 12); s++) {
            floe_step(w);
            CHECK(floe_output_step(o, w) == 0);
        }
        if (o) CHECK(floe_output_close(o, w) == 0);
        floe_world_destroy(w);
        if (run == 0) {
            CHECK(check_count_prefix(vtk, "contacts_") == 13);
            /* the second run: fewer frames, fewer series, no history, no final state, no events */
            cfg.vtk.steps = 5;
            cfg.vtk_contacts = 0;
            cfg.n_history_cols = 0;
            cfg.history.steps = 0;
            cfg.final_state = 0;
            cfg.events_skip = ~0u;
        }
    }
    char got[8192];
    listing(vtk, got, sizeof got);
    REPORT("vtk/ after the second run: %s\n", got);
    CHECK(strcmp(got, "boundaries_000000.vtp boundaries_000005.vtp boundaries_000007.vtp particles_000000.vtu "
                      "particles_000003.vtu.txt particles_000005.vtu particles_000007.vtu particles_final.vtu "
                      "render_000001.png ") == 0);
    listing(dir, got, sizeof got);
    REPORT("the directory: %s\n", got);
    CHECK(strcmp(got, "boundaries.pvd energy.csv energy.csv.bak notes.txt particles.pvd vtk ") == 0);
    for (int i = 0; i < 5; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, mine[i]);
        char *text = check_slurp(path, NULL);
        CHECK(text && strcmp(text, "mine\n") == 0);
        free(text);
    }
}

/* ---- bonds at t = 0 ------------------------------------------------------ */

/* A 3 x 3 sheet of bonded Ice spheres: 12 bonds, made at the start. */
static const char ice_sheet[] =
    "world: {gravity: [0, 0, 0], dt: 1e-5}\n"
    "run: {steps: 3}\n"
    "materials:\n"
    "  - {name: ice, model: ice, density: 900, young: 1e8, break_n: 1e-3}\n"
    "models: {ice: {bonds0: [bondN, bondT, bondW, bondR, brkN, brkT, brkW, brkR], bond_tol: 1e-3}}\n"
    "generators:\n"
    "  - lattice: {origin: [0, 0, 0], spacing: 0.1, counts: [3, 3, 1], radius: 0.05, material: ice}\n"
    "output: {vtk: {every: 1}, events: all}\n";

static long contacts_frame0(const char *dir) {
    char path[4200];
    snprintf(path, sizeof path, "%s/vtk/contacts_000000.vtp", dir);
    vtk_file v;
    if (vtk_read(path, &v) != 0) return -1;
    long n = v.lines;
    free(v.buf);
    return n;
}

static void test_bonds_at_start(const char *tmp) {
    char scene[4200], dir[1024], err[1024] = "";
    check_write_tmp(tmp, "ice_sheet.yaml", ice_sheet, scene, sizeof scene);
    floe_scene sc;
    CHECK(floe_scene_load(scene, &sc, err, sizeof err) == 0);
    snprintf(dir, sizeof dir, "%s/bonds_api", tmp);
    floe_output *o = floe_output_open(dir, &sc.out, sc.world, 3, err, sizeof err);
    CHECK(o != NULL);
    int bonded = floe_bonded_count(sc.world);
    if (o) CHECK(floe_output_close(o, sc.world) == 0);
    floe_scene_free(&sc);
    long lines = contacts_frame0(dir);
    REPORT("bonds at t = 0: %d bonded contacts, %ld lines in the first contacts frame (12 expected)\n", bonded, lines);
    CHECK(bonded == 12 && lines == 12);
    /* their creation is in events.csv, at step 0 */
    char path[4200], **ev;
    snprintf(path, sizeof path, "%s/events.csv", dir);
    int n = read_lines(path, &ev), created0 = 0;
    for (int i = 1; i < n; i++) created0 += strncmp(ev[i], "0,0,created,", 12) == 0;
    free_lines(ev, n);
    CHECK(created0 == 12);

    /* the same through the command line */
    snprintf(dir, sizeof dir, "%s/bonds_cli", tmp);
    char errfile[1100];
    snprintf(errfile, sizeof errfile, "%s/bonds_cli.txt", tmp);
    const char *argv[] = {"floe", "run", scene, "--out", dir, NULL};
    CHECK(run_cli(argv, errfile, 0) == 0);
    CHECK(contacts_frame0(dir) == 12);
}

/* ---- symbolic links in the output directory ------------------------------ */

static int unchanged(const char *path) {
    char *t = check_slurp(path, NULL);
    int ok = t && strcmp(t, "precious\n") == 0;
    if (!ok) fprintf(stderr, "%s was written through a link\n", path);
    free(t);
    return ok;
}

static int is_link(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

static void test_symlinks(const char *tmp) {
    char dir[1024], path[4200], victim[4200], err[512] = "";
    snprintf(dir, sizeof dir, "%s/links", tmp);
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/vtk", dir);
    mkdir(path, 0777);
    /* links where floe writes: a fresh run replaces them, their targets stay */
    static const char *const names[] = {"energy.csv", "vtk/particles_000000.vtu", "particles.pvd.tmp",
                                        "particles.csv.tmp", "contacts.csv"};
    for (int i = 0; i < 5; i++) {
        char name[64];
        snprintf(name, sizeof name, "victim%d", i);
        check_write_tmp(tmp, name, "precious\n", victim, sizeof victim);
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        CHECK(symlink(victim, path) == 0);
    }
    int g;
    floe_world *w = make_world(&g);
    floe_output_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.vtk.steps = 1;
    cfg.energy.steps = 1;
    cfg.final_state = 1;
    cfg.events_skip = ~0u;
    floe_output *o = floe_output_open(dir, &cfg, w, 3, err, sizeof err);
    CHECK(o != NULL);
    for (int s = 0; o && s < 3; s++) {
        floe_step(w);
        CHECK(floe_output_step(o, w) == 0);
    }
    if (o) CHECK(floe_output_close(o, w) == 0);
    int ok = 1;
    for (int i = 0; i < 5; i++) {
        snprintf(victim, sizeof victim, "%s/victim%d", tmp, i);
        ok &= unchanged(victim);
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        ok &= !is_link(path);
    }
    CHECK(ok);

    /* the writers refuse a link at a file they would write in place ... */
    snprintf(victim, sizeof victim, "%s/victim0", tmp);
    snprintf(path, sizeof path, "%s/link.vtu", dir);
    CHECK(symlink(victim, path) == 0);
    floe_vtk *v = floe_vtk_create();
    CHECK(floe_vtk_write_particles(v, path, w, err, sizeof err) == -1);
    CHECK(strstr(err, "symbolic link") != NULL);
    REPORT("frame over a link: %s\n", err);
    floe_vtk_destroy(v);
    CHECK(floe_csv_open(path, err, sizeof err) == NULL);
    CHECK(strstr(err, "symbolic link") != NULL);
    /* ... and a resumed run does not append through one */
    CHECK(floe_csv_reopen(path, 0, err, sizeof err) == NULL);
    CHECK(strstr(err, "symbolic link") != NULL);
    REPORT("CSV continued through a link: %s\n", err);
    CHECK(unchanged(victim));

    /* vtk/ as a link to another directory: refused, nothing there touched */
    char dir2[1024], elsewhere[1024];
    snprintf(dir2, sizeof dir2, "%s/links2", tmp);
    snprintf(elsewhere, sizeof elsewhere, "%s/elsewhere", tmp);
    mkdir(dir2, 0777);
    mkdir(elsewhere, 0777);
    check_write_tmp(elsewhere, "particles_000003.vtu", "precious\n", victim, sizeof victim);
    snprintf(path, sizeof path, "%s/vtk", dir2);
    CHECK(symlink(elsewhere, path) == 0);
    CHECK(floe_output_open(dir2, &cfg, w, 3, err, sizeof err) == NULL);
    CHECK(strstr(err, "symbolic link") != NULL);
    REPORT("vtk/ as a link: %s\n", err);
    CHECK(unchanged(victim));
    floe_world_destroy(w);
}

/* ---- one process per directory -------------------------------------------- */

static void test_lock(const char *tmp) {
    char dir[1024], err[512] = "", want[128];
    snprintf(dir, sizeof dir, "%s/locked", tmp);
    int g;
    floe_world *w = make_world(&g);
    floe_output_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.energy.steps = 1;
    cfg.events_skip = ~0u;
    floe_output *o = floe_output_open(dir, &cfg, w, 3, err, sizeof err);
    CHECK(o != NULL);
    snprintf(want, sizeof want, "is in use by another floe process (pid %ld)", (long)getpid());

    /* another process: refused, with our pid */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        char e[512] = "";
        floe_output *o2 = floe_output_open(dir, &cfg, w, 3, e, sizeof e);
        _exit(o2 == NULL && strstr(e, want) ? 0 : 1);
    }
    int st = -1;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);

    /* the command line: exit status 1 and the message */
    char scene[4200], errfile[1100];
    check_write_tmp(tmp, "lock_sheet.yaml", ice_sheet, scene, sizeof scene);
    snprintf(errfile, sizeof errfile, "%s/lock_cli.txt", tmp);
    const char *argv[] = {"floe", "run", scene, "--out", dir, NULL};
    CHECK(run_cli(argv, errfile, 0) == 1);
    char *msg = check_slurp(errfile, NULL);
    CHECK(msg && strstr(msg, want));
    REPORT("second floe on the directory: %s", msg ? msg : "(nothing)\n");
    free(msg);
    /* the locked run's files were not touched */
    char path[4200], **lines;
    snprintf(path, sizeof path, "%s/energy.csv", dir);
    int n = read_lines(path, &lines);
    CHECK(n == 2 && !strncmp(lines[1], "0,", 2));
    free_lines(lines, n);

    /* released by close: the next run may start */
    if (o) CHECK(floe_output_close(o, w) == 0);
    CHECK(run_cli(argv, errfile, 0) == 0);
    floe_world_destroy(w);
}

/* Not asserted (tests never assert on wall time): a 100k-particle frame. */
static void time_big_frame(const char *tmp) {
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

int main(void) {
    char tmp[] = "/tmp/floe_test_output_XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    test_full_run(tmp);
    test_contact_frame(tmp);
    test_large_frames(tmp);
    test_mixed_models(tmp);
    test_off_and_errors(tmp);
    test_write_errors();
    test_interval_times(tmp);
    test_fresh_run(tmp);
    test_bonds_at_start(tmp);
    test_symlinks(tmp);
    test_lock(tmp);
    time_big_frame(tmp);
    if (check_failures == 0) rm_rf(tmp);
    else fprintf(stderr, "outputs kept in %s\n", tmp);
    return CHECK_DONE();
}
