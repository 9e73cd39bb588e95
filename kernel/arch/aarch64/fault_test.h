// SPDX-License-Identifier: MIT
// Deliberate exceptions for the fault_test key on AArch64: show that a window recovers from them.
#ifndef CHASE_ARCH_AARCH64_FAULT_TEST_H
#define CHASE_ARCH_AARCH64_FAULT_TEST_H

#include <stdint.h>

/* In the lower (TTBR0) range, far above any RAM, and never mapped by chase's tables. */
#define FAULT_TEST_UNMAPPED_ADDR 0x00007f0000000000ULL
/* Bit 55 set: outside the lower range even with the top byte ignored (TBI): a translation
   fault everywhere. */
#define FAULT_TEST_NONCANONICAL_ADDR 0x0080000000000000ULL

/*
 * kind 1: load from an unmapped address (a data abort, x86's #PF). kind 2: x86 reads a missing
 * MSR; AArch64 has no MSRs, so it loads from an address outside the translation range, the
 * fault that kind 2 ends in on x86 too. Kinds 4 and 5 raise x86's NMI and machine-check vectors
 * with int; AArch64 has no instruction that enters such a handler, so they do nothing here.
 */
static inline void arch_fault_test(unsigned kind)
{
    uint64_t v;
    if (kind == 1)
        __asm__ volatile("ldr %0, [%1]" : "=r"(v) : "r"(FAULT_TEST_UNMAPPED_ADDR) : "memory");
    else if (kind == 2)
        __asm__ volatile("ldr %0, [%1]" : "=r"(v) : "r"(FAULT_TEST_NONCANONICAL_ADDR) : "memory");
}

#endif
