// SPDX-License-Identifier: MIT
// The AArch64 machine's processors as ACPI lists them for starting them with PSCI: the MADT's
// GICC entries (MPIDR of each), the FADT's PSCI conduit, and a processor's place from MPIDR.
#ifndef CHASE_ARM_SMP_H
#define CHASE_ARM_SMP_H

#include <stdbool.h>
#include <stdint.h>

/* MADT GICC Flags (ACPI 6.5, Table 5.37): bit 0, the processor is enabled. */
#define MADT_GICC_FLAGS 12
#define MADT_GICC_ENABLED 0x1u

/* FADT ARM_BOOT_ARCH (ACPI 6.5, 5.2.9, Tables 5.9 and 5.11): 2 bytes at offset 129. */
#define FADT_ARM_BOOT_ARCH 129
#define FADT_ARM_BOOT_ARCH_END 131
#define ARM_BOOT_PSCI_COMPLIANT 0x1u /* PSCI is implemented */
#define ARM_BOOT_PSCI_USE_HVC 0x2u   /* ... and is called with HVC, not SMC */

/* How PSCI is called (Arm DEN0022, 5.2: SMC, or HVC where the caller runs under a hypervisor). */
enum arm_psci_conduit { ARM_PSCI_NONE, ARM_PSCI_SMC, ARM_PSCI_HVC };

/*
 * The MPIDR affinity fields (MPIDR_AFFINITY_MASK) of the enabled processors in the GICC
 * entries of the MADT at madt (its header's length trusted), in table order, at most cap.
 * Returns how many, or 0 when an entry's length is malformed.
 */
unsigned arm_madt_gicc_mpidrs(const void *madt, uint64_t *mpidr, unsigned cap);

/* The conduit the FADT at fadt names; ARM_PSCI_NONE when it is too short or not PSCI. */
enum arm_psci_conduit arm_fadt_psci(const void *fadt);

/* A processor's place from its MPIDR_EL1 (Arm ARM D23.2): threads in Aff0 when MT is set. */
struct arm_place {
    unsigned package, die, core, thread;
};

/*
 * MT set: thread Aff0, core Aff1, cluster (die) Aff2, package Aff3. MT clear: core Aff0,
 * cluster Aff1, package Aff3:Aff2. The architecture leaves the levels' meaning to the
 * implementation; this is the common reading (Arm's cores, QEMU's virt).
 */
void arm_mpidr_place(uint64_t mpidr, struct arm_place *p);

#endif
