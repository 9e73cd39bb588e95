// SPDX-License-Identifier: MIT
// Other processors on AArch64 firmware without MP services: PSCI calls (Arm DEN0022) through
// the firmware's conduit, and chase's entry point for a processor PSCI CPU_ON starts.
#ifndef CHASE_ARCH_AARCH64_SECONDARY_H
#define CHASE_ARCH_AARCH64_SECONDARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* PSCI function IDs (DEN0022D, 5.1; SMC64 where the call takes addresses) and returns. */
#define PSCI_CPU_OFF 0x84000002u
#define PSCI_CPU_ON_64 0xc4000003u
#define PSCI_AFFINITY_INFO_64 0xc4000004u
#define PSCI_SUCCESS 0
#define PSCI_ALREADY_ON (-4)
#define PSCI_AFFINITY_ON 0  /* AFFINITY_INFO: the processor runs */
#define PSCI_AFFINITY_OFF 1 /* ... it is off */

/*
 * What a secondary needs before its first instruction of C, read with its MMU off: the boot
 * processor's translation regime (copied so the same identity map holds), its stack, and the
 * C function to run (on its own stack, never returning). Offsets fixed: secondary.S reads them.
 */
struct a64_boot {
    uint64_t ttbr0, mair, tcr, sctlr;
    uint64_t cpacr; /* EL1: CPACR_EL1 (FP/SIMD on); EL2: CPTR_EL2 */
    uint64_t hcr;   /* EL2: HCR_EL2 (E2H and the rest as the boot processor has them) */
    uint64_t vbar;
    uint64_t stack_top;
    void (*entry)(void *arg);
    void *arg;
    uint64_t el;      /* 1 or 2: which level's registers to write */
    uint64_t cntvoff; /* EL2: CNTVOFF_EL2 (UNKNOWN at reset: the virtual count would differ) */
    uint64_t cnthctl; /* EL2: CNTHCTL_EL2 (the counters' access from EL1 and EL0) */
};
_Static_assert(offsetof(struct a64_boot, cnthctl) == 96, "secondary.S reads struct a64_boot");

/* The first instruction of a secondary: its PSCI context ID (x0) is its struct a64_boot. */
void a64_secondary_entry(void);
/* Where its code ends: [a64_secondary_entry, here) is fetched with the MMU off. */
extern const char a64_secondary_entry_end[];

/* A PSCI call with HVC or SMC (SMCCC: x0..x3 in, x0 out; x4..x17 may change). */
static inline int64_t a64_psci_call(bool hvc, uint64_t fn, uint64_t a1, uint64_t a2, uint64_t a3)
{
    register uint64_t x0 __asm__("x0") = fn;
    register uint64_t x1 __asm__("x1") = a1;
    register uint64_t x2 __asm__("x2") = a2;
    register uint64_t x3 __asm__("x3") = a3;
    if (hvc)
        __asm__ volatile("hvc #0"
                         : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)
                         :
                         : "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14",
                           "x15", "x16", "x17", "memory");
    else
        __asm__ volatile("smc #0"
                         : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)
                         :
                         : "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14",
                           "x15", "x16", "x17", "memory");
    return (int64_t)x0;
}

/* Write back [p, p + bytes) to the point of coherency: a processor with its MMU off reads it. */
static inline void a64_clean_to_poc(const void *p, size_t bytes)
{
    uint64_t ctr;
    __asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
    uintptr_t line = 4u << ((ctr >> 16) & 0xf); /* CTR_EL0.DminLine: log2 of words */
    for (uintptr_t a = (uintptr_t)p & ~(line - 1); a < (uintptr_t)p + bytes; a += line)
        __asm__ volatile("dc cvac, %0" ::"r"(a) : "memory");
    __asm__ volatile("dsb sy" ::: "memory");
}

/* Wake processors waiting in WFE after a store they watch (DSB first: the store is seen). */
static inline void a64_send_event(void)
{
    __asm__ volatile("dsb ish\n\tsev" ::: "memory");
}

/* Wait for an event (a SEV, or the watched line changing); may return early. */
static inline void a64_wait_event(void)
{
    __asm__ volatile("wfe" ::: "memory");
}

#endif
