// SPDX-License-Identifier: MIT
// Unit tests of the vector width choice: CPUID bits, XCR0 (OS or ring 0), the L1 peak table.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/cpuinfo.h"
#include "machine/simd.h"

struct cpuid_row {
    uint32_t leaf, subleaf;
    uint32_t r[4];
};

static const struct cpuid_row *table;

static void fake_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4])
{
    memset(out, 0, 4 * sizeof(uint32_t));
    for (const struct cpuid_row *row = table; row->leaf || row->r[0]; row++)
        if (row->leaf == leaf && row->subleaf == subleaf) {
            memcpy(out, row->r, sizeof(row->r));
            return;
        }
}

#define SSE2 (1u << 26)          /* leaf 1 EDX */
#define XSAVE (1u << 26)         /* leaf 1 ECX */
#define OSXSAVE (1u << 27)       /* leaf 1 ECX */
#define AVX (1u << 28)           /* leaf 1 ECX */
#define AVX2 (1u << 5)           /* leaf 7 EBX */
#define AVX512F (1u << 16)       /* leaf 7 EBX */
#define XCR0_ALL (0x07u | 0xe0u) /* x87, SSE, AVX, opmask, ZMM */
#define CASCADE_LAKE 0x00050657u /* family 6, model 0x55 */
#define VENDOR_INTEL                                                                               \
    {                                                                                              \
        0xd, 0x756e6547, 0x6c65746e, 0x49656e69                                                    \
    } /* "GenuineIntel" */

/* Cascade Lake with the firmware's CR4.OSXSAVE clear (as UEFI leaves it). */
static const struct cpuid_row cascade_fw[] = {
    {0, 0, VENDOR_INTEL},
    {1, 0, {CASCADE_LAKE, 0, XSAVE | AVX, SSE2}},
    {7, 0, {0, AVX2 | AVX512F, 0, 0}},
    {0xd, 0, {XCR0_ALL, 0, 0, 0}},
    {0, 0, {0, 0, 0, 0}},
};

/* Emerald Rapids (family 6, model 0xcf, stepping 2), as the borrowed server of docs/bench.md. */
static const struct cpuid_row emerald_os[] = {
    {0, 0, VENDOR_INTEL},
    {1, 0, {0x000c06f2u, 0, XSAVE | OSXSAVE | AVX, SSE2}},
    {7, 0, {0, AVX2 | AVX512F, 0, 0}},
    {0xd, 0, {XCR0_ALL, 0, 0, 0}},
    {0, 0, {0, 0, 0, 0}},
};

/* The same CPU under an OS that set CR4.OSXSAVE. */
static const struct cpuid_row cascade_os[] = {
    {0, 0, VENDOR_INTEL},
    {1, 0, {CASCADE_LAKE, 0, XSAVE | OSXSAVE | AVX, SSE2}},
    {7, 0, {0, AVX2 | AVX512F, 0, 0}},
    {0xd, 0, {XCR0_ALL, 0, 0, 0}},
    {0, 0, {0, 0, 0, 0}},
};

/* QEMU's qemu64 model: SSE2 and nothing wider. */
static const struct cpuid_row qemu64[] = {
    {0, 0, {0xd, 0x68747541, 0x444d4163, 0x69746e65}},
    {1, 0, {0x000663, 0, 0, SSE2}},
    {0, 0, {0, 0, 0, 0}},
};

static struct cpu_info read_cpu(const struct cpuid_row *t)
{
    struct cpu_info ci;
    table = t;
    cpuinfo_read(&ci, fake_cpuid);
    return ci;
}

/* Ring 0 (chase.efi): every width the CPU has, since chase enables their state itself. */
static void test_ring0_picks_the_widest(void **state)
{
    (void)state;
    struct cpu_info ci = read_cpu(cascade_fw);
    char why[160];
    assert_true(ci.simd.avx512f && ci.simd.xsave && !ci.simd.os_xsave);
    assert_int_equal(ci.simd.xcr0_cpu, XCR0_ALL);
    assert_int_equal(simd_choose(&ci.simd, true, SIMD_AUTO, why, sizeof(why)), SIMD_AVX512);
    assert_int_equal(simd_choose(&ci.simd, true, SIMD_AVX2, why, sizeof(why)), SIMD_AVX2);
    assert_int_equal(simd_xcr0_needed(SIMD_AVX512), XCR0_ALL);
    assert_int_equal(simd_xcr0_needed(SIMD_AVX2), 0x7);
    assert_int_equal(simd_xcr0_needed(SIMD_SSE2), 0);
}

/* A user process: only what the OS enabled in XCR0 counts. */
static void test_os_decides_in_user_space(void **state)
{
    (void)state;
    struct cpu_info ci = read_cpu(cascade_fw);
    char why[160];
    /* OSXSAVE clear: the OS enabled nothing, so SSE2 only */
    assert_int_equal(simd_choose(&ci.simd, false, SIMD_AUTO, why, sizeof(why)), SIMD_SSE2);
    ci = read_cpu(cascade_os);
    ci.simd.xcr0_os = 0x7; /* an OS that enabled AVX but not AVX-512 */
    assert_int_equal(simd_choose(&ci.simd, false, SIMD_AUTO, why, sizeof(why)), SIMD_AVX2);
    assert_int_equal(simd_choose(&ci.simd, false, SIMD_AVX512, why, sizeof(why)), SIMD_AUTO);
    assert_non_null(strstr(why, "avx512 is not usable here (the operating system has not enabled "
                                "its register state (XCR0)); this machine supports sse2, avx2"));
    ci.simd.xcr0_os = XCR0_ALL;
    assert_int_equal(simd_choose(&ci.simd, false, SIMD_AUTO, why, sizeof(why)), SIMD_AVX512);
}

/* No AVX at all (-cpu qemu64): SSE2 is used, AVX2 is an error naming what there is. */
static void test_sse2_only(void **state)
{
    (void)state;
    struct cpu_info ci = read_cpu(qemu64);
    char why[160];
    assert_int_equal(simd_choose(&ci.simd, true, SIMD_AUTO, why, sizeof(why)), SIMD_SSE2);
    assert_int_equal(simd_choose(&ci.simd, true, SIMD_AVX2, why, sizeof(why)), SIMD_AUTO);
    assert_string_equal(why, "avx2 is not usable here (the CPU lacks it); this machine supports "
                             "sse2");
    assert_int_equal(simd_choose(&ci.simd, true, SIMD_NEON, why, sizeof(why)), SIMD_AUTO);
    assert_string_equal(why, "neon is not usable here (the CPU lacks it); this machine supports "
                             "sse2");
}

/* A CPU that has AVX-512F but whose leaf 0xD lacks the ZMM state cannot use it in ring 0. */
static void test_ring0_needs_the_state_components(void **state)
{
    (void)state;
    struct cpu_info ci = read_cpu(cascade_fw);
    char why[160];
    ci.simd.xcr0_cpu = 0x7;
    assert_int_equal(simd_choose(&ci.simd, true, SIMD_AUTO, why, sizeof(why)), SIMD_AVX2);
    assert_false(simd_usable(&ci.simd, true, SIMD_AVX512, why, sizeof(why)));
    assert_non_null(strstr(why, "cannot enable its register state"));
}

/* AArch64: NEON always, SVE where the CPU has it and it is enabled here; x86 widths never. */
static void test_aarch64_widths(void **state)
{
    (void)state;
    struct simd_caps c;
    char why[160];
    memset(&c, 0, sizeof(c));
    c.neon = true; /* Cortex-A72 */
    assert_int_equal(simd_choose(&c, false, SIMD_AUTO, why, sizeof(why)), SIMD_NEON);
    assert_int_equal(simd_choose(&c, false, SIMD_SVE, why, sizeof(why)), SIMD_AUTO);
    assert_string_equal(why, "sve is not usable here (the CPU lacks it); this machine supports "
                             "neon");
    assert_int_equal(simd_choose(&c, false, SIMD_AVX2, why, sizeof(why)), SIMD_AUTO);
    assert_string_equal(why, "avx2 is not usable here (the CPU lacks it); this machine supports "
                             "neon");
    c.sve = true; /* Neoverse V1 under an OS without SVE support */
    assert_int_equal(simd_choose(&c, false, SIMD_AUTO, why, sizeof(why)), SIMD_NEON);
    assert_false(simd_usable(&c, false, SIMD_SVE, why, sizeof(why)));
    assert_string_equal(why, "the operating system has not enabled it (no HWCAP_SVE)");
    assert_false(simd_usable(&c, true, SIMD_SVE, why, sizeof(why)));
    assert_non_null(strstr(why, "CPACR_EL1.ZEN"));
    c.sve_enabled = true;
    c.sve_vector_bytes = 32; /* 256-bit vectors */
    assert_int_equal(simd_choose(&c, false, SIMD_AUTO, why, sizeof(why)), SIMD_SVE);
    assert_int_equal(simd_vector_bits(&c, SIMD_SVE), 256);
    assert_int_equal(simd_vector_bits(&c, SIMD_NEON), 128);
    assert_int_equal(simd_xcr0_needed(SIMD_SVE), 0);
    assert_string_equal(simd_width_name(SIMD_SVE), "sve");
    c.neon = c.sve = false;
    assert_int_equal(simd_choose(&c, false, SIMD_AUTO, why, sizeof(why)), SIMD_AUTO);
    assert_string_equal(why, "no vector width is usable here (not even SSE2 or NEON)");
}

/* The L1 table: Cascade Lake loads 2 x 64 and stores 1 x 64 bytes per cycle with AVX-512. */
static void test_l1_peak_table(void **state)
{
    (void)state;
    struct cpu_info ci = read_cpu(cascade_fw);
    double load, store;
    const char *core, *source;
    assert_true(simd_l1_peak(&ci, SIMD_AVX512, &load, &store, &core, &source));
    assert_true(load == 128 && store == 64);
    assert_string_equal(core, "Skylake-SP/Cascade Lake");
    assert_non_null(strstr(source, "Intel Optimization Reference Manual"));
    assert_true(simd_l1_peak(&ci, SIMD_SSE2, &load, &store, &core, &source));
    assert_true(load == 32 && store == 16);
    ci = read_cpu(emerald_os); /* Golden Cove's unit: 3 loads up to 256 bits, 2 at 512 */
    assert_true(simd_l1_peak(&ci, SIMD_AVX512, &load, &store, &core, &source));
    assert_true(load == 128 && store == 64);
    assert_string_equal(core, "Emerald Rapids");
    assert_true(simd_l1_peak(&ci, SIMD_AVX2, &load, &store, &core, &source));
    assert_true(load == 96 && store == 64);
    ci = read_cpu(qemu64); /* not in the table: no claim */
    assert_false(simd_l1_peak(&ci, SIMD_SSE2, &load, &store, &core, &source));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ring0_picks_the_widest),
        cmocka_unit_test(test_os_decides_in_user_space),
        cmocka_unit_test(test_sse2_only),
        cmocka_unit_test(test_ring0_needs_the_state_components),
        cmocka_unit_test(test_l1_peak_table),
        cmocka_unit_test(test_aarch64_widths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
