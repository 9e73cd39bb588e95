// SPDX-License-Identifier: MIT
// Unit tests of the latency-relevant CPU facts: prefetch control per vendor and family, SMT
// from CPUID topology leaves, boost from CPUID and MSRs.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/cpufacts.h"

struct row {
    uint32_t leaf, subleaf;
    uint32_t r[4];
};

static const struct row *table;

static void fake_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4])
{
    memset(out, 0, 4 * sizeof(uint32_t));
    for (const struct row *x = table; x->leaf || x->r[0]; x++) {
        if (x->leaf == leaf && x->subleaf == subleaf) {
            memcpy(out, x->r, sizeof(x->r));
            return;
        }
    }
}

struct msr_value {
    uint32_t msr;
    uint64_t value;
};
static const struct msr_value *msrs;

static bool fake_rdmsr(uint32_t msr, uint64_t *value)
{
    for (const struct msr_value *m = msrs; m && m->msr; m++) {
        if (m->msr == msr) {
            *value = m->value;
            return true;
        }
    }
    return false; /* #GP */
}

static struct cpu_info cpu(const char *vendor, unsigned family)
{
    struct cpu_info ci;
    memset(&ci, 0, sizeof(ci));
    strcpy(ci.vendor, vendor);
    ci.family = family;
    ci.max_leaf = 0x1f;
    ci.max_ext_leaf = 0x80000021;
    return ci;
}

static void test_prefetch_control_by_vendor_and_family(void **state)
{
    (void)state;
    struct prefetch_ctl p;
    struct cpu_info ci = cpu("GenuineIntel", 6);
    cpufacts_prefetch_ctl(&ci, &p);
    assert_int_equal(p.msr, 0x1a4);
    assert_int_equal(p.disable_bits, 0xf);
    ci = cpu("GenuineIntel", 0xf); /* NetBurst: not MSR 0x1a4 */
    cpufacts_prefetch_ctl(&ci, &p);
    assert_int_equal(p.msr, 0);
    assert_non_null(strstr(p.doc, "no documented"));
    ci = cpu("AuthenticAMD", 0x19);
    cpufacts_prefetch_ctl(&ci, &p);
    assert_int_equal(p.msr, 0xc0000108u);
    assert_int_equal(p.disable_bits, 0x2f); /* bit 4 is reserved */
    ci = cpu("AuthenticAMD", 0x1a);
    cpufacts_prefetch_ctl(&ci, &p);
    assert_int_equal(p.msr, 0xc0000108u);
    ci = cpu("AuthenticAMD", 0x15);
    cpufacts_prefetch_ctl(&ci, &p);
    assert_int_equal(p.msr, 0xc0011022u);
    assert_int_equal(p.disable_bits, 1ULL << 13);
    ci = cpu("AuthenticAMD", 0x17); /* Zen 1/2: nothing public */
    cpufacts_prefetch_ctl(&ci, &p);
    assert_int_equal(p.msr, 0);
}

/* An Intel core with two threads (leaf 0xB level 0 is SMT with 2 logical processors). */
static const struct row intel_smt[] = {
    {1, 0, {0, 0, 0, 1u << 28}},
    {6, 0, {1u << 1, 0, 0, 0}},
    {0xb, 0, {1, 2, 0x100, 0}},
    {0, 0, {0, 0, 0, 0}},
};

/* A Zen core: topology extensions, 0x8000001E EBX[15:8] = threads per core - 1, CPB. */
static const struct row amd_smt[] = {
    {1, 0, {0, 0, 0, 1u << 28}},
    {0x80000001, 0, {0, 0, 1u << 22, 0}},
    {0x80000007, 0, {0, 0, 0, 1u << 9}},
    {0x8000001e, 0, {0, 1u << 8, 0, 0}},
    {0, 0, {0, 0, 0, 0}},
};

static void test_smt_and_boost_intel(void **state)
{
    (void)state;
    static const struct msr_value m[] = {
        {0x1a4, 0x5}, {0x1a0, 1ULL << 38}, {0xce, 0x2400}, {0x198, 0x2a00}, {0, 0}};
    struct cpu_info ci = cpu("GenuineIntel", 6);
    struct cpu_facts f;
    table = intel_smt;
    msrs = m;
    cpufacts_read(&f, &ci, fake_cpuid, fake_rdmsr);
    assert_true(f.read);
    assert_true(f.prefetch_read);
    assert_int_equal(f.prefetch_value, 0x5);
    assert_true(f.htt);
    assert_int_equal(f.threads_per_core, 2);
    assert_string_equal(f.smt_source, "cpuid 0xb");
    assert_true(f.boost_supported);
    assert_int_equal(f.boost_disabled, 1);
    assert_int_equal(f.base_ratio, 0x24);
    assert_int_equal(f.current_ratio, 0x2a);
    /* No MSRs readable (chase-host without the msr driver): states unknown, not guessed. */
    msrs = NULL;
    cpufacts_read(&f, &ci, fake_cpuid, fake_rdmsr);
    assert_false(f.prefetch_read);
    assert_int_equal(f.boost_disabled, -1);
    assert_int_equal(f.base_ratio, -1);
}

static void test_smt_and_boost_amd(void **state)
{
    (void)state;
    static const struct msr_value m[] = {{0xc0010015u, 0}, {0xc0010063u, 2}, {0, 0}};
    struct cpu_info ci = cpu("AuthenticAMD", 0x19);
    struct cpu_facts f;
    table = amd_smt;
    msrs = m;
    cpufacts_read(&f, &ci, fake_cpuid, fake_rdmsr);
    assert_false(f.prefetch_read); /* C000_0108 faults here */
    assert_int_equal(f.threads_per_core, 2);
    assert_string_equal(f.smt_source, "cpuid 0x8000001e");
    assert_true(f.boost_supported);
    assert_int_equal(f.boost_disabled, 0);
    assert_int_equal(f.current_pstate, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefetch_control_by_vendor_and_family),
        cmocka_unit_test(test_smt_and_boost_intel),
        cmocka_unit_test(test_smt_and_boost_amd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
