/* SPDX-License-Identifier: MIT */
/* chase's AArch64 exception vector table for measurement windows, and setjmp/longjmp to leave a
   window an exception stopped. */

#include "vectors_layout.h"

    .text

/* One entry: its number in x9 (the code it interrupted is abandoned, so x9 is free). */
.macro VECTOR_ENTRY n
    .balign 128
    mov     x9, #\n
    b       a64_vector_common
.endm

/* Arm ARM D1.10.2: current EL with SP_EL0 (0-3), with SP_ELx (4-7), lower EL in AArch64
   (8-11) and AArch32 (12-15); each as synchronous, IRQ, FIQ, SError. */
    .globl  a64_vectors
    .balign A64_VECTOR_TABLE_ALIGN
a64_vectors:
    VECTOR_ENTRY 0
    VECTOR_ENTRY 1
    VECTOR_ENTRY 2
    VECTOR_ENTRY 3
    VECTOR_ENTRY 4
    VECTOR_ENTRY 5
    VECTOR_ENTRY 6
    VECTOR_ENTRY 7
    VECTOR_ENTRY 8
    VECTOR_ENTRY 9
    VECTOR_ENTRY 10
    VECTOR_ENTRY 11
    VECTOR_ENTRY 12
    VECTOR_ENTRY 13
    VECTOR_ENTRY 14
    VECTOR_ENTRY 15

/*
 * Record the exception in the struct a64_trap that TPIDR_ELx points at, then ERET to
 * a64_vector_resume: that puts PSTATE back as the window had it (the exception masked DAIF and
 * may have set PAN) and longjmps to the window's start. Touches no memory but the record: the
 * stack may be what faulted. Anything not a window's (from a lower EL, no record, a second
 * exception) stops the processor here rather than run on in a broken state.
 */
a64_vector_common:
    cmp     x9, #8
    b.hs    9f
    mrs     x10, CurrentEL
    cmp     x10, #(2 << 2)
    b.eq    2f
    mrs     x11, tpidr_el1
    mrs     x12, esr_el1
    mrs     x13, elr_el1
    mrs     x14, far_el1
    b       3f
2:  mrs     x11, tpidr_el2
    mrs     x12, esr_el2
    mrs     x13, elr_el2
    mrs     x14, far_el2
3:  cbz     x11, 9f
    ldr     x15, [x11, #A64_TRAP_MAGIC_OFFSET]
    ldr     x16, =A64_TRAP_MAGIC
    cmp     x15, x16
    b.ne    9f
    ldr     x15, [x11, #A64_TRAP_TAKEN_OFFSET]
    cbnz    x15, 9f
    mov     x15, #1
    str     x15, [x11, #A64_TRAP_TAKEN_OFFSET]
    str     x12, [x11, #A64_TRAP_ESR_OFFSET]
    str     x13, [x11, #A64_TRAP_ELR_OFFSET]
    str     x14, [x11, #A64_TRAP_FAR_OFFSET]
    str     x9, [x11, #A64_TRAP_ENTRY_OFFSET]
    adr     x15, a64_vector_resume
    cmp     x10, #(2 << 2)
    b.eq    4f
    msr     elr_el1, x15
    eret
4:  msr     elr_el2, x15
    eret
a64_vector_resume:
    add     x0, x11, #A64_TRAP_RESUME_OFFSET
    mov     w1, #1
    b       a64_longjmp
9:  wfe
    b       9b
    .ltorg

/* int a64_setjmp(struct a64_jmp *j) */
    .globl  a64_setjmp
    .type   a64_setjmp, %function
a64_setjmp:
    stp     x19, x20, [x0, #0]
    stp     x21, x22, [x0, #16]
    stp     x23, x24, [x0, #32]
    stp     x25, x26, [x0, #48]
    stp     x27, x28, [x0, #64]
    stp     x29, x30, [x0, #80]
    mov     x1, sp
    str     x1, [x0, #96]
    stp     d8, d9, [x0, #104]
    stp     d10, d11, [x0, #120]
    stp     d12, d13, [x0, #136]
    stp     d14, d15, [x0, #152]
    mov     w0, #0
    ret
    .size   a64_setjmp, . - a64_setjmp

/* void a64_longjmp(struct a64_jmp *j, int val) */
    .globl  a64_longjmp
    .type   a64_longjmp, %function
a64_longjmp:
    ldp     x19, x20, [x0, #0]
    ldp     x21, x22, [x0, #16]
    ldp     x23, x24, [x0, #32]
    ldp     x25, x26, [x0, #48]
    ldp     x27, x28, [x0, #64]
    ldp     x29, x30, [x0, #80]
    ldr     x2, [x0, #96]
    mov     sp, x2
    ldp     d8, d9, [x0, #104]
    ldp     d10, d11, [x0, #120]
    ldp     d12, d13, [x0, #136]
    ldp     d14, d15, [x0, #152]
    mov     w0, w1
    ret
    .size   a64_longjmp, . - a64_longjmp

    .section .note.GNU-stack, "", %progbits
