/* SPDX-License-Identifier: MIT */
/* The timed loops: dependent-load chases, empty timed regions and the add chain (SysV ABI). */

    .text

/* rax = rdx:rax as one 64-bit TSC value */
.macro TSC_JOIN
    shlq    $32, %rdx
    orq     %rdx, %rax
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

/* uint64_t chase_timed_rdtscp(void **start, uint64_t iters, void ***end) */
    .globl  chase_timed_rdtscp
    .type   chase_timed_rdtscp, @function
    .p2align 6
chase_timed_rdtscp:
    movq    %rdx, %r9
    lfence
    rdtsc
    lfence
    TSC_JOIN
    movq    %rax, %r8
    .p2align 6
1:  CHASE16
    decq    %rsi
    jnz     1b
    rdtscp
    lfence
    TSC_JOIN
    subq    %r8, %rax
    movq    %rdi, (%r9)
    ret
    .size   chase_timed_rdtscp, . - chase_timed_rdtscp

/* uint64_t chase_timed_rdtsc(void **start, uint64_t iters, void ***end) */
    .globl  chase_timed_rdtsc
    .type   chase_timed_rdtsc, @function
    .p2align 6
chase_timed_rdtsc:
    movq    %rdx, %r9
    lfence
    rdtsc
    lfence
    TSC_JOIN
    movq    %rax, %r8
    .p2align 6
1:  CHASE16
    decq    %rsi
    jnz     1b
    lfence
    rdtsc
    lfence
    TSC_JOIN
    subq    %r8, %rax
    movq    %rdi, (%r9)
    ret
    .size   chase_timed_rdtsc, . - chase_timed_rdtsc

/* uint64_t timer_empty_rdtscp(void) */
    .globl  timer_empty_rdtscp
    .type   timer_empty_rdtscp, @function
    .p2align 4
timer_empty_rdtscp:
    lfence
    rdtsc
    lfence
    TSC_JOIN
    movq    %rax, %r8
    rdtscp
    lfence
    TSC_JOIN
    subq    %r8, %rax
    ret
    .size   timer_empty_rdtscp, . - timer_empty_rdtscp

/* uint64_t timer_empty_rdtsc(void) */
    .globl  timer_empty_rdtsc
    .type   timer_empty_rdtsc, @function
    .p2align 4
timer_empty_rdtsc:
    lfence
    rdtsc
    lfence
    TSC_JOIN
    movq    %rax, %r8
    lfence
    rdtsc
    lfence
    TSC_JOIN
    subq    %r8, %rax
    ret
    .size   timer_empty_rdtsc, . - timer_empty_rdtsc

/* uint64_t add_chain_timed(uint64_t iters) */
    .globl  add_chain_timed
    .type   add_chain_timed, @function
    .p2align 6
add_chain_timed:
    movq    %rdi, %rsi
    xorl    %r10d, %r10d
    movl    $1, %r11d
    lfence
    rdtsc
    lfence
    TSC_JOIN
    movq    %rax, %r8
    .p2align 6
1:  ADD16
    decq    %rsi
    jnz     1b
    lfence
    rdtsc
    lfence
    TSC_JOIN
    subq    %r8, %rax
    ret
    .size   add_chain_timed, . - add_chain_timed

    .section .note.GNU-stack, "", @progbits
