// SPDX-License-Identifier: MIT
// Unit tests of the AArch64 ID register decoders over the values real cores report, as their
// Technical Reference Manuals give them (each value's manual is named where it is used).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/arm_id.h"
#include "machine/simd.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)

/* The whole decode of one MIDR value, its name included. */
static void check_midr(uint32_t midr, uint8_t impl, uint8_t variant, uint16_t part,
                       uint8_t revision, const char *impl_name, const char *part_name)
{
    struct arm_midr m;
    arm_midr_decode(midr, &m);
    assert_int_equal(m.implementer, impl);
    assert_int_equal(m.variant, variant);
    assert_int_equal(m.architecture, 0xF);
    assert_int_equal(m.part, part);
    assert_int_equal(m.revision, revision);
    assert_string_equal(arm_implementer_name(m.implementer), impl_name);
    assert_string_equal(arm_part_name(m.implementer, m.part), part_name);
}

static void test_midr_of_real_cores(void **state)
{
    (void)state;
    /* Cortex-A53 TRM (DDI 0500), MIDR_EL1 for r0p4. */
    check_midr(0x410FD034, 0x41, 0, 0xD03, 4, "Arm", "Cortex-A53");
    /* Cortex-A72 TRM (100095), MIDR_EL1 for r0p3. */
    check_midr(0x410FD083, 0x41, 0, 0xD08, 3, "Arm", "Cortex-A72");
    /* Cortex-A76 TRM (100798), MIDR_EL1 for r4p1. */
    check_midr(0x414FD0B1, 0x41, 4, 0xD0B, 1, "Arm", "Cortex-A76");
    /* Neoverse N1 TRM (100616), MIDR_EL1 for r4p1 (also what Ampere Altra reports). */
    check_midr(0x414FD0C1, 0x41, 4, 0xD0C, 1, "Arm", "Neoverse N1");
    /* Neoverse V1 TRM (101427), MIDR_EL1 for r1p2. */
    check_midr(0x411FD402, 0x41, 1, 0xD40, 2, "Arm", "Neoverse V1");
}

static void test_midr_names_of_other_implementers(void **state)
{
    (void)state;
    assert_string_equal(arm_part_name(0x41, 0xD4F), "Neoverse V2"); /* Nvidia Grace */
    assert_string_equal(arm_part_name(0xC0, 0xAC3), "AmpereOne");
    assert_string_equal(arm_part_name(0x61, 0x023), "Apple M1 Firestorm");
    assert_string_equal(arm_part_name(0x4E, 0x004), "Nvidia Carmel");
    assert_string_equal(arm_implementer_name(0x51), "Qualcomm");
    /* A part number is the implementer's own: Arm's 0xD03 is no Qualcomm part. */
    assert_null(arm_part_name(0x51, 0xD03));
    assert_null(arm_part_name(0x41, 0xFFF));
    assert_null(arm_implementer_name(0x00));
}

static void test_mpidr_affinity(void **state)
{
    (void)state;
    struct arm_mpidr m;
    /* Cortex-A53 TRM: core 3 of cluster 0 reads 0x80000003 (bit 31 RES1, U 0, MT 0). */
    arm_mpidr_decode(0x80000003, &m);
    assert_int_equal(m.aff[0], 3);
    assert_int_equal(m.aff[1], 0);
    assert_false(m.mt);
    assert_false(m.up);
    /* Neoverse N1 TRM: MT is 1 and Aff0 is 0 (one thread per core), the core in Aff1. */
    arm_mpidr_decode(0x81000500ULL | (2ULL << 16) | (7ULL << 32), &m);
    assert_true(m.mt);
    assert_int_equal(m.aff[0], 0);
    assert_int_equal(m.aff[1], 5);
    assert_int_equal(m.aff[2], 2);
    assert_int_equal(m.aff[3], 7);
    arm_mpidr_decode(0xC0000000, &m);
    assert_true(m.up);
}

static void test_clidr_of_real_cores(void **state)
{
    (void)state;
    struct arm_clidr c;
    /* Cortex-A53 and A72 TRMs: 0x0A200023, L1 separate, L2 unified, LoUU 1, LoC 2, LoUIS 1. */
    arm_clidr_decode(0x0A200023, &c);
    assert_int_equal(c.levels, 2);
    assert_int_equal(c.ctype[0], ARM_CTYPE_SEPARATE);
    assert_int_equal(c.ctype[1], ARM_CTYPE_UNIFIED);
    assert_int_equal(c.ctype[2], ARM_CTYPE_NONE);
    assert_int_equal(c.louu, 1);
    assert_int_equal(c.loc, 2);
    assert_int_equal(c.louis, 1);
    assert_int_equal(c.icb, 0);
    /* Cortex-A76 and Neoverse N1 TRMs without an L3: 0x82000023, LoC 2, ICB 2, LoU 0. */
    arm_clidr_decode(0x82000023, &c);
    assert_int_equal(c.levels, 2);
    assert_int_equal(c.loc, 2);
    assert_int_equal(c.louu, 0);
    assert_int_equal(c.louis, 0);
    assert_int_equal(c.icb, 2);
    /* The same TRMs with the DSU's L3: 0xC3000123, a unified level 3, LoC 3, ICB 3. */
    arm_clidr_decode(0xC3000123, &c);
    assert_int_equal(c.levels, 3);
    assert_int_equal(c.ctype[2], ARM_CTYPE_UNIFIED);
    assert_int_equal(c.loc, 3);
    assert_int_equal(c.icb, 3);
    assert_string_equal(arm_ctype_name(c.ctype[0]), "separate");
    /* A level after "no cache" is not a level, and a reserved Ctype ends the list too. */
    arm_clidr_decode(0x23 | (4u << 9), &c);
    assert_int_equal(c.levels, 2);
    assert_int_equal(c.ctype[3], ARM_CTYPE_NONE);
    arm_clidr_decode(0x3 | (5u << 3), &c);
    assert_int_equal(c.levels, 1);
    assert_string_equal(arm_ctype_name(c.ctype[1]), "none");
}

static void check_ccsidr(uint64_t v, bool ccidx, uint32_t line, uint32_t ways, uint32_t sets,
                         uint64_t size)
{
    struct arm_ccsidr c;
    arm_ccsidr_decode(v, ccidx, &c);
    assert_int_equal(c.line_bytes, line);
    assert_int_equal(c.ways, ways);
    assert_int_equal(c.sets, sets);
    assert_int_equal(c.size_bytes, size);
}

static void test_ccsidr_32bit_of_real_cores(void **state)
{
    (void)state;
    /* Cortex-A53 TRM, CCSIDR_EL1 encodings: 32 KiB 4-way L1D, 32 KiB 2-way L1I, 1 MiB L2. */
    check_ccsidr(0x700FE01A, false, 64, 4, 128, 32 * KiB);
    check_ccsidr(0x201FE00A, false, 64, 2, 256, 32 * KiB);
    check_ccsidr(0x707FE07A, false, 64, 16, 1024, 1 * MiB);
    check_ccsidr(0x703FE07A, false, 64, 16, 512, 512 * KiB); /* a 512 KiB L2 configuration */
    /* Cortex-A72 TRM: 32 KiB 2-way L1D, 48 KiB 3-way L1I, 1 MiB 16-way L2. */
    check_ccsidr(0x701FE00A, false, 64, 2, 256, 32 * KiB);
    check_ccsidr(0x201FE012, false, 64, 3, 256, 48 * KiB);
    check_ccsidr(0x707FE07A, false, 64, 16, 1024, 1 * MiB);
    /* Cortex-A76 TRM: 64 KiB 4-way L1D and L1I, 512 KiB 8-way L2. */
    check_ccsidr(0x701FE01A, false, 64, 4, 256, 64 * KiB);
    check_ccsidr(0x707FE03A, false, 64, 8, 1024, 512 * KiB);
    /* Neoverse N1 TRM B2.23: 64 KiB L1D, 64 KiB L1I, 1 MiB 8-way L2. */
    check_ccsidr(0x701FE01A, false, 64, 4, 256, 64 * KiB);
    check_ccsidr(0x201FE01A, false, 64, 4, 256, 64 * KiB);
    check_ccsidr(0x70FFE03A, false, 64, 8, 2048, 1 * MiB);
}

static void test_ccsidr_ccidx(void **state)
{
    (void)state;
    /*
     * Neoverse V1 implements FEAT_CCIDX, so its CCSIDR_EL1 is the 64-bit format; its TRM
     * (101427, chapter 2) gives the geometry: 64 KiB 4-way L1 with 64-byte lines, an 8-way L2
     * of 1 MiB. (The TRM's own CCSIDR table prints 32-bit values, which QEMU's model also
     * notes; these are the 64-bit encodings of the text's geometry.)
     */
    check_ccsidr(0x000000FF0000001AULL, true, 64, 4, 256, 64 * KiB);
    check_ccsidr(0x000007FF0000003AULL, true, 64, 8, 2048, 1 * MiB);
    /* The same value read without CCIDX is a different cache: the format must be chosen. */
    struct arm_ccsidr c;
    arm_ccsidr_decode(0x000007FF0000003AULL, false, &c);
    assert_int_equal(c.sets, 1);
    /* Fields at their widest: 2^24 sets, 2^21 ways, 2^11-byte lines. */
    arm_ccsidr_decode(0x00FFFFFF00FFFFFFULL, true, &c);
    assert_int_equal(c.sets, 1u << 24);
    assert_int_equal(c.ways, 1u << 21);
    assert_int_equal(c.line_bytes, 2048);
    assert_int_equal(c.size_bytes, (1ULL << 24) * (1ULL << 21) * 2048);
}

static void test_ctr_of_real_cores(void **state)
{
    (void)state;
    struct arm_ctr c;
    /* Cortex-A53 TRM: CTR_EL0 0x84448004, 64-byte lines, VIPT L1I, ERG and CWG 64 bytes. */
    arm_ctr_decode(0x84448004, &c);
    assert_int_equal(c.imin_line_bytes, 64);
    assert_int_equal(c.dmin_line_bytes, 64);
    assert_int_equal(c.erg_bytes, 64);
    assert_int_equal(c.cwg_bytes, 64);
    assert_string_equal(arm_l1ip_name(c.l1ip), "VIPT");
    assert_false(c.idc);
    assert_false(c.dic);
    /* Cortex-A72 and A76 TRMs: 0x8444C004, the same but a PIPT L1I. */
    arm_ctr_decode(0x8444C004, &c);
    assert_string_equal(arm_l1ip_name(c.l1ip), "PIPT");
    /* IDC and DIC (bits 28, 29); ERG and CWG of 0 say "not given". */
    arm_ctr_decode(0xB0008003ULL, &c);
    assert_true(c.idc);
    assert_true(c.dic);
    assert_int_equal(c.erg_bytes, 0);
    assert_int_equal(c.cwg_bytes, 0);
    assert_int_equal(c.imin_line_bytes, 32);
    assert_int_equal(c.dmin_line_bytes, 4);
}

/*
 * ID_AA64PFR0_EL1 of real cores (their TRMs' reset values, as QEMU's models carry them):
 * Cortex-A72 0x2222 (AdvSIMD 0: implemented, no SVE); Neoverse V1 0x1101110120111112
 * (AdvSIMD 1: with half precision, SVE 1). A core without Advanced SIMD has AdvSIMD 0xF.
 */
static void test_pfr0_vector_units(void **state)
{
    (void)state;
    struct simd_caps c;
    memset(&c, 0, sizeof(c));
    arm_pfr0_simd(0x0000000000002222ull, &c);
    assert_true(c.neon);
    assert_false(c.sve);
    arm_pfr0_simd(0x1101110120111112ull, &c);
    assert_true(c.neon);
    assert_true(c.sve);
    assert_false(c.sve_enabled); /* the front end's to say */
    arm_pfr0_simd(0x0000000000ff2222ull, &c);
    assert_false(c.neon);
    assert_false(c.sve);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_midr_of_real_cores),
        cmocka_unit_test(test_midr_names_of_other_implementers),
        cmocka_unit_test(test_mpidr_affinity),
        cmocka_unit_test(test_clidr_of_real_cores),
        cmocka_unit_test(test_ccsidr_32bit_of_real_cores),
        cmocka_unit_test(test_ccsidr_ccidx),
        cmocka_unit_test(test_ctr_of_real_cores),
        cmocka_unit_test(test_pfr0_vector_units),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
