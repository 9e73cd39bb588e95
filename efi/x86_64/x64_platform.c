// SPDX-License-Identifier: MIT
// Timers and measurement windows on the firmware.
#include "arch/cpu.h"
#include "arch/x86_64/window.h"
#include "efi_internal.h"
#include "lib/kstring.h"
#include "machine/ap_msr.h"
#include "machine/window_rules.h"
#include "platform.h"

/* The window state: chase's IDT and page tables. Hardware state, set up once at start. */
static struct window_env window;

/* What was found and set up for the windows, and the DE_CFG value to put back. */
static struct window_report found;
static bool de_cfg_changed;

/* The firmware's IDT with chase's exception handlers, loaded between windows. */
static struct idt_gate overlay[256] __attribute__((aligned(16)));
static struct descriptor_ptr firmware_idt, overlay_idt;

void efi_cpu_state_read(struct efi_cpu_state *s)
{
    struct descriptor_ptr idt, gdt;
    arch_sidt(&idt);
    arch_sgdt(&gdt);
    uint64_t flags = arch_irq_save();
    arch_irq_restore(flags);
    const char *names[] = {"CR3", "IDT base", "IDT limit", "GDT base", "GDT limit", "IF"};
    uint64_t values[] = {arch_read_cr3(), idt.base,  idt.limit,
                         gdt.base,        gdt.limit, (flags & RFLAGS_IF) != 0};
    s->n = sizeof(values) / sizeof(values[0]);
    for (unsigned i = 0; i < s->n; i++) {
        s->name[i] = names[i];
        s->value[i] = values[i];
    }
}

void efi_window_init(void)
{
    arch_window_init(&window);
}

bool plat_write_msr(uint32_t msr, uint64_t value)
{
    return arch_window_wrmsr(&window, msr, value) == 0; /* #GP: not writable here */
}

void efi_idt_install(struct arch_jmp *panic_resume, struct fault_info *panic_fault)
{
    arch_sidt(&firmware_idt);
    arch_idt_overlay(overlay, &firmware_idt, &overlay_idt);
    arch_panic_arm(panic_resume, panic_fault);
    uint64_t flags = arch_irq_save();
    arch_lidt(&overlay_idt);
    arch_irq_restore(flags);
}

void efi_idt_restore(void)
{
    uint64_t flags = arch_irq_save();
    arch_lidt(&firmware_idt);
    arch_irq_restore(flags);
    arch_panic_arm(NULL, NULL);
}

void efi_window_set_cr3(uint64_t cr3)
{
    window.cr3 = cr3;
}

uint64_t efi_window_cr3(void)
{
    return window.cr3;
}

int plat_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault)
{
    int elsewhere = efi_mp_window_run(fn, arg, fault);
    if (elsewhere != 1)
        return elsewhere;
    return arch_window_run(&window, fn, arg, fault);
}

bool plat_window_xstate(uint64_t xcr0)
{
    arch_window_xstate(xcr0);
    return true;
}

/* Make LFENCE dispatch-serializing where the CPU needs DE_CFG[1] for it; say what was done. */
static void lfence_setup(void)
{
    char vendor[13];
    struct lfence_cpuid c;
    lfence_cpuid_read(&c, vendor);
    enum lfence_rule rule = lfence_rule_of(&c);
    uint64_t value = 0, now = 0;
    found.de_cfg_read = rule == LFENCE_NEEDS_DE_CFG && plat_read_msr(MSR_AMD_DE_CFG, &value);
    found.de_cfg = value;
    enum lfence_action action = lfence_action_of(rule, found.de_cfg_read, value);
    if (action == LFENCE_SET_FOR_RUN) {
        de_cfg_changed =
            arch_window_wrmsr(&window, MSR_AMD_DE_CFG, value | DE_CFG_LFENCE_SERIALIZE) == 0 &&
            plat_read_msr(MSR_AMD_DE_CFG, &now) && (now & DE_CFG_LFENCE_SERIALIZE);
        action = lfence_after_set(action, de_cfg_changed);
    }
    found.lfence = lfence_action_text(action);
    found.lfence_unsure = lfence_unsure(action);
    if (found.de_cfg_read) /* DE_CFG is per core: each AP sets it for its work too */
        ap_msr_want(ap_msr_book(), AP_MSR_DE_CFG, MSR_AMD_DE_CFG, DE_CFG_LFENCE_SERIALIZE);
}

bool efi_window_check(char *why, size_t why_cap)
{
    if (!paging_mode_supported(arch_read_cr4(), why, why_cap)) {
        found.paging = "5-level (CR4.LA57 set): refused";
        return false;
    }
    found.paging = "4-level (CR4.LA57 clear): chase's own 4-level tables can be loaded";
    lfence_setup();
    return true;
}

void efi_window_restore(void)
{
    arch_window_xstate(0); /* a run that stopped half-way (panic) leaves no request behind */
    if (de_cfg_changed && arch_window_wrmsr(&window, MSR_AMD_DE_CFG, found.de_cfg) == 0)
        de_cfg_changed = false;
}

void plat_window_report(struct window_report *r)
{
    struct window_stats s;
    kmemset(&s, 0, sizeof(s));
    arch_window_stats_add(&window, &s);
    efi_mp_window_stats(&s); /* each processor's own record, summed */
    s.nmis += arch_nmis_between_windows();
    *r = found;
    r->windows = s.windows;
    r->longest_ticks = s.longest_ticks;
    r->nmis = s.nmis;
    r->nmi_windows = s.nmi_windows;
    r->machine_checks = s.machine_checks;
}
