// SPDX-License-Identifier: MIT
// What the AArch64 files of efi/aarch64/ share: the window's translation tables.
#ifndef CHASE_EFI_A64_INTERNAL_H
#define CHASE_EFI_A64_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

/* The exception level chase runs at (read once by efi_window_init). */
unsigned a64_el(void);
/* Load ttbr0 (chase's tables' root, physical) into TTBR0 inside windows; 0: the firmware's. */
void a64_window_set_ttbr0(uint64_t ttbr0);
/* What a64_window_set_ttbr0 last set (0: windows keep the firmware's tables). */
uint64_t a64_window_ttbr0(void);
/* Whether windows load chase's exception vectors (and so recover from an exception in one). */
bool a64_window_vectors(void);
/*
 * Whether windows count core cycles in PMCCNTR_EL0: the first call tries it in a window (see
 * plat_window_report's core_counter for why not); from a true answer on, every window enables
 * the cycle counter and puts the firmware's PMU registers back on leave.
 */
bool a64_window_pmu(void);
/*
 * SVE's vector length in bytes when windows can run SVE, else 0: the first call tries it in a
 * window (plat_window_report's sve says why not); from a non-zero answer on, every window lets
 * SVE through at the longest vector length and puts the firmware's controls back on leave.
 */
unsigned a64_window_sve(void);
/* Whether a64_window_sve found SVE usable (never probes: safe on a secondary processor). */
bool a64_window_sve_active(void);

#endif
