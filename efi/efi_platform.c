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

/* The window state: chase's IDT and page tables. Hardware state, set up once at start. */
static struct window_env window;

void efi_window_init(void)
{
    arch_window_init(&window);
}

void efi_window_set_cr3(uint64_t cr3)
{
    window.cr3 = cr3;
}

int plat_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault)
{
    return arch_window_run(&window, fn, arg, fault);
}
