// SPDX-License-Identifier: MIT
// Unit tests of the microcode revision and memory encryption reads over a fake CPU: Intel's
// write-0, CPUID(1), read sequence (SDM), AMD's PATCH_LEVEL, SME in SYSCFG, TME_ACTIVATE, and
// MSRs that fault.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/identity.h"

/* The fake CPU: what its MSRs hold, what CPUID says, and the order things happened in. */
static struct {
    uint64_t sign_id;     /* what MSR 0x8b reads after CPUID(1) (Intel) or always (AMD) */
    bool sign_cleared;    /* 0x8b was written 0 */
    bool cpuid1_after;    /* CPUID(1) ran after the write */
    bool faults;          /* every MSR access faults */
    uint64_t syscfg, tme; /* SYSCFG and IA32_TME_ACTIVATE */
    uint32_t ext_1f_eax, leaf7_ecx;
} cpu;

static void fake_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4])
{
    (void)subleaf;
    memset(out, 0, 4 * sizeof(uint32_t));
    if (leaf == 1 && cpu.sign_cleared)
        cpu.cpuid1_after = true;
    if (leaf == CPUID_AMD_ENCRYPTION)
        out[0] = cpu.ext_1f_eax;
    if (leaf == 7)
        out[2] = cpu.leaf7_ecx;
}

static bool fake_rdmsr(uint32_t msr, uint64_t *v)
{
    if (cpu.faults)
        return false;
    switch (msr) {
    case MSR_BIOS_SIGN_ID:
        /* Intel: the revision is there only after write 0 then CPUID(1) */
        *v = cpu.cpuid1_after || !cpu.sign_cleared ? cpu.sign_id : 0;
        return true;
    case MSR_AMD_SYSCFG:
        *v = cpu.syscfg;
        return true;
    case MSR_INTEL_TME_ACTIVATE:
        *v = cpu.tme;
        return true;
    default:
        return false;
    }
}

static bool fake_wrmsr(uint32_t msr, uint64_t v)
{
    if (cpu.faults || msr != MSR_BIOS_SIGN_ID || v != 0)
        return false;
    cpu.sign_cleared = true;
    cpu.cpuid1_after = false;
    return true;
}

static struct cpu_info ci;
static struct machine_identity id;

static void reset(const char *vendor)
{
    memset(&cpu, 0, sizeof(cpu));
    memset(&ci, 0, sizeof(ci));
    memset(&id, 0, sizeof(id));
    strcpy(ci.vendor, vendor);
    ci.max_leaf = 0x1f;
    ci.max_ext_leaf = 0x80000021u;
}

static void test_intel_microcode_sequence(void **state)
{
    (void)state;
    reset("GenuineIntel");
    cpu.sign_id = 0x5003604ull << 32;
    identity_read_cpu(&id, &ci, fake_cpuid, fake_rdmsr, fake_wrmsr);
    assert_true(cpu.sign_cleared && cpu.cpuid1_after);
    assert_true(id.microcode_read);
    assert_int_equal(id.microcode, 0x5003604);
    assert_non_null(strstr(id.microcode_how, "write 0"));
}

static void test_amd_microcode(void **state)
{
    (void)state;
    reset("AuthenticAMD");
    cpu.sign_id = 0xa0011d1;
    identity_read_cpu(&id, &ci, fake_cpuid, fake_rdmsr, fake_wrmsr);
    assert_false(cpu.sign_cleared); /* AMD's PATCH_LEVEL is only read */
    assert_true(id.microcode_read);
    assert_int_equal(id.microcode, 0xa0011d1);
}

static void test_faulting_msrs(void **state)
{
    (void)state;
    reset("GenuineIntel");
    cpu.faults = true;
    cpu.leaf7_ecx = CPUID7_ECX_TME;
    identity_read_cpu(&id, &ci, fake_cpuid, fake_rdmsr, fake_wrmsr);
    assert_false(id.microcode_read);
    assert_non_null(strstr(id.microcode_how, "cannot"));
    assert_int_equal(id.encryption, MEM_ENCRYPTION_UNKNOWN);
    assert_false(id.encryption_msr_read);
    assert_non_null(strstr(id.encryption_note, "0x982"));
    reset("CentaurHauls");
    identity_read_cpu(&id, &ci, fake_cpuid, fake_rdmsr, fake_wrmsr);
    assert_false(id.microcode_read);
    assert_int_equal(id.encryption, MEM_ENCRYPTION_UNKNOWN);
}

static void test_amd_sme(void **state)
{
    (void)state;
    reset("AuthenticAMD");
    identity_read_cpu(&id, &ci, fake_cpuid, fake_rdmsr, fake_wrmsr);
    assert_int_equal(id.encryption, MEM_ENCRYPTION_NONE); /* CPUID says no SME */
    assert_int_equal(id.encryption_msr, 0);
    reset("AuthenticAMD");
    cpu.ext_1f_eax = CPUID_AMD_ENCRYPTION_SME;
    identity_read_cpu(&id, &ci, fake_cpuid, fake_rdmsr, fake_wrmsr);
    assert_int_equal(id.encryption, MEM_ENCRYPTION_OFF);
    cpu.syscfg = AMD_SYSCFG_MEM_ENCRYPT_EN | 1;
    identity_read_cpu(&id, &ci, fake_cpuid, fake_rdmsr, fake_wrmsr);
    assert_int_equal(id.encryption, MEM_ENCRYPTION_ON);
    assert_int_equal(id.encryption_msr, MSR_AMD_SYSCFG);
    assert_string_equal(identity_encryption_name(id.encryption), "on");
}

static void test_intel_tme(void **state)
{
    (void)state;
    reset("GenuineIntel");
    cpu.leaf7_ecx = CPUID7_ECX_TME;
    cpu.tme = TME_ACTIVATE_ENABLED; /* enabled but not locked: not active */
    identity_read_cpu(&id, &ci, fake_cpuid, fake_rdmsr, fake_wrmsr);
    assert_int_equal(id.encryption, MEM_ENCRYPTION_OFF);
    cpu.tme = TME_ACTIVATE_ENABLED | TME_ACTIVATE_LOCKED;
    identity_read_cpu(&id, &ci, fake_cpuid, fake_rdmsr, fake_wrmsr);
    assert_int_equal(id.encryption, MEM_ENCRYPTION_ON);
    assert_int_equal(id.encryption_msr_value, 3);
    reset("GenuineIntel");
    identity_read_cpu(&id, &ci, fake_cpuid, fake_rdmsr, fake_wrmsr);
    assert_int_equal(id.encryption, MEM_ENCRYPTION_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intel_microcode_sequence),
        cmocka_unit_test(test_amd_microcode),
        cmocka_unit_test(test_faulting_msrs),
        cmocka_unit_test(test_amd_sme),
        cmocka_unit_test(test_intel_tme),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
