// SPDX-License-Identifier: MIT
// Measurement windows on x86-64 firmware: interrupts off, chase's own page tables and IDT. Plain
// C over kernel/arch/x86_64/ (the exception stubs in window.S, the instructions in cpu.h).
#include "x64_window.h"

#include <stddef.h>

#include "lib/kstring.h"

#define GATE_INTERRUPT_PRESENT 0x8e /* present, DPL 0, 64-bit interrupt gate */
#define VECTOR_NMI 2
#define VECTOR_MACHINE_CHECK 18
#define MSR_MCG_STATUS 0x17a /* machine-check global status: RIPV, EIPV, MCIP */

_Static_assert(offsetof(struct window_env, magic) == WINDOW_ENV_MAGIC_OFFSET, "window.S");
_Static_assert(offsetof(struct window_env, stats.nmis) == WINDOW_ENV_NMIS_OFFSET, "window.S");
_Static_assert(offsetof(struct window_env, idt) == 0, "the IDT's base is the env's");

/* The window in progress; an exception returns through it. Hardware state, not config. */
static struct window_env *volatile active;
/* Where an exception outside any window goes (the panic path), when armed. */
static struct arch_jmp *volatile panic_resume;
static struct fault_info *volatile panic_fault;
/* XCR0 bits every window enables for its work (0: windows leave CR4.OSXSAVE and XCR0 alone). */
static volatile uint64_t window_xcr0;

#define IDT_GATES 256
#define FRAME_RFLAGS 4

static void set_gate(struct idt_gate *g, unsigned vector, uint16_t cs)
{
    uint64_t handler = arch_isr_stub(vector);
    g->offset_low = (uint16_t)handler;
    g->selector = cs;
    g->ist = 0;
    g->type_attr = GATE_INTERRUPT_PRESENT;
    g->offset_mid = (uint16_t)(handler >> 16);
    g->offset_high = (uint32_t)(handler >> 32);
    g->reserved = 0;
}

void x64_window_init(struct window_env *env)
{
    kmemset(env, 0, sizeof(*env));
    uint16_t cs = arch_read_cs();
    for (unsigned v = 0; v < IDT_EXCEPTION_VECTORS; v++)
        set_gate(&env->idt[v], v, cs);
    env->idtr.limit = sizeof(env->idt) - 1;
    env->idtr.base = (uint64_t)(uintptr_t)env->idt;
    env->magic = (uint64_t)WINDOW_ENV_MAGIC;
}

void x64_idt_overlay(struct idt_gate *table, const struct descriptor_ptr *firmware,
                     struct descriptor_ptr *out)
{
    size_t bytes = (size_t)firmware->limit + 1;
    if (bytes > IDT_GATES * sizeof(struct idt_gate))
        bytes = IDT_GATES * sizeof(struct idt_gate);
    kmemset(table, 0, IDT_GATES * sizeof(struct idt_gate));
    kmemcpy(table, (const void *)(uintptr_t)firmware->base, bytes);
    uint16_t cs = arch_read_cs();
    for (unsigned v = 0; v < IDT_EXCEPTION_VECTORS; v++)
        set_gate(&table[v], v, cs);
    out->base = (uint64_t)(uintptr_t)table;
    out->limit = (uint16_t)(bytes > IDT_EXCEPTION_VECTORS * sizeof(struct idt_gate)
                                ? bytes - 1
                                : IDT_EXCEPTION_VECTORS * sizeof(struct idt_gate) - 1);
}

void x64_panic_arm(struct arch_jmp *j, struct fault_info *f)
{
    panic_fault = f;
    panic_resume = j;
}

void x64_window_xstate(uint64_t xcr0)
{
    window_xcr0 = xcr0;
}

/* Flush every TLB entry, global ones too, by toggling CR4.PGE when it is on. */
static void flush_global(uint64_t cr4)
{
    if (cr4 & CR4_PGE) {
        arch_write_cr4(cr4 & ~CR4_PGE);
        arch_write_cr4(cr4);
    }
}

/*
 * The window this processor is in: its loaded IDT is a window_env's (the IDT is the first
 * member), so each processor finds its own, the APs' windows included; NULL outside windows.
 */
static struct window_env *window_here(void)
{
    struct descriptor_ptr idt;
    arch_sidt(&idt);
    struct window_env *env = (struct window_env *)(uintptr_t)idt.base;
    return env->magic == (uint64_t)WINDOW_ENV_MAGIC ? env : NULL;
}

void arch_exception(const uint64_t *frame)
{
    struct window_env *env = window_here();
    struct fault_info *f = env ? &env->fault : panic_fault;
    struct arch_jmp *resume = env ? &env->resume : panic_resume;
    if (!f || !resume) /* nobody to report to: stop here rather than run on in a broken state */
        arch_halt_forever();
    f->faulted = true;
    f->vector = (unsigned)frame[0];
    f->error_code = frame[1];
    if (f->vector == VECTOR_MACHINE_CHECK) {
        /* #MC implies CR4.MCE and the MCA MSRs: keep the status, end the machine check */
        f->error_code = arch_rdmsr(MSR_MCG_STATUS);
        arch_wrmsr(MSR_MCG_STATUS, 0);
    }
    f->rip = frame[2];
    f->cr2 = arch_read_cr2();
    f->cr3 = arch_read_cr3();
    if (!env) /* the panic path calls the firmware: let its timer run if it ran before */
        arch_irq_restore(frame[FRAME_RFLAGS]);
    arch_longjmp(resume, 1);
}

/* Count the window that ran from t0 with nmi0 NMIs before it; an NMI during it costs it. */
static int window_account(struct window_env *env, int rc, uint64_t t0, uint64_t nmi0)
{
    bool machine_check = rc != 0 && env->fault.vector == VECTOR_MACHINE_CHECK;
    if (window_stats_count(&env->stats, arch_tsc_fenced() - t0, machine_check, nmi0) && rc == 0) {
        kmemset(&env->fault, 0, sizeof(env->fault));
        env->fault.faulted = true;
        env->fault.vector = VECTOR_NMI;
        rc = -1;
    }
    return rc;
}

int x64_window_run(struct window_env *env, void (*fn)(void *arg), void *arg,
                   struct fault_info *fault)
{
    volatile uint64_t flags = arch_irq_save();
    volatile uint64_t t0 = arch_tsc_fenced();
    volatile uint64_t nmi0 = env->stats.nmis; /* this processor's own: window.S counts there */
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
    /* The state the work needs: CR4.OSXSAVE first (setting a bit CPUID offers cannot fault),
       so that XCR0 can be read and, after a fault too, written back. */
    volatile uint64_t want_xcr0 = window_xcr0, saved_xcr0 = 0;
    if (want_xcr0) {
        arch_write_cr4(cr4 | CR4_OSXSAVE);
        saved_xcr0 = arch_xgetbv(0);
    }
    volatile int rc = 0;
    if (arch_setjmp(&env->resume) == 0) {
        if (want_xcr0)
            arch_xsetbv(0, saved_xcr0 | want_xcr0);
        fn(arg);
    } else {
        rc = -1;
    }
    if (want_xcr0) { /* exactly as found, whichever way fn ended */
        arch_xsetbv(0, saved_xcr0);
        arch_write_cr4(cr4);
    }
    active = NULL;
    arch_lidt(&firmware_idt);
    if (env->cr3) {
        arch_write_cr3(firmware_cr3);
        flush_global(cr4);
    }
    rc = window_account(env, rc, t0, nmi0);
    arch_irq_restore(flags);
    *fault = env->fault;
    return rc;
}

void x64_window_stats_add(const struct window_env *env, struct window_stats *sum)
{
    window_stats_add(sum, &env->stats);
}

struct wrmsr_job {
    uint32_t msr;
    uint64_t value;
};

static void wrmsr_job_run(void *arg)
{
    struct wrmsr_job *j = arg;
    arch_wrmsr(j->msr, j->value);
}

int x64_window_wrmsr(struct window_env *env, uint32_t msr, uint64_t value)
{
    struct wrmsr_job job = {msr, value};
    struct fault_info fault;
    int rc = x64_window_run(env, wrmsr_job_run, &job, &fault);
    return rc != 0 && fault.vector != VECTOR_NMI ? -1 : 0; /* an NMI did not stop the write */
}

static void rdmsr_job_run(void *arg)
{
    struct wrmsr_job *j = arg;
    j->value = arch_rdmsr(j->msr);
}

int x64_window_rdmsr(struct window_env *env, uint32_t msr, uint64_t *value)
{
    struct wrmsr_job job = {msr, 0};
    struct fault_info fault;
    int rc = x64_window_run(env, rdmsr_job_run, &job, &fault);
    if (rc != 0 && fault.vector != VECTOR_NMI) /* an NMI did not stop the read */
        return -1;
    *value = job.value;
    return 0;
}
