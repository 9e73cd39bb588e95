// SPDX-License-Identifier: MIT
// The chase buffer of chase-sim: host memory standing in for a physically contiguous buffer.
#ifndef SIM_BUFFER_H
#define SIM_BUFFER_H

#include <stdint.h>

#include "platform.h"

/* The simulated physical address of the buffer's first byte (1 GiB aligned). */
#define SIM_PHYS_BASE (4ULL << 30)

/*
 * The page size buffers get from now on (a power of two, at least 4096); the default is
 * 1 GiB, what chase.efi's page=auto maps with on a CPU with 1 GiB pages, as modelled.
 */
void sim_buffer_set_default_page(uint64_t page_bytes);
/* The buffer allocated now (virt NULL when there is none). */
const struct plat_buffer *sim_buffer_current(void);

#endif
