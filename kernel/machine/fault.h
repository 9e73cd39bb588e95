// SPDX-License-Identifier: MIT
// Names and descriptions of CPU exceptions caught inside measurement windows.
#ifndef CHASE_FAULT_H
#define CHASE_FAULT_H

#include <stdbool.h>
#include <stddef.h>

#include "platform.h"

#define FAULT_VECTOR_NMI 2            /* non-maskable interrupt: cli does not stop it */
#define FAULT_VECTOR_MACHINE_CHECK 18 /* #MC: the hardware reports an error */
/* AArch64: an IRQ or FIQ vector entry (they have no exception class); beyond EC's 6 bits. */
#define FAULT_A64_INTERRUPT 64

/*
 * Whether f is no fault of chase's code but an NMI or machine check that arrived inside
 * the window: the window's timing is lost, the point may go on.
 */
static inline bool fault_is_interruption(const struct fault_info *f)
{
    return f->faulted && !f->aarch64 &&
           (f->vector == FAULT_VECTOR_NMI || f->vector == FAULT_VECTOR_MACHINE_CHECK);
}

/* Mnemonic of exception vector v ("#PF"), or "#??" beyond 31. */
const char *fault_mnemonic(unsigned v);
/* Long name of exception vector v ("page fault"). */
const char *fault_name(unsigned v);
/* AArch64 exception class ec's name (ESR_ELx.EC: "data abort"), or "exception". */
const char *fault_a64_class_name(unsigned ec);
/* "page fault (#PF, vector 14) at RIP 0x..., error 0x2, CR2 0x..." into buf; on AArch64
   "data abort (EC 0x25, ESR 0x...) at ELR 0x..., FAR 0x...". */
void fault_describe(char *buf, size_t cap, const struct fault_info *f);

/* Print the panic screen for a fault outside any window; `where` says what chase was doing. */
void fault_panic_screen(const struct fault_info *f, const char *where);

#endif
