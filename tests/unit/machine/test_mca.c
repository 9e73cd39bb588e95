// SPDX-License-Identifier: MIT
// Unit tests of the machine-check banks over stubbed MSRs: the bank count, errors logged before
// the run and during it, Intel's compound codes (memory controller 0000 1MMM CCCC), AMD SMCA
// banks named by MCA_IPID (UMC) and AMD's northbridge bank, absent MSRs.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/mca.h"

#define CPUID1_EDX_MCE_MCA ((1u << 7) | (1u << 14))

static uint32_t cpuid1_edx, ras_ebx;

static void fake_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4])
{
    (void)subleaf;
    memset(out, 0, 4 * sizeof(uint32_t));
    if (leaf == 1)
        out[3] = cpuid1_edx;
    if (leaf == 0x80000007u)
        out[1] = ras_ebx;
}

#define MSRS_MAX 64
static struct {
    uint32_t msr;
    uint64_t value;
} msrs[MSRS_MAX];
static unsigned nmsrs, reads_outside;

static void msr_set(uint32_t msr, uint64_t value)
{
    for (unsigned i = 0; i < nmsrs; i++)
        if (msrs[i].msr == msr) {
            msrs[i].value = value;
            return;
        }
    assert_true(nmsrs < MSRS_MAX);
    msrs[nmsrs].msr = msr;
    msrs[nmsrs++].value = value;
}

/* Every bank register below the count exists (0 unless set); anything else faults. */
static unsigned banks;
static bool smca_regs;
static bool fake_rdmsr(uint32_t msr, uint64_t *value)
{
    for (unsigned i = 0; i < nmsrs; i++)
        if (msrs[i].msr == msr) {
            *value = msrs[i].value;
            return true;
        }
    uint32_t base = smca_regs ? MSR_SMCA_MC0_CTL : MSR_MC0_CTL;
    uint32_t stride = smca_regs ? MSR_SMCA_STRIDE : MSR_MC_LEGACY_STRIDE;
    if (msr >= base && msr < base + banks * stride) {
        *value = 0;
        return true;
    }
    reads_outside++;
    return false; /* #GP */
}

static struct cpu_info cpu(const char *vendor)
{
    struct cpu_info ci;
    memset(&ci, 0, sizeof(ci));
    strcpy(ci.vendor, vendor);
    ci.max_leaf = 0x1f;
    ci.max_ext_leaf = 0x80000021;
    return ci;
}

static void machine(unsigned nbanks, bool smca)
{
    nmsrs = 0;
    reads_outside = 0;
    banks = nbanks;
    smca_regs = smca;
    cpuid1_edx = CPUID1_EDX_MCE_MCA;
    ras_ebx = smca ? 1u << 3 : 0;
    msr_set(MSR_MCG_CAP, nbanks | (1u << 8) /* MCG_CTL_P: not part of the count */);
}

#define LEGACY(bank, reg) (MSR_MC0_CTL + 4 * (bank) + (reg))
#define SMCA(bank, reg) (MSR_SMCA_MC0_CTL + 0x10 * (bank) + (reg))

/* Intel: a corrected memory read error on channel 2 in bank 7, logged during the run. */
static void test_intel_memory_error_during_run(void **state)
{
    (void)state;
    struct cpu_info ci = cpu("GenuineIntel");
    static struct mca_log l;
    machine(10, false);
    mca_begin(&l, &ci, fake_cpuid, fake_rdmsr);
    assert_true(l.supported);
    assert_false(l.smca);
    assert_int_equal(l.nbanks, 10);
    assert_int_equal(l.banks_read, 10);
    assert_int_equal(l.errors_total, 0);
    assert_int_equal(mca_check(&l, "random", fake_rdmsr), 0);

    uint64_t status = MCI_STATUS_VAL | MCI_STATUS_ADDRV | MCI_STATUS_MISCV | 0x0092;
    msr_set(LEGACY(7, 1), status);
    msr_set(LEGACY(7, 2), 0x12345000);
    msr_set(LEGACY(7, 3), 0x86);
    assert_int_equal(mca_check(&l, "bandwidth", fake_rdmsr), 1);
    assert_int_equal(l.nerrors, 1);
    const struct mca_error *e = &l.error[0];
    assert_int_equal(e->bank, 7);
    assert_true(e->status == status);
    assert_true(e->addr_valid);
    assert_true(e->addr == 0x12345000);
    assert_true(e->misc_valid);
    assert_true(e->misc == 0x86);
    assert_false(e->uncorrected);
    assert_int_equal(e->cls, MCA_CLASS_MEMORY);
    assert_true(e->memory);
    assert_string_equal(e->what, "memory controller: read, channel 2");
    assert_string_equal(e->when, "bandwidth");
    assert_int_equal(l.memory_during_run, 1);
    assert_int_equal(l.before_run, 0);

    /* The same registers at the next read are the same error, not a new one. */
    assert_int_equal(mca_check(&l, "numa", fake_rdmsr), 0);
    /* A second error overwrites the bank (OVER): new. */
    msr_set(LEGACY(7, 1), status | MCI_STATUS_OVER);
    assert_int_equal(mca_check(&l, "numa", fake_rdmsr), 1);
    assert_int_equal(l.memory_during_run, 2);
    assert_int_equal(reads_outside, 0);
}

/* An error already in a bank at the start is "before the run" and not counted against DRAM. */
static void test_error_before_the_run(void **state)
{
    (void)state;
    struct cpu_info ci = cpu("GenuineIntel");
    static struct mca_log l;
    machine(4, false);
    /* Uncorrected, no address: a memory scrubbing error, channel not said (0x00cf). */
    msr_set(LEGACY(2, 1), MCI_STATUS_VAL | MCI_STATUS_UC | MCI_STATUS_EN | 0x00cf);
    mca_begin(&l, &ci, fake_cpuid, fake_rdmsr);
    assert_int_equal(l.errors_total, 1);
    assert_int_equal(l.before_run, 1);
    assert_int_equal(l.memory_during_run, 0);
    const struct mca_error *e = &l.error[0];
    assert_true(e->uncorrected);
    assert_false(e->addr_valid);
    assert_true(e->memory);
    assert_string_equal(e->what, "memory controller: scrubbing, channel not said");
    assert_string_equal(e->when, "before the run");
}

/* The compound and simple codes of SDM vol. 3B 16.9 (bit 12, the filter bit, ignored). */
static void test_codes(void **state)
{
    (void)state;
    static const struct {
        uint16_t code;
        enum mca_class cls;
        const char *what;
    } cases[] = {
        {0x0000, MCA_CLASS_NONE, "no error code"},
        {0x0001, MCA_CLASS_SIMPLE, "unclassified"},
        {0x0005, MCA_CLASS_SIMPLE, "internal parity"},
        {0x0400, MCA_CLASS_SIMPLE, "internal timer error"},
        {0x0405, MCA_CLASS_SIMPLE, "internal unclassified"},
        {0x000e, MCA_CLASS_CACHE, "generic cache hierarchy, L2"},
        {0x0014, MCA_CLASS_TLB, "TLB, data L0"},
        {0x0135, MCA_CLASS_CACHE, "cache hierarchy: data read, data L1"},
        {0x1135, MCA_CLASS_CACHE, "cache hierarchy: data read, data L1"},
        {0x017a, MCA_CLASS_CACHE, "cache hierarchy: eviction, generic L2"},
        {0x009f, MCA_CLASS_MEMORY, "memory controller: read, channel not said"},
        {0x10a1, MCA_CLASS_MEMORY, "memory controller: write, channel 1"},
        {0x00b3, MCA_CLASS_MEMORY, "memory controller: address/command, channel 3"},
        {0x0080, MCA_CLASS_MEMORY, "memory controller: generic request, channel 0"},
        {0x0f0b, MCA_CLASS_BUS, "bus and interconnect: generic error to I/O, timeout"},
        {0x0813, MCA_CLASS_BUS, "bus and interconnect: read to memory"},
        {0x0c00 | 0x0100, MCA_CLASS_BUS, "bus and interconnect: generic error to memory, timeout"},
        {0x2000, MCA_CLASS_UNKNOWN, "model-specific code 0x2000"},
    };
    struct mca_log l;
    memset(&l, 0, sizeof(l));
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct mca_error e;
        memset(&e, 0, sizeof(e));
        e.bank = 1;
        e.status = MCI_STATUS_VAL | cases[i].code;
        mca_decode(&l, &e);
        assert_int_equal(e.cls, cases[i].cls);
        assert_string_equal(e.what, cases[i].what);
        assert_int_equal(e.memory, cases[i].cls == MCA_CLASS_MEMORY);
    }
}

/* AMD SMCA: the bank's block from MCA_IPID; a UMC bank is memory whatever its code. */
static void test_amd_smca_umc(void **state)
{
    (void)state;
    struct cpu_info ci = cpu("AuthenticAMD");
    static struct mca_log l;
    machine(23, true);
    mca_begin(&l, &ci, fake_cpuid, fake_rdmsr);
    assert_true(l.smca);
    assert_int_equal(l.banks_read, 23);
    /* UMC: HardwareID 0x96 (bits 43:32), McaType 0 (63:48); an ECC error, code 0x009f. */
    msr_set(SMCA(15, 5), 0x0000009600150f00ULL);
    msr_set(SMCA(15, 1), MCI_STATUS_VAL | MCI_STATUS_ADDRV | (1ULL << 44) | 0x009f);
    msr_set(SMCA(15, 2), 0x3f00000001234500ULL);
    /* L3: HardwareID 0xb0, McaType 7: a cache error, not memory. */
    msr_set(SMCA(3, 5), 0x000700b000000000ULL);
    msr_set(SMCA(3, 1), MCI_STATUS_VAL | 0x017a);
    assert_int_equal(mca_check(&l, "random", fake_rdmsr), 2);
    const struct mca_error *l3 = &l.error[0], *umc = &l.error[1];
    assert_int_equal(l3->bank, 3);
    assert_true(l3->ipid_valid);
    assert_string_equal(l3->block, "L3 cache");
    assert_false(l3->memory);
    assert_int_equal(umc->bank, 15);
    assert_string_equal(umc->block, "UMC (memory controller)");
    assert_true(umc->memory);
    assert_true(umc->addr == 0x3f00000001234500ULL);
    assert_int_equal(l.memory_during_run, 1);
    assert_int_equal(reads_outside, 0);
}

/* AMD before SMCA: bank 4 is the northbridge, whose DRAM errors are bus errors to memory. */
static void test_amd_northbridge(void **state)
{
    (void)state;
    struct cpu_info ci = cpu("AuthenticAMD");
    static struct mca_log l;
    machine(6, false);
    mca_begin(&l, &ci, fake_cpuid, fake_rdmsr);
    assert_false(l.smca);
    msr_set(LEGACY(4, 1), MCI_STATUS_VAL | MCI_STATUS_ADDRV | 0x0813);
    msr_set(LEGACY(3, 1), MCI_STATUS_VAL | 0x0813); /* the same code in another bank */
    assert_int_equal(mca_check(&l, "random", fake_rdmsr), 2);
    assert_false(l.error[0].memory);
    assert_true(l.error[1].memory);
    assert_int_equal(l.error[1].bank, 4);
}

/* No MCA in CPUID, an MCG_CAP that faults, more banks than the legacy range holds. */
static void test_absent_and_limits(void **state)
{
    (void)state;
    struct cpu_info ci = cpu("GenuineIntel");
    static struct mca_log l;
    machine(10, false);
    cpuid1_edx = 1u << 7; /* MCE without MCA */
    mca_begin(&l, &ci, fake_cpuid, fake_rdmsr);
    assert_false(l.supported);
    assert_non_null(strstr(l.note, "CPUID"));
    assert_int_equal(mca_check(&l, "random", fake_rdmsr), 0);

    machine(10, false);
    nmsrs = 0; /* MCG_CAP faults */
    mca_begin(&l, &ci, fake_cpuid, fake_rdmsr);
    assert_false(l.supported);
    assert_non_null(strstr(l.note, "0x179"));

    machine(40, false); /* 40 banks: reading MC29 on would read 0x474.. and the VMX MSRs */
    mca_begin(&l, &ci, fake_cpuid, fake_rdmsr);
    assert_true(l.supported);
    assert_int_equal(l.banks_read, MCA_LEGACY_BANKS_MAX);
    assert_non_null(strstr(l.note, "first 29"));
}

/* More errors than kept: counted, the first MCA_ERRORS_MAX kept. */
static void test_many_errors(void **state)
{
    (void)state;
    struct cpu_info ci = cpu("AuthenticAMD");
    static struct mca_log l;
    machine(MCA_BANKS_MAX, true);
    mca_begin(&l, &ci, fake_cpuid, fake_rdmsr);
    for (unsigned b = 0; b < 40; b++)
        msr_set(SMCA(b, 1), MCI_STATUS_VAL | 0x0005);
    assert_int_equal(mca_check(&l, "c2c", fake_rdmsr), 40);
    assert_int_equal(l.errors_total, 40);
    assert_int_equal(l.nerrors, MCA_ERRORS_MAX);
    assert_int_equal(l.memory_during_run, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intel_memory_error_during_run),
        cmocka_unit_test(test_error_before_the_run),
        cmocka_unit_test(test_codes),
        cmocka_unit_test(test_amd_smca_umc),
        cmocka_unit_test(test_amd_northbridge),
        cmocka_unit_test(test_absent_and_limits),
        cmocka_unit_test(test_many_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
