// SPDX-License-Identifier: MIT
// The bandwidth kernels' contract on AArch64: the same block and alignment as x86-64's; the
// loops themselves (NEON, SVE) are not written yet, so bw_kernel_code gives none here.
#ifndef CHASE_ARCH_BW_KERNELS_H
#define CHASE_ARCH_BW_KERNELS_H

#include <stdint.h>

/* No kernels here yet: the bandwidth experiments are skipped, saying so. */
#define BW_ARCH_HAS_KERNELS 0

/* Every kernel's bytes argument is a multiple of this (eight 64-byte blocks). */
#define BW_BLOCK_BYTES 512
/* ... and its pointers are aligned to this (a cache line). */
#define BW_ALIGN_BYTES 64

/* A kernel, as on x86-64 (kernel/arch/x86_64/bw_kernels.h). */
typedef uint64_t (*bw_kernel_fn)(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);

#endif
