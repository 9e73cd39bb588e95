// SPDX-License-Identifier: MIT
// Measurement windows on the bare machine: interrupts off, chase's own page tables and IDT.
#include "window.h"

#include "kstring.h"

#define GATE_INTERRUPT_PRESENT 0x8e /* present, DPL 0, 64-bit interrupt gate */
#define ISR_STUB_BYTES 16

extern char isr_stubs[]; /* window.S: one 16-byte stub per vector */

/* The window in progress; an exception returns through it. Hardware state, not config. */
static struct window_env *volatile active;

void arch_window_init(struct window_env *env)
{
    kmemset(env, 0, sizeof(*env));
    uint16_t cs = arch_read_cs();
    for (unsigned v = 0; v < IDT_EXCEPTION_VECTORS; v++) {
        uint64_t handler = (uint64_t)(uintptr_t)(isr_stubs + v * ISR_STUB_BYTES);
        struct idt_gate *g = &env->idt[v];
        g->offset_low = (uint16_t)handler;
        g->selector = cs;
        g->type_attr = GATE_INTERRUPT_PRESENT;
        g->offset_mid = (uint16_t)(handler >> 16);
        g->offset_high = (uint32_t)(handler >> 32);
    }
    env->idtr.limit = sizeof(env->idt) - 1;
    env->idtr.base = (uint64_t)(uintptr_t)env->idt;
}

/* Flush every TLB entry, global ones too, by toggling CR4.PGE when it is on. */
static void flush_global(uint64_t cr4)
{
    if (cr4 & CR4_PGE) {
        arch_write_cr4(cr4 & ~CR4_PGE);
        arch_write_cr4(cr4);
    }
}

/* Called by window.S with the exception frame: vector, error code, RIP, CS, RFLAGS, ... */
void arch_exception(const uint64_t *frame);
void arch_exception(const uint64_t *frame)
{
    struct window_env *env = active;
    if (!env) {
        for (;;) /* chase's IDT is loaded only inside a window: unreachable */
            __asm__ volatile("cli; hlt");
    }
    env->fault.faulted = true;
    env->fault.vector = (unsigned)frame[0];
    env->fault.error_code = frame[1];
    env->fault.rip = frame[2];
    env->fault.cr2 = arch_read_cr2();
    arch_longjmp(&env->resume, 1);
}

int arch_window_run(struct window_env *env, void (*fn)(void *arg), void *arg,
                    struct fault_info *fault)
{
    volatile uint64_t flags = arch_irq_save();
    volatile uint64_t firmware_cr3 = arch_read_cr3();
    volatile uint64_t cr4 = arch_read_cr4();
    struct descriptor_ptr firmware_idt;
    arch_sidt(&firmware_idt);
    kmemset(&env->fault, 0, sizeof(env->fault));
    if (env->cr3) {
        arch_write_cr3(env->cr3);
        flush_global(cr4);
    }
    arch_lidt(&env->idtr);
    active = env;
    volatile int rc = 0;
    if (arch_setjmp(&env->resume) == 0)
        fn(arg);
    else
        rc = -1;
    active = NULL;
    arch_lidt(&firmware_idt);
    if (env->cr3) {
        arch_write_cr3(firmware_cr3);
        flush_global(cr4);
    }
    arch_irq_restore(flags);
    *fault = env->fault;
    return rc;
}
