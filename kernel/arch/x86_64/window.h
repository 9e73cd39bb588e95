// SPDX-License-Identifier: MIT
// Measurement windows on the bare machine (ring 0 only: cli faults in user mode).
#ifndef CHASE_ARCH_WINDOW_H
#define CHASE_ARCH_WINDOW_H

#include "platform.h"

/* Save RFLAGS and disable interrupts. */
void arch_window_enter(struct window *w);
/* Restore the interrupt flag saved by arch_window_enter. */
void arch_window_leave(struct window *w);

#endif
