// SPDX-License-Identifier: MIT
// Timers and measurement windows on the firmware.
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/window.h"
#include "efi_internal.h"
#include "platform.h"

#define STALL_US 10000 /* 10 ms per calibration */

bool plat_tsc_reference(uint64_t *ticks, uint64_t *ref_ns)
{
    uint64_t t0 = arch_tsc_fenced();
    if (uefi_call_wrapper(BS->Stall, 1, STALL_US) != EFI_SUCCESS)
        return false;
    *ticks = arch_tsc_fenced() - t0;
    *ref_ns = STALL_US * 1000ULL;
    return true;
}

const char *plat_tsc_reference_name(void)
{
    return "stall";
}

void plat_window_enter(struct window *w)
{
    arch_window_enter(w);
}

void plat_window_leave(struct window *w)
{
    arch_window_leave(w);
}
