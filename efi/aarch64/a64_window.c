// SPDX-License-Identifier: MIT
// Measurement windows on AArch64 firmware: DAIF masked, chase's translation tables in TTBR0 of
// the current exception level when it built them, the firmware's put back on leaving.
#include "arch/aarch64/sysreg.h"
#include "arch/cpu.h"
#include "aarch64/a64_internal.h"
#include "efi_internal.h"
#include "lib/kstring.h"
#include "platform.h"

/* The window state: the exception level, chase's tables, what windows saw. Hardware state. */
static struct {
    unsigned el;
    uint64_t ttbr0; /* chase's tables (0: windows keep the firmware's) */
    uint64_t windows, longest_ticks;
} win;

unsigned a64_el(void)
{
    return win.el;
}

void a64_window_set_ttbr0(uint64_t ttbr0)
{
    win.ttbr0 = ttbr0;
}

uint64_t a64_window_ttbr0(void)
{
    return win.ttbr0;
}

void efi_cpu_state_read(struct efi_cpu_state *s)
{
    unsigned el = a64_current_el();
    const char *names[] = {"TTBR0", "MAIR", "TCR", "SCTLR", "VBAR", "DAIF"};
    uint64_t values[] = {a64_ttbr0(el), a64_mair(el), a64_tcr(el),
                         a64_sctlr(el), a64_vbar(el), a64_read_daif()};
    s->n = sizeof(values) / sizeof(values[0]);
    for (unsigned i = 0; i < s->n; i++) {
        s->name[i] = names[i];
        s->value[i] = values[i];
    }
}

void efi_window_init(void)
{
    kmemset(&win, 0, sizeof(win));
    win.el = a64_current_el();
}

bool efi_window_check(char *why, size_t why_cap)
{
    (void)why;
    (void)why_cap;
    return true; /* nothing to refuse before the tables: efi_paging_map_buffer checks those */
}

void efi_window_restore(void)
{
    /* AArch64 windows change nothing that outlives them (no DE_CFG, no XCR0). */
}

bool plat_write_msr(uint32_t msr, uint64_t value)
{
    (void)msr;
    (void)value;
    return false; /* AArch64 has no MSRs */
}

/*
 * The window: mask DAIF (no interrupt, SError or debug exception can land in a timed region),
 * switch TTBR0 to chase's tables with the TLB maintenance a64_ttbr0_switch does, run fn, and
 * put back the firmware's TTBR0 and DAIF. Nothing here calls the firmware.
 */
int plat_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault)
{
    int elsewhere = efi_mp_window_run(fn, arg, fault); /* plat_window_cpu chose another */
    if (elsewhere <= 0)
        return elsewhere;
    kmemset(fault, 0, sizeof(*fault));
    uint64_t daif = a64_irq_save();
    uint64_t t0 = arch_tsc_fenced();
    uint64_t firmware_ttbr0 = a64_ttbr0(win.el);
    if (win.ttbr0)
        a64_ttbr0_switch(win.el, win.ttbr0);
    fn(arg);
    if (win.ttbr0)
        a64_ttbr0_switch(win.el, firmware_ttbr0);
    uint64_t ticks = arch_tsc_fenced() - t0;
    a64_irq_restore(daif);
    win.windows++;
    if (ticks > win.longest_ticks)
        win.longest_ticks = ticks;
    return 0;
}

bool plat_window_xstate(uint64_t xcr0)
{
    return xcr0 == 0; /* XCR0 is x86's; Advanced SIMD is on under UEFI on AArch64 */
}

void plat_window_report(struct window_report *r)
{
    kmemset(r, 0, sizeof(*r));
    r->windows = win.windows;
    r->longest_ticks = win.longest_ticks;
    r->lfence = "not on this architecture (AArch64: counter reads are ordered with DSB SY and ISB)";
    r->paging = win.ttbr0 ? "chase's own translation tables in TTBR0 (4 KiB granule)"
                          : "the firmware's translation tables";
}
