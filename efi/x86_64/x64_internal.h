// SPDX-License-Identifier: MIT
// What the x86-64 files of efi/x86_64/ share: the page tables the windows load.
#ifndef CHASE_EFI_X64_INTERNAL_H
#define CHASE_EFI_X64_INTERNAL_H

#include <stdint.h>

/* Use the page tables rooted at cr3 (physical) inside windows; 0 keeps the firmware's. */
void x64_window_set_cr3(uint64_t cr3);
/* The page tables windows use (0: the firmware's), for the APs' windows. */
uint64_t x64_window_cr3(void);

#endif
