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
struct plat_buffer;
/* Print where the buffer lies (and its memory node), how it is mapped, and the page tables. */
void banner_print_buffer(const struct plat_buffer *b, bool has_1g_pages);

#endif
