// SPDX-License-Identifier: MIT
// The AArch64 processor as chase.efi reads it (ID registers, the translation regime, the
// generic timer) and the kernel's cpu_info made from it, caches from CLIDR/CCSIDR or PPTT.
#ifndef CHASE_ARM_CPU_H
#define CHASE_ARM_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/arm_id.h"
#include "machine/arm_pptt.h"
#include "machine/cpuinfo.h"

/* ID_AA64MMFR2_EL1.CCIDX [23:20]: non-zero when CCSIDR_EL1 has the 64-bit format. */
#define A64_MMFR2_CCIDX_SHIFT 20
#define A64_MMFR2_CCIDX_MASK 0xfULL

/* ID_AA64DFR0_EL1.PMUVer [11:8]: 0 no PMU, 0xf an implementation-defined one. */
#define A64_DFR0_PMUVER_SHIFT 8
#define A64_DFR0_PMUVER_MASK 0xfULL

/* The registers, as read at chase's exception level (arm.read false: not on AArch64). */
struct arm_regs {
    bool read;
    unsigned el; /* CurrentEL: 1 or 2 */
    uint64_t midr, mpidr, clidr, ctr, mmfr0, mmfr2, dfr0, pfr0;
    uint64_t ccsidr[ARM_CACHE_LEVELS_MAX][2]; /* [level - 1][0: data or unified, 1: instr.] */
    uint64_t mair, tcr, ttbr0, sctlr, vbar;   /* the firmware's, at that level */
    uint64_t timer_hz;                        /* CNTFRQ_EL0 */
    bool pptt_found;                          /* the firmware supplies an ACPI PPTT */
    bool pptt_caches;                         /* ... and it describes this processor's caches */
    char pptt_note[120];                      /* why PPTT was not used ("" when it was) */
};

/*
 * Fill ci's vendor and brand (named from chase's table; hex where it has no name) and its
 * family, model and stepping (implementer, part, revision) from the MIDR_EL1 value midr.
 */
void arm_cpu_describe_midr(struct cpu_info *ci, uint32_t midr);

/*
 * Fill ci from r: vendor and brand from MIDR (named from chase's table), the caches from
 * CLIDR_EL1 and each level's CCSIDR_EL1 (format per ID_AA64MMFR2_EL1.CCIDX), the timer's rate
 * as the "TSC" frequency (invariant: the generic timer's rate is fixed).
 */
void arm_cpu_describe(struct cpu_info *ci, const struct arm_regs *r);

/*
 * Replace ci's caches with the PPTT's for the processor with ACPI Processor ID acpi_id, where
 * the PPTT gives their sizes (Arm: CCSIDR's geometry is not to be trusted for sizes). Returns
 * true when it did; false (ci unchanged) when the table lists no cache with a size for it.
 */
bool arm_cpu_caches_from_pptt(struct cpu_info *ci, const struct pptt *p, uint32_t acpi_id);

/* MADT (ACPI 6.5, 5.2.12): entries after the 44-byte head; GICC (type 0xB) fields. */
#define MADT_FIRST_ENTRY 44
#define MADT_TYPE_GICC 0x0b
#define MADT_GICC_UID 8    /* ACPI Processor UID, 4 bytes */
#define MADT_GICC_MPIDR 68 /* MPIDR_EL1's affinity fields, 8 bytes */
#define MADT_GICC_MIN_BYTES 76
#define MPIDR_AFFINITY_MASK 0xff00ffffffULL /* Aff3 [39:32], Aff2..Aff0 [23:0] */

#endif
