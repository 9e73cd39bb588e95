// SPDX-License-Identifier: MIT
// chase-report as a child process: posix_spawn, its output read through a pipe with a deadline.
#include "report_run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* chase-report reads a run in milliseconds (13 ms for a quick run of every experiment); a
   minute allows for a huge run on a busy machine and still ends a child that hangs. */
#define REPORT_TIMEOUT_S 60
/* Its JSON for a full run is tens of kilobytes; more than this is not a report. */
#define REPORT_MAX_BYTES (64u << 20)

extern char **environ;

void report_default_path(char *out, size_t cap)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    char *slash = n > 0 ? memrchr(self, '/', (size_t)n) : NULL;
    if (!slash) {
        snprintf(out, cap, "chase-report");
        return;
    }
    *slash = '\0';
    snprintf(out, cap, "%s/chase-report", self);
}

/* Read the child's output until it closes the pipe, the deadline passes or the cap is met. */
static char *read_output(int fd, time_t deadline, size_t *len, char *err, size_t cap)
{
    size_t used = 0, room = 65536;
    char *buf = malloc(room + 1);
    while (buf) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int wait_ms = (int)(deadline - time(NULL)) * 1000;
        if (wait_ms <= 0 || poll(&p, 1, wait_ms) == 0) {
            snprintf(err, cap, "chase-report took more than %d s", REPORT_TIMEOUT_S);
            break;
        }
        if (used == room) {
            char *more = room < REPORT_MAX_BYTES ? realloc(buf, 2 * room + 1) : NULL;
            if (!more) {
                snprintf(err, cap, "chase-report wrote more than %u bytes", REPORT_MAX_BYTES);
                break;
            }
            buf = more;
            room *= 2;
        }
        ssize_t n = read(fd, buf + used, room - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            buf[used] = '\0';
            *len = used;
            return buf;
        }
        used += (size_t)n;
    }
    free(buf);
    return NULL;
}

char *report_json(const char *report, const char *dir, char *err, size_t cap)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        snprintf(err, cap, "pipe: %s", strerror(errno));
        return NULL;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    char *argv[] = {(char *)report, "--json", (char *)dir, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, report, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(p[1]);
    if (rc != 0) {
        close(p[0]);
        snprintf(err, cap, "cannot run %s: %s", report, strerror(rc));
        return NULL;
    }
    size_t len = 0;
    char *out = read_output(p[0], time(NULL) + REPORT_TIMEOUT_S, &len, err, cap);
    close(p[0]);
    if (!out)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (out && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        snprintf(err, cap, "%s --json %s failed (status %d)", report, dir,
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        free(out);
        out = NULL;
    }
    return out;
}
