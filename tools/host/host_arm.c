// SPDX-License-Identifier: MIT
// chase-host on AArch64 Linux: the processor from MIDR_EL1 and the caches from sysfs.
#include "host_arm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "arch/aarch64/cpu.h"
#include "host_arm_files.h"
#include "machine/arm_cpu.h"

/* Linux arm64 AT_HWCAP bits (arch/arm64/include/uapi/asm/hwcap.h). */
#define HWCAP_ASIMD_BIT (1UL << 1)  /* Advanced SIMD (NEON) may be used */
#define HWCAP_CPUID_BIT (1UL << 11) /* EL0 reads of ID registers are emulated */
#define HWCAP_SVE_BIT (1UL << 22)   /* SVE exists and Linux lets EL0 use it */

/* MIDR_EL1, read at EL0: Linux traps and emulates it when HWCAP_CPUID is set. */
static int read_midr(uint32_t *midr)
{
    if (!(getauxval(AT_HWCAP) & HWCAP_CPUID_BIT))
        return -1;
    *midr = (uint32_t)arch_read_midr();
    return 0;
}

static void describe_midr(struct cpu_info *ci)
{
    uint32_t midr;
    if (read_midr(&midr) != 0) {
        snprintf(ci->vendor, sizeof(ci->vendor), "unknown");
        snprintf(ci->brand, sizeof(ci->brand), "MIDR_EL1 not readable (no HWCAP_CPUID)");
        return;
    }
    arm_cpu_describe_midr(ci, midr);
}

/* The vector units Linux lets chase-host use: HWCAP says both that they exist and that EL0 may
   run them, so SVE is enabled where it is present. */
static void read_simd(struct simd_caps *c)
{
    unsigned long hwcap = getauxval(AT_HWCAP);
    c->neon = (hwcap & HWCAP_ASIMD_BIT) != 0;
    c->sve = c->sve_enabled = (hwcap & HWCAP_SVE_BIT) != 0;
    c->sve_vector_bytes = c->sve ? (unsigned)arch_sve_vector_bytes() : 0;
}

void host_arm_cpu_read(struct cpu_info *ci, int cpu, const char *root)
{
    memset(ci, 0, sizeof(*ci));
    describe_midr(ci);
    read_simd(&ci->simd);
    host_arm_caches(ci, cpu, root);
    ci->invariant_tsc = true;
    ci->cpuid_tsc_hz = arch_counter_hz();
    ci->cpuid_tsc_leaf = "CNTFRQ_EL0";
}
