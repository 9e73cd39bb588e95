// SPDX-License-Identifier: MIT
// Unit tests of CPUID decoding on recorded-style register tables (Intel, AMD, QEMU's TCG CPU).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/cpuinfo.h"

struct cpuid_row {
    uint32_t leaf, subleaf;
    uint32_t r[4];
};

static const struct cpuid_row *table;

static void fake_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4])
{
    memset(out, 0, 4 * sizeof(uint32_t));
    for (const struct cpuid_row *row = table; row->leaf || row->r[0]; row++) {
        if (row->leaf == leaf && row->subleaf == subleaf) {
            memcpy(out, row->r, sizeof(row->r));
            return;
        }
    }
}

#define LEAF4(type, level, shared, line, ways, sets)                                               \
    {                                                                                              \
        (type) | ((level) << 5) | (((shared)-1) << 14), ((line)-1) | (((ways)-1) << 22), (sets)-1, \
            0                                                                                      \
    }

/* brand "Intel(R) Xeon(R) Test CPU" padded with spaces on both sides, as CPUs do */
static const struct cpuid_row intel[] = {
    {0, 0, {0x20, 0x756e6547, 0x6c65746e, 0x49656e69}},
    {1, 0, {0x000806F8, 0, 1u << 31, 0}},
    {4, 0, LEAF4(1, 1, 2, 64, 12, 64)},
    {4, 1, LEAF4(2, 1, 2, 64, 8, 64)},
    {4, 2, LEAF4(3, 2, 2, 64, 16, 2048)},
    {4, 3, LEAF4(3, 3, 64, 64, 15, 32768)},
    {0x15, 0, {2, 200, 25000000, 0}},
    {0x40000000, 0, {0x40000001, 0x4b4d564b, 0x564b4d56, 0x0000004d}},
    {0x80000000, 0, {0x80000008, 0, 0, 0}},
    {0x80000001, 0, {0, 0, 0, (1u << 26) | (1u << 27)}},
    {0x80000002, 0, {0x20202020, 0x65746e49, 0x2952286c, 0x6f655820}},
    {0x80000003, 0, {0x2952286e, 0x73655420, 0x50432074, 0x20202055}},
    {0x80000004, 0, {0x20202020, 0x20202020, 0x20202020, 0x00202020}},
    {0x80000007, 0, {0, 0, 0, 1u << 8}},
    {0, 0, {0, 0, 0, 0}},
};

static const struct cpuid_row amd_zen4[] = {
    {0, 0, {0x10, 0x68747541, 0x444d4163, 0x69746e65}},
    {1, 0, {0x00A10F11, 0, 0, 0}},
    {0x80000000, 0, {0x80000021, 0, 0, 0}},
    {0x80000001, 0, {0, 0, 1u << 22, (1u << 26) | (1u << 27)}},
    {0x80000007, 0, {0, 0, 0, 1u << 8}},
    {0x8000001d, 0, LEAF4(1, 1, 2, 64, 8, 64)},
    {0x8000001d, 1, LEAF4(2, 1, 2, 64, 8, 64)},
    {0x8000001d, 2, LEAF4(3, 2, 2, 64, 8, 2048)},
    {0x8000001d, 3, LEAF4(3, 3, 16, 64, 16, 32768)},
    {0, 0, {0, 0, 0, 0}},
};

static const struct cpuid_row qemu_tcg[] = {
    {0, 0, {0xd, 0x68747541, 0x444d4163, 0x69746e65}},
    {1, 0, {0x00060fb1, 0, 1u << 31, 0}},
    {0x80000000, 0, {0x80000008, 0, 0, 0}},
    {0x80000001, 0, {0, 0, 0, 1u << 27}},
    {0x80000005, 0, {0, 0, (64u << 24) | (2 << 16) | (1 << 8) | 64, (64u << 24) | (2 << 16) | 64}},
    {0x80000006, 0, {0, 0, (512u << 16) | (8 << 12) | 64, (32u << 18) | (8 << 12) | 64}},
    {0, 0, {0, 0, 0, 0}},
};

static void test_intel(void **state)
{
    (void)state;
    struct cpu_info ci;
    table = intel;
    cpuinfo_read(&ci, fake_cpuid);
    assert_string_equal(ci.vendor, "GenuineIntel");
    assert_string_equal(ci.brand, "Intel(R) Xeon(R) Test CPU");
    assert_int_equal(ci.family, 6);
    assert_int_equal(ci.model, 0x8f);
    assert_int_equal(ci.stepping, 8);
    assert_string_equal(ci.cache_source, "cpuid 4");
    assert_int_equal(ci.ncaches, 4);
    assert_int_equal(ci.caches[0].size_bytes, 48 * 1024);
    assert_int_equal(ci.caches[0].ways, 12);
    assert_int_equal(ci.caches[0].type, CACHE_DATA);
    assert_int_equal(ci.caches[1].type, CACHE_INSTRUCTION);
    assert_int_equal(ci.caches[2].size_bytes, 2 << 20);
    assert_int_equal(ci.caches[3].size_bytes, 30 << 20);
    assert_int_equal(ci.caches[3].shared_by, 64);
    assert_ptr_equal(cpuinfo_llc(&ci), &ci.caches[3]);
    assert_ptr_equal(cpuinfo_data_cache(&ci, 1), &ci.caches[0]);
    assert_true(ci.invariant_tsc && ci.has_rdtscp && ci.has_1g_pages && ci.hypervisor);
    assert_string_equal(ci.hypervisor_vendor, "KVMKVMKVM");
    assert_int_equal(ci.cpuid_tsc_hz, 2500000000ull);
}

static void test_amd_topoext(void **state)
{
    (void)state;
    struct cpu_info ci;
    table = amd_zen4;
    cpuinfo_read(&ci, fake_cpuid);
    assert_string_equal(ci.vendor, "AuthenticAMD");
    assert_int_equal(ci.family, 0x19);
    assert_int_equal(ci.model, 0x11);
    assert_string_equal(ci.cache_source, "cpuid 0x8000001d");
    assert_int_equal(ci.ncaches, 4);
    assert_int_equal(ci.caches[0].size_bytes, 32 * 1024);
    assert_int_equal(ci.caches[2].size_bytes, 1 << 20);
    assert_int_equal(ci.caches[3].size_bytes, 32 << 20);
    assert_false(ci.hypervisor);
    assert_string_equal(ci.brand, "(no brand string)");
    assert_int_equal(ci.cpuid_tsc_hz, 0);
}

static void test_amd_legacy_leaves(void **state)
{
    (void)state;
    struct cpu_info ci;
    table = qemu_tcg;
    cpuinfo_read(&ci, fake_cpuid);
    assert_string_equal(ci.cache_source, "cpuid 0x80000005/6");
    assert_int_equal(ci.ncaches, 4);
    assert_int_equal(ci.caches[0].size_bytes, 64 * 1024);
    assert_int_equal(ci.caches[0].ways, 2);
    assert_int_equal(ci.caches[2].size_bytes, 512 * 1024);
    assert_int_equal(ci.caches[2].ways, 16);
    assert_int_equal(ci.caches[3].size_bytes, 16 << 20);
    assert_false(ci.invariant_tsc);
    assert_false(ci.has_1g_pages);
    assert_true(ci.has_rdtscp);
    assert_int_equal(ci.family, 0xf); /* base family 0xf, extended family 0 */
    assert_int_equal(ci.model, 0x6b);
}

/* A hypervisor's leaf 4 whose L2 and L3 are one 64-byte line each (1 way, 1 set): those two
   are dropped as unknown and cache_source says so; the L1s, which can be true, stay. */
static const struct cpuid_row made_up[] = {
    {0, 0, {0x20, 0x756e6547, 0x6c65746e, 0x49656e69}},
    {1, 0, {0x000806F8, 0, 1u << 31, 0}},
    {4, 0, LEAF4(1, 1, 2, 64, 12, 64)},
    {4, 1, LEAF4(2, 1, 2, 64, 8, 64)},
    {4, 2, LEAF4(3, 2, 2, 64, 1, 1)},
    {4, 3, LEAF4(3, 3, 64, 64, 1, 1)},
    {0, 0, {0, 0, 0, 0}},
};

static void test_sizes_that_cannot_be_true(void **state)
{
    (void)state;
    struct cpu_info ci;
    table = made_up;
    cpuinfo_read(&ci, fake_cpuid);
    assert_int_equal(ci.ncaches, 2);
    assert_int_equal(ci.caches[0].size_bytes, 48 * 1024);
    assert_int_equal(ci.caches[1].type, CACHE_INSTRUCTION);
    assert_null(cpuinfo_data_cache(&ci, 2));
    assert_string_equal(ci.cache_source, "cpuid 4" CACHE_SIZES_UNKNOWN);
    assert_non_null(strstr(ci.cache_source, "sizes unknown"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intel),
        cmocka_unit_test(test_amd_topoext),
        cmocka_unit_test(test_amd_legacy_leaves),
        cmocka_unit_test(test_sizes_that_cannot_be_true),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
