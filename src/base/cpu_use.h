/* How much CPU the rest of the machine uses: what the thread tuner
 * (core/threads.c) needs to know before it offers a team of threads cores
 * that other processes keep busy. Linux (/proc/stat); elsewhere unknown. */
#ifndef FLOE_BASE_CPU_USE_H
#define FLOE_BASE_CPU_USE_H

/* One reading: the machine's busy CPU time, this process's CPU time and
 * the wall clock, in seconds. */
typedef struct floe_cpu_sample {
    double machine, own, wall;
    int ok; /* 0: the machine's time could not be read */
} floe_cpu_sample;

/* Reads the clocks now. */
floe_cpu_sample floe__cpu_sample(void);
/* The cores other processes kept busy on average from a to b (>= 0), or
 * -1 when unknown: a reading failed, or less than `min_wall` seconds
 * passed (the machine's clock ticks in hundredths of a second). */
double floe__cpu_others(floe_cpu_sample a, floe_cpu_sample b, double min_wall);
/* The wall clock alone, in seconds (cheap: no file read). */
double floe__cpu_wall(void);
/* The cores the system has online (at least 1). */
int floe__cpu_count(void);

#endif
