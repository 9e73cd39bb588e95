// SPDX-License-Identifier: MIT
// Which processors an experiment uses when it cannot use them all: a subset spread over the
// machine's memory nodes, packages, dies and core types, one thread of each core before any
// second thread.
#ifndef CHASE_CPU_SELECT_H
#define CHASE_CPU_SELECT_H

#include "platform.h"

#define CPU_TYPE_ATOM 0x20 /* CPUID 0x1A EAX[31:24]: an efficient core (SDM vol. 2, CPUID) */
#define CPU_TYPE_CORE 0x40 /* ... a performance core */

/* How a choice of processors (an experiment's cpus key) names them. */
enum cpu_choice_kind {
    CPU_CHOICE_COUNT, /* count of them spread over the machine (0: as many as the experiment
                         takes, at most PLAT_CPUS_MAX) */
    CPU_CHOICE_ALL,   /* every processor */
    CPU_CHOICE_P,     /* the performance cores of a hybrid part (CPUID 0x1A: Core) */
    CPU_CHOICE_E,     /* its efficient cores (CPUID 0x1A: Atom) */
    CPU_CHOICE_LIST   /* the processors numbered in ranges lo[i]..hi[i] */
};
#define CPU_CHOICE_RANGES_MAX 8 /* numbers and ranges a list holds (as the config's lists) */
#define CPU_CHOICE_ID_MAX                                                                          \
    65535 /* the largest processor number a list names (EFI numbers them                           \
             from 0; no machine has this many) */

/* "all", "p", "e", "N" (a count) or "0-3,8" (processor numbers; a list has a comma or a range,
   so "4" stays a count as it always was). */
struct cpu_choice {
    uint64_t count;
    unsigned kind; /* enum cpu_choice_kind */
    unsigned n;    /* ranges in a list */
    uint32_t lo[CPU_CHOICE_RANGES_MAX], hi[CPU_CHOICE_RANGES_MAX];
};

/*
 * Choose at most k of cpus[0..n) (lost ones never): the caller's own (bsp) first, then in
 * rounds one from each group of equal (node, package, die, core type), groups in the order
 * they first appear; within a group the cores' first threads (ascending) come before their
 * second threads. chosen[] gets indices into cpus, ascending. Returns how many.
 */
unsigned cpu_select_spread(const struct plat_cpu *cpus, unsigned n, unsigned k, unsigned *chosen);

/* Whether processor c is one that want names: every one for all and a count, its core type for
   p and e, its number in a list's ranges. */
bool cpu_select_named(const struct plat_cpu *c, const struct cpu_choice *want);

/*
 * The processors of cpus[0..n) that want chooses, lost ones never: a count spread as
 * cpu_select_spread does (0: at most spread_max); all, p, e and a list every one named, at most
 * cap. chosen[] (room for n) gets indices into cpus, ascending. Returns how many.
 */
unsigned cpu_select(const struct plat_cpu *cpus, unsigned n, const struct cpu_choice *want,
                    unsigned spread_max, unsigned cap, unsigned *chosen);

/*
 * How many of `held` processors (numbered 0..held-1) want may name at most, before their core
 * types are known: a count at most spread_max (0: spread_max); all, p and e every one; a list
 * its numbers below held. At least 1 (the boot processor alone).
 */
unsigned cpu_choice_most(const struct cpu_choice *want, unsigned held, unsigned spread_max);

#endif
