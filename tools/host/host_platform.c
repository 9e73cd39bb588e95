// SPDX-License-Identifier: MIT
// The kernel's platform interface on Linux: files in the run folder, stdout, CLOCK_MONOTONIC_RAW.
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "arch/cpu.h"
#include "host.h"
#include "machine/window_rules.h"
#include "platform.h"

#define CALIBRATION_NS 20000000ULL        /* 20 ms per calibration */
#define CPUID1_ECX_OSXSAVE_BIT (1u << 27) /* the OS set CR4.OSXSAVE: XGETBV works */

static char run_dir[PATH_MAX];

void *plat_alloc(size_t n)
{
    return calloc(1, n ? n : 1);
}

void plat_free(void *p)
{
    free(p);
}

void plat_console_write(const char *s)
{
    fputs(s, stdout);
    fflush(stdout);
}

bool plat_serial_write(const char *s)
{
    (void)s;
    return false; /* a Linux process has no serial port of its own: stdout is its console */
}

int host_make_dirs(const char *dir)
{
    char path[sizeof(run_dir)];
    size_t len = strlen(dir);

    if (len == 0 || len >= sizeof(path)) {
        errno = len ? ENAMETOOLONG : ENOENT;
        return -1;
    }
    memcpy(path, dir, len + 1);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

int host_make_run_dir(const char *out_dir)
{
    if (host_make_dirs(out_dir) != 0)
        return -1;
    for (unsigned n = 1; n < 10000; n++) {
        snprintf(run_dir, sizeof(run_dir), "%s/%04u", out_dir, n);
        if (mkdir(run_dir, 0755) == 0)
            return 0;
        if (errno != EEXIST)
            return -1;
    }
    errno = ENOSPC;
    return -1;
}

const char *plat_result_path(void)
{
    return run_dir;
}

int plat_file_write(const char *name, const void *data, size_t len)
{
    char path[PATH_MAX + 64], tmp[PATH_MAX + 72];
    snprintf(path, sizeof(path), "%s/%s", run_dir, name);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    /* Write then rename: a run killed mid-write never leaves a half file behind. */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return PLAT_WRITE_FAILED;
    const char *p = data;
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            close(fd);
            unlink(tmp);
            return PLAT_WRITE_FAILED;
        }
        p += w;
        len -= (size_t)w;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        unlink(tmp);
        return PLAT_WRITE_FAILED;
    }
    return rename(tmp, path) == 0 ? 0 : PLAT_WRITE_FAILED;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static bool monotonic_raw_sample(uint64_t *ticks, uint64_t *ref_ns)
{
    uint64_t n0 = now_ns(), t0 = arch_tsc_fenced();
    uint64_t n1, t1;
    do {
        n1 = now_ns();
        t1 = arch_tsc_fenced();
    } while (n1 - n0 < CALIBRATION_NS);
    *ticks = t1 - t0;
    *ref_ns = n1 - n0;
    return true;
}

unsigned plat_tsc_references(const struct tsc_reference **refs)
{
    static const struct tsc_reference host_refs[] = {
        {"clock_monotonic_raw", monotonic_raw_sample},
    };
    *refs = host_refs;
    return 1;
}

bool plat_read_msr(uint32_t msr, uint64_t *value)
{
    /* Only through the msr driver, as root; otherwise the host has no MSRs to offer. */
    char path[64];
    snprintf(path, sizeof(path), "/dev/cpu/%d/msr", sched_getcpu());
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    ssize_t n = pread(fd, value, sizeof(*value), msr);
    close(fd);
    return n == (ssize_t)sizeof(*value);
}

/* chase-host changes no MSR: the prefetch key is refused on Linux before anything runs. */
bool plat_write_msr(uint32_t msr, uint64_t value)
{
    (void)msr;
    (void)value;
    return false;
}

bool plat_window_xstate(uint64_t xcr0)
{
    if (!xcr0)
        return true;
#if defined(__x86_64__)
    uint32_t r[4];
    arch_cpuid(1, 0, r);
    return (r[2] & CPUID1_ECX_OSXSAVE_BIT) && (arch_xgetbv(0) & xcr0) == xcr0;
#else
    return false; /* no XCR0 on this architecture */
#endif
}

/* The windows run so far and the longest (with interrupts on: Linux may come in). */
static uint64_t windows, longest_ticks;

/* User space cannot turn interrupts off or own page tables: the job simply runs. */
int plat_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault)
{
    int elsewhere = host_mp_window_run(fn, arg, fault);
    if (elsewhere != 1)
        return elsewhere;
    fault->faulted = false;
    uint64_t t0 = arch_tsc_fenced();
    fn(arg);
    uint64_t ticks = arch_tsc_fenced() - t0;
    windows++;
    longest_ticks = ticks > longest_ticks ? ticks : longest_ticks;
    return 0;
}

/* What LFENCE is here: Linux sets DE_CFG[1] on AMD at boot; chase-host writes no MSR. */
static const char *host_lfence(struct window_report *r)
{
#if defined(__aarch64__)
    (void)r;
    return "not on this architecture (AArch64): counter reads are ordered with DSB SY and ISB";
#endif
    char vendor[13];
    struct lfence_cpuid c;
    lfence_cpuid_read(&c, vendor);
    enum lfence_rule rule = lfence_rule_of(&c);
    r->de_cfg_read = rule == LFENCE_NEEDS_DE_CFG && plat_read_msr(MSR_AMD_DE_CFG, &r->de_cfg);
    enum lfence_action a = lfence_action_of(rule, r->de_cfg_read, r->de_cfg);
    /* Linux's write may not have reached a guest's DE_CFG: unreadable is unsure here too. */
    r->lfence_unsure = a == LFENCE_UNREADABLE || a == LFENCE_SET_FOR_RUN;
    if (a == LFENCE_UNREADABLE)
        return "DE_CFG not readable without the msr driver; Linux sets DE_CFG[1] (LFENCE "
               "serializing) on AMD at boot";
    if (a == LFENCE_SET_FOR_RUN)
        return "DE_CFG[1] (LFENCE serializing) found clear; chase-host writes no MSR: LFENCE "
               "may not serialize";
    return lfence_action_text(a);
}

void plat_window_report(struct window_report *r)
{
    memset(r, 0, sizeof(*r));
    r->windows = windows;
    r->longest_ticks = longest_ticks;
    r->lfence = host_lfence(r);
    r->paging = "Linux's (chase-host loads no page tables)";
}

void host_memory(uint64_t *total, uint64_t *available)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[128];
    unsigned long kb;
    *total = *available = 0;
    if (!f)
        return;
    while (fgets(line, sizeof(line), f)) {
        if (sscanf(line, "MemTotal: %lu kB", &kb) == 1)
            *total = (uint64_t)kb * 1024;
        else if (sscanf(line, "MemAvailable: %lu kB", &kb) == 1)
            *available = (uint64_t)kb * 1024;
    }
    fclose(f);
}
