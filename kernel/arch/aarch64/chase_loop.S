/* SPDX-License-Identifier: MIT */
/* The timed loops for AArch64: dependent-load chases, empty timed regions and the add chain
   (AAPCS64), the same structure as kernel/arch/x86_64/chase_loop.S. */

#include "arch/chase_loop.h"

    .text

/*
 * reg = the generic timer's virtual count, ordered (Arm ARM D12.1, "Generic Timer"; the
 * CNTVCT_EL0 read may be speculated): DSB SY completes every earlier memory access (the chase's
 * last load included), the ISB before the read keeps it from being taken early and the one
 * after keeps later instructions (the first load) from starting before it.
 */
.macro COUNTER_READ reg
    dsb     sy
    isb
    mrs     \reg, cntvct_el0
    isb
.endm

/* Sixteen dependent loads: each address is the value the load before returned. */
.macro CHASE16
    .rept 16
    ldr     x0, [x0]
    .endr
.endm

.macro ADD16
    .rept 16
    add     x10, x10, x11
    .endr
.endm

/*
 * uint64_t chase_timed_rdtsc(void **start, uint64_t iters, void ***end); chase_timed_rdtscp is
 * the same code: AArch64 has one ordered counter read (chase_loop.h).
 */
    .globl  chase_timed_rdtsc
    .type   chase_timed_rdtsc, %function
    .globl  chase_timed_rdtscp
    .type   chase_timed_rdtscp, %function
    .p2align 6
chase_timed_rdtscp:
chase_timed_rdtsc:
    COUNTER_READ x17
    .p2align 6
1:  CHASE16
    subs    x1, x1, #1
    b.ne    1b
    COUNTER_READ x16
    str     x0, [x2]
    sub     x0, x16, x17
    ret
    .size   chase_timed_rdtsc, . - chase_timed_rdtsc
    .size   chase_timed_rdtscp, . - chase_timed_rdtscp

/*
 * uint64_t chase_timed_wide(void **start, uint64_t iters, void ***end): 256 loads per
 * iteration instead of 16; timing the same chain both ways shows the loop's own cost per load.
 */
    .globl  chase_timed_wide
    .type   chase_timed_wide, %function
    .p2align 6
chase_timed_wide:
    COUNTER_READ x17
    .p2align 6
1:  .rept 16
    CHASE16
    .endr
    subs    x1, x1, #1
    b.ne    1b
    COUNTER_READ x16
    str     x0, [x2]
    sub     x0, x16, x17
    ret
    .size   chase_timed_wide, . - chase_timed_wide

/* uint64_t timer_empty_rdtsc(void), and timer_empty_rdtscp, the same code */
    .globl  timer_empty_rdtsc
    .type   timer_empty_rdtsc, %function
    .globl  timer_empty_rdtscp
    .type   timer_empty_rdtscp, %function
    .p2align 4
timer_empty_rdtscp:
timer_empty_rdtsc:
    COUNTER_READ x17
    COUNTER_READ x16
    sub     x0, x16, x17
    ret
    .size   timer_empty_rdtsc, . - timer_empty_rdtsc
    .size   timer_empty_rdtscp, . - timer_empty_rdtscp

/*
 * uint64_t add_chain_timed(uint64_t iters), and add_chain_timed_rdtscp, the same code:
 * iters * 16 dependent one-cycle adds (x10 += x11) in counter ticks, for the core clock.
 */
    .globl  add_chain_timed
    .type   add_chain_timed, %function
    .globl  add_chain_timed_rdtscp
    .type   add_chain_timed_rdtscp, %function
    .p2align 6
add_chain_timed_rdtscp:
add_chain_timed:
    mov     x10, #0
    mov     x11, #1
    COUNTER_READ x17
    .p2align 6
1:  ADD16
    subs    x0, x0, #1
    b.ne    1b
    COUNTER_READ x16
    sub     x0, x16, x17
    ret
    .size   add_chain_timed, . - add_chain_timed
    .size   add_chain_timed_rdtscp, . - add_chain_timed_rdtscp

/*
 * Lock-step chases: up to CHASE_LOCKSTEP_MAX chains, one pointer register each (x3..x16, all
 * caller-saved), one load from each chain in turn. x19 holds the start count and x20 the
 * serializing index (always zero) of the serialized loops, which make each load's address
 * depend on the load before it.
 */
.macro FOR_STREAMS n, op
    .set .Lk, 0
    .irp reg, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15, x16
    .if .Lk < \n
    \op \reg, .Lk
    .endif
    .set .Lk, .Lk + 1
    .endr
.endm

.macro LOAD_HEAD reg, k
    ldr     \reg, [x0, #8 * \k]
.endm

.macro STORE_HEAD reg, k
    str     \reg, [x0, #8 * \k]
.endm

.macro HOP reg, k
    ldr     \reg, [\reg]
.endm

/* Load through reg offset by x20 (zero, but known only once the load before is done). */
.macro SERIAL_HOP reg, k
    ldr     \reg, [\reg, x20]
    and     x20, \reg, xzr
.endm


/* uint64_t NAME(void ***heads, uint64_t iters, uint64_t use_rdtscp): use_rdtscp is ignored */
.macro LOCKSTEP_FN name, n, hop
    .globl  \name
    .type   \name, %function
    .p2align 6
\name:
    stp     x19, x20, [sp, #-16]!
    FOR_STREAMS \n, LOAD_HEAD
    mov     x20, #0
    COUNTER_READ x19
    .p2align 6
1:
    .rept CHASE_UNROLL
    FOR_STREAMS \n, \hop
    .endr
    subs    x1, x1, #1
    b.ne    1b
    COUNTER_READ x2
    FOR_STREAMS \n, STORE_HEAD
    sub     x0, x2, x19
    ldp     x19, x20, [sp], #16
    ret
    .size   \name, . - \name
.endm

/* One loop per count of chase_loop.h's list, the plain ones first (";" ends a statement). */
#define LOCKSTEP_PLAIN(n) LOCKSTEP_FN chase_lockstep_##n, n, HOP;
#define LOCKSTEP_SERIAL(n) LOCKSTEP_FN chase_serial_##n, n, SERIAL_HOP;
    CHASE_LOCKSTEP_COUNTS(LOCKSTEP_PLAIN)
    CHASE_LOCKSTEP_COUNTS(LOCKSTEP_SERIAL)

/*
 * void **chase_batches(void **start, uint64_t batches, uint64_t hops, uint64_t *stamps): the
 * tail's batches (chase_loop.h), back to back; the counter read ordered between them.
 */
    .globl  chase_batches
    .type   chase_batches, %function
    .p2align 6
chase_batches:
    COUNTER_READ x16
    str     x16, [x3], #8
1:  mov     x5, x2
2:  ldr     x0, [x0]
    subs    x5, x5, #1
    b.ne    2b
    COUNTER_READ x16
    str     x16, [x3], #8
    subs    x1, x1, #1
    b.ne    1b
    ret
    .size   chase_batches, . - chase_batches

    .section .note.GNU-stack, "", %progbits
