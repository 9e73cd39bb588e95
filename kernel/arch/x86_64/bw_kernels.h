// SPDX-License-Identifier: MIT
// The x86-64 bandwidth kernels in bw_kernels.S (SSE2, AVX2, AVX-512, rep movsb and stosb), under
// the contract of kernel/arch/bw_kernels.h, which includes this file.
#ifndef CHASE_ARCH_X86_64_BW_KERNELS_H
#define CHASE_ARCH_X86_64_BW_KERNELS_H

#include <stdint.h>

/* rep movsb and rep stosb, the CPU's own string copy and fill, are here (AArch64 has none). */
#define BW_ARCH_STRING_KERNELS 1

/*
 * read_* returns the sum of src's quadwords (AVX-512: their XOR, one three-input vpternlogq per
 * two loads); nt_* end with sfence. The AVX2 and AVX-512 kernels need that state enabled
 * (XCR0) and leave the upper register halves clean (vzeroupper).
 */
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
