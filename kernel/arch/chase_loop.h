// SPDX-License-Identifier: MIT
// The timed loops' contract, one for every architecture: kernel/arch/<arch>/chase_loop.S holds
// them, one machine code for the firmware and the host. On x86-64 a region opens with
// "lfence; rdtsc; lfence"; on AArch64 every counter read is "DSB SY; ISB; MRS CNTVCT_EL0; ISB",
// so there the rdtsc and rdtscp entry points run the same code and time in generic-timer ticks,
// and use_rdtscp is ignored.
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
/* Loads per iteration of chase_timed_wide. */
#define CHASE_UNROLL_WIDE 256
/*
 * The chase with CHASE_UNROLL_WIDE loads per iteration, ended with fenced rdtsc (works
 * on every CPU): compared with chase_timed_rdtsc on the same chain, it shows the loop's
 * own cost per load.
 */
uint64_t chase_timed_wide(void **start, uint64_t iters, void ***end);
/* An empty timed region with the same fences as chase_timed_rdtsc. */
uint64_t timer_empty_rdtsc(void);
/*
 * A chain of iters * CHASE_UNROLL dependent one-cycle adds, timed in TSC ticks with
 * fenced rdtsc on both sides: gives core cycles per TSC tick.
 */
uint64_t add_chain_timed(uint64_t iters);
/* The same chain ended with "rdtscp; lfence" (needs RDTSCP); its empty region is
   timer_empty_rdtscp. */
uint64_t add_chain_timed_rdtscp(uint64_t iters);
/* Times an add chain: add_chain_timed or add_chain_timed_rdtscp. */
typedef uint64_t (*add_chain_fn)(uint64_t iters);

/* The most chains the lock-step loops chase at once: one pointer register each. */
#define CHASE_LOCKSTEP_MAX 14

/*
 * Chase n chains in lock-step (chase_lockstep_N, 2 <= N <= CHASE_LOCKSTEP_MAX): each of
 * iters iterations makes CHASE_UNROLL rounds of one dependent load from every chain in
 * turn, so the chains' misses overlap. heads[0..N-1] hold the starting pointers and
 * receive the pointers reached. Timed like chase_timed_rdtscp when use_rdtscp is 1, like
 * chase_timed_rdtsc when 0. Returns TSC ticks elapsed.
 */
typedef uint64_t (*chase_lockstep_fn)(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_lockstep_2(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_lockstep_3(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_lockstep_4(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_lockstep_5(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_lockstep_6(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_lockstep_7(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_lockstep_8(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_lockstep_9(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_lockstep_10(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_lockstep_11(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_lockstep_12(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_lockstep_13(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_lockstep_14(void ***heads, uint64_t iters, uint64_t use_rdtscp);

/*
 * The serialized variants (chase_serial_N): the same order of loads, but each load's
 * address also depends on the value the load before it returned (in any chain), so no
 * two loads overlap. That costs two one-cycle ALU operations per load.
 */
uint64_t chase_serial_2(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_serial_3(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_serial_4(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_serial_5(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_serial_6(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_serial_7(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_serial_8(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_serial_9(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_serial_10(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_serial_11(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_serial_12(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_serial_13(void ***heads, uint64_t iters, uint64_t use_rdtscp);
uint64_t chase_serial_14(void ***heads, uint64_t iters, uint64_t use_rdtscp);

#endif
