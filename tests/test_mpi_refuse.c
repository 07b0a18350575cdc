/* A floe built without MPI refuses to run under an MPI launcher: its N
 * copies would each run the whole scene into one output folder
 * (docs/mpi.md#running-it). The launchers say so through the environment:
 * Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE, PMI launchers PMI_SIZE; so
 * the test sets them itself and needs no mpirun. FLOE_CLI_SERIAL is the
 * command built without MPI (build/floe-serial in an MPI build). */
#include "check.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* `floe-serial run hopper.yaml --out OUT --steps 5` with one variable of
 * the environment set (var NULL: none); output into log. Exit status. */
static int run_with(const char *var, const char *value, const char *out, const char *log) {
    pid_t pid = fork();
    if (pid == 0) {
        unsetenv("OMPI_COMM_WORLD_SIZE");
        unsetenv("PMI_SIZE");
        if (var) setenv(var, value, 1);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        if (chdir(FLOE_EXAMPLES) != 0) _exit(127);
        execl(FLOE_CLI_SERIAL, FLOE_CLI_SERIAL, "run", "hopper.yaml", "--out", out, "--steps", "5", "--threads", "1",
              (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(void) {
    char tmpl[] = "/tmp/floe_mpi_refuse_XXXXXX", out[512], log[512];
    const char *dir = mkdtemp(tmpl);
    CHECK(dir != NULL);
    if (!dir) return CHECK_DONE();
    snprintf(log, sizeof log, "%s/log", dir);
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};
    for (int v = 0; v < 2; v++) {
        /* one of 3 processes: refused with status 2 before anything is written */
        snprintf(out, sizeof out, "%s/out%d", dir, v);
        CHECK(run_with(vars[v], "3", out, log) == 2);
        char *text = check_slurp(log, NULL);
        CHECK(text && strstr(text, "built without MPI") && strstr(text, "one of 3 processes"));
        if (text && check_failures) fprintf(stderr, "%s", text);
        free(text);
        struct stat st;
        CHECK(stat(out, &st) != 0); /* no output folder */
        /* one of 1: a launcher's single process runs as if alone */
        CHECK(run_with(vars[v], "1", out, log) == 0);
        CHECK(stat(out, &st) == 0);
    }
    /* and started alone it runs */
    snprintf(out, sizeof out, "%s/alone", dir);
    CHECK(run_with(NULL, NULL, out, log) == 0);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
