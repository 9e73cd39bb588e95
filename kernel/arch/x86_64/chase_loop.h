// SPDX-License-Identifier: MIT
// The timed loops in chase_loop.S: one machine code for the firmware and the host.
#ifndef CHASE_ARCH_CHASE_LOOP_H
#define CHASE_ARCH_CHASE_LOOP_H

#include <stdint.h>

/* Dependent loads per iteration of the chase loops. */
#define CHASE_UNROLL 16

/*
 * Chase the chain from start for iters * CHASE_UNROLL dependent loads (iters >= 1),
 * timed with "lfence; rdtsc; lfence" before and "rdtscp; lfence" after. Stores the
 * pointer reached in *end (so the next repetition continues the lap). Returns TSC
 * ticks elapsed. Needs RDTSCP (CPUID 0x80000001 EDX bit 27).
 */
uint64_t chase_timed_rdtscp(void **start, uint64_t iters, void ***end);
/* The same, ending with "lfence; rdtsc; lfence" for CPUs without RDTSCP. */
uint64_t chase_timed_rdtsc(void **start, uint64_t iters, void ***end);
/* An empty timed region with the same fences as chase_timed_rdtscp: the timer's own cost. */
uint64_t timer_empty_rdtscp(void);
/* An empty timed region with the same fences as chase_timed_rdtsc. */
uint64_t timer_empty_rdtsc(void);
/*
 * A chain of iters * CHASE_UNROLL dependent one-cycle adds, timed in TSC ticks with
 * fenced rdtsc on both sides: gives core cycles per TSC tick.
 */
uint64_t add_chain_timed(uint64_t iters);

#endif
