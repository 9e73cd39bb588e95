// SPDX-License-Identifier: MIT
// Timers and measurement windows on the firmware.
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/window.h"
#include "efi_internal.h"
#include "platform.h"

/* The window state: chase's IDT and page tables. Hardware state, set up once at start. */
static struct window_env window;

/* The firmware's IDT with chase's exception handlers, loaded between windows. */
static struct idt_gate overlay[256] __attribute__((aligned(16)));
static struct descriptor_ptr firmware_idt, overlay_idt;

void efi_window_init(void)
{
    arch_window_init(&window);
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
