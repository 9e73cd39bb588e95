// SPDX-License-Identifier: MIT
// chase-host on AArch64 Linux: the processor from MIDR_EL1 and the caches from sysfs.
#ifndef CHASE_HOST_ARM_H
#define CHASE_HOST_ARM_H

#include <stdint.h>

#include "machine/cpuinfo.h"

/* What x86-only records say on AArch64 (CPUID, MSRs, LFENCE, MTRRs). */
#define HOST_ARM_NOT_HERE "not on this architecture (AArch64)"

/*
 * Fill ci on AArch64 Linux, in place of CPUID: vendor and brand from MIDR_EL1 (read at EL0,
 * which Linux emulates when HWCAP_CPUID says so; else "MIDR_EL1 not readable"), family,
 * model and stepping = implementer, part and revision; the caches from the PPTT or sysfs
 * under root ("" on the machine: host_arm_caches says which in cache_source); the counter's
 * frequency from CNTFRQ_EL0 in cpuid_tsc_hz (cpuid_tsc_leaf "CNTFRQ_EL0"); the generic timer
 * is constant-rate by architecture, so invariant_tsc is true; the vector units (NEON, SVE and
 * its vector length) from AT_HWCAP.
 */
void host_arm_cpu_read(struct cpu_info *ci, int cpu, const char *root);

#endif
