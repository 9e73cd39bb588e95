// SPDX-License-Identifier: MIT
// The timed loops in kernel/arch/aarch64/chase_loop.S: the contract of x86_64/chase_loop.h.
#ifndef CHASE_ARCH_AARCH64_CHASE_LOOP_H
#define CHASE_ARCH_AARCH64_CHASE_LOOP_H

#include <stdint.h>

/*
 * The same functions and constants as kernel/arch/x86_64/chase_loop.h, so the portable kernel
 * calls them unchanged. The x86 names tell which TSC read ends the region; AArch64 has one
 * ordered counter read (arch_tsc_fenced in cpu.h: DSB SY; ISB; MRS CNTVCT_EL0; ISB), so the
 * "rdtsc" and "rdtscp" entry points run the same code and time in generic-timer ticks.
 */

/* Dependent loads (ldr x0, [x0]) per iteration of the chase loops. */
#define CHASE_UNROLL 16

/* Chase from start for iters * CHASE_UNROLL loads (iters >= 1); *end = the pointer reached;
   returns counter ticks. */
uint64_t chase_timed_rdtscp(void **start, uint64_t iters, void ***end);
uint64_t chase_timed_rdtsc(void **start, uint64_t iters, void ***end);
/* An empty timed region: the counter read's own cost. */
uint64_t timer_empty_rdtscp(void);
uint64_t timer_empty_rdtsc(void);
/* Loads per iteration of chase_timed_wide. */
#define CHASE_UNROLL_WIDE 256
/* The chase with CHASE_UNROLL_WIDE loads per iteration: shows the loop's own cost per load. */
uint64_t chase_timed_wide(void **start, uint64_t iters, void ***end);
/* A chain of iters * CHASE_UNROLL dependent one-cycle adds in counter ticks: core cycles per
   tick. */
uint64_t add_chain_timed(uint64_t iters);
uint64_t add_chain_timed_rdtscp(uint64_t iters);
typedef uint64_t (*add_chain_fn)(uint64_t iters);

/* The most chains the lock-step loops chase at once: one pointer register each. */
#define CHASE_LOCKSTEP_MAX 14

/* n chains in lock-step (see x86_64/chase_loop.h); use_rdtscp is ignored (one counter read). */
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
/* Serialized: each load's address also depends on the value the load before returned. */
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
