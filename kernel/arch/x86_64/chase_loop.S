/* SPDX-License-Identifier: MIT */
/* The timed loops: dependent-load chases, empty timed regions and the add chain (SysV ABI). */

#include "arch/chase_loop.h"

    .text

/* rax = rdx:rax as one 64-bit TSC value */
.macro TSC_JOIN
    shlq    $32, %rdx
    orq     %rdx, %rax
.endm

/* rax = the TSC, read after every earlier instruction and before any later one begins */
.macro TSC_NOW
    lfence
    rdtsc
    lfence
    TSC_JOIN
.endm

/* r8 = the TSC at the start of a timed region (fenced: earlier work done, later not begun) */
.macro TSC_START
    TSC_NOW
    movq    %rax, %r8
.endm

/* rax = TSC now - r8, read after every earlier instruction (lfence-serialized rdtsc) */
.macro TSC_END_RDTSC
    TSC_NOW
    subq    %r8, %rax
.endm

/* rax = TSC now - r8, rdtscp waiting for every earlier instruction to execute */
.macro TSC_END_RDTSCP
    rdtscp
    lfence
    TSC_JOIN
    subq    %r8, %rax
.endm

/* Sixteen dependent loads: each waits for the one before it. */
.macro CHASE16
    .rept 16
    movq    (%rdi), %rdi
    .endr
.endm

.macro ADD16
    .rept 16
    addq    %r11, %r10
    .endr
.endm

/* The timed add chain (rdi iterations of ADD16), ended by the macro named in end; returns. */
.macro ADD_CHAIN_TIMED end
    movq    %rdi, %rsi
    xorl    %r10d, %r10d
    movl    $1, %r11d
    TSC_START
    .p2align 6
1:  ADD16
    decq    %rsi
    jnz     1b
    \end
    ret
.endm

/* uint64_t chase_timed_rdtscp(void **start, uint64_t iters, void ***end) */
    .globl  chase_timed_rdtscp
    .type   chase_timed_rdtscp, @function
    .p2align 6
chase_timed_rdtscp:
    movq    %rdx, %r9
    TSC_START
    .p2align 6
1:  CHASE16
    decq    %rsi
    jnz     1b
    TSC_END_RDTSCP
    movq    %rdi, (%r9)
    ret
    .size   chase_timed_rdtscp, . - chase_timed_rdtscp

/* uint64_t chase_timed_rdtsc(void **start, uint64_t iters, void ***end) */
    .globl  chase_timed_rdtsc
    .type   chase_timed_rdtsc, @function
    .p2align 6
chase_timed_rdtsc:
    movq    %rdx, %r9
    TSC_START
    .p2align 6
1:  CHASE16
    decq    %rsi
    jnz     1b
    TSC_END_RDTSC
    movq    %rdi, (%r9)
    ret
    .size   chase_timed_rdtsc, . - chase_timed_rdtsc

/*
 * uint64_t chase_timed_wide(void **start, uint64_t iters, void ***end): as
 * chase_timed_rdtsc with 256 loads per iteration instead of 16. Timing the same chain
 * both ways shows what the loop's own dec/jnz costs per load (nothing, when the loads
 * are what limits the loop).
 */
    .globl  chase_timed_wide
    .type   chase_timed_wide, @function
    .p2align 6
chase_timed_wide:
    movq    %rdx, %r9
    TSC_START
    .p2align 6
1:  .rept 16
    CHASE16
    .endr
    decq    %rsi
    jnz     1b
    TSC_END_RDTSC
    movq    %rdi, (%r9)
    ret
    .size   chase_timed_wide, . - chase_timed_wide

/* uint64_t timer_empty_rdtscp(void) */
    .globl  timer_empty_rdtscp
    .type   timer_empty_rdtscp, @function
    .p2align 4
timer_empty_rdtscp:
    TSC_START
    TSC_END_RDTSCP
    ret
    .size   timer_empty_rdtscp, . - timer_empty_rdtscp

/* uint64_t timer_empty_rdtsc(void) */
    .globl  timer_empty_rdtsc
    .type   timer_empty_rdtsc, @function
    .p2align 4
timer_empty_rdtsc:
    TSC_START
    TSC_END_RDTSC
    ret
    .size   timer_empty_rdtsc, . - timer_empty_rdtsc

/* uint64_t add_chain_timed(uint64_t iters) */
    .globl  add_chain_timed
    .type   add_chain_timed, @function
    .p2align 6
add_chain_timed:
    ADD_CHAIN_TIMED TSC_END_RDTSC
    .size   add_chain_timed, . - add_chain_timed

/*
 * uint64_t add_chain_timed_rdtscp(uint64_t iters): the same chain ended with rdtscp; lfence,
 * for CPUs whose LFENCE may not be dispatch-serializing (AMD before Zen 4 with DE_CFG[1]
 * clear): RDTSCP waits until every earlier instruction has executed.
 */
    .globl  add_chain_timed_rdtscp
    .type   add_chain_timed_rdtscp, @function
    .p2align 6
add_chain_timed_rdtscp:
    ADD_CHAIN_TIMED TSC_END_RDTSCP
    .size   add_chain_timed_rdtscp, . - add_chain_timed_rdtscp


/*
 * Lock-step chases: up to CHASE_LOCKSTEP_MAX chains, one pointer register each, one load
 * from each chain in turn. The iteration count lives on the stack because every other
 * register holds a pointer; %rax is the serializing index (always zero) of the
 * serialized loops, which make each load's address depend on the load before it.
 */
.macro FOR_STREAMS n, op
    .set .Lk, 0
    .irp reg, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %rbx, %rbp, %rdi, %rsi, %rcx, %rdx
    .if .Lk < \n
    \op \reg, .Lk
    .endif
    .set .Lk, .Lk + 1
    .endr
.endm

.macro LOAD_HEAD reg, k
    movq    8 * \k(%rax), \reg
.endm

.macro STORE_HEAD reg, k
    movq    \reg, 8 * \k(%rax)
.endm

.macro HOP reg, k
    movq    (\reg), \reg
.endm

/* Load through reg offset by %rax (zero, but known only once the load before is done). */
.macro SERIAL_HOP reg, k
    movq    (\reg, %rax), \reg
    movq    \reg, %rax
    andl    $0, %eax
.endm


/* Stack frame of the lock-step loops (above the six saved registers). */
#define LS_HEADS   0
#define LS_ITERS   8
#define LS_RDTSCP  16
#define LS_START   24
#define LS_FRAME   32

/* uint64_t NAME(void ***heads, uint64_t iters, uint64_t use_rdtscp) */
.macro LOCKSTEP_FN name, n, hop
    .globl  \name
    .type   \name, @function
    .p2align 6
\name:
    pushq   %rbx
    pushq   %rbp
    pushq   %r12
    pushq   %r13
    pushq   %r14
    pushq   %r15
    subq    $LS_FRAME, %rsp
    movq    %rdi, LS_HEADS(%rsp)
    movq    %rsi, LS_ITERS(%rsp)
    movq    %rdx, LS_RDTSCP(%rsp)
    TSC_NOW
    movq    %rax, LS_START(%rsp)
    movq    LS_HEADS(%rsp), %rax
    FOR_STREAMS \n, LOAD_HEAD
    xorl    %eax, %eax
    .p2align 6
1:
    .rept CHASE_UNROLL
    FOR_STREAMS \n, \hop
    .endr
    decq    LS_ITERS(%rsp)
    jnz     1b
    movq    LS_HEADS(%rsp), %rax
    FOR_STREAMS \n, STORE_HEAD
    testq   $1, LS_RDTSCP(%rsp)
    jz      2f
    rdtscp
    lfence
    jmp     3f
2:  lfence
    rdtsc
    lfence
3:  TSC_JOIN
    subq    LS_START(%rsp), %rax
    addq    $LS_FRAME, %rsp
    popq    %r15
    popq    %r14
    popq    %r13
    popq    %r12
    popq    %rbp
    popq    %rbx
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
 * tail's batches (chase_loop.h), back to back; the TSC read lfence-serialized between them.
 */
    .globl  chase_batches
    .type   chase_batches, @function
    .p2align 6
chase_batches:
    movq    %rdx, %r10
    movq    %rcx, %r11
    TSC_NOW
    movq    %rax, (%r11)
    addq    $8, %r11
1:  movq    %r10, %rcx
2:  movq    (%rdi), %rdi
    decq    %rcx
    jnz     2b
    TSC_NOW
    movq    %rax, (%r11)
    addq    $8, %r11
    decq    %rsi
    jnz     1b
    movq    %rdi, %rax
    ret
    .size   chase_batches, . - chase_batches

    .section .note.GNU-stack, "", @progbits
