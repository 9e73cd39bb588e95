// SPDX-License-Identifier: MIT
// The boot processor's measurement windows on x86-64 firmware: chase's IDT between windows
// (the run guarded against exceptions outside them), the windows' page tables, LFENCE made
// serializing, and what the windows did.
#include "arch/cpu.h"
#include "efi_internal.h"
#include "lib/kstring.h"
#include "machine/ap_msr.h"
#include "machine/window_rules.h"
#include "platform.h"
#include "x86_64/x64_internal.h"
#include "x86_64/x64_window.h"

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
    x64_window_init(&window);
}

bool plat_write_msr(uint32_t msr, uint64_t value)
{
    return x64_window_wrmsr(&window, msr, value) == 0; /* #GP: not writable here */
}

/*
 * Load the firmware's IDT with chase's handlers on the exception vectors; an exception
 * outside a window then returns through resume with fault filled.
 */
static void idt_install(struct arch_jmp *resume, struct fault_info *fault)
{
    arch_sidt(&firmware_idt);
    x64_idt_overlay(overlay, &firmware_idt, &overlay_idt);
    x64_panic_arm(resume, fault);
    uint64_t flags = arch_irq_save();
    arch_lidt(&overlay_idt);
    arch_irq_restore(flags);
}

/* Put the firmware's own IDT back (before returning to it). */
static void idt_restore(void)
{
    uint64_t flags = arch_irq_save();
    arch_lidt(&firmware_idt);
    arch_irq_restore(flags);
    x64_panic_arm(NULL, NULL);
}

void x64_window_set_cr3(uint64_t cr3)
{
    window.cr3 = cr3;
}

uint64_t x64_window_cr3(void)
{
    return window.cr3;
}

int efi_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault)
{
    return x64_window_run(&window, fn, arg, fault);
}

bool plat_window_xstate(uint64_t xcr0)
{
    x64_window_xstate(xcr0);
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
            x64_window_wrmsr(&window, MSR_AMD_DE_CFG, value | DE_CFG_LFENCE_SERIALIZE) == 0 &&
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
    x64_window_xstate(0); /* a run that stopped half-way (panic) leaves no request behind */
    if (de_cfg_changed && x64_window_wrmsr(&window, MSR_AMD_DE_CFG, found.de_cfg) == 0)
        de_cfg_changed = false;
}

void efi_window_report(struct window_report *r)
{
    struct window_stats s;
    kmemset(&s, 0, sizeof(s));
    x64_window_stats_add(&window, &s);
    s.nmis += arch_nmis_between_windows();
    *r = found;
    window_stats_report(r, &s);
}

/* Where an exception outside a window lands, and what to do then: set before the run. */
static struct arch_jmp panic_resume;
static struct fault_info panic_fault;

/*
 * Run chase with its exception handlers loaded between windows too. A CPU exception outside a
 * window comes back here: say so, save what can be saved, give the firmware its IDT back.
 */
__attribute__((noinline)) enum run_outcome
efi_run_guarded(struct machine *m, const struct run_inputs *in, enum on_exit *on_exit)
{
    if (arch_setjmp(&panic_resume) != 0) {
        run_panic(&panic_fault);
        efi_paging_release();
        idt_restore();
        return RUN_PANIC;
    }
    idt_install(&panic_resume, &panic_fault);
    enum run_outcome outcome = chase_main(m, in, on_exit);
    idt_restore();
    return outcome;
}
