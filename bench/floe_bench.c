/* floe_bench: times floe on a benchmark scene the way the peers are timed.
 *
 *   floe_bench SCENE [--threads T] [--fixed-threads] [--warmup W] [--steps S]
 *
 * Loads SCENE with floe's scene loader (the same code path as `floe run`),
 * runs W untimed warm-up steps, then times S steps with CLOCK_MONOTONIC
 * around the bare floe_step() loop (the equivalent of LAMMPS' "Loop time":
 * no output, no progress). The scene's own run length and outputs are
 * ignored. At the end it prints the physics check, computed from the final
 * positions and velocities exactly as the peer scripts do:
 *
 *   ke      translational kinetic energy [J]: floe's `kinetic` energy term, with
 *           full-step velocities v(t) = v(t - dt/2) + a dt/2 (as energy.csv);
 *           ke_half: sum m v^2 / 2 over the spheres' stored half-step velocities
 *   zcm     mean z of the spheres [m]
 *   pp      sphere pairs with |xi - xj| < ri + rj (LAMMPS compute contact/atom)
 *   wall    sphere-wall overlaps: distance to the plane < r, walls of the scene
 *   contacts  floe's own contact count (contacts alive after the last step)
 *   mean_contacts  floe's contact count averaged over the timed steps (read
 *           after every timed step: floe_contact_count is a load, so it costs
 *           nothing in the loop); the denominator of ns per contact-step
 *   bonds_start, bonds_end  contacts carrying a bond before the first and after
 *           the last timed step (floe_bonded_count scans the contacts, so it
 *           stays out of the timed loop; ns per bond-step uses their mean)
 *
 * Storage per contact (CONTACT line): a live contact is a hot, a warm and a
 * cold record (models/model.h) plus one slot of the model state array, whose
 * stride the world sets from the models in use (core/world.c); all are read
 * here from the internal headers (floe_bench is built with -I src), so the
 * figures follow any change of the records. stored_B is their sum, the
 * warm record counted only when the world keeps warm records (a world of
 * Linear sphere and wall contacts keeps none: core/world.h, floe__warm);
 * bytes_per_contact the bytes the contact pass streams per contact and step:
 * the hot record and the state, plus the warm record for the contacts whose
 * batched kernel reads it (Ice), averaged over the live contacts. pair_B is
 * one broad-phase candidate pair (with its periodic image when the world
 * has a cell); pairs_per_contact how many the list holds
 * per live contact.
 *
 * No output files are written: I/O stays out of the measurement (the bench
 * script runs `floe run` separately for the physics check from floe's outputs).
 *
 * Output (stdout), one line each:
 *   TIMING threads=T warmup=W steps=S warm_s=... loop_s=... load_s=... loop_cpu_s=... tuned_threads=... trials=...
 *          (loop_cpu_s: CPU time of the process over the timed loop; tuned_threads: the
 *          count the last trial chose, core/threads.h, and how many trials ran)
 *   MEMORY rss_after_load_MB=... peak_after_load_MB=... rss_end_MB=... peak_end_MB=...
 *          (/proc/self/status VmRSS and VmHWM after loading the scene and at the end)
 *   CONTACT record_B=... warm_B=... cold_B=... state_B=... stored_B=... bytes_per_contact=... pair_B=...
 *           pairs=... pairs_per_contact=...
 *   RESULT steps=S atoms=N ke=... zcm=... pp_contacts=... wall_contacts=... contacts=... ke_half=... loop_s=...
 *          mean_contacts=... bonds_start=... bonds_end=...
 */
#include "core/world.h"
#include "io/scene.h"

#include <floe/floe.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of the process (all its threads): on a machine shared with other
 * work a 1-thread loop's CPU time does not count the time slices others
 * took, which its wall time does. */
static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* VmRSS / VmHWM of this process in MB (Linux /proc), or -1. */
static double proc_mb(const char *key) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double v = -1;
    size_t n = strlen(key);
    if (!f) return -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, n) && line[n] == ':') {
            v = atof(line + n + 1) / 1024.0;
            break;
        }
    fclose(f);
    return v;
}

static long parse_int(const char *opt, const char *s) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == 0 || *end || v < 0) {
        fprintf(stderr, "floe_bench: %s expects an integer >= 0, got '%s'\n", opt, s);
        exit(2);
    }
    return v;
}

/* Sphere pairs closer than the sum of their radii: a uniform cell grid of
 * cell size 2 r_max over the spheres' bounding box, each pair seen once. */
static long count_pairs(const floe_vec3 *x, const double *r, const int *idx, int n) {
    if (n < 2) return 0;
    double rmax = 0, lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int k = 0; k < n; k++) {
        const double *p = &x[idx[k]].x;
        rmax = fmax(rmax, r[idx[k]]);
        for (int a = 0; a < 3; a++) {
            lo[a] = fmin(lo[a], p[a]);
            hi[a] = fmax(hi[a], p[a]);
        }
    }
    double cs = 2 * rmax;
    long nc[3];
    for (int a = 0; a < 3; a++) {
        nc[a] = (long)((hi[a] - lo[a]) / cs) + 1;
        if (nc[a] > 4096) nc[a] = 4096;
    }
    long ncell = nc[0] * nc[1] * nc[2];
    int *head = malloc(sizeof(int) * (size_t)ncell), *next = malloc(sizeof(int) * (size_t)n);
    long *cell = malloc(sizeof(long) * (size_t)n);
    if (!head || !next || !cell) {
        fprintf(stderr, "floe_bench: out of memory\n");
        exit(1);
    }
    for (long c = 0; c < ncell; c++) head[c] = -1;
    for (int k = 0; k < n; k++) {
        const double *p = &x[idx[k]].x;
        long ci[3];
        for (int a = 0; a < 3; a++) {
            ci[a] = (long)((p[a] - lo[a]) / cs);
            if (ci[a] >= nc[a]) ci[a] = nc[a] - 1;
        }
        cell[k] = ci[0] + nc[0] * (ci[1] + nc[1] * ci[2]);
        next[k] = head[cell[k]];
        head[cell[k]] = k;
    }
    long pairs = 0;
    for (int k = 0; k < n; k++) {
        const floe_vec3 p = x[idx[k]];
        long c = cell[k], cx = c % nc[0], cy = (c / nc[0]) % nc[1], cz = c / (nc[0] * nc[1]);
        for (long dz = -1; dz <= 1; dz++)
            for (long dy = -1; dy <= 1; dy++)
                for (long dx = -1; dx <= 1; dx++) {
                    long ix = cx + dx, iy = cy + dy, iz = cz + dz;
                    if (ix < 0 || iy < 0 || iz < 0 || ix >= nc[0] || iy >= nc[1] || iz >= nc[2]) continue;
                    for (int m = head[ix + nc[0] * (iy + nc[1] * iz)]; m >= 0; m = next[m]) {
                        if (m <= k) continue;
                        floe_vec3 q = x[idx[m]];
                        double ddx = p.x - q.x, ddy = p.y - q.y, ddz = p.z - q.z, rs = r[idx[k]] + r[idx[m]];
                        if (ddx * ddx + ddy * ddy + ddz * ddz < rs * rs) pairs++;
                    }
                }
    }
    free(head);
    free(next);
    free(cell);
    return pairs;
}

int main(int argc, char **argv) {
    const char *path = NULL;
    long threads = 1, warmup = 200, steps = 2000;
    int fixed = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--threads") && i + 1 < argc) threads = parse_int(a, argv[++i]);
        else if (!strcmp(a, "--fixed-threads")) fixed = 1;
        else if (!strcmp(a, "--warmup") && i + 1 < argc) warmup = parse_int(a, argv[++i]);
        else if (!strcmp(a, "--steps") && i + 1 < argc) steps = parse_int(a, argv[++i]);
        else if (a[0] == '-') {
            fprintf(stderr, "usage: floe_bench SCENE [--threads T] [--fixed-threads] [--warmup W] [--steps S]\n");
            return 2;
        } else path = a;
    }
    if (!path) {
        fprintf(stderr, "usage: floe_bench SCENE [--threads T] [--fixed-threads] [--warmup W] [--steps S]\n");
        return 2;
    }
    double t0 = now();
    floe_scene sc;
    char err[2048];
    if (floe_scene_load(path, &sc, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    floe_world *w = sc.world;
    if (threads > 0) floe_set_threads(w, (int)threads);
    if (fixed) floe_set_thread_tuning(w, 0); /* every step on T threads (core/threads.h) */
    /* the events `floe run` records for this scene: those its events.csv
     * writes, and inlet_short (app/main.c) */
    floe_set_event_types(w, (~sc.out.events_skip & FLOE_EVENTS_ALL) | 1u << FLOE_EVENT_INLET_SHORT);
    double rss_load = proc_mb("VmRSS"), hwm_load = proc_mb("VmHWM");
    double t1 = now();
    for (long s = 0; s < warmup; s++)
        if (floe_step(w) != FLOE_OK) {
            fprintf(stderr, "floe_bench: warm-up step %ld: %s\n", s, floe_last_error(w));
            return 1;
        }
    int bonds_start = floe_bonded_count(w);
    double csum = 0;
    double c2 = cpu_now(), t2 = now();
    for (long s = 0; s < steps; s++) {
        if (floe_step(w) != FLOE_OK) {
            fprintf(stderr, "floe_bench: step %ld: %s\n", warmup + s, floe_last_error(w));
            return 1;
        }
        csum += floe_contact_count(w);
    }
    double t3 = now(), c3 = cpu_now();
    int bonds_end = floe_bonded_count(w);
    double mean_contacts = steps > 0 ? csum / (double)steps : floe_contact_count(w);

    /* physics check */
    int np = floe_particle_count(w);
    const floe_vec3 *x = floe_positions(w), *v = floe_velocities(w);
    const double *r = floe_radii(w), *m = floe_masses(w);
    int *sph = malloc(sizeof(int) * (size_t)(np > 0 ? np : 1));
    int walls[64], wall_axis[64], wall_sense[64], nsph = 0, nwall = 0;
    if (!sph) return 1;
    double ke = 0, zsum = 0;
    for (int i = 0; i < np; i++) {
        floe_shape_type sh = floe_particle_shape(w, i);
        if (sh == FLOE_SHAPE_SPHERE) {
            sph[nsph++] = i;
            ke += 0.5 * m[i] * (v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z);
            zsum += x[i].z;
        } else if (sh == FLOE_SHAPE_WALL && nwall < 64) {
            walls[nwall] = i;
            wall_axis[nwall] = floe_wall_axis(w, i, &wall_sense[nwall]);
            nwall++;
        }
    }
    long wc = 0;
    for (int k = 0; k < nsph; k++) {
        const double *p = &x[sph[k]].x;
        for (int j = 0; j < nwall; j++) {
            int ax = wall_axis[j];
            double d = p[ax] - (&x[walls[j]].x)[ax];
            if (fabs(d) < r[sph[k]]) wc++;
        }
    }
    long pp = count_pairs(x, r, sph, nsph);
    double e[FLOE_E_COUNT];
    floe_energy(w, e);
    printf("TIMING threads=%ld warmup=%ld steps=%ld load_s=%.4f warm_s=%.4f loop_s=%.4f loop_cpu_s=%.4f "
           "tuned_threads=%d trials=%lld\n",
           threads, warmup, steps, t1 - t0, t2 - t1, t3 - t2, c3 - c2, w->tune.best, (long long)w->tune.trials);
    printf("MEMORY rss_after_load_MB=%.1f peak_after_load_MB=%.1f rss_end_MB=%.1f peak_end_MB=%.1f\n", rss_load,
           hwm_load, proc_mb("VmRSS"), proc_mb("VmHWM"));
    size_t rec = sizeof(floe_contact), warm = sizeof(floe_contact_warm), cold = sizeof(floe_contact_cold);
    size_t st = w->cstride;
    int ncon = floe_contact_count(w), nwarm = 0;
    for (int k = 0; k < ncon; k++) {
        const floe_batch_kernel *b = w->insts[w->con[k].inst].m->batch;
        nwarm += b && b->warm;
    }
    double streamed = (double)(rec + st) + (ncon > 0 ? (double)warm * nwarm / ncon : 0.0);
    printf("CONTACT record_B=%zu warm_B=%zu cold_B=%zu state_B=%zu stored_B=%zu bytes_per_contact=%.1f pair_B=%zu "
           "pairs=%d pairs_per_contact=%.3f\n",
           rec, warm, cold, st, rec + (w->warm_kept ? warm : 0) + cold + st, streamed,
           sizeof(floe_pair) + (w->bp.img ? sizeof(floe_img) : 0), w->bp.npairs,
           ncon > 0 ? (double)w->bp.npairs / ncon : 0.0);
    printf("RESULT steps=%ld atoms=%d ke=%.6e zcm=%.6f pp_contacts=%ld wall_contacts=%ld contacts=%d "
           "ke_half=%.6e loop_s=%.4f mean_contacts=%.1f bonds_start=%d bonds_end=%d\n",
           warmup + steps, nsph, e[FLOE_E_KINETIC], nsph ? zsum / nsph : 0.0, pp, wc, ncon, ke, t3 - t2, mean_contacts,
           bonds_start, bonds_end);
    free(sph);
    floe_scene_free(&sc);
    return 0;
}
