// SPDX-License-Identifier: MIT
// The banner: what chase found on this machine, printed before anything runs.
#ifndef CHASE_BANNER_H
#define CHASE_BANNER_H

#include "machine/machine.h"

/* Print version, CPU identity, caches, TSC facts, hypervisor and memory. */
void banner_print(const struct machine *m);

struct plat_buffer;
/* Print the memory nodes of the buffer and page tables, and why the buffer's moved if it did. */
void banner_print_nodes(const struct plat_buffer *b);

#endif
