// SPDX-License-Identifier: MIT
// Unit tests of the AArch64 processor list for PSCI: the MADT's enabled GICC entries, the FADT's
// PSCI conduit (QEMU virt's HVC, a server's SMC), and places from MPIDR of real cores.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/arm_cpu.h"
#include "machine/arm_smp.h"

#define GICC_BYTES 80 /* ACPI 6.5's GICC entry */

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

/* A MADT of three GICC entries (the second disabled) and a GICD entry. */
static uint8_t madt[MADT_FIRST_ENTRY + 3 * GICC_BYTES + 24];

static void madt_build(void)
{
    memset(madt, 0, sizeof(madt));
    memcpy(madt, "APIC", 4);
    put32(madt + 4, (uint32_t)sizeof(madt));
    uint8_t *e = madt + MADT_FIRST_ENTRY;
    for (unsigned i = 0; i < 3; i++, e += GICC_BYTES) {
        e[0] = MADT_TYPE_GICC, e[1] = GICC_BYTES;
        put32(e + MADT_GICC_UID, i);
        put32(e + MADT_GICC_FLAGS, i == 1 ? 0 : MADT_GICC_ENABLED);
        put64(e + MADT_GICC_MPIDR, 0x80000000ULL | 0x100ULL * i | 0x100000000ULL);
    }
    e[0] = 0x0c, e[1] = 24; /* GICD */
}

static void test_gicc_mpidrs(void **state)
{
    (void)state;
    madt_build();
    uint64_t m[4] = {0};
    assert_int_equal(arm_madt_gicc_mpidrs(madt, m, 4), 2); /* the disabled one left out */
    assert_int_equal(m[0], 0x100000000ULL);                /* RES1 bit 31 dropped, Aff3 kept */
    assert_int_equal(m[1], 0x100000200ULL);
    m[1] = 7;
    assert_int_equal(arm_madt_gicc_mpidrs(madt, m, 1), 2); /* all counted, cap written */
    assert_int_equal(m[1], 7);
    assert_int_equal(arm_madt_gicc_mpidrs(madt, NULL, 0), 2); /* a count alone */
    madt[MADT_FIRST_ENTRY + GICC_BYTES + 1] = 1;              /* a malformed length */
    assert_int_equal(arm_madt_gicc_mpidrs(madt, m, 4), 0);
}

/* A 2-socket Altra-like machine: 160 GICC entries, 80 a socket (the socket in Aff3, the core in
   Aff1), more than 64: every one counted and listed, UIDs found, IDs packed with Aff3. */
static void test_more_than_64_gicc(void **state)
{
    (void)state;
    enum { N = 160 };
    static uint8_t big[MADT_FIRST_ENTRY + N * GICC_BYTES];
    static uint64_t m[N];
    memset(big, 0, sizeof(big));
    memcpy(big, "APIC", 4);
    put32(big + 4, (uint32_t)sizeof(big));
    uint8_t *e = big + MADT_FIRST_ENTRY;
    for (unsigned i = 0; i < N; i++, e += GICC_BYTES) {
        e[0] = MADT_TYPE_GICC, e[1] = GICC_BYTES;
        put32(e + MADT_GICC_UID, 1000 + i);
        put32(e + MADT_GICC_FLAGS, MADT_GICC_ENABLED);
        put64(e + MADT_GICC_MPIDR, (uint64_t)(i / 80) << 32 | (uint64_t)(i % 80) << 8);
    }
    assert_int_equal(arm_madt_gicc_mpidrs(big, NULL, 0), N);
    assert_int_equal(arm_madt_gicc_mpidrs(big, m, N), N);
    assert_int_equal(m[159], 1ULL << 32 | 79ULL << 8);
    uint64_t mpidr = 0;
    assert_true(arm_madt_gicc_of_uid(big, 1000 + 95, &mpidr));
    assert_int_equal(mpidr, 1ULL << 32 | 15ULL << 8);
    assert_false(arm_madt_gicc_of_uid(big, 999, &mpidr));
    assert_int_equal(arm_mpidr_id(mpidr), 0x01000f00u);                    /* Aff3 in bits 31..24 */
    assert_int_equal(arm_mpidr_id(0x80000000ULL | 0x30201ULL), 0x030201u); /* RES1 bit 31 out */
}

static void fadt_build(uint8_t *t, uint32_t len, unsigned flags)
{
    memset(t, 0, FADT_ARM_BOOT_ARCH_END + 8);
    memcpy(t, "FACP", 4);
    put32(t + 4, len);
    t[FADT_ARM_BOOT_ARCH] = (uint8_t)flags;
    t[FADT_ARM_BOOT_ARCH + 1] = (uint8_t)(flags >> 8);
}

static void test_fadt_psci(void **state)
{
    (void)state;
    uint8_t t[FADT_ARM_BOOT_ARCH_END + 8];
    /* QEMU virt without EL2/EL3 emulated: PSCI through HVC (ARM_BOOT_ARCH 3) */
    fadt_build(t, 276, ARM_BOOT_PSCI_COMPLIANT | ARM_BOOT_PSCI_USE_HVC);
    assert_int_equal(arm_fadt_psci(t), ARM_PSCI_HVC);
    /* a server whose firmware runs at EL3: SMC (ARM_BOOT_ARCH 1) */
    fadt_build(t, 276, ARM_BOOT_PSCI_COMPLIANT);
    assert_int_equal(arm_fadt_psci(t), ARM_PSCI_SMC);
    fadt_build(t, 276, 0); /* no PSCI (the parking protocol) */
    assert_int_equal(arm_fadt_psci(t), ARM_PSCI_NONE);
    fadt_build(t, 116, ARM_BOOT_PSCI_COMPLIANT); /* an ACPI 1.0 FADT: no ARM_BOOT_ARCH */
    assert_int_equal(arm_fadt_psci(t), ARM_PSCI_NONE);
}

static void test_mpidr_place(void **state)
{
    (void)state;
    struct arm_place p;
    /* Cortex-A72, core 3 of cluster 1 (MT clear; A72 TRM 4.3.2: CPUID in Aff0, cluster Aff1) */
    arm_mpidr_place(0x80000103ULL, &p);
    assert_int_equal(p.core, 3);
    assert_int_equal(p.die, 1);
    assert_int_equal(p.package, 0);
    assert_int_equal(p.thread, 0);
    /* Neoverse N1 (MT set, Aff0 0: N1 TRM B2.84), core 5 of cluster 2 in socket 1 */
    arm_mpidr_place(0x181020500ULL, &p);
    assert_int_equal(p.thread, 0);
    assert_int_equal(p.core, 5);
    assert_int_equal(p.die, 2);
    assert_int_equal(p.package, 1);
    /* Cortex-A53 without MT on a second chip named in Aff2: core 1 */
    arm_mpidr_place(0x80010001ULL, &p);
    assert_int_equal(p.core, 1);
    assert_int_equal(p.package, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gicc_mpidrs),
        cmocka_unit_test(test_more_than_64_gicc),
        cmocka_unit_test(test_fadt_psci),
        cmocka_unit_test(test_mpidr_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
