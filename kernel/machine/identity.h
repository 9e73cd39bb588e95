// SPDX-License-Identifier: MIT
// The machine's identity beyond CPUID: SMBIOS (firmware, board, memory devices), the
// microcode revision and whether DRAM is encrypted, as each run records them.
#ifndef CHASE_IDENTITY_H
#define CHASE_IDENTITY_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/cpufacts.h"
#include "machine/cpuinfo.h"
#include "machine/ipmi_kcs.h"
#include "machine/memtype.h"

struct smbios_info;

#define MSR_BIOS_SIGN_ID 0x8bu        /* Intel IA32_BIOS_SIGN_ID, AMD PATCH_LEVEL */
#define MSR_INTEL_TME_ACTIVATE 0x982u /* IA32_TME_ACTIVATE */
#define TME_ACTIVATE_LOCKED (1ull << 0)
#define TME_ACTIVATE_ENABLED (1ull << 1)
#define AMD_SYSCFG_MEM_ENCRYPT_EN (1ull << 23) /* in MSR_AMD_SYSCFG: MemEncryptionModeEn */
#define CPUID_AMD_ENCRYPTION 0x8000001fu       /* EAX bit 0: SME */
#define CPUID_AMD_ENCRYPTION_SME (1u << 0)
#define CPUID7_ECX_TME (1u << 13) /* CPUID.(7,0):ECX[13] TME_EN */

/* Writes an MSR: false when it faults or the platform writes no MSR. */
typedef bool (*msr_write_fn)(uint32_t msr, uint64_t value);

/* DRAM encryption as found: it adds latency to every DRAM access where it is on. */
enum mem_encryption {
    MEM_ENCRYPTION_UNKNOWN, /* could not be read here */
    MEM_ENCRYPTION_NONE,    /* the CPU has none (CPUID) */
    MEM_ENCRYPTION_OFF,     /* the CPU has it, and it is off */
    MEM_ENCRYPTION_ON       /* on (AMD: enabled in SYSCFG; Intel: TME active) */
};

struct machine_identity {
    const struct smbios_info *smbios; /* NULL: no SMBIOS read (smbios_why says why) */
    char smbios_source[128];          /* where the tables came from */
    char smbios_why[160];             /* why there are none ("" when read) */
    bool microcode_read;
    uint32_t microcode;     /* the loaded microcode's revision */
    char microcode_how[96]; /* how it was read, or why not */
    enum mem_encryption encryption;
    const char *encryption_kind; /* "AMD SME/TSME", "Intel TME", NULL: none known */
    uint32_t encryption_msr;     /* the MSR read (0: none) */
    bool encryption_msr_read;
    uint64_t encryption_msr_value;
    char encryption_note[160];         /* what the bits mean, or why unknown */
    struct ipmi_watchdog bmc_watchdog; /* the BMC's watchdog (read false, why "": not tried) */
};

/* The name of an encryption state for run.json and the banner ("on", "off", ...). */
const char *identity_encryption_name(enum mem_encryption e);

/*
 * Read the microcode revision (Intel: write 0 to IA32_BIOS_SIGN_ID, CPUID leaf 1, read it,
 * revision in bits 63:32, as the SDM says; AMD: PATCH_LEVEL bits 31:0) and the DRAM encryption
 * state (AMD SYSCFG[23] where CPUID 0x8000001F says SME; Intel IA32_TME_ACTIVATE where
 * CPUID.7 says TME) through rdmsr/wrmsr, which must survive an MSR that is not there.
 */
void identity_read_cpu(struct machine_identity *id, const struct cpu_info *ci, cpuid_fn fn,
                       msr_read_fn rdmsr, msr_write_fn wrmsr);

#endif
