// SPDX-License-Identifier: MIT
// What chase knows about the machine it runs on: CPU, memory, firmware and timers.
#ifndef CHASE_MACHINE_H
#define CHASE_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/arm_cpu.h"
#include "machine/cpufacts.h"
#include "machine/cpuinfo.h"
#include "machine/identity.h"
#include "machine/memtype.h"

struct machine {
    struct cpu_info cpu;
    int cpuid_cpu;               /* the processor CPUID was read on, as the platform numbers it
                                    at that moment; -1: not known */
    const char *cpuid_cpu_how;   /* how that number was obtained */
    uint64_t memory_total_bytes; /* usable (conventional) memory */
    uint64_t buffer_limit_bytes; /* the largest chase buffer the platform can provide */
    unsigned processors;         /* the processors experiments can run on together, the one
                                    running chase included (plat_cpus_total's held count); 0:
                                    that one alone (no MP services, a simulated machine) */
    char platform[16];           /* "uefi" or "linux" */
    char firmware_vendor[96];    /* firmware vendor, or the Linux kernel release */
    uint32_t firmware_revision;
    bool ring0;                  /* chase runs in ring 0 (chase.efi): it may rdmsr in windows */
    struct memtype_regs memtype; /* MTRRs, PAT, CR0 as read (memtype.read false: not read) */
    struct cpu_facts facts;      /* prefetch control, SMT, boost */
    unsigned memtype_test;       /* the memtype_test key (tests only), set before placing */
    struct machine_identity id;  /* SMBIOS, microcode, memory encryption */
    int buffer_node;             /* the node key, set before placing: a node index, or -1 (auto:
                                    the boot processor's node) */
    struct arm_regs arm;         /* AArch64's ID and translation registers (arm.read: chase.efi
                                    on AArch64) */
};

/* What the memtype_test key makes chase pretend, to show placement moves or refuses. */
enum memtype_test {
    MEMTYPE_TEST_NONE,
    MEMTYPE_TEST_UC_FIRST, /* the first place chosen for the buffer is UC: move it */
    MEMTYPE_TEST_UC_ALL    /* all memory is UC: refuse */
};

#endif
