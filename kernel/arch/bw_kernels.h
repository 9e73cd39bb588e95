// SPDX-License-Identifier: MIT
// The bandwidth kernels' contract, one for every architecture: kernel/arch/<arch>/bw_kernels.S
// holds them, one machine code for the firmware and the host, and kernel/arch/<arch>/
// bw_kernels.h names them (the widths that architecture has) and what is its own.
#ifndef CHASE_ARCH_BW_KERNELS_H
#define CHASE_ARCH_BW_KERNELS_H

#include <stdint.h>

/* Every kernel's bytes argument is a multiple of this (eight 64-byte vectors or blocks). */
#define BW_BLOCK_BYTES 512
/* ... and its pointers are aligned to this (a cache line, and x86's widest vector). */
#define BW_ALIGN_BYTES 64

/*
 * A kernel: walks [src, src + bytes) and/or [dst, dst + bytes) from the start, laps times
 * (laps >= 1, bytes > 0 a multiple of BW_BLOCK_BYTES). read_* loads every byte of src and
 * folds every 64-bit word of it into the value it returns (so no load can be dropped);
 * write_* and nt_write_* store all-ones over dst; copy_* and nt_copy_* copy src to dst; nt_*
 * store non-temporally and end with a store barrier, so that their stores are ordered before
 * any later one. The others return 0. Names are bw_<kind>_<width>, one set per vector width
 * the architecture has.
 */
typedef uint64_t (*bw_kernel_fn)(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);

/*
 * Store value over `lines` whole 64-byte lines from dst (64-byte aligned) with non-temporal
 * stores (x86-64: MOVNTI, AArch64: STNP), with no fence: the caller ends a run of them with
 * bw_store_fence. The traffic generators' non-temporal writes (kernel/procs/traffic.c).
 */
void bw_nt_fill_lines(uint8_t *dst, uint64_t lines, uint64_t value);
/* Order every earlier store, non-temporal ones included, before any later one (x86-64: SFENCE,
   AArch64: DMB ISHST). */
void bw_store_fence(void);

#if defined(__x86_64__)
#include "arch/x86_64/bw_kernels.h"
#elif defined(__aarch64__)
#include "arch/aarch64/bw_kernels.h"
#else
#error "chase supports x86-64 and AArch64"
#endif

#endif
