// SPDX-License-Identifier: MIT
// The banner: what chase found on this machine, printed before anything runs.
#ifndef CHASE_BANNER_H
#define CHASE_BANNER_H

#include "machine/machine.h"

/* Print version, CPU identity, caches, TSC facts, hypervisor and memory. */
void banner_print(const struct machine *m);

/*
 * Print the machine's identity (SMBIOS: board, firmware, memory; microcode; DRAM encryption),
 * or why it is not known.
 */
void banner_identity_print(const struct machine *m);

#endif
