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
 * entries of the MADT at madt (its header's length trusted), in table order, the first cap of
 * them into mpidr (cap 0: mpidr may be NULL). Returns how many there are, all of them (more
 * than cap: call again with room for them), or 0 when an entry's length is malformed.
 */
unsigned arm_madt_gicc_mpidrs(const void *madt, uint64_t *mpidr, unsigned cap);

/*
 * The MPIDR affinity fields of the GICC entry whose ACPI Processor UID is uid (how SRAT's GICC
 * affinity names a processor). Returns false when the MADT has no such entry or is malformed.
 */
bool arm_madt_gicc_of_uid(const void *madt, uint32_t uid, uint64_t *mpidr);

/*
 * The ACPI Processor UID of the processor whose MPIDR is mpidr, from the GICC entries of the
 * MADT at madt (its header's length is trusted: acpi_find_table checked it). False when no
 * entry has that MPIDR or an entry's length is malformed.
 */
bool arm_madt_gicc_uid(const void *madt, uint64_t mpidr, uint32_t *uid);

/* MPIDR_EL1's affinity fields packed into 32 bits: chase's processor ID on AArch64 (its
   plat_cpu.apic_id, as memory nodes list processors): Aff2..Aff0 in 23..0, Aff3 in 31..24. */
#define MPIDR_AFF2_TO_AFF0 0xffffffULL
#define MPIDR_AFF3_SHIFT 32
#define MPIDR_AFF_BITS 0xffu
#define MPIDR_ID_AFF3_SHIFT 24
uint32_t arm_mpidr_id(uint64_t mpidr);

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
