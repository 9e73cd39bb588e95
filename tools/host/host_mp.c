// SPDX-License-Identifier: MIT
// chase-host's other processors: one worker thread pinned to each CPU held (host_cpus.c).
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arch/cpu.h"
#include "host.h"
#include "host_cpus.h"
#if defined(__aarch64__)
#include "host_arm_files.h"
#endif
#include "platform.h"

#define SYSFS_CPU "/sys/devices/system/cpu"
#define NS_PER_US 1000ULL
#define NS_PER_S 1000000000ULL
#define SPINS_PER_CLOCK_LOOK 1024
#define SPIN_BEFORE_SLEEP_NS 50000000ULL /* 50 ms: longer than the gap between two windows */
#define CPUID_LEAF_FEATURES 1
#define CPUID_INITIAL_APIC_SHIFT 24 /* leaf 1 EBX[31:24] */
#define CPUID_INITIAL_APIC_MASK 0xffu

/* One pinned worker: a job slot the caller fills and the worker empties. */
struct worker {
    pthread_t thread;
    bool started;
    void (*fn)(void *arg);   /* a job of one window; or */
    bool (*step)(void *arg); /* ... one of several: run again while it returns true */
    void *arg;
    bool busy; /* a job is posted or running */
};

static struct {
    pthread_mutex_t lock;
    pthread_cond_t posted, finished;
    bool probed;
    unsigned n;
    struct host_cpus cpus; /* the table and the machine's counts */
    struct plat_cpu *cpu;  /* cpus.cpu: n of them */
    struct worker *w;      /* n */
    char why[160];
    int window_cpu; /* index in cpu[] that windows run on; -1: the caller's */
    uint64_t window_timeout_us;
    unsigned *started; /* n: indices plat_cpus_start posted to */
    unsigned nstarted;
} mp = {.lock = PTHREAD_MUTEX_INITIALIZER, .window_cpu = -1};

/* The CPUs this process may run on, as found before it pinned itself (NULL: all). */
static cpu_set_t *allowed;
static size_t allowed_bytes;

void host_mp_affinity_save(void)
{
    cpu_set_t *set = CPU_ALLOC(HOST_CPU_NUMBERS_MAX);
    size_t bytes = CPU_ALLOC_SIZE(HOST_CPU_NUMBERS_MAX);
    if (set && sched_getaffinity(0, bytes, set) != 0) {
        CPU_FREE(set);
        set = NULL; /* cannot tell: every online CPU is tried */
    }
    pthread_mutex_lock(&mp.lock);
    if (allowed)
        CPU_FREE(allowed);
    allowed = set;
    allowed_bytes = bytes;
    pthread_mutex_unlock(&mp.lock);
}

/* Hold every online CPU this process may run on, in tables sized from their count (once). */
static void probe(void)
{
    mp.probed = true;
    mp.n = host_cpus_read(SYSFS_CPU, allowed, allowed_bytes, (unsigned)sched_getcpu(), &mp.cpus,
                          mp.why, sizeof(mp.why));
    mp.cpu = mp.cpus.cpu;
    mp.w = mp.n ? calloc(mp.n, sizeof(*mp.w)) : NULL;
    mp.started = mp.n ? calloc(mp.n, sizeof(*mp.started)) : NULL;
    if (mp.n && (!mp.w || !mp.started)) {
        snprintf(mp.why, sizeof(mp.why), "no memory for %u workers", mp.n);
        mp.n = 0;
    }
    for (unsigned i = 0; i < mp.n; i++) {
#if defined(__aarch64__)
        mp.cpu[i].core_type = host_arm_cpuinfo_midr("", (int)mp.cpu[i].id); /* each core's part */
#endif
        if (mp.cpu[i].bsp) { /* the caller is pinned here: its CPUID is this processor's */
            uint32_t r[4];
            arch_cpuid(CPUID_LEAF_FEATURES, 0, r);
            mp.cpu[i].apic_id = (r[1] >> CPUID_INITIAL_APIC_SHIFT) & CPUID_INITIAL_APIC_MASK;
        }
    }
    if (mp.n < 2 && !mp.why[0])
        snprintf(mp.why, sizeof(mp.why),
                 "Linux shows %u online CPU%s this process may run on in " SYSFS_CPU, mp.n,
                 mp.n == 1 ? "" : "s");
}

/* Index in mp.cpu of processor id, or -1. */
static int cpu_index(unsigned id)
{
    for (unsigned i = 0; i < mp.n; i++)
        if (mp.cpu[i].id == id)
            return (int)i;
    return -1;
}

/*
 * Wait for the next job spinning, for a while, before sleeping: a worker that sleeps between
 * the windows of a sweep lets its (virtual) CPU idle, and what else runs there meanwhile
 * empties its caches; spinning keeps it as the caller's own CPU is kept between windows.
 */
static void spin_for_job(const struct worker *w)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        for (unsigned k = 0; k < SPINS_PER_CLOCK_LOOK; k++) {
            if (__atomic_load_n(&w->busy, __ATOMIC_ACQUIRE))
                return;
            arch_pause();
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
        uint64_t ns = (uint64_t)(t.tv_sec - t0.tv_sec) * NS_PER_S + (uint64_t)t.tv_nsec -
                      (uint64_t)t0.tv_nsec;
        if (ns > SPIN_BEFORE_SLEEP_NS)
            return;
    }
}

static void *worker_main(void *arg)
{
    unsigned i = (unsigned)(uintptr_t)arg;
    uint32_t r[4];
    arch_cpuid(CPUID_LEAF_FEATURES, 0, r);
    pthread_mutex_lock(&mp.lock);
    mp.cpu[i].apic_id = (r[1] >> CPUID_INITIAL_APIC_SHIFT) & CPUID_INITIAL_APIC_MASK;
    for (;;) {
        if (!mp.w[i].busy) {
            pthread_mutex_unlock(&mp.lock);
            spin_for_job(&mp.w[i]);
            pthread_mutex_lock(&mp.lock);
        }
        while (!mp.w[i].busy || (!mp.w[i].fn && !mp.w[i].step))
            pthread_cond_wait(&mp.posted, &mp.lock);
        void (*fn)(void *) = mp.w[i].fn;
        bool (*step)(void *) = mp.w[i].step;
        void *fn_arg = mp.w[i].arg;
        pthread_mutex_unlock(&mp.lock);
        if (step)
            while (step(fn_arg)) /* no windows here: the OS takes its interrupts anyway */
                ;
        else
            fn(fn_arg);
        pthread_mutex_lock(&mp.lock);
        mp.w[i].fn = NULL;
        mp.w[i].step = NULL;
        mp.w[i].busy = false;
        pthread_cond_broadcast(&mp.finished);
    }
    return NULL;
}

/* Start the worker pinned to mp.cpu[i] (under mp.lock); false when it cannot be pinned. */
static bool worker_ready(unsigned i)
{
    if (mp.w[i].started)
        return true;
    pthread_attr_t attr;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(mp.cpu[i].id, &set);
    pthread_attr_init(&attr);
    int rc = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
    if (rc == 0)
        rc = pthread_create(&mp.w[i].thread, &attr, worker_main, (void *)(uintptr_t)i);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        fprintf(stderr, "chase-host: cannot start a thread on CPU %u: %s\n", mp.cpu[i].id,
                strerror(rc));
        return false;
    }
    mp.w[i].started = true;
    return true;
}

/* Post fn(arg), or step(arg), to worker i (under mp.lock); false when it cannot take it. */
static bool post(unsigned i, void (*fn)(void *), bool (*step)(void *), void *arg)
{
    if (mp.cpu[i].lost || mp.w[i].busy || !worker_ready(i))
        return false;
    mp.w[i].fn = fn;
    mp.w[i].step = step;
    mp.w[i].arg = arg;
    __atomic_store_n(&mp.w[i].busy, true, __ATOMIC_RELEASE);
    pthread_cond_broadcast(&mp.posted);
    return true;
}

/* The CLOCK_REALTIME time (the condition variables' clock) timeout_us from now. */
static struct timespec deadline(uint64_t timeout_us)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t ns = (uint64_t)ts.tv_nsec + timeout_us * NS_PER_US;
    ts.tv_sec += (time_t)(ns / NS_PER_S);
    ts.tv_nsec = (long)(ns % NS_PER_S);
    return ts;
}

/* Wait (under mp.lock) until none of the n workers idx[] is busy, or the deadline. */
static int wait_workers(const unsigned *idx, unsigned n, bool *done, uint64_t timeout_us)
{
    struct timespec until = deadline(timeout_us);
    for (;;) {
        unsigned busy = 0;
        for (unsigned k = 0; k < n; k++) {
            bool d = !mp.w[idx[k]].busy;
            busy += !d;
            if (done)
                done[k] = d;
        }
        if (!busy)
            return 0;
        if (pthread_cond_timedwait(&mp.finished, &mp.lock, &until) == ETIMEDOUT) {
            for (unsigned k = 0; k < n; k++)
                mp.cpu[idx[k]].lost |= mp.w[idx[k]].busy;
            if (done)
                for (unsigned k = 0; k < n; k++)
                    done[k] = !mp.w[idx[k]].busy;
            return PLAT_CPU_TIMEOUT;
        }
    }
}

unsigned plat_cpus(struct plat_cpu *cpus, unsigned cap, char *why, size_t why_cap)
{
    pthread_mutex_lock(&mp.lock);
    if (!mp.probed)
        probe();
    unsigned n = mp.n < 2 ? 0 : mp.n < cap ? mp.n : cap;
    memcpy(cpus, mp.cpu, n * sizeof(*cpus));
    if (!n)
        snprintf(why, why_cap, "%s", mp.why);
    pthread_mutex_unlock(&mp.lock);
    return n;
}

int plat_cpu_run(unsigned id, void (*fn)(void *arg), void *arg, uint64_t timeout_us)
{
    pthread_mutex_lock(&mp.lock);
    int i = cpu_index(id), rc = -1;
    if (i >= 0 && !mp.cpu[i].bsp && post((unsigned)i, fn, NULL, arg)) {
        unsigned idx = (unsigned)i;
        rc = wait_workers(&idx, 1, NULL, timeout_us);
    }
    pthread_mutex_unlock(&mp.lock);
    return rc;
}

unsigned plat_cpus_total(unsigned *enabled, unsigned *held, unsigned *cpuid_failed)
{
    pthread_mutex_lock(&mp.lock);
    if (!mp.probed)
        probe();
    *held = mp.n < 2 ? 0 : mp.n; /* plat_cpus lists none with fewer than two */
    *enabled = mp.cpus.online;
    *cpuid_failed = 0; /* the places come from sysfs, the OS's reading of CPUID */
    unsigned total = mp.cpus.present;
    pthread_mutex_unlock(&mp.lock);
    return total;
}

int plat_cpus_start(const unsigned *ids, unsigned n, bool (*step)(void *arg), void *const *args,
                    uint64_t timeout_us)
{
    (void)timeout_us; /* threads: the caller's wait is the bound */
    pthread_mutex_lock(&mp.lock);
    if (!mp.probed)
        probe();
    int rc = mp.nstarted || n > mp.n ? -1 : 0;
    for (unsigned k = 0; k < n && rc == 0; k++) {
        int i = cpu_index(ids[k]);
        if (i < 0 || mp.cpu[i].bsp || mp.cpu[i].lost || mp.w[i].busy || !worker_ready((unsigned)i))
            rc = -1;
        else
            mp.started[k] = (unsigned)i;
    }
    for (unsigned k = 0; k < n && rc == 0; k++)
        post(mp.started[k], NULL, step, args[k]);
    mp.nstarted = rc == 0 ? n : 0;
    pthread_mutex_unlock(&mp.lock);
    return rc;
}

int plat_cpus_wait(bool *done, unsigned n, uint64_t timeout_us)
{
    pthread_mutex_lock(&mp.lock);
    int rc = n == mp.nstarted ? wait_workers(mp.started, n, done, timeout_us) : -1;
    mp.nstarted = 0;
    pthread_mutex_unlock(&mp.lock);
    return rc;
}

void plat_cpus_release(void)
{
    /* Linux schedules the workers' threads: none is held between experiments */
}

int plat_window_cpu(unsigned id, uint64_t timeout_us)
{
    pthread_mutex_lock(&mp.lock);
    int i = id == PLAT_WINDOW_HERE ? -1 : cpu_index(id), rc = 0;
    if (id != PLAT_WINDOW_HERE && (i < 0 || mp.cpu[i].lost))
        rc = -1;
    else
        mp.window_cpu = i >= 0 && mp.cpu[i].bsp ? -1 : i;
    mp.window_timeout_us = timeout_us;
    pthread_mutex_unlock(&mp.lock);
    return rc;
}

int host_mp_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault)
{
    pthread_mutex_lock(&mp.lock);
    int i = mp.window_cpu;
    uint64_t timeout_us = mp.window_timeout_us;
    pthread_mutex_unlock(&mp.lock);
    if (i < 0)
        return 1;
    fault->faulted = false;
    return plat_cpu_run(mp.cpu[i].id, fn, arg, timeout_us) == 0 ? 0 : -1;
}
