// SPDX-License-Identifier: MIT
// Names and descriptions of CPU exceptions caught inside measurement windows.
#ifndef CHASE_FAULT_H
#define CHASE_FAULT_H

#include <stddef.h>

#include "platform.h"

/* Mnemonic of exception vector v ("#PF"), or "#??" beyond 31. */
const char *fault_mnemonic(unsigned v);
/* Long name of exception vector v ("page fault"). */
const char *fault_name(unsigned v);
/* "page fault (#PF, vector 14) at RIP 0x..., error 0x2, CR2 0x..." into buf. */
void fault_describe(char *buf, size_t cap, const struct fault_info *f);

/* Print the panic screen for a fault outside any window; `where` says what chase was doing. */
void fault_panic_screen(const struct fault_info *f, const char *where);

#endif
