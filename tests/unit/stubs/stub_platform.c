// SPDX-License-Identifier: MIT
// Explicit platform stubs for unit tests: memory from libc, console and files captured, fake
// processors on threads.
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"
#include "stub_platform.h"

char stub_console[STUB_CONSOLE_BYTES];
size_t stub_console_len;
unsigned stub_files_written;

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
    size_t n = strlen(s);
    if (stub_console_len + n + 1 > sizeof(stub_console))
        n = sizeof(stub_console) - stub_console_len - 1;
    memcpy(stub_console + stub_console_len, s, n);
    stub_console_len += n;
    stub_console[stub_console_len] = 0;
}

char stub_serial[1 << 16];
size_t stub_serial_len;
bool stub_serial_present; /* false: plat_serial_write says there is no port */

bool plat_serial_write(const char *s)
{
    size_t n = strlen(s);
    if (!stub_serial_present)
        return false;
    if (stub_serial_len + n + 1 > sizeof(stub_serial))
        n = sizeof(stub_serial) - stub_serial_len - 1;
    memcpy(stub_serial + stub_serial_len, s, n);
    stub_serial_len += n;
    stub_serial[stub_serial_len] = 0;
    return true;
}

void stub_console_reset(void)
{
    stub_console_len = 0;
    stub_console[0] = 0;
}

int plat_file_write(const char *name, const void *data, size_t len)
{
    (void)name;
    (void)data;
    (void)len;
    stub_files_written++;
    return 0;
}

const char *plat_result_path(void)
{
    return "stub/0001";
}

static bool stub_sample(uint64_t *ticks, uint64_t *ref_ns)
{
    *ticks = 3000000;
    *ref_ns = 1000000;
    return true;
}

unsigned plat_tsc_references(const struct tsc_reference **refs)
{
    static const struct tsc_reference stub_refs[] = {{"stub", stub_sample}};
    *refs = stub_refs;
    return 1;
}

bool plat_read_msr(uint32_t msr, uint64_t *value)
{
    (void)msr;
    (void)value;
    return false;
}

bool plat_write_msr(uint32_t msr, uint64_t value)
{
    (void)msr;
    (void)value;
    return false;
}

bool plat_window_xstate(uint64_t xcr0)
{
    (void)xcr0;
    return true;
}

unsigned stub_windows;
unsigned stub_window_skip;
unsigned stub_window_interruptions;
unsigned stub_window_interruption_vector = 2;

int plat_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault)
{
    memset(fault, 0, sizeof(*fault));
    stub_windows++;
    fn(arg);
    if (stub_window_skip) {
        stub_window_skip--;
    } else if (stub_window_interruptions) { /* as an NMI that came during fn: fn ran, timing lost */
        stub_window_interruptions--;
        fault->faulted = true;
        fault->vector = stub_window_interruption_vector;
        return -1;
    }
    return 0;
}

void plat_window_report(struct window_report *r)
{
    memset(r, 0, sizeof(*r));
    r->windows = stub_windows;
    r->lfence = "stub";
    r->paging = "stub";
}

struct plat_cpu stub_cpus[PLAT_CPUS_MAX];
unsigned stub_ncpus;

/* Unit tests run on no other processor unless they describe some (stub_cpus): the
   multi-processor experiments are skipped. */
unsigned plat_cpus(struct plat_cpu *cpus, unsigned cap, char *why, size_t why_cap)
{
    unsigned n = stub_ncpus < cap ? stub_ncpus : cap;
    if (!n) {
        snprintf(why, why_cap, "unit tests use one processor");
        return 0;
    }
    memcpy(cpus, stub_cpus, n * sizeof(*cpus));
    return n;
}

/* The fake processor id's index in stub_cpus, or -1 (unknown, the caller's own). */
static int stub_cpu_other(unsigned id)
{
    for (unsigned i = 0; i < stub_ncpus; i++)
        if (stub_cpus[i].id == id)
            return stub_cpus[i].bsp ? -1 : (int)i;
    return -1;
}

int plat_cpu_run(unsigned id, void (*fn)(void *arg), void *arg, uint64_t timeout_us)
{
    (void)timeout_us;
    if (stub_cpu_other(id) < 0)
        return -1;
    fn(arg);
    return 0;
}

/* What plat_cpus_start started: a thread for each processor, stepping until its work is done. */
struct stub_job {
    pthread_t thread;
    bool (*step)(void *arg);
    void *arg;
};
static struct stub_job stub_jobs[PLAT_CPUS_MAX];
static unsigned stub_started;

static void *stub_job_main(void *arg)
{
    struct stub_job *j = arg;
    while (j->step(j->arg))
        ;
    return NULL;
}

int plat_cpus_start(const unsigned *ids, unsigned n, bool (*step)(void *arg), void *const *args,
                    uint64_t timeout_us)
{
    (void)timeout_us;
    if (stub_started || n > PLAT_CPUS_MAX)
        return -1;
    for (unsigned i = 0; i < n; i++)
        if (stub_cpu_other(ids[i]) < 0)
            return -1;
    for (unsigned i = 0; i < n; i++) {
        stub_jobs[i] = (struct stub_job){.step = step, .arg = args[i]};
        if (pthread_create(&stub_jobs[i].thread, NULL, stub_job_main, &stub_jobs[i]) != 0)
            abort(); /* the test cannot go on without its fake processors */
        stub_started++;
    }
    return 0;
}

unsigned plat_cpus_total(unsigned *enabled, unsigned *held, unsigned *cpuid_failed)
{
    *enabled = *held = stub_ncpus;
    *cpuid_failed = 0;
    return stub_ncpus;
}

int plat_cpus_wait(bool *done, unsigned n, uint64_t timeout_us)
{
    (void)timeout_us;
    if (n != stub_started)
        return -1;
    for (unsigned i = 0; i < n; i++)
        done[i] = pthread_join(stub_jobs[i].thread, NULL) == 0;
    stub_started = 0;
    return 0;
}

static cpu_set_t stub_mask_before;
static bool stub_pinned;

void stub_cpus_pin(void)
{
    cpu_set_t one;
    if (sched_getaffinity(0, sizeof(stub_mask_before), &stub_mask_before) != 0)
        abort();
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu(), &one);
    if (sched_setaffinity(0, sizeof(one), &one) != 0)
        abort();
    stub_pinned = true;
}

void stub_cpus_unpin(void)
{
    if (stub_pinned)
        sched_setaffinity(0, sizeof(stub_mask_before), &stub_mask_before);
    stub_pinned = false;
}

void plat_cpus_release(void)
{
}

int plat_window_cpu(unsigned id, uint64_t timeout_us)
{
    (void)timeout_us;
    return id == PLAT_WINDOW_HERE ? 0 : -1;
}
