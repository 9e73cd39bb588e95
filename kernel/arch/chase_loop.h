// SPDX-License-Identifier: MIT
// The timed loops' contract, one for every architecture: kernel/arch/<arch>/chase_loop.S holds
// them, one machine code for the firmware and the host, and includes this file for the
// constants and the lock-step list (the part below that an assembler reads).
//
// Every loop returns ticks of the timer that chase reads around a timed region, ordered so that
// no earlier work is left and no later work has begun:
//  - x86-64: the TSC, read as "lfence; rdtsc; lfence" (or ended with "rdtscp; lfence", which
//    waits until every earlier instruction has executed where LFENCE may not serialize);
//  - AArch64: the generic timer's virtual count, read as "DSB SY; ISB; MRS CNTVCT_EL0; ISB";
//    there is one ordered read, so the rdtsc and rdtscp entry points run the same code and
//    use_rdtscp is ignored.
#ifndef CHASE_ARCH_CHASE_LOOP_H
#define CHASE_ARCH_CHASE_LOOP_H

/* Dependent loads per iteration of the chase loops. */
#define CHASE_UNROLL 16
/* Loads per iteration of chase_timed_wide. */
#define CHASE_UNROLL_WIDE 256

/* The most chains the lock-step loops chase at once: one pointer register each. */
#define CHASE_LOCKSTEP_MAX 14
/*
 * The lock-step loops that exist, one X(n) per chain count n (2..CHASE_LOCKSTEP_MAX): the
 * chase_loop.S of each architecture emits chase_lockstep_n and chase_serial_n from it, and the
 * C side declares and tables them from it, so the list is written once.
 */
#define CHASE_LOCKSTEP_COUNTS(X)                                                                   \
    X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14)

#ifndef __ASSEMBLER__
#include <stdint.h>

/*
 * Chase the chain from start for iters * CHASE_UNROLL dependent loads (iters >= 1), timed
 * with the timer's ordered read before and the rdtscp form after (x86-64: needs RDTSCP, CPUID
 * 0x80000001 EDX bit 27). Stores the pointer reached in *end (so the next repetition continues
 * the lap). Returns the ticks of the timer elapsed.
 */
uint64_t chase_timed_rdtscp(void **start, uint64_t iters, void ***end);
/* The same, ending with the timer's ordered read, for CPUs without RDTSCP. */
uint64_t chase_timed_rdtsc(void **start, uint64_t iters, void ***end);
/* An empty timed region with the same reads as chase_timed_rdtscp: the timer's own cost. */
uint64_t timer_empty_rdtscp(void);
/*
 * The chase with CHASE_UNROLL_WIDE loads per iteration, ended with the ordered read (works
 * on every CPU): compared with chase_timed_rdtsc on the same chain, it shows the loop's
 * own cost per load.
 */
uint64_t chase_timed_wide(void **start, uint64_t iters, void ***end);
/* An empty timed region with the same reads as chase_timed_rdtsc. */
uint64_t timer_empty_rdtsc(void);
/*
 * A chain of iters * CHASE_UNROLL dependent one-cycle adds, timed in ticks of the timer with
 * the ordered read on both sides: gives core cycles per tick.
 */
uint64_t add_chain_timed(uint64_t iters);
/* The same chain ended with the rdtscp form (x86-64: needs RDTSCP); its empty region is
   timer_empty_rdtscp. */
uint64_t add_chain_timed_rdtscp(uint64_t iters);
/* Times an add chain: add_chain_timed or add_chain_timed_rdtscp. */
typedef uint64_t (*add_chain_fn)(uint64_t iters);

/*
 * The tail experiment's batches: `batches` (>= 1) timed batches of `hops` (>= 1) dependent loads
 * each, from start, back to back: stamps[0] gets the timer's ordered read before the first load
 * and stamps[i] the one after batch i's last (batches + 1 values), so batch i took
 * stamps[i + 1] - stamps[i] ticks, one read's cost included, and nothing between batches goes
 * untimed. Returns the pointer reached.
 */
void **chase_batches(void **start, uint64_t batches, uint64_t hops, uint64_t *stamps);

/*
 * Chase n chains in lock-step (chase_lockstep_N for each N of CHASE_LOCKSTEP_COUNTS): each of
 * iters iterations makes CHASE_UNROLL rounds of one dependent load from every chain in turn,
 * so the chains' misses overlap. heads[0..N-1] hold the starting pointers and receive the
 * pointers reached. Timed like chase_timed_rdtscp when use_rdtscp is 1, like
 * chase_timed_rdtsc when 0. Returns the ticks of the timer elapsed.
 *
 * The serialized variants (chase_serial_N): the same order of loads, but each load's
 * address also depends on the value the load before it returned (in any chain), so no
 * two loads overlap. That costs two one-cycle ALU operations per load.
 */
typedef uint64_t (*chase_lockstep_fn)(void ***heads, uint64_t iters, uint64_t use_rdtscp);
#define CHASE_LOCKSTEP_DECLARE(n)                                                                  \
    uint64_t chase_lockstep_##n(void ***heads, uint64_t iters, uint64_t use_rdtscp);               \
    uint64_t chase_serial_##n(void ***heads, uint64_t iters, uint64_t use_rdtscp);
CHASE_LOCKSTEP_COUNTS(CHASE_LOCKSTEP_DECLARE)
#undef CHASE_LOCKSTEP_DECLARE

#define CHASE_LOCKSTEP_ONE(n) +1
_Static_assert(1 CHASE_LOCKSTEP_COUNTS(CHASE_LOCKSTEP_ONE) == CHASE_LOCKSTEP_MAX,
               "CHASE_LOCKSTEP_COUNTS lists 2..CHASE_LOCKSTEP_MAX");
#undef CHASE_LOCKSTEP_ONE
#endif

#endif
