// SPDX-License-Identifier: MIT
// Measurement windows on x86-64 firmware: interrupts off, chase's own page tables and IDT.
#ifndef CHASE_EFI_X64_WINDOW_H
#define CHASE_EFI_X64_WINDOW_H

#include <stdint.h>

#include "arch/x86_64/cpu.h"
#include "arch/x86_64/window.h"
#include "platform.h"
#include "x64_window_stats.h"

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
void x64_window_stats_add(const struct window_env *env, struct window_stats *sum);

/*
 * Write an MSR inside a window (interrupts off, a #GP caught). Returns 0, or -1 when the
 * write faulted (the MSR does not exist, or the value is refused).
 */
int x64_window_wrmsr(struct window_env *env, uint32_t msr, uint64_t value);

/* Read an MSR inside a window into *value. Returns 0, or -1 when the read faulted. */
int x64_window_rdmsr(struct window_env *env, uint32_t msr, uint64_t *value);

/*
 * From now on every window (on this processor and the others) sets CR4.OSXSAVE and these
 * XCR0 bits (CPUID leaf 0xD says which exist) for its work, and puts both back exactly as it
 * found them when it leaves, a fault included; 0: windows leave them alone. The firmware
 * usually runs with CR4.OSXSAVE clear, so AVX and AVX-512 code needs this.
 */
void x64_window_xstate(uint64_t xcr0);

/* Fill env's IDT: every exception vector goes to chase's handler. cr3 starts at 0. */
void x64_window_init(struct window_env *env);

/*
 * Run fn(arg) with interrupts off and env's CR3 and IDT loaded; restore the
 * firmware's IDT, CR3 and RFLAGS afterwards. Returns 0, or -1 when a CPU exception
 * stopped fn (fault says which), or when an NMI came during it (fn ran to its end, but
 * its timing is lost: fault says vector 2). A machine check's MCG_STATUS is in the
 * fault's error code, and MCG_STATUS.MCIP is cleared so that another one is survivable.
 */
int x64_window_run(struct window_env *env, void (*fn)(void *arg), void *arg,
                   struct fault_info *fault);

/*
 * Catch exceptions outside windows too: from now on one outside a window fills *f
 * and returns through j (arch_setjmp there returns 1), with interrupts as they were
 * before the fault. NULL, NULL disarms.
 */
void x64_panic_arm(struct arch_jmp *j, struct fault_info *f);

/*
 * Build in table (256 gates) a copy of the IDT described by firmware with chase's
 * handlers on the 32 exception vectors, and describe it in out: loaded between
 * windows, the firmware keeps its interrupts and chase catches its own faults.
 */
void x64_idt_overlay(struct idt_gate *table, const struct descriptor_ptr *firmware,
                     struct descriptor_ptr *out);

#endif
