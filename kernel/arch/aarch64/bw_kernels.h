// SPDX-License-Identifier: MIT
// The bandwidth kernels in bw_kernels.S (NEON and SVE): one machine code for firmware and host.
#ifndef CHASE_ARCH_BW_KERNELS_H
#define CHASE_ARCH_BW_KERNELS_H

#include <stdint.h>

/* x86's rep movsb and rep stosb have no AArch64 counterpart: those two kernels are not here. */
#define BW_ARCH_STRING_KERNELS 0

/* Every kernel's bytes argument is a multiple of this (eight 64-byte blocks). */
#define BW_BLOCK_BYTES 512
/* ... and its pointers are aligned to this (a cache line). */
#define BW_ALIGN_BYTES 64

/*
 * A kernel, the contract of kernel/arch/x86_64/bw_kernels.h: walks [src, src + bytes) and/or
 * [dst, dst + bytes) from the start, laps times (laps >= 1, bytes > 0 a multiple of
 * BW_BLOCK_BYTES). read_* loads every byte of src and returns the sum of its doublewords (so
 * no load can be dropped); write_* and nt_write_* store all-ones over dst; copy_* and
 * nt_copy_* copy src to dst; nt_* store non-temporally (STNP, STNT1D) and end with DMB ISHST.
 * The others return 0. The SVE kernels are vector-length agnostic and need SVE enabled for
 * the caller's exception level (Linux: HWCAP_SVE; firmware: CPACR_EL1.ZEN).
 */
typedef uint64_t (*bw_kernel_fn)(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);

uint64_t bw_read_neon(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_write_neon(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_copy_neon(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_nt_write_neon(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_nt_copy_neon(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_read_sve(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_write_sve(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_copy_sve(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_nt_write_sve(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_nt_copy_sve(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);

#endif
