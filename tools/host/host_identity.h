// SPDX-License-Identifier: MIT
// chase-host's view of the machine's identity: the SMBIOS tables Linux exports and the
// microcode revision /proc/cpuinfo shows.
#ifndef CHASE_HOST_IDENTITY_H
#define CHASE_HOST_IDENTITY_H

#include "machine/identity.h"

#define HOST_DMI_DIR "/sys/firmware/dmi/tables"
#define HOST_CPUINFO "/proc/cpuinfo"

/*
 * Read dir/smbios_entry_point and dir/DMI (Linux's copies of the entry point and the
 * structure table) into id->smbios (malloc'd), or say in id->smbios_why why not (absent,
 * not readable: root only on most systems, not valid).
 */
void host_identity_smbios(struct machine_identity *id, const char *dir);

/*
 * Where the MSRs gave no microcode revision, take the "microcode" line of cpuinfo (a
 * /proc/cpuinfo-like file) for processor cpu (or the first processor's when cpu < 0).
 */
void host_identity_microcode(struct machine_identity *id, const char *cpuinfo, int cpu);

#endif
