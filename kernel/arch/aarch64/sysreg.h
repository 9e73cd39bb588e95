// SPDX-License-Identifier: MIT
// AArch64 system registers chase.efi reads and writes: the exception level, the translation
// regime's registers of that level, DAIF, the ID registers and TLB maintenance (firmware only).
#ifndef CHASE_ARCH_AARCH64_SYSREG_H
#define CHASE_ARCH_AARCH64_SYSREG_H

#include <stdint.h>

#include "cpu.h"

#define A64_SYSREG_READ(name)                                                                      \
    static inline uint64_t a64_read_##name(void)                                                   \
    {                                                                                              \
        uint64_t v;                                                                                \
        __asm__ volatile("mrs %0, " #name : "=r"(v)::"memory");                                    \
        return v;                                                                                  \
    }

A64_SYSREG_READ(CurrentEL)
A64_SYSREG_READ(daif)
A64_SYSREG_READ(midr_el1)
A64_SYSREG_READ(mpidr_el1)
A64_SYSREG_READ(clidr_el1)
A64_SYSREG_READ(ctr_el0)
A64_SYSREG_READ(id_aa64mmfr0_el1)
A64_SYSREG_READ(id_aa64mmfr2_el1)
A64_SYSREG_READ(id_aa64dfr0_el1)
A64_SYSREG_READ(id_aa64pfr0_el1)
A64_SYSREG_READ(ttbr0_el1)
A64_SYSREG_READ(ttbr0_el2)
A64_SYSREG_READ(mair_el1)
A64_SYSREG_READ(mair_el2)
A64_SYSREG_READ(tcr_el1)
A64_SYSREG_READ(tcr_el2)
A64_SYSREG_READ(sctlr_el1)
A64_SYSREG_READ(sctlr_el2)
A64_SYSREG_READ(vbar_el1)
A64_SYSREG_READ(vbar_el2)
A64_SYSREG_READ(csselr_el1)
A64_SYSREG_READ(cpacr_el1)
A64_SYSREG_READ(cptr_el2)
A64_SYSREG_READ(hcr_el2)
A64_SYSREG_READ(cntvoff_el2)
A64_SYSREG_READ(cnthctl_el2)
A64_SYSREG_READ(tpidr_el1)
A64_SYSREG_READ(pmcr_el0)
A64_SYSREG_READ(pmcntenset_el0)
A64_SYSREG_READ(pmccfiltr_el0)
A64_SYSREG_READ(tpidr_el2)

/* Put CSSELR_EL1 back as a64_read_csselr_el1 found it (a64_read_ccsidr changes it). */
static inline void a64_write_csselr(uint64_t v)
{
    __asm__ volatile("msr csselr_el1, %0\n\tisb" ::"r"(v) : "memory");
}

/* The exception level chase runs at (CurrentEL[3:2]): 1 or 2 under UEFI. */
static inline unsigned a64_current_el(void)
{
    return (unsigned)(a64_read_CurrentEL() >> 2) & 3;
}

/* The translation regime's registers of exception level el (1 or 2; EL2 also with VHE). */
static inline uint64_t a64_ttbr0(unsigned el)
{
    return el == 2 ? a64_read_ttbr0_el2() : a64_read_ttbr0_el1();
}
static inline uint64_t a64_mair(unsigned el)
{
    return el == 2 ? a64_read_mair_el2() : a64_read_mair_el1();
}
static inline uint64_t a64_tcr(unsigned el)
{
    return el == 2 ? a64_read_tcr_el2() : a64_read_tcr_el1();
}
static inline uint64_t a64_sctlr(unsigned el)
{
    return el == 2 ? a64_read_sctlr_el2() : a64_read_sctlr_el1();
}
static inline uint64_t a64_vbar(unsigned el)
{
    return el == 2 ? a64_read_vbar_el2() : a64_read_vbar_el1();
}

/* TPIDR_ELx of exception level el: inside windows it points at the window's trap record. */
static inline uint64_t a64_tpidr(unsigned el)
{
    return el == 2 ? a64_read_tpidr_el2() : a64_read_tpidr_el1();
}

/* Write TPIDR_ELx and VBAR_ELx of exception level el; the ISB makes a new VBAR take effect
   before the next exception. */
static inline void a64_write_tpidr(unsigned el, uint64_t v)
{
    if (el == 2)
        __asm__ volatile("msr tpidr_el2, %0" ::"r"(v) : "memory");
    else
        __asm__ volatile("msr tpidr_el1, %0" ::"r"(v) : "memory");
}
static inline void a64_write_vbar(unsigned el, uint64_t v)
{
    if (el == 2)
        __asm__ volatile("msr vbar_el2, %0\n\tisb" ::"r"(v) : "memory");
    else
        __asm__ volatile("msr vbar_el1, %0\n\tisb" ::"r"(v) : "memory");
}

/* Mask debug, SError, IRQ and FIQ (DAIF); returns DAIF as it was, for a64_irq_restore. */
static inline uint64_t a64_irq_save(void)
{
    uint64_t daif = a64_read_daif();
    __asm__ volatile("msr daifset, #0xf\n\tisb" ::: "memory");
    return daif;
}

static inline void a64_irq_restore(uint64_t daif)
{
    __asm__ volatile("msr daif, %0\n\tisb" ::"r"(daif) : "memory");
}

/*
 * Load ttbr into TTBR0 of exception level el and drop every stage 1 entry of that regime from
 * the TLBs: DSB ISHST makes the new tables' stores visible to the walker, ISB makes the new
 * TTBR0 take effect, TLBI (VMALLE1 or ALLE2) and DSB then ISB complete the invalidation
 * before the next access (Arm ARM D8.13, "TLB maintenance requirements").
 */
static inline void a64_ttbr0_switch(unsigned el, uint64_t ttbr)
{
    if (el == 2)
        __asm__ volatile(
            "dsb ishst\n\tmsr ttbr0_el2, %0\n\tisb\n\ttlbi alle2\n\tdsb nsh\n\tisb" ::"r"(ttbr)
            : "memory");
    else
        __asm__ volatile(
            "dsb ishst\n\tmsr ttbr0_el1, %0\n\tisb\n\ttlbi vmalle1\n\tdsb nsh\n\tisb" ::"r"(ttbr)
            : "memory");
}

/* The PMU registers a window sets to count core cycles (Arm ARM D13.2, PMUv3). */
#define A64_PMCR_E BIT(0)         /* enable the counters (the cycle counter among them) */
#define A64_PMCR_D BIT(3)         /* count every 64th cycle: cleared */
#define A64_PMCR_LC BIT(6)        /* the cycle counter overflows at 64 bits, not 32 */
#define A64_PMCNTEN_C BIT(31)     /* PMCNTENSET/CLR_EL0: the cycle counter */
#define A64_PMCCFILTR_NSH BIT(27) /* count at EL2 too (P, U clear: EL1 and EL0 counted) */

/* The firmware's PMU registers, as a window found them. */
struct a64_pmu_saved {
    uint64_t pmcr, cnten, filter;
};

/*
 * Count core cycles in PMCCNTR_EL0 from here: PMCCFILTR counting EL1 and EL2, PMCR.E and LC
 * set and D clear, the cycle counter enabled, after saving what the firmware had in *s. At EL1
 * under a hypervisor that traps PMU access (MDCR_EL2.TPM), the first MRS raises an exception.
 */
static inline void a64_pmu_enter(struct a64_pmu_saved *s)
{
    uint64_t pmcr;
    __asm__ volatile("mrs %0, pmcr_el0\n\tmrs %1, pmcntenset_el0\n\tmrs %2, pmccfiltr_el0"
                     : "=r"(s->pmcr), "=r"(s->cnten), "=r"(s->filter)::"memory");
    pmcr = (s->pmcr | A64_PMCR_E | A64_PMCR_LC) & ~A64_PMCR_D;
    __asm__ volatile(
        "msr pmccfiltr_el0, %0\n\tmsr pmcr_el0, %1\n\tmsr pmcntenset_el0, %2\n\tisb" ::"r"(
            A64_PMCCFILTR_NSH),
        "r"(pmcr), "r"(A64_PMCNTEN_C)
        : "memory");
}

/* Put back the PMU registers a64_pmu_enter saved (PMCR's P and C read as zero: nothing reset). */
static inline void a64_pmu_leave(const struct a64_pmu_saved *s)
{
    if (!(s->cnten & A64_PMCNTEN_C))
        __asm__ volatile("msr pmcntenclr_el0, %0" ::"r"(A64_PMCNTEN_C) : "memory");
    __asm__ volatile("msr pmcr_el0, %0\n\tmsr pmccfiltr_el0, %1\n\tisb" ::"r"(s->pmcr),
                     "r"(s->filter)
                     : "memory");
}

/* PMCCNTR_EL0: core cycles, while a64_pmu_enter's setting holds. */
static inline uint64_t a64_read_pmccntr(void)
{
    uint64_t v;
    __asm__ volatile("isb\n\tmrs %0, pmccntr_el0" : "=r"(v)::"memory");
    return v;
}

/* What SVE needs at the exception level chase runs at (Arm ARM D19.2: CPACR_EL1, CPTR_EL2,
   ZCR_EL1, ZCR_EL2). ZCR_ELx has no name in every assembler: its encoding is used. */
#define A64_CPACR_ZEN                                                                              \
    (3ULL << 16)               /* CPACR_EL1.ZEN (CPTR_EL2 when HCR_EL2.E2H): SVE not trapped       \
                                */
#define A64_CPTR_EL2_TZ BIT(8) /* CPTR_EL2 without E2H: trap SVE to EL2 */
#define A64_HCR_E2H BIT(34)    /* HCR_EL2.E2H: EL2 uses CPACR's layout for CPTR_EL2 */
#define A64_ZCR_LEN_MASK                                                                           \
    0xfULL /* ZCR_ELx.LEN: (vector length / 128 bits) - 1, capped by the                           \
              PE: all ones asks for the longest the PE has */

/* The firmware's SVE controls, as a window found them. */
struct a64_sve_saved {
    uint64_t cptr, zcr;
};

/* CPACR_EL1 (EL1) or CPTR_EL2 (EL2): the trap controls for FP, SIMD and SVE at el. */
static inline uint64_t a64_read_cptr(unsigned el)
{
    uint64_t v;
    if (el == 2)
        __asm__ volatile("mrs %0, cptr_el2" : "=r"(v)::"memory");
    else
        __asm__ volatile("mrs %0, cpacr_el1" : "=r"(v)::"memory");
    return v;
}

static inline void a64_write_cptr(unsigned el, uint64_t v)
{
    if (el == 2)
        __asm__ volatile("msr cptr_el2, %0\n\tisb" ::"r"(v) : "memory");
    else
        __asm__ volatile("msr cpacr_el1, %0\n\tisb" ::"r"(v) : "memory");
}

/* ZCR_EL1 (S3_0_C1_C2_0) or ZCR_EL2 (S3_4_C1_C2_0); only once SVE is not trapped. */
static inline uint64_t a64_read_zcr(unsigned el)
{
    uint64_t v;
    if (el == 2)
        __asm__ volatile("mrs %0, S3_4_C1_C2_0" : "=r"(v)::"memory");
    else
        __asm__ volatile("mrs %0, S3_0_C1_C2_0" : "=r"(v)::"memory");
    return v;
}

static inline void a64_write_zcr(unsigned el, uint64_t v)
{
    if (el == 2)
        __asm__ volatile("msr S3_4_C1_C2_0, %0\n\tisb" ::"r"(v) : "memory");
    else
        __asm__ volatile("msr S3_0_C1_C2_0, %0\n\tisb" ::"r"(v) : "memory");
}

/* cptr with SVE let through at el: ZEN set, or at EL2 without E2H, TZ clear. */
static inline uint64_t a64_cptr_sve_allowed(unsigned el, uint64_t cptr)
{
    uint64_t hcr = 0;
    if (el == 2)
        __asm__ volatile("mrs %0, hcr_el2" : "=r"(hcr)::"memory");
    if (el == 2 && !(hcr & A64_HCR_E2H))
        return cptr & ~A64_CPTR_EL2_TZ;
    return cptr | A64_CPACR_ZEN;
}

/* Let SVE run at el with the longest vector length (saving the firmware's controls in *s);
   s->cptr is saved first, so that a trap on ZCR leaves only it to put back. */
static inline void a64_sve_enter(unsigned el, struct a64_sve_saved *s)
{
    s->cptr = a64_read_cptr(el);
    a64_write_cptr(el, a64_cptr_sve_allowed(el, s->cptr));
    s->zcr = a64_read_zcr(el);
    a64_write_zcr(el, s->zcr | A64_ZCR_LEN_MASK);
}

/* Put back what a64_sve_enter saved: the vector length, then the trap. */
static inline void a64_sve_leave(unsigned el, const struct a64_sve_saved *s)
{
    a64_write_zcr(el, s->zcr);
    a64_write_cptr(el, s->cptr);
}

/* CCSIDR_EL1 of the cache at level (1..7), instruction or not, selected through CSSELR_EL1. */
static inline uint64_t a64_read_ccsidr(unsigned level, int instruction)
{
    uint64_t sel = ((uint64_t)(level - 1) << 1) | (instruction ? 1 : 0), v;
    __asm__ volatile("msr csselr_el1, %1\n\tisb\n\tmrs %0, ccsidr_el1"
                     : "=r"(v)
                     : "r"(sel)
                     : "memory");
    return v;
}

#endif
