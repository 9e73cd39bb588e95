// SPDX-License-Identifier: MIT
// Deliberate CPU exceptions for the fault_test key: show that a window recovers from them.
#ifndef CHASE_ARCH_FAULT_TEST_H
#define CHASE_ARCH_FAULT_TEST_H

#include <stdint.h>

/* Canonical, far above any RAM, and never mapped by chase's page tables. */
#define FAULT_TEST_UNMAPPED_ADDR 0x00007f0000000000ULL
/* An MSR index in no architectural or vendor range: reading it raises #GP. */
#define FAULT_TEST_MISSING_MSR 0xdead0000u
/* Not canonical (bits 63:47 differ): any access raises #GP. */
#define FAULT_TEST_NONCANONICAL_ADDR 0x8000000000000000ULL

/*
 * kind 1: load from an unmapped address (#PF). kind 2: read a missing MSR (#GP); QEMU's
 * TCG returns 0 for unknown MSRs instead, so a non-canonical load follows, which #GPs
 * everywhere. kind 4: "int $2" runs the NMI handler as an NMI would; kind 5: "int $18" the
 * machine-check handler (kind 3 is a page fault outside a window, provoked elsewhere).
 */
static inline void arch_fault_test(unsigned kind)
{
    if (kind == 1) {
        uint64_t v;
        __asm__ volatile("movq (%1), %0" : "=r"(v) : "r"(FAULT_TEST_UNMAPPED_ADDR) : "memory");
    } else if (kind == 2) {
        uint32_t lo, hi;
        __asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(FAULT_TEST_MISSING_MSR) : "memory");
        uint64_t v;
        __asm__ volatile("movq (%1), %0" : "=r"(v) : "r"(FAULT_TEST_NONCANONICAL_ADDR) : "memory");
    } else if (kind == 4) {
        __asm__ volatile("int $2" ::: "memory");
    } else if (kind == 5) {
        __asm__ volatile("int $18" ::: "memory");
    }
}

#endif
