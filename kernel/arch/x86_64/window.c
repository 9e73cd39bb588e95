// SPDX-License-Identifier: MIT
// Measurement windows on the bare machine: interrupts off for the timed region.
#include "window.h"

#include "cpu.h"

void arch_window_enter(struct window *w)
{
    w->rflags = arch_irq_save();
    w->active = true;
}

void arch_window_leave(struct window *w)
{
    if (!w->active)
        return;
    w->active = false;
    arch_irq_restore(w->rflags);
}
