// SPDX-License-Identifier: MIT
// Which ordered pairs of processors c2c measures: every pair up to a count, beyond it a sample
// in which every package, die, node and core type is represented.
#ifndef CHASE_PAIRS_H
#define CHASE_PAIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "procs/mp.h"

#define PAIRS_ALL_DEFAULT                                                                          \
    4032 /* every ordered pair of 64 processors: the matrix c2c always                             \
            measured whole (with the AP loop, minutes at quick settings) */
#define PAIRS_MAX                                                                                  \
    16384 /* the most a plan holds: at a few ms a pair on full settings,                           \
             about an hour; the plan's sort is quadratic in it */

/* One ordered pair: cpus[a] times, cpus[b] answers. */
struct pair {
    uint32_t a, b;
};

/* What the plan holds, by the rule that put each pair in (pairs_plan). */
struct pairs_counts {
    bool all;       /* every pair: no sample */
    size_t places;  /* distinct (node, package, die, core type) */
    size_t between; /* pairs of two places' first processors */
    size_t within;  /* a place's first processor and its nearest relations, both ways */
    size_t ring;    /* each processor with the next, timing once and answering once */
    size_t random;  /* seeded random pairs filling the rest */
};

/* The number of ordered pairs of n processors. */
static inline size_t pairs_total(unsigned n)
{
    return (size_t)n * (n ? n - 1 : 0);
}

/*
 * The pairs of cpus[0..n) (lost ones left out) to measure, at most max, into out (room for max):
 * every one, timer by timer, when they are no more than max; else a sample, in this order: for
 * every ordered pair of places (node, package, die, core type) their first processors; in each
 * place, its first processor with the first other that shares its core, its L2 only, its L3
 * only, and nothing, both ways; a ring through every processor (i with the next); then pairs
 * drawn with seed. Each part is sorted timer by timer (a processor keeps its loop across its
 * row). Returns how many; counts (may be NULL) says how many each rule gave.
 */
size_t pairs_plan(const struct mp_cpu *cpus, unsigned n, size_t max, uint64_t seed,
                  struct pair *out, struct pairs_counts *counts);

#endif
