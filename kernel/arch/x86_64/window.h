// SPDX-License-Identifier: MIT
// chase's exception entries on x86-64 firmware (window.S): the stubs an IDT's gates point at,
// the NMI count, and setjmp/longjmp to leave a faulted measurement window.
#ifndef CHASE_ARCH_WINDOW_H
#define CHASE_ARCH_WINDOW_H

#include <stdint.h>

#include "window_layout.h"

#define IDT_EXCEPTION_VECTORS 32
#define ISR_STUB_BYTES 16 /* window.S: one stub per vector, each this far from the last */

/* Callee-saved state for arch_setjmp/arch_longjmp (window.S). */
struct arch_jmp {
    uint64_t rbx, rbp, r12, r13, r14, r15, rsp, rip;
};

/* A 64-bit IDT gate (Intel SDM vol. 3, 6.14.1). */
struct idt_gate {
    uint16_t offset_low;
    uint16_t selector;
    uint8_t ist;
    uint8_t type_attr;
    uint16_t offset_mid;
    uint32_t offset_high;
    uint32_t reserved;
} __attribute__((packed));

/* The entry stub of an exception vector (0..IDT_EXCEPTION_VECTORS - 1), for an IDT gate. */
static inline uint64_t arch_isr_stub(unsigned vector)
{
    extern char isr_stubs[]; /* window.S */
    return (uint64_t)(uintptr_t)(isr_stubs + vector * ISR_STUB_BYTES);
}

/*
 * Called by window.S's stubs with the exception frame: vector, error code, RIP, CS, RFLAGS,
 * RSP, SS. It must not return (it longjmps); the window code defines it
 * (efi/x86_64/x64_window.c).
 */
void arch_exception(const uint64_t *frame);

/* NMIs taken outside windows since chase started (window.S counts them). */
static inline uint64_t arch_nmis_between_windows(void)
{
    extern volatile uint64_t arch_nmi_between; /* window.S */
    return arch_nmi_between;
}

/* Save callee-saved registers; returns 0, then again 1 when arch_longjmp comes back. */
int arch_setjmp(struct arch_jmp *j) __attribute__((returns_twice));
/* Return to the arch_setjmp that saved j, which then returns val. */
void arch_longjmp(struct arch_jmp *j, int val) __attribute__((noreturn));

#endif
