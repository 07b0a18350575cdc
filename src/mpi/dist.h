/* The distributed run: the ranks mpirun starts, the world handed from rank
 * 0 to the others in the snapshot's byte form, the steps they take together
 * and the checks that their states stay bitwise equal (docs/mpi.md). */
#ifndef FLOE_MPI_DIST_H
#define FLOE_MPI_DIST_H

#include <floe/floe.h>

/* Steps between two comparisons of the ranks' states (positions,
 * velocities, angular velocities, step and contact counts); the whole
 * snapshot is compared at the end of the run. */
enum { FLOE_DIST_CHECK_EVERY = 64 };

/* MPI_Init (with the threads of OpenMP outside MPI calls, MPI_THREAD_FUNNELED).
 * Returns this process's rank, or -1 with a message on stderr. */
int floe_dist_init(int *argc, char ***argv);
int floe_dist_rank(void); /* 0 before floe_dist_init */
int floe_dist_size(void); /* 1 before floe_dist_init */

/* Rank 0, once its world has started: hands the world (its snapshot bytes),
 * the thread ceiling (`threads` < 0: the default) and the event types to
 * the other ranks. 0, or -1 with a message on stderr. */
int floe_dist_lead(floe_world *w, int threads);

/* Rank 0, once per pass of its run loop: go = 1 before each step, 0 when
 * the run ends (then the whole snapshots are compared), -1 when it ends
 * after a step rank 0 did not finish (interrupted within an inlet's
 * insertion, which the others finished: nothing to compare). Every
 * FLOE_DIST_CHECK_EVERY steps the ranks' states are compared first.
 * 0, or -1 when a rank's state differs from rank 0's (said on stderr). */
int floe_dist_go(floe_world *w, int go);

/* Rank 0, at its end: tells the other ranks its exit code, prints how many
 * checks the ranks passed, finalizes MPI. Returns rc. */
int floe_dist_finish(int rc);

/* Ranks above 0: receive the world, step with rank 0 and take part in its
 * checks until it ends; finalizes MPI and returns rank 0's exit code. */
int floe_dist_follow(void);

#endif
