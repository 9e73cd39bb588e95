// SPDX-License-Identifier: MIT
// Measurement windows on the bare machine: interrupts off, chase's own page tables and IDT.
#ifndef CHASE_ARCH_WINDOW_H
#define CHASE_ARCH_WINDOW_H

#include <stdint.h>

#include "cpu.h"
#include "machine/window_stats.h"
#include "platform.h"
#include "window_layout.h"

#define IDT_EXCEPTION_VECTORS 32

/* Callee-saved state for arch_setjmp/arch_longjmp (window.S). */
struct arch_jmp {
    uint64_t rbx, rbp, r12, r13, r14, r15, rsp, rip;
};

struct idt_gate {
    uint16_t offset_low;
    uint16_t selector;
    uint8_t ist;
    uint8_t type_attr;
    uint16_t offset_mid;
    uint32_t offset_high;
    uint32_t reserved;
} __attribute__((packed));

/* Everything a window loads, and where a fault inside it returns to. */
struct window_env {
    struct idt_gate idt[IDT_EXCEPTION_VECTORS] __attribute__((aligned(16)));
    struct descriptor_ptr idtr;
    uint64_t cr3;           /* chase's PML4 (physical); 0 keeps the firmware's tables */
    struct arch_jmp resume; /* where a fault inside the window continues */
    struct fault_info fault;
    uint64_t magic;            /* WINDOW_ENV_MAGIC: a fault finds its window from the IDT loaded */
    struct window_stats stats; /* the windows run with this env: one processor's, written only
                                  there, its NMIs included (no update shared between them) */
};

/* Add what env's windows did so far into sum (window_stats_add). */
void arch_window_stats_add(const struct window_env *env, struct window_stats *sum);

/* NMIs the boot processor took between windows (chase's IDT overlay loaded). */
uint64_t arch_nmis_between_windows(void);

/*
 * Write an MSR inside a window (interrupts off, a #GP caught). Returns 0, or -1 when the
 * write faulted (the MSR does not exist, or the value is refused).
 */
int arch_window_wrmsr(struct window_env *env, uint32_t msr, uint64_t value);

/* Read an MSR inside a window into *value. Returns 0, or -1 when the read faulted. */
int arch_window_rdmsr(struct window_env *env, uint32_t msr, uint64_t *value);

/*
 * From now on every window (on this processor and the others) sets CR4.OSXSAVE and these
 * XCR0 bits (CPUID leaf 0xD says which exist) for its work, and puts both back exactly as it
 * found them when it leaves, a fault included; 0: windows leave them alone. The firmware
 * usually runs with CR4.OSXSAVE clear, so AVX and AVX-512 code needs this.
 */
void arch_window_xstate(uint64_t xcr0);

/* Fill env's IDT: every exception vector goes to chase's handler. cr3 starts at 0. */
void arch_window_init(struct window_env *env);

/*
 * Run fn(arg) with interrupts off and env's CR3 and IDT loaded; restore the
 * firmware's IDT, CR3 and RFLAGS afterwards. Returns 0, or -1 when a CPU exception
 * stopped fn (fault says which), or when an NMI came during it (fn ran to its end, but
 * its timing is lost: fault says vector 2). A machine check's MCG_STATUS is in the
 * fault's error code, and MCG_STATUS.MCIP is cleared so that another one is survivable.
 */
int arch_window_run(struct window_env *env, void (*fn)(void *arg), void *arg,
                    struct fault_info *fault);

/*
 * Catch exceptions outside windows too: from now on one outside a window fills *f
 * and returns through j (arch_setjmp there returns 1), with interrupts as they were
 * before the fault. NULL, NULL disarms.
 */
void arch_panic_arm(struct arch_jmp *j, struct fault_info *f);

/*
 * Build in table (256 gates) a copy of the IDT described by firmware with chase's
 * handlers on the 32 exception vectors, and describe it in out: loaded between
 * windows, the firmware keeps its interrupts and chase catches its own faults.
 */
void arch_idt_overlay(struct idt_gate *table, const struct descriptor_ptr *firmware,
                      struct descriptor_ptr *out);

/* Save callee-saved registers; returns 0, then again 1 when arch_longjmp comes back. */
int arch_setjmp(struct arch_jmp *j) __attribute__((returns_twice));
/* Return to the arch_setjmp that saved j, which then returns val. */
void arch_longjmp(struct arch_jmp *j, int val) __attribute__((noreturn));

#endif
