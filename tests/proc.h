/* Running the floe command line (FLOE_CLI) from a test. */
#ifndef FLOE_TEST_PROC_H
#define FLOE_TEST_PROC_H

#include <fcntl.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Starts the CLI with argv, stdout and stderr into `errfile`; returns its pid. */
static inline pid_t spawn_cli(const char *const *argv, const char *errfile) {
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 2);
        dup2(fd, 1);
        execv(FLOE_CLI, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

/* Sends SIGINT after `interrupt_s` seconds if > 0, then waits. Returns the
 * exit status (128+sig if killed). */
static inline int wait_cli(pid_t pid, double interrupt_s) {
    if (interrupt_s > 0) {
        struct timespec ts = {(time_t)interrupt_s, (long)((interrupt_s - (time_t)interrupt_s) * 1e9)};
        nanosleep(&ts, NULL);
        kill(pid, SIGINT);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Runs the CLI with argv, stdout and stderr into `errfile`; sends SIGINT
 * after `interrupt_s` seconds if > 0. Returns the exit status (128+sig if
 * killed). */
static inline int run_cli(const char *const *argv, const char *errfile, double interrupt_s) {
    return wait_cli(spawn_cli(argv, errfile), interrupt_s);
}

#endif
