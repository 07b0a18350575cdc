/* The progress bar on a terminal: on a 60-column pseudo-terminal every
 * redraw fits in the line and clears what an earlier, longer one left. */
#define _XOPEN_SOURCE 700 /* posix_openpt, grantpt, unlockpt, ptsname */
#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs argv with stdout and stderr on a pseudo-terminal of `cols` columns;
 * returns everything it wrote (malloc'd) and its exit status in *status. */
static char *run_on_pty(const char *const *argv, int cols, int *status) {
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) return NULL;
    const char *name = ptsname(master);
    int slave = name ? open(name, O_RDWR | O_NOCTTY) : -1;
    if (slave < 0) return NULL;
    struct winsize ws = {.ws_row = 24, .ws_col = (unsigned short)cols};
    ioctl(slave, TIOCSWINSZ, &ws);
    pid_t pid = fork();
    if (pid == 0) {
        close(master);
        setsid();
        dup2(slave, 1);
        dup2(slave, 2);
        unsetenv("COLUMNS");
        execv(FLOE_CLI, (char *const *)argv);
        _exit(127);
    }
    close(slave);
    size_t len = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    for (;;) { /* until the child is gone: then read() fails with EIO */
        if (len + 4096 > cap) buf = realloc(buf, cap *= 2);
        ssize_t n = read(master, buf + len, 4096);
        if (n > 0) len += (size_t)n;
        else if (n < 0 && errno == EINTR) continue;
        else break;
    }
    buf[len] = 0;
    close(master);
    int st = 0;
    waitpid(pid, &st, 0);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return buf;
}

int main(void) {
    char tmp[256] = "/tmp/floe_cli_tty_XXXXXX", scene[512], out[512];
    CHECK(mkdtemp(tmp) != NULL);
    snprintf(scene, sizeof scene, "%s/drop.yaml", tmp);
    check_write_file(scene, "world: {gravity: [0, 0, -9.81], dt: 2e-5}\nrun: {steps: 30000}\n"
                            "materials: [{name: m, young: 1e7, density: 2000}]\n"
                            "walls: [{axis: z, pos: 0, sense: 1}]\n"
                            "generators:\n  - lattice: {origin: [0, 0, 0.0101], spacing: 0.0201, counts: [4, 4, 4], "
                            "radius: 0.01}\n"
                            "output: {vtk: {every: 0}, energy: {every: 0}}\n");
    snprintf(out, sizeof out, "%s/out", tmp);
    const char *argv[] = {"floe", "run", scene, "--out", out, NULL};
    const int cols = 60;
    int status = -1;
    char *text = run_on_pty(argv, cols, &status);
    CHECK(text && status == 0);
    /* each redraw: from a '\r' to the next '\r' or '\n' (the terminal turns
     * "\n" into "\r\n": empty pieces) */
    int redraws = 0, too_wide = 0, not_cleared = 0, widest = 0;
    for (char *p = text ? strchr(text, '\r') : NULL; p; p = strchr(p + 1, '\r')) {
        size_t n = strcspn(p + 1, "\r\n");
        if (n == 0) continue;
        redraws++;
        const char *clear = "\033[K";
        int cleared = n >= 3 && !strncmp(p + 1 + n - 3, clear, 3);
        int width = (int)n - (cleared ? 3 : 0);
        widest = width > widest ? width : widest;
        too_wide += width >= cols;
        not_cleared += !cleared;
    }
    CHECK(redraws >= 1 && too_wide == 0 && not_cleared == 0);
    REPORT("%d redraws on a %d-column terminal: widest %d columns, %d too wide, %d not cleared to the end\n", redraws,
           cols, widest, too_wide, not_cleared);
    free(text);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (!check_failures) CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
