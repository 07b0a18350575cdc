/* The distributed run (dist.h): rank 0 leads, the other ranks follow its
 * broadcasts. Every message goes from rank 0 to all (MPI_Bcast) or from
 * all to rank 0 (MPI_Gather), in an order both sides take from the same
 * world, so no message waits for one that never comes. */
#include "mpi/dist.h"

#include <floe/floe_snapshot.h>
#include <math.h>
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What rank 0 broadcasts before anything else: a world follows, or the end. */
enum { MSG_WORLD = 1, MSG_END = 2 };
/* a broadcast's largest piece: MPI counts are ints */
enum { CHUNK = 1 << 30 };

static int rank = 0, size = 1, started = 0;
static int64_t last_check = -1; /* the step of the last comparison */
static long checks = 0;         /* comparisons all ranks passed */
static int stepping = 0;        /* the ranks step a world together */

int floe_dist_rank(void) { return rank; }
int floe_dist_size(void) { return size; }

int floe_dist_init(int *argc, char ***argv) {
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "floe: MPI_Init failed\n");
        return -1;
    }
    started = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return rank;
}

/* FNV-1a, 64 bits: equal bytes give equal fingerprints on every rank. */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211u;
    return h;
}

/* The state compared every few steps: what the integrator carries from
 * step to step, and the counts; or, at the end (`full`), every byte of
 * the snapshot. 0 when the snapshot cannot be made (then it differs). */
static uint64_t fingerprint(const floe_world *w, int full) {
    uint64_t h = 1469598103934665603u;
    if (full) {
        unsigned char *bytes = NULL;
        size_t len = 0;
        char err[256];
        if (floe_snapshot_to_bytes(w, &bytes, &len, err, sizeof err) != 0) return 0;
        h = fnv(h, bytes, len);
        free(bytes);
        return h;
    }
    size_t n = (size_t)floe_particle_count(w);
    int64_t counts[3] = {floe_step_count(w), (int64_t)n, floe_contact_count(w)};
    h = fnv(h, counts, sizeof counts);
    h = fnv(h, floe_positions(w), n * sizeof(floe_vec3));
    h = fnv(h, floe_velocities(w), n * sizeof(floe_vec3));
    h = fnv(h, floe_angular_velocities(w), n * sizeof(floe_vec3));
    return h;
}

/* Every rank at the same point: a comparison when it is due. Rank 0
 * returns -1 and names the ranks whose state differs from its own. */
static int compare(const floe_world *w, int full) {
    int64_t step = floe_step_count(w);
    if (!full && (step == last_check || step % FLOE_DIST_CHECK_EVERY != 0)) return 0;
    last_check = step;
    uint64_t mine = fingerprint(w, full), *all = NULL;
    if (rank == 0 && !(all = malloc(sizeof *all * (size_t)size))) {
        fprintf(stderr, "floe: out of memory comparing the ranks' states\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Gather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (rank != 0) return 0;
    int bad = 0;
    for (int r = 1; r < size; r++)
        if (all[r] != all[0] || all[0] == 0) {
            if (!bad)
                fprintf(stderr, "floe: the ranks' states differ at step %lld (%s): rank %d's is not rank 0's",
                        (long long)step, full ? "whole snapshot" : "positions and velocities", r);
            else fprintf(stderr, ", nor rank %d's", r);
            bad = 1;
        }
    if (bad)
        fprintf(stderr, "; every rank steps the same world from the same bytes, so this is a bug of floe's "
                        "determinism (docs/mpi.md#bitwise-equal-for-any-rank-count)\n");
    else checks++;
    free(all);
    return bad ? -1 : 0;
}

static void bcast_bytes(unsigned char *b, size_t len) {
    for (size_t off = 0; off < len; off += CHUNK) {
        size_t n = len - off < CHUNK ? len - off : CHUNK;
        MPI_Bcast(b + off, (int)n, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
    }
}

int floe_dist_lead(floe_world *w, int threads) {
    if (size == 1) return 0;
    unsigned char *bytes = NULL;
    size_t len = 0;
    char err[1024];
    if (floe_snapshot_to_bytes(w, &bytes, &len, err, sizeof err) != 0) {
        fprintf(stderr, "floe: cannot hand the world to the other ranks: %s\n", err);
        return -1;
    }
    fprintf(stderr,
            "floe: %d ranks under mpirun: each steps the whole world, rank 0 writes the outputs, and "
            "their states are compared every %d steps (docs/mpi.md)\n",
            size, FLOE_DIST_CHECK_EVERY);
    int64_t head[4] = {MSG_WORLD, (int64_t)len, threads, (int64_t)floe_event_types(w)};
    MPI_Bcast(head, 4, MPI_INT64_T, 0, MPI_COMM_WORLD);
    bcast_bytes(bytes, len);
    free(bytes);
    last_check = floe_step_count(w);
    stepping = 1;
    return 0;
}

int floe_dist_go(floe_world *w, int go) {
    if (size == 1 || !stepping) return 0;
    int bad = compare(w, 0);
    int flag = bad ? 0 : go;
    MPI_Bcast(&flag, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (flag <= 0) {
        stepping = 0; /* the others have left their loop: a later call says nothing */
        if (flag == 0 && compare(w, 1) != 0) bad = 1;
    }
    return bad ? -1 : 0;
}

int floe_dist_finish(int rc) {
    if (!started) return rc;
    if (size > 1) {
        int64_t head[4] = {MSG_END, rc, 0, 0};
        MPI_Bcast(head, 4, MPI_INT64_T, 0, MPI_COMM_WORLD);
        if (checks > 0)
            fprintf(stderr,
                    "floe: %d ranks, each stepping the whole world: their states were bitwise equal at %ld "
                    "comparison%s\n",
                    size, checks, checks == 1 ? "" : "s");
    }
    MPI_Finalize();
    return rc;
}

/* A test of the comparison (tests/test_mpi_run.c): the rank named by
 * FLOE_DIST_TEST_PERTURB moves the first body with a mass by one unit in the last
 * place of its x right after it received the world (a velocity's last bit
 * can vanish in the next sum; a position's stays or moves a contact). */
static void test_perturb(floe_world *w) {
    const char *e = getenv("FLOE_DIST_TEST_PERTURB");
    if (!e || atoi(e) != rank) return;
    const double *m = floe_masses(w);
    floe_vec3 *x = floe_positions_mut(w);
    for (int i = 0; i < floe_particle_count(w); i++)
        if (m[i] > 0) {
            x[i].x = nextafter(x[i].x, INFINITY);
            floe_check_bodies(w);
            return;
        }
}

int floe_dist_follow(void) {
    int rc = 1;
    /* Ctrl-C and SIGTERM reach every rank: rank 0 stops the run at the end
     * of its step and writes its files; the others end when it says so */
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    for (;;) {
        int64_t head[4];
        MPI_Bcast(head, 4, MPI_INT64_T, 0, MPI_COMM_WORLD);
        if (head[0] == MSG_END) {
            rc = (int)head[1];
            break;
        }
        size_t len = (size_t)head[1];
        unsigned char *bytes = malloc(len ? len : 1);
        if (!bytes) MPI_Abort(MPI_COMM_WORLD, 1);
        bcast_bytes(bytes, len);
        char err[1024];
        floe_world *w = floe_snapshot_from_bytes(bytes, len, err, sizeof err);
        free(bytes);
        if (!w) { /* rank 0 made these bytes from a world: they must load */
            fprintf(stderr, "floe: rank %d cannot load the world of rank 0: %s\n", rank, err);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (head[2] >= 0) floe_set_threads(w, (int)head[2]);
        floe_set_event_types(w, (uint32_t)head[3]);
        test_perturb(w);
        last_check = floe_step_count(w);
        for (;;) {
            compare(w, 0);
            int flag = 0;
            MPI_Bcast(&flag, 1, MPI_INT, 0, MPI_COMM_WORLD);
            if (flag <= 0) {
                if (flag == 0) compare(w, 1);
                break;
            }
            floe_step(w); /* a failed step fails on rank 0 too, which then ends the run */
        }
        floe_world_destroy(w);
    }
    MPI_Finalize();
    return rc;
}
