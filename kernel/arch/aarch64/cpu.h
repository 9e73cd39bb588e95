// SPDX-License-Identifier: MIT
// AArch64 instructions the kernel uses (the generic timer, barriers, ID registers); with
// kernel/arch/x86_64/cpu.h the only home of inline assembly.
#ifndef CHASE_ARCH_AARCH64_CPU_H
#define CHASE_ARCH_AARCH64_CPU_H

#include <stdint.h>

#define BIT(n) (1ULL << (n))

/*
 * The generic timer's virtual count, ordered as Arm documents for timing: DSB SY makes every
 * earlier memory access complete and ISB keeps the read from being taken early (CNTVCT_EL0
 * may otherwise be read speculatively, out of order); the ISB after it keeps later
 * instructions from starting before it. Ticks at arch_counter_hz(). The kernel's name for it
 * is the x86 one (the "TSC" of the platform contract).
 */
static inline uint64_t arch_tsc_fenced(void)
{
    uint64_t v;
    __asm__ volatile("dsb sy\n\tisb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(v)::"memory");
    return v;
}

/* The counter with no barrier: for waits and deadlines that must not drain the loads in
   flight (loaded's generators between blocks), never to time anything. */
static inline uint64_t arch_tsc_unfenced(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
    return v;
}

/* How arch_tsc_fenced (and the timed loops' COUNTER_READ) reads the counter, as run.json says it.
 */
#define ARCH_COUNTER_READ_TEXT "dsb sy; isb; mrs cntvct_el0; isb"

/* CNTFRQ_EL0: the generic timer's frequency in Hz as firmware set it (24 MHz to 1 GHz). */
static inline uint64_t arch_counter_hz(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
    return v;
}

/*
 * MIDR_EL1. EL1 and above read it directly; at EL0 Linux traps and emulates the read only when
 * getauxval(AT_HWCAP) has HWCAP_CPUID (bit 11): check that first, or this raises SIGILL.
 */
static inline uint64_t arch_read_midr(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, midr_el1" : "=r"(v));
    return v;
}

/*
 * SVE's vector length in bytes (RDVL: 16 to 256). Only where SVE may run at this exception
 * level (Linux: HWCAP_SVE; firmware: CPACR_EL1.ZEN set), else it is an undefined instruction.
 */
static inline uint64_t arch_sve_vector_bytes(void)
{
    uint64_t v;
    __asm__ volatile(".arch_extension sve\n\trdvl %0, #1" : "=r"(v));
    return v;
}

/* A full-system data synchronization barrier followed by an instruction barrier. */
static inline void arch_barrier(void)
{
    __asm__ volatile("dsb sy\n\tisb" ::: "memory");
}

/* The spin-wait hint (x86's pause). */
static inline void arch_pause(void)
{
    __asm__ volatile("yield" ::: "memory");
}

/* Clean and invalidate the line holding p to the point of coherency (DC CIVAC: out of every
   cache, written back), then wait until that is done (DSB ISH). Linux lets EL0 do it (UCI). */
static inline void arch_line_flush(const volatile void *p)
{
    __asm__ volatile("dc civac, %0\n\tdsb ish" ::"r"(p) : "memory");
}

#define A64_ISAR0_ATOMIC_SHIFT 20 /* ID_AA64ISAR0_EL1.Atomic, bits [23:20] */
#define A64_ISAR0_ATOMIC_LSE 2    /* 0b0010: LDADD and the other LSE atomics exist */

/* Whether the LSE atomics (ARMv8.1: LDADD) exist; Linux emulates the ID register's read at EL0. */
static inline int arch_has_lse(void)
{
    uint64_t v;
    __asm__ volatile("mrs %0, id_aa64isar0_el1" : "=r"(v));
    return ((v >> A64_ISAR0_ATOMIC_SHIFT) & 0xf) >= A64_ISAR0_ATOMIC_LSE;
}

/* Which instruction arch_atomic_add_ones uses here (1: LDADDAL, 0: LDAXR/STLXR): asked once,
   since Linux emulates the ID register's read at EL0 at a trap's cost, and passed to each call. */
static inline unsigned arch_atomic_variant(void)
{
    return arch_has_lse() ? 1 : 0;
}

/* How arch_atomic_add_ones increments a shared line with that variant (the rows name it). */
static inline const char *arch_atomic_method(unsigned variant)
{
    return variant ? "ldadd" : "ldxr/stxr";
}

/* n atomic increments of *p, one after another, with acquire and release order each: LDADDAL
   where LSE exists (variant 1), else a load-exclusive/store-exclusive loop (ARMv8.0). */
static inline void arch_atomic_add_ones(volatile uint64_t *p, uint64_t n, unsigned variant)
{
    uint64_t one = 1, old, fail;
    if (variant) {
        for (uint64_t i = 0; i < n; i++)
            __asm__ volatile(".arch_extension lse\n\tldaddal %2, %0, [%1]"
                             : "=&r"(old)
                             : "r"(p), "r"(one)
                             : "memory");
        return;
    }
    for (uint64_t i = 0; i < n; i++)
        __asm__ volatile("1: ldaxr %0, [%2]\n\tadd %0, %0, #1\n\tstlxr %w1, %0, [%2]\n\t"
                         "cbnz %w1, 1b"
                         : "=&r"(old), "=&r"(fail)
                         : "r"(p)
                         : "memory");
}

/*
 * CPUID does not exist on AArch64: every leaf reads as zero, so the x86 readers built on it
 * (cpuinfo, cpufacts, window_rules) find "no leaves" and record nothing; the machine's
 * description comes from the ID registers instead (machine/arm_id.h).
 */
static inline void arch_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4])
{
    (void)leaf;
    (void)subleaf;
    out[0] = out[1] = out[2] = out[3] = 0;
}

/* x86's APERF and MPERF numbers (chase/timing.h's MSR_APERF, MSR_MPERF; timing.c checks). */
#define ARCH_MSR_APERF 0xe8
#define ARCH_MSR_MPERF 0xe7
/* What the kernel's "APERF/MPERF" clock is here (run.json, the CSVs' clock column). */
#define ARCH_CORE_COUNTER "pmccntr"
#define ARCH_CORE_COUNTER_TEXT "PMCCNTR_EL0/CNTVCT_EL0"

/*
 * MSRs do not exist on AArch64. The kernel reads them only after plat_read_msr() said they can
 * be read: that happens for APERF and MPERF alone, inside windows that count core cycles
 * (chase.efi's PMU setting), and their counterparts are read: PMCCNTR_EL0 counts core cycles as
 * APERF does, CNTVCT_EL0 ticks at the counter's rate as MPERF does at the TSC's. Any other MSR
 * is a bug, so it stops loudly.
 */
static inline uint64_t arch_rdmsr(uint32_t msr)
{
    uint64_t v;
    if (msr == ARCH_MSR_APERF)
        __asm__ volatile("isb\n\tmrs %0, pmccntr_el0" : "=r"(v)::"memory");
    else if (msr == ARCH_MSR_MPERF)
        __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v)::"memory");
    else
        __builtin_trap();
    return v;
}

#endif
