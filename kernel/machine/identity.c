// SPDX-License-Identifier: MIT
// The microcode revision and the DRAM encryption state, read through fault-safe MSR accessors.
#include "machine/identity.h"

#include "lib/fmt.h"
#include "lib/kstring.h"

#define CPUID7_SUBLEAF0 0

const char *identity_encryption_name(enum mem_encryption e)
{
    switch (e) {
    case MEM_ENCRYPTION_NONE:
        return "not supported";
    case MEM_ENCRYPTION_OFF:
        return "off";
    case MEM_ENCRYPTION_ON:
        return "on";
    default:
        return "unknown";
    }
}

static bool is_vendor(const struct cpu_info *ci, const char *v)
{
    return kstrcmp(ci->vendor, v) == 0;
}

static void microcode_read(struct machine_identity *id, const struct cpu_info *ci, cpuid_fn fn,
                           msr_read_fn rdmsr, msr_write_fn wrmsr)
{
    uint64_t v = 0;
    uint32_t r[4];
    if (is_vendor(ci, "GenuineIntel")) {
        /* SDM Vol. 3A 10.11.7.1: clear the MSR, CPUID(1) loads the signature, then read it */
        if (!wrmsr(MSR_BIOS_SIGN_ID, 0) || (fn(1, 0, r), !rdmsr(MSR_BIOS_SIGN_ID, &v))) {
            ksnprintf(id->microcode_how, sizeof(id->microcode_how),
                      "IA32_BIOS_SIGN_ID (0x8b) cannot be written and read here");
            return;
        }
        id->microcode = (uint32_t)(v >> 32);
        ksnprintf(id->microcode_how, sizeof(id->microcode_how),
                  "IA32_BIOS_SIGN_ID (0x8b) bits 63:32 after write 0, CPUID(1)");
    } else if (is_vendor(ci, "AuthenticAMD") || is_vendor(ci, "HygonGenuine")) {
        if (!rdmsr(MSR_BIOS_SIGN_ID, &v)) {
            ksnprintf(id->microcode_how, sizeof(id->microcode_how),
                      "PATCH_LEVEL (0x8b) cannot be read here");
            return;
        }
        id->microcode = (uint32_t)v;
        ksnprintf(id->microcode_how, sizeof(id->microcode_how), "PATCH_LEVEL (0x8b) bits 31:0");
    } else {
        ksnprintf(id->microcode_how, sizeof(id->microcode_how),
                  "no documented microcode revision MSR for vendor %s", ci->vendor);
        return;
    }
    id->microcode_read = true;
}

/* Read the state MSR; false (state unknown, said why) when it faults. */
static bool encryption_msr(struct machine_identity *id, msr_read_fn rdmsr, uint32_t msr)
{
    id->encryption_msr = msr;
    id->encryption_msr_read = rdmsr(msr, &id->encryption_msr_value);
    if (!id->encryption_msr_read) {
        id->encryption = MEM_ENCRYPTION_UNKNOWN;
        ksnprintf(id->encryption_note, sizeof(id->encryption_note), "MSR 0x%x cannot be read here",
                  msr);
    }
    return id->encryption_msr_read;
}

static void amd_encryption(struct machine_identity *id, const struct cpu_info *ci, cpuid_fn fn,
                           msr_read_fn rdmsr)
{
    uint32_t r[4] = {0};
    if (ci->max_ext_leaf >= CPUID_AMD_ENCRYPTION)
        fn(CPUID_AMD_ENCRYPTION, 0, r);
    id->encryption_kind = "AMD SME/TSME";
    if (!(r[0] & CPUID_AMD_ENCRYPTION_SME)) {
        id->encryption = MEM_ENCRYPTION_NONE;
        kstrlcpy(id->encryption_note, "CPUID 0x8000001F reports no SME",
                 sizeof(id->encryption_note));
        return;
    }
    if (!encryption_msr(id, rdmsr, MSR_AMD_SYSCFG))
        return;
    bool on = id->encryption_msr_value & AMD_SYSCFG_MEM_ENCRYPT_EN;
    id->encryption = on ? MEM_ENCRYPTION_ON : MEM_ENCRYPTION_OFF;
    kstrlcpy(id->encryption_note,
             on ? "SYSCFG[23] MemEncryptionModeEn set: SME is usable, and with TSME (a firmware "
                  "setting SYSCFG does not show) all DRAM is encrypted"
                : "SYSCFG[23] MemEncryptionModeEn clear: no memory encryption",
             sizeof(id->encryption_note));
}

static void intel_encryption(struct machine_identity *id, const struct cpu_info *ci, cpuid_fn fn,
                             msr_read_fn rdmsr)
{
    uint32_t r[4] = {0};
    if (ci->max_leaf >= 7)
        fn(7, CPUID7_SUBLEAF0, r);
    id->encryption_kind = "Intel TME";
    if (!(r[2] & CPUID7_ECX_TME)) {
        id->encryption = MEM_ENCRYPTION_NONE;
        kstrlcpy(id->encryption_note, "CPUID.(7,0):ECX[13] reports no TME",
                 sizeof(id->encryption_note));
        return;
    }
    if (!encryption_msr(id, rdmsr, MSR_INTEL_TME_ACTIVATE))
        return;
    uint64_t v = id->encryption_msr_value;
    bool on = (v & TME_ACTIVATE_LOCKED) && (v & TME_ACTIVATE_ENABLED);
    id->encryption = on ? MEM_ENCRYPTION_ON : MEM_ENCRYPTION_OFF;
    kstrlcpy(id->encryption_note,
             on ? "IA32_TME_ACTIVATE locked with TME enabled: all DRAM is encrypted"
                : "IA32_TME_ACTIVATE: TME not locked on",
             sizeof(id->encryption_note));
}

void identity_read_cpu(struct machine_identity *id, const struct cpu_info *ci, cpuid_fn fn,
                       msr_read_fn rdmsr, msr_write_fn wrmsr)
{
    microcode_read(id, ci, fn, rdmsr, wrmsr);
    id->encryption = MEM_ENCRYPTION_UNKNOWN;
    if (is_vendor(ci, "AuthenticAMD") || is_vendor(ci, "HygonGenuine")) {
        amd_encryption(id, ci, fn, rdmsr);
    } else if (is_vendor(ci, "GenuineIntel")) {
        intel_encryption(id, ci, fn, rdmsr);
    } else {
        kstrlcpy(id->encryption_note, "no documented memory encryption state for this vendor",
                 sizeof(id->encryption_note));
    }
}
