/* The machine's CPU use from /proc/stat (cpu_use.h). */
#include "base/cpu_use.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double seconds(clockid_t id) {
    struct timespec ts;
    return clock_gettime(id, &ts) == 0 ? ts.tv_sec + 1e-9 * ts.tv_nsec : 0;
}

/* The first line of /proc/stat: "cpu user nice system idle iowait irq
 * softirq steal ...", in clock ticks summed over the CPUs. Busy is
 * everything but idle, iowait and steal (time the hypervisor gave to
 * other machines, which no process here used). */
static int machine_busy(double *busy) {
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return 0;
    unsigned long long v[8] = {0};
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
                   &v[7]);
    fclose(f);
    long hz = sysconf(_SC_CLK_TCK);
    if (n < 4 || hz <= 0) return 0;
    *busy = (double)(v[0] + v[1] + v[2] + v[5] + v[6]) / (double)hz;
    return 1;
}

floe_cpu_sample floe__cpu_sample(void) {
    floe_cpu_sample s = {0, 0, 0, 0};
    s.ok = machine_busy(&s.machine);
    s.own = seconds(CLOCK_PROCESS_CPUTIME_ID);
    s.wall = floe__cpu_wall();
    return s;
}

double floe__cpu_others(floe_cpu_sample a, floe_cpu_sample b, double min_wall) {
    double wall = b.wall - a.wall;
    if (!a.ok || !b.ok || !(wall >= min_wall) || wall <= 0) return -1;
    double others = ((b.machine - a.machine) - (b.own - a.own)) / wall;
    return others > 0 ? others : 0;
}

double floe__cpu_wall(void) { return seconds(CLOCK_MONOTONIC); }

int floe__cpu_count(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}
