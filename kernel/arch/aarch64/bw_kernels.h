// SPDX-License-Identifier: MIT
// The AArch64 bandwidth kernels in bw_kernels.S (NEON and SVE), under the contract of
// kernel/arch/bw_kernels.h, which includes this file.
#ifndef CHASE_ARCH_AARCH64_BW_KERNELS_H
#define CHASE_ARCH_AARCH64_BW_KERNELS_H

#include <stdint.h>

/* x86's rep movsb and rep stosb have no AArch64 counterpart: those two kernels are not here. */
#define BW_ARCH_STRING_KERNELS 0

/*
 * read_* returns the sum of src's doublewords; nt_* store with STNP (NEON) or STNT1D (SVE) and
 * end with DMB ISHST. The SVE kernels are vector-length agnostic and need SVE enabled for the
 * caller's exception level (Linux: HWCAP_SVE; firmware: CPACR_EL1.ZEN).
 */
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
