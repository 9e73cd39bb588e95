// SPDX-License-Identifier: MIT
// Registers that decide how memory behaves, read on the firmware: MTRRs, PAT and CR0 (each
// MSR inside a window, a #GP meaning "not here"), the prefetch, SMT and boost facts, MSR writes.
#include "arch/cpu.h"
#include "efi_internal.h"
#include "lib/kstring.h"
#include "platform.h"

#define CPUID_EXT_ADDRESS_SIZES 0x80000008u
#define CPUID_LEAF_FEATURES 1
#define CPUID_LEAF_X2APIC 0xb       /* EDX: this processor's x2APIC ID (SDM vol. 2A, CPUID) */
#define CPUID_INITIAL_APIC_SHIFT 24 /* leaf 1 EBX[31:24]: the initial xAPIC ID */
#define CPUID_LEAF1_EDX_MTRR BIT(12)

static unsigned phys_address_bits(const struct cpu_info *ci)
{
    uint32_t r[4];
    if (ci->max_ext_leaf < CPUID_EXT_ADDRESS_SIZES)
        return PHYS_BITS_DEFAULT;
    arch_cpuid(CPUID_EXT_ADDRESS_SIZES, 0, r);
    return (r[0] & 0xff) ? (r[0] & 0xff) : PHYS_BITS_DEFAULT;
}

/* The variable and fixed MTRRs MTRRcap says exist; false when one of them faults. */
static bool read_mtrrs(struct memtype_regs *r)
{
    unsigned vcnt = (unsigned)(r->mtrr_cap & MTRRCAP_VCNT_MASK);
    r->nvar = vcnt < MTRR_VAR_MAX ? vcnt : MTRR_VAR_MAX;
    for (unsigned i = 0; i < r->nvar; i++) {
        if (!plat_read_msr(MSR_MTRR_PHYSBASE0 + 2 * i, &r->var[i].base) ||
            !plat_read_msr(MSR_MTRR_PHYSBASE0 + 2 * i + 1, &r->var[i].mask))
            return false;
    }
    for (unsigned i = 0; (r->mtrr_cap & MTRRCAP_FIX) && i < MTRR_FIXED_MSRS; i++) {
        if (!plat_read_msr(memtype_fixed_msr(i), &r->fixed[i]))
            return false;
    }
    return true;
}

/* Read what the effective memory type of a page depends on; r->read says whether it could. */
static void read_memtypes(struct memtype_regs *r, const struct cpu_info *ci)
{
    uint32_t leaf1[4] = {0};
    kmemset(r, 0, sizeof(*r));
    r->phys_bits = phys_address_bits(ci);
    r->cr0 = arch_read_cr0();
    if (ci->max_leaf >= 1)
        arch_cpuid(1, 0, leaf1);
    if (!(leaf1[3] & CPUID_LEAF1_EDX_MTRR))
        return; /* no MTRRs: the types stay unknown, and chase says so */
    if (!plat_read_msr(MSR_MTRRCAP, &r->mtrr_cap) ||
        !plat_read_msr(MSR_MTRR_DEF_TYPE, &r->mtrr_def_type) || !read_mtrrs(r))
        return;
    if (!plat_read_msr(MSR_PAT, &r->pat))
        r->pat = PAT_RESET_VALUE; /* no PAT: PCD and PWT clear select write-back */
    if (kstrcmp(ci->vendor, "AuthenticAMD") == 0 && plat_read_msr(MSR_AMD_SYSCFG, &r->amd_syscfg)) {
        r->amd = true;
        if (!plat_read_msr(MSR_AMD_TOM2, &r->amd_tom2))
            r->amd_tom2 = 0;
    }
    r->read = true;
}

static void efi_cpuid_fn(uint32_t leaf, uint32_t subleaf, uint32_t out[4])
{
    arch_cpuid(leaf, subleaf, out);
}

void efi_describe_registers(struct machine *m)
{
    read_memtypes(&m->memtype, &m->cpu);
    cpufacts_read(&m->facts, &m->cpu, efi_cpuid_fn, plat_read_msr);
    identity_read_cpu(&m->id, &m->cpu, efi_cpuid_fn, plat_read_msr, plat_write_msr);
    efi_describe_smbios(&m->id);
    efi_bmc_watchdog(&m->id);
}

uint32_t efi_arch_processor_id(void)
{
    uint32_t r[4];
    arch_cpuid(0, 0, r);
    uint32_t max = r[0];
    if (max >= CPUID_LEAF_X2APIC) {
        arch_cpuid(CPUID_LEAF_X2APIC, 0, r);
        if (r[1]) /* EBX 0: the leaf is not implemented */
            return r[3];
    }
    arch_cpuid(CPUID_LEAF_FEATURES, 0, r);
    return r[1] >> CPUID_INITIAL_APIC_SHIFT;
}

void efi_arch_numa_ids(struct plat_numa *t, const void *rsdp)
{
    (void)t, (void)rsdp; /* the SRAT's local APIC and x2APIC structures name APIC IDs */
}
