// SPDX-License-Identifier: MIT
// x86-64 instructions the kernel uses (CPUID, TSC, flags); the only home of inline assembly.
#ifndef CHASE_ARCH_CPU_H
#define CHASE_ARCH_CPU_H

#include <stdint.h>

#define BIT(n) (1ULL << (n))

#define RFLAGS_IF BIT(9) /* interrupt enable flag */

/* Execute CPUID with the given leaf and subleaf; out = {eax, ebx, ecx, edx}. */
static inline void arch_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4])
{
    __asm__ volatile("cpuid"
                     : "=a"(out[0]), "=b"(out[1]), "=c"(out[2]), "=d"(out[3])
                     : "a"(leaf), "c"(subleaf));
}

/* Serialized TSC read: lfence; rdtsc; lfence (no earlier or later work overlaps it). */
static inline uint64_t arch_tsc_fenced(void)
{
    uint32_t lo, hi;
    __asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi)::"memory");
    return ((uint64_t)hi << 32) | lo;
}

/* Read RFLAGS and disable interrupts; returns the RFLAGS value from before. */
static inline uint64_t arch_irq_save(void)
{
    uint64_t flags;
    __asm__ volatile("pushfq\n\tpopq %0\n\tcli" : "=r"(flags)::"memory");
    return flags;
}

/* Restore the interrupt flag as it was in flags (from arch_irq_save). */
static inline void arch_irq_restore(uint64_t flags)
{
    if (flags & RFLAGS_IF)
        __asm__ volatile("sti" ::: "memory");
}

static inline void arch_pause(void)
{
    __asm__ volatile("pause");
}

#endif
