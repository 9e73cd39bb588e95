// SPDX-License-Identifier: MIT
// chase-host's processors: every CPU Linux has online and lets it run on, placed from sysfs.
#ifndef CHASE_HOST_CPUS_H
#define CHASE_HOST_CPUS_H

#include <sched.h>
#include <stddef.h>

#include "platform.h"

/* CPU numbers looked at, at most: Linux's own limit (NR_CPUS) is 8192; x2APIC IDs go far
   beyond, so the table is sized from what sysfs says the machine has, not from this. */
#define HOST_CPU_NUMBERS_MAX 65536u

/* The processors chase-host holds, and the machine's counts (as the firmware path records). */
struct host_cpus {
    struct plat_cpu *cpu; /* n of them, ascending by CPU number, allocated from the count */
    unsigned n;           /* held: online, and in the process's affinity mask */
    unsigned present;     /* CPUs the machine has (sysfs "present", else the configured count) */
    unsigned online;      /* of them online (sysfs "online", else the online count) */
};

/*
 * Read the CPUs under root (normally /sys/devices/system/cpu; tests give a tree of their own):
 * every one with a topology folder (online) that allow lets this process run on (allow NULL:
 * every one; else a set of set_bytes, CPU_ALLOC_SIZE), with package, die, core and thread
 * (its place in thread_siblings_list) and memory node; here is the caller's CPU (its bsp).
 * The table has room for every CPU number "possible" lists. Returns how many are held; *t
 * owns the table (host_cpus_free). 0 with why when none could be read.
 */
unsigned host_cpus_read(const char *root, const cpu_set_t *allow, size_t set_bytes, unsigned here,
                        struct host_cpus *t, char *why, size_t why_cap);

/* Give back what host_cpus_read allocated. */
void host_cpus_free(struct host_cpus *t);

/* One past the highest CPU number of a Linux CPU list ("0-3,8"): 0 when empty or malformed;
 *count gets how many numbers it lists. */
unsigned host_cpulist_top(const char *s, unsigned *count);

#endif
