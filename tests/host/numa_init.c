// SPDX-License-Identifier: MIT
// The init of the initramfs tests/host/test_host_numa.sh boots: mounts /dev, /proc and /sys, runs
// /chase-host with the arguments after "--" on the kernel command line, prints the run folder's
// files to the console between marker lines, and powers the machine off.
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define OUT_DIR "/runs"          /* chase-host --out: its run folder is OUT_DIR/0001 */
#define RUN_DIR OUT_DIR "/0001"  /* the first run of an empty --out folder */
#define ARGS_MAX 64              /* chase-host arguments passed on */
#define FILE_MAX_BYTES (1 << 20) /* larger files (none expected) are named, not printed */

/* The console on 0, 1 and 2 (the kernel opens it only when the archive has /dev/console). */
static void console_setup(void)
{
    mkdir("/dev", 0755);
    mkdir("/proc", 0755);
    mkdir("/sys", 0755);
    mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
    mount("proc", "/proc", "proc", 0, NULL);
    mount("sysfs", "/sys", "sysfs", 0, NULL);
    int fd = open("/dev/console", O_RDWR);
    if (fd >= 0) {
        dup2(fd, 0);
        dup2(fd, 1);
        dup2(fd, 2);
        if (fd > 2)
            close(fd);
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
}

/* chase-host --out OUT_DIR ARGS..., its output on the console; its exit status (-1: none). */
static int run_chase(int argc, char **argv)
{
    char *args[ARGS_MAX + 4] = {"/chase-host", "--out", OUT_DIR};
    int n = 3;
    for (int i = 1; i < argc && n < ARGS_MAX + 3; i++)
        args[n++] = argv[i];
    args[n] = NULL;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execv(args[0], args);
        perror("numa_init: exec /chase-host");
        _exit(127);
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* One file between "=== file NAME ===" and "=== end NAME ===". */
static void print_file(const char *name)
{
    char path[512], buf[4096];
    struct stat st;
    snprintf(path, sizeof(path), RUN_DIR "/%s", name);
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    if (st.st_size > FILE_MAX_BYTES) {
        printf("=== skipped %s: %lld bytes ===\n", name, (long long)st.st_size);
        return;
    }
    printf("=== file %s ===\n", name);
    fflush(stdout);
    int fd = open(path, O_RDONLY);
    ssize_t r;
    char last = '\n'; /* the end marker starts a line of its own, the file gains no line */
    while (fd >= 0 && (r = read(fd, buf, sizeof(buf))) > 0) {
        if (write(1, buf, (size_t)r) != r)
            break;
        last = buf[r - 1];
    }
    if (fd >= 0)
        close(fd);
    printf("%s=== end %s ===\n", last == '\n' ? "" : "\n", name);
}

int main(int argc, char **argv)
{
    console_setup();
    mkdir(OUT_DIR, 0755);
    printf("=== chase-host starts ===\n");
    int rc = run_chase(argc, argv);
    printf("=== chase-host exit %d ===\n", rc);
    DIR *d = opendir(RUN_DIR);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            print_file(e->d_name);
    if (d)
        closedir(d);
    printf("=== done ===\n");
    fflush(stdout);
    sync();
    reboot(RB_POWER_OFF);
    return 0;
}
