// SPDX-License-Identifier: MIT
// chase's exception vectors on AArch64 firmware (vectors.S): loaded into VBAR_ELx only inside
// measurement windows, they record an exception and return to where the window began.
#ifndef CHASE_ARCH_AARCH64_VECTORS_H
#define CHASE_ARCH_AARCH64_VECTORS_H

#include <stdint.h>

#include "vectors_layout.h"

/* Callee-saved state for a64_setjmp/a64_longjmp: x19..x28, x29 (fp), x30 (lr), sp, d8..d15. */
struct a64_jmp {
    uint64_t x[12];
    uint64_t sp;
    uint64_t d[8];
};

/*
 * What a window's exception leaves behind. Inside a window TPIDR_ELx (of the current EL) points
 * at it, so that each processor finds its own; the vectors fill it without touching the stack
 * and return (ERET) to code that a64_longjmp's to resume. A second exception while taken is set
 * stops the processor (an exception in the recovery itself would otherwise loop).
 */
struct a64_trap {
    uint64_t magic; /* A64_TRAP_MAGIC while a window uses it */
    uint64_t taken; /* 1 once an exception was recorded */
    uint64_t esr;   /* ESR_ELx: the exception's class (EC, bits [31:26]) and syndrome */
    uint64_t elr;   /* ELR_ELx: the instruction that took it */
    uint64_t far;   /* FAR_ELx: the address, for aborts */
    uint64_t entry; /* the vector entry, 0..15 (Arm ARM D1.10.2: offset / 0x80) */
    struct a64_jmp resume;
};

/* The table (vectors.S): 2 KiB aligned, 16 entries. */
extern char a64_vectors[];

/* Save callee-saved registers; returns 0, then again the value given to a64_longjmp. */
int a64_setjmp(struct a64_jmp *j) __attribute__((returns_twice));
/* Return to the a64_setjmp that saved j, which then returns val. */
void a64_longjmp(struct a64_jmp *j, int val) __attribute__((noreturn));

#endif
