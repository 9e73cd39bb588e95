// SPDX-License-Identifier: MIT
// The processors of an AArch64 machine from ACPI (MADT GICC, FADT ARM_BOOT_ARCH) and MPIDR.
#include "machine/arm_smp.h"

#include "machine/acpi.h"
#include "machine/arm_cpu.h"
#include "machine/arm_id.h"

unsigned arm_madt_gicc_mpidrs(const void *madt, uint64_t *mpidr, unsigned cap)
{
    const uint8_t *t = madt;
    uint32_t len = acpi_rd32(t + 4);
    unsigned n = 0;
    for (uint32_t at = MADT_FIRST_ENTRY; at + 2 <= len;) {
        uint8_t type = t[at], elen = t[at + 1];
        if (elen < 2 || at + elen > len)
            return 0;
        if (type == MADT_TYPE_GICC && elen >= MADT_GICC_MIN_BYTES &&
            (acpi_rd32(t + at + MADT_GICC_FLAGS) & MADT_GICC_ENABLED)) {
            if (n < cap)
                mpidr[n] = acpi_rd64(t + at + MADT_GICC_MPIDR) & MPIDR_AFFINITY_MASK;
            n++;
        }
        at += elen;
    }
    return n;
}

/*
 * The GICC entry matching a UID (by_uid) or an MPIDR's affinity fields: both fields of it given
 * back. False when the MADT has none or an entry's length is malformed.
 */
static bool gicc_find(const void *madt, bool by_uid, uint32_t *uid, uint64_t *mpidr)
{
    const uint8_t *t = madt;
    uint32_t len = acpi_rd32(t + 4);
    for (uint32_t at = MADT_FIRST_ENTRY; at + 2 <= len;) {
        uint8_t type = t[at], elen = t[at + 1];
        if (elen < 2 || at + elen > len)
            return false;
        if (type == MADT_TYPE_GICC && elen >= MADT_GICC_MIN_BYTES) {
            uint32_t u = acpi_rd32(t + at + MADT_GICC_UID);
            uint64_t m = acpi_rd64(t + at + MADT_GICC_MPIDR) & MPIDR_AFFINITY_MASK;
            if (by_uid ? u == *uid : m == (*mpidr & MPIDR_AFFINITY_MASK)) {
                *uid = u;
                *mpidr = m;
                return true;
            }
        }
        at += elen;
    }
    return false;
}

bool arm_madt_gicc_of_uid(const void *madt, uint32_t uid, uint64_t *mpidr)
{
    return gicc_find(madt, true, &uid, mpidr);
}

bool arm_madt_gicc_uid(const void *madt, uint64_t mpidr, uint32_t *uid)
{
    return gicc_find(madt, false, uid, &mpidr);
}

uint32_t arm_mpidr_id(uint64_t mpidr)
{
    return (uint32_t)(mpidr & MPIDR_AFF2_TO_AFF0) |
           (uint32_t)((mpidr >> MPIDR_AFF3_SHIFT) & MPIDR_AFF_BITS) << MPIDR_ID_AFF3_SHIFT;
}

enum arm_psci_conduit arm_fadt_psci(const void *fadt)
{
    const uint8_t *t = fadt;
    if (acpi_rd32(t + 4) < FADT_ARM_BOOT_ARCH_END)
        return ARM_PSCI_NONE;
    unsigned flags = t[FADT_ARM_BOOT_ARCH] | (unsigned)t[FADT_ARM_BOOT_ARCH + 1] << 8;
    if (!(flags & ARM_BOOT_PSCI_COMPLIANT))
        return ARM_PSCI_NONE;
    return flags & ARM_BOOT_PSCI_USE_HVC ? ARM_PSCI_HVC : ARM_PSCI_SMC;
}

void arm_mpidr_place(uint64_t mpidr, struct arm_place *p)
{
    struct arm_mpidr m;
    arm_mpidr_decode(mpidr, &m);
    if (m.mt) {
        *p = (struct arm_place){
            .package = m.aff[3], .die = m.aff[2], .core = m.aff[1], .thread = m.aff[0]};
    } else {
        *p = (struct arm_place){.package = (unsigned)m.aff[3] << 8 | m.aff[2],
                                .die = m.aff[1],
                                .core = m.aff[0],
                                .thread = 0};
    }
}
