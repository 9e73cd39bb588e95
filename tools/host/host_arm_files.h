// SPDX-License-Identifier: MIT
// What chase-host on AArch64 reads from files under a root (/ on the machine, a fake tree in
// tests): the PPTT, sysfs's caches, /proc/cpuinfo's MIDR fields.
#ifndef CHASE_HOST_ARM_FILES_H
#define CHASE_HOST_ARM_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/cpuinfo.h"

/* Where Linux shows the firmware's PPTT (root-readable), and a CPU's ACPI processor _UID. */
#define HOST_ARM_PPTT_PATH "/sys/firmware/acpi/tables/PPTT"
#define HOST_ARM_UID_PATH "/sys/devices/system/cpu/cpu%d/firmware_node/uid"
#define HOST_ARM_CACHE_DIR "/sys/devices/system/cpu/cpu%d/cache"
#define HOST_ARM_CPUINFO_PATH "/proc/cpuinfo"

/*
 * The caches of Linux CPU cpu from the PPTT under root: the CPU's ACPI processor UID (its
 * firmware node's uid) names its leaf node, whose caches and its ancestors' are listed
 * nearest first with how many processors share each. Fills ci->caches and ncaches; false with
 * why (capacity cap) when the table cannot be read or parsed, or does not name this CPU.
 */
bool host_arm_pptt_caches(const char *root, int cpu, struct cpu_info *ci, char *why, size_t cap);

/* The caches of cpu from root's /sys/devices/system/cpu/cpu<cpu>/cache; how many were read. */
unsigned host_arm_sysfs_caches(const char *root, int cpu, struct cpu_info *ci);

/*
 * The caches of cpu into ci with ci->cache_source saying where they came from: the PPTT where
 * it is readable and names the CPU ("PPTT", ACPI 6.5 5.2.30: the firmware's word, which Arm
 * prefers to CCSIDR's geometry), else sysfs ("sysfs; PPTT: <why not>"), else "none; PPTT: ...".
 */
void host_arm_caches(struct cpu_info *ci, int cpu, const char *root);

/*
 * MIDR_EL1 of Linux CPU cpu as root's /proc/cpuinfo gives it (CPU implementer, variant, part,
 * revision of the "processor : <cpu>" block, architecture 0xF); 0 when not found. Per CPU, so
 * the cores of a big.LITTLE machine each get their own.
 */
uint32_t host_arm_cpuinfo_midr(const char *root, int cpu);

#endif
