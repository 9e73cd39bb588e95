/* SPDX-License-Identifier: MIT */
/* Exception entry stubs for chase's IDT, and setjmp/longjmp to leave a faulted window. */

#include "window_layout.h"

    .text

/* Vectors for which the CPU pushes an error code; the NMI has its own entry. */
.macro ISR_STUB v
    .p2align 4
    .if \v == 2
    jmp     nmi_entry
    .elseif (\v == 8) || (\v == 10) || (\v == 11) || (\v == 12) || (\v == 13) || (\v == 14) || (\v == 17) || (\v == 21) || (\v == 29) || (\v == 30)
    pushq   $\v
    .else
    pushq   $0
    pushq   $\v
    .endif
    jmp     isr_common
.endm

    .globl  isr_stubs
    .p2align 4
isr_stubs:
    ISR_STUB 0
    ISR_STUB 1
    ISR_STUB 2
    ISR_STUB 3
    ISR_STUB 4
    ISR_STUB 5
    ISR_STUB 6
    ISR_STUB 7
    ISR_STUB 8
    ISR_STUB 9
    ISR_STUB 10
    ISR_STUB 11
    ISR_STUB 12
    ISR_STUB 13
    ISR_STUB 14
    ISR_STUB 15
    ISR_STUB 16
    ISR_STUB 17
    ISR_STUB 18
    ISR_STUB 19
    ISR_STUB 20
    ISR_STUB 21
    ISR_STUB 22
    ISR_STUB 23
    ISR_STUB 24
    ISR_STUB 25
    ISR_STUB 26
    ISR_STUB 27
    ISR_STUB 28
    ISR_STUB 29
    ISR_STUB 30
    ISR_STUB 31

/*
 * NMI: count it on this processor and return to what it interrupted. cli does not hold NMIs
 * off; the window that saw one is dropped (efi/x86_64/x64_window.c compares its processor's
 * count), one between windows changes nothing. Inside a window the loaded IDT is the first
 * member of the window's env (its magic says so): the count goes into that env's record, which
 * only this processor writes; outside windows (the boot processor's IDT overlay) into
 * arch_nmi_between. The IRET also ends the CPU's blocking of further NMIs and restores the
 * flags. Touches no register.
 */
nmi_entry:
    pushq   %rax
    pushq   %rdx
    subq    $16, %rsp
    sidt    (%rsp)
    movq    2(%rsp), %rax
    addq    $16, %rsp
    movabsq $WINDOW_ENV_MAGIC, %rdx
    cmpq    %rdx, WINDOW_ENV_MAGIC_OFFSET(%rax)
    jne     1f
    incq    WINDOW_ENV_NMIS_OFFSET(%rax)
    jmp     2f
1:  lock incq arch_nmi_between(%rip)
2:  popq    %rdx
    popq    %rax
    iretq

/* Stack: vector, error code, RIP, CS, RFLAGS, RSP, SS. Never returns: the handler longjmps. */
isr_common:
    cld
    movq    %rsp, %rdi
    andq    $-16, %rsp
    call    arch_exception
1:  cli
    hlt
    jmp     1b

/* int arch_setjmp(struct arch_jmp *j) */
    .globl  arch_setjmp
    .type   arch_setjmp, @function
arch_setjmp:
    movq    %rbx, 0(%rdi)
    movq    %rbp, 8(%rdi)
    movq    %r12, 16(%rdi)
    movq    %r13, 24(%rdi)
    movq    %r14, 32(%rdi)
    movq    %r15, 40(%rdi)
    leaq    8(%rsp), %rdx
    movq    %rdx, 48(%rdi)
    movq    (%rsp), %rdx
    movq    %rdx, 56(%rdi)
    xorl    %eax, %eax
    ret
    .size   arch_setjmp, . - arch_setjmp

/* void arch_longjmp(struct arch_jmp *j, int val) */
    .globl  arch_longjmp
    .type   arch_longjmp, @function
arch_longjmp:
    movl    %esi, %eax
    movq    0(%rdi), %rbx
    movq    8(%rdi), %rbp
    movq    16(%rdi), %r12
    movq    24(%rdi), %r13
    movq    32(%rdi), %r14
    movq    40(%rdi), %r15
    movq    48(%rdi), %rsp
    jmpq    *56(%rdi)
    .size   arch_longjmp, . - arch_longjmp

/* NMIs taken outside windows since chase started (read through arch_nmis_between_windows). */
    .data
    .p2align 3
    .globl  arch_nmi_between
    .hidden arch_nmi_between
arch_nmi_between:
    .quad   0

    .section .note.GNU-stack, "", @progbits
