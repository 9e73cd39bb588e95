// SPDX-License-Identifier: MIT
// The bandwidth kernels in bw_kernels.S: one machine code for the firmware and the host.
#ifndef CHASE_ARCH_BW_KERNELS_H
#define CHASE_ARCH_BW_KERNELS_H

#include <stdint.h>

/* rep movsb and rep stosb, the CPU's own string copy and fill, are here (AArch64 has none). */
#define BW_ARCH_STRING_KERNELS 1

/* Every kernel's bytes argument is a multiple of this (eight 64-byte vectors). */
#define BW_BLOCK_BYTES 512
/* ... and its pointers are aligned to this (the widest vector). */
#define BW_ALIGN_BYTES 64

/*
 * A kernel: walks [src, src + bytes) and/or [dst, dst + bytes) from the start, laps times
 * (laps >= 1, bytes > 0 a multiple of BW_BLOCK_BYTES). read_* loads every byte of src and
 * returns the sum of its quadwords (so no load can be dropped); write_* and nt_write_* store
 * all-ones over dst; copy_* and nt_copy_* copy src to dst; nt_* store non-temporally and end
 * with sfence. The others return 0. The AVX2 and AVX-512 kernels need that state enabled
 * (XCR0) and leave the upper register halves clean (vzeroupper).
 */
typedef uint64_t (*bw_kernel_fn)(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);

uint64_t bw_read_sse2(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_write_sse2(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_copy_sse2(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_nt_write_sse2(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_nt_copy_sse2(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_read_avx2(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_write_avx2(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_copy_avx2(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_nt_write_avx2(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_nt_copy_avx2(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_read_avx512(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_write_avx512(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_copy_avx512(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_nt_write_avx512(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_nt_copy_avx512(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
/* rep movsb (src to dst) and rep stosb (0xff over dst): the CPU's own string copy and fill. */
uint64_t bw_rep_movsb(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);
uint64_t bw_rep_stosb(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps);

#endif
