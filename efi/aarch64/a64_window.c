// SPDX-License-Identifier: MIT
// Measurement windows on AArch64 firmware: DAIF masked, chase's exception vectors in VBAR and
// its translation tables in TTBR0 of the current exception level, the firmware's put back on
// leaving.
#include <stddef.h>

#include "arch/aarch64/sysreg.h"
#include "arch/aarch64/vectors.h"
#include "arch/cpu.h"
#include "aarch64/a64_internal.h"
#include "efi_internal.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/arm_cpu.h"
#include "machine/arm_id.h"
#include "machine/fault.h"
#include "platform.h"

_Static_assert(offsetof(struct a64_trap, magic) == A64_TRAP_MAGIC_OFFSET, "vectors.S");
_Static_assert(offsetof(struct a64_trap, taken) == A64_TRAP_TAKEN_OFFSET, "vectors.S");
_Static_assert(offsetof(struct a64_trap, esr) == A64_TRAP_ESR_OFFSET, "vectors.S");
_Static_assert(offsetof(struct a64_trap, elr) == A64_TRAP_ELR_OFFSET, "vectors.S");
_Static_assert(offsetof(struct a64_trap, far) == A64_TRAP_FAR_OFFSET, "vectors.S");
_Static_assert(offsetof(struct a64_trap, entry) == A64_TRAP_ENTRY_OFFSET, "vectors.S");
_Static_assert(offsetof(struct a64_trap, resume) == A64_TRAP_RESUME_OFFSET, "vectors.S");

#define ESR_EC_SHIFT 26
#define ESR_EC_MASK 0x3fu
#define VECTOR_KINDS 4 /* synchronous, IRQ, FIQ, SError in each group of entries */
#define VECTOR_SYNC 0
#define VECTOR_SERROR 3
/* Iterations of the loop the PMU probe counts across: a few microseconds at any clock. */
#define PMU_PROBE_LOOPS 4096u
#define PMUVER_IMPDEF 0xfu /* ID_AA64DFR0_EL1.PMUVer: an implementation-defined PMU, not PMUv3 */

/* What a first window found out about the PMU, or SVE: not tried yet, usable, not usable. */
enum probe_state { PROBE_UNTRIED, PROBE_ON, PROBE_OFF };

/* The window state: the exception level, chase's tables, what windows saw. Hardware state. */
static struct {
    unsigned el;
    uint64_t ttbr0;       /* chase's tables (0: windows keep the firmware's) */
    bool vectors;         /* chase's vector table is aligned as VBAR needs: windows load it */
    enum probe_state pmu; /* PROBE_ON: windows count core cycles in PMCCNTR_EL0 */
    char pmu_why[200];    /* run.json core_clock.core_counter: used, or why not */
    enum probe_state sve; /* PROBE_ON: windows let SVE run at the longest vector length */
    unsigned sve_bytes;   /* that length (RDVL) */
    char sve_why[200];    /* run.json windows.sve: enabled, or why not */
    uint64_t windows, longest_ticks;
} win;

bool a64_window_vectors(void)
{
    return win.vectors;
}

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
    const char *names[] = {"TTBR0", "MAIR",  "TCR",  "SCTLR",
                           "VBAR",  "TPIDR", "DAIF", el == 2 ? "CPTR" : "CPACR"};
    uint64_t values[] = {a64_ttbr0(el), a64_mair(el),  a64_tcr(el),     a64_sctlr(el),
                         a64_vbar(el),  a64_tpidr(el), a64_read_daif(), a64_read_cptr(el)};
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
    win.vectors = ((uintptr_t)a64_vectors & (A64_VECTOR_TABLE_ALIGN - 1)) == 0;
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

/* What the trap record says, in the kernel's terms (struct fault_info's AArch64 reading). */
static void fault_from_trap(const struct a64_trap *t, uint64_t ttbr0, struct fault_info *f)
{
    unsigned kind = (unsigned)(t->entry % VECTOR_KINDS);
    f->faulted = true;
    f->aarch64 = true;
    f->vector = kind == VECTOR_SYNC || kind == VECTOR_SERROR
                    ? (unsigned)(t->esr >> ESR_EC_SHIFT) & ESR_EC_MASK
                    : FAULT_A64_INTERRUPT;
    f->error_code = t->esr;
    f->rip = t->elr;
    f->cr2 = t->far;
    f->cr3 = ttbr0;
}

/* Run fn(arg); -1 when an exception stopped it (the vectors return through trap->resume). Its
   own function, so that nothing of the caller's lives across the setjmp. */
static __attribute__((noinline)) int run_trapped(struct a64_trap *trap, void (*fn)(void *arg),
                                                 void *arg)
{
    if (a64_setjmp(&trap->resume) != 0)
        return -1;
    fn(arg);
    return 0;
}

/*
 * The window: mask DAIF (no interrupt, SError or debug exception can land in a timed region),
 * point TPIDR at this window's trap record and VBAR at chase's vectors, switch TTBR0 to chase's
 * tables with the TLB maintenance a64_ttbr0_switch does, count core cycles and let SVE run where
 * the probes found that possible, run fn, and put back the firmware's SVE and PMU controls,
 * TTBR0, VBAR, TPIDR and DAIF, whether fn ended or an exception stopped it. Nothing here calls
 * the firmware.
 */
int efi_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault)
{
    struct a64_pmu_saved pmu = {0, 0, 0};
    struct a64_sve_saved sve = {0, 0};
    const bool count = win.pmu == PROBE_ON, sve_on = win.sve == PROBE_ON;
    kmemset(fault, 0, sizeof(*fault));
    struct a64_trap trap;
    kmemset(&trap, 0, sizeof(trap));
    trap.magic = A64_TRAP_MAGIC;
    const unsigned el = win.el;
    const bool vectors = win.vectors;
    const uint64_t daif = a64_irq_save();
    const uint64_t t0 = arch_tsc_fenced();
    const uint64_t firmware_ttbr0 = a64_ttbr0(el);
    const uint64_t firmware_vbar = a64_vbar(el), firmware_tpidr = a64_tpidr(el);
    if (vectors) {
        a64_write_tpidr(el, (uint64_t)(uintptr_t)&trap);
        a64_write_vbar(el, (uint64_t)(uintptr_t)a64_vectors);
    }
    if (win.ttbr0)
        a64_ttbr0_switch(el, win.ttbr0);
    if (count) /* the probes (a64_window_pmu, _sve) showed these cannot trap */
        a64_pmu_enter(&pmu);
    if (sve_on)
        a64_sve_enter(el, &sve);
    int rc = run_trapped(&trap, fn, arg);
    if (sve_on)
        a64_sve_leave(el, &sve);
    if (count)
        a64_pmu_leave(&pmu);
    if (win.ttbr0)
        a64_ttbr0_switch(el, firmware_ttbr0);
    if (vectors) {
        a64_write_vbar(el, firmware_vbar);
        a64_write_tpidr(el, firmware_tpidr);
    }
    uint64_t ticks = arch_tsc_fenced() - t0;
    a64_irq_restore(daif);
    trap.magic = 0;
    win.windows++;
    if (ticks > win.longest_ticks)
        win.longest_ticks = ticks;
    if (rc != 0)
        fault_from_trap(&trap, win.ttbr0 ? win.ttbr0 : firmware_ttbr0, fault);
    return rc;
}

struct pmu_probe {
    uint64_t cycles;
};

/* Enable the cycle counter, count across a loop, put the firmware's setting back. */
static void pmu_probe_run(void *arg)
{
    struct pmu_probe *p = arg;
    struct a64_pmu_saved s;
    a64_pmu_enter(&s);
    uint64_t c0 = a64_read_pmccntr();
    for (volatile unsigned i = 0; i < PMU_PROBE_LOOPS; i++)
        ;
    uint64_t c1 = a64_read_pmccntr();
    a64_pmu_leave(&s);
    p->cycles = c1 - c0;
}

/* Whether a window can count core cycles: PMUv3 present, and enabling it (in a window whose
   vectors catch a hypervisor's or EL3's trap) neither faults nor leaves the counter still. */
static enum probe_state pmu_probe(void)
{
    unsigned ver =
        (unsigned)(a64_read_id_aa64dfr0_el1() >> A64_DFR0_PMUVER_SHIFT) & A64_DFR0_PMUVER_MASK;
    struct pmu_probe p = {0};
    struct fault_info f;
    char what[160];
    if (ver == 0 || ver == PMUVER_IMPDEF) {
        ksnprintf(win.pmu_why, sizeof(win.pmu_why),
                  "not used: ID_AA64DFR0_EL1.PMUVer = 0x%x, no PMUv3", ver);
        return PROBE_OFF;
    }
    if (!win.vectors) {
        ksnprintf(win.pmu_why, sizeof(win.pmu_why),
                  "not used: without chase's vectors a trapped PMU access would stop the machine");
        return PROBE_OFF;
    }
    if (plat_window_run(pmu_probe_run, &p, &f) != 0) {
        fault_describe(what, sizeof(what), &f);
        ksnprintf(win.pmu_why, sizeof(win.pmu_why), "not used: enabling it trapped: %s", what);
        return PROBE_OFF;
    }
    if (p.cycles == 0) {
        ksnprintf(win.pmu_why, sizeof(win.pmu_why),
                  "not used: enabled, PMCCNTR_EL0 did not advance");
        return PROBE_OFF;
    }
    ksnprintf(win.pmu_why, sizeof(win.pmu_why),
              "PMCCNTR_EL0, enabled inside windows at EL%u (PMUVer 0x%x); the firmware's PMCR, "
              "PMCNTENSET and PMCCFILTR put back on leave",
              win.el, ver);
    return PROBE_ON;
}

bool a64_window_pmu(void)
{
    if (win.pmu == PROBE_UNTRIED)
        win.pmu = pmu_probe();
    return win.pmu == PROBE_ON;
}

struct sve_probe {
    struct a64_sve_saved s;
    volatile unsigned stage; /* 1: s.cptr saved, 2: s.zcr too, 3: put back */
    uint64_t bytes;
};

/* Let SVE run as windows will, read the vector length, put the firmware's controls back. */
static void sve_probe_run(void *arg)
{
    struct sve_probe *p = arg;
    p->s.cptr = a64_read_cptr(win.el);
    p->stage = 1;
    a64_write_cptr(win.el, a64_cptr_sve_allowed(win.el, p->s.cptr));
    p->s.zcr = a64_read_zcr(win.el);
    p->stage = 2;
    a64_write_zcr(win.el, p->s.zcr | A64_ZCR_LEN_MASK);
    p->bytes = arch_sve_vector_bytes();
    a64_sve_leave(win.el, &p->s);
    p->stage = 3;
}

/* After a trap in sve_probe_run: put back what it had changed. */
static void sve_undo_run(void *arg)
{
    struct sve_probe *p = arg;
    if (p->stage >= 2)
        a64_sve_leave(win.el, &p->s);
    else if (p->stage == 1)
        a64_write_cptr(win.el, p->s.cptr);
}

/* Whether windows can run SVE: ID_AA64PFR0_EL1 has it, and letting it through at this EL (in a
   window whose vectors catch a trap from EL2 or EL3) and RDVL do not fault. */
static enum probe_state sve_probe(void)
{
    unsigned sve =
        (unsigned)(a64_read_id_aa64pfr0_el1() >> ARM_PFR0_SVE_SHIFT) & ARM_PFR0_FIELD_MASK;
    struct sve_probe p = {{0, 0}, 0, 0};
    struct fault_info f;
    char what[160];
    const char *reg = win.el == 2 ? "CPTR_EL2" : "CPACR_EL1.ZEN";
    if (!sve) {
        ksnprintf(win.sve_why, sizeof(win.sve_why), "not enabled: no SVE (ID_AA64PFR0_EL1)");
        return PROBE_OFF;
    }
    if (!win.vectors) {
        ksnprintf(win.sve_why, sizeof(win.sve_why),
                  "not enabled: without chase's vectors a trapped SVE access would stop the "
                  "machine");
        return PROBE_OFF;
    }
    if (plat_window_run(sve_probe_run, &p, &f) != 0) {
        fault_describe(what, sizeof(what), &f);
        if (p.stage)
            plat_window_run(sve_undo_run, &p, &f);
        ksnprintf(win.sve_why, sizeof(win.sve_why), "not enabled: setting %s trapped: %s", reg,
                  what);
        return PROBE_OFF;
    }
    win.sve_bytes = (unsigned)p.bytes;
    ksnprintf(win.sve_why, sizeof(win.sve_why),
              "enabled inside windows (%s, ZCR_EL%u.LEN at its longest: %u-bit vectors); the "
              "firmware's put back on leave",
              reg, win.el, win.sve_bytes * 8);
    return PROBE_ON;
}

bool a64_window_sve_active(void)
{
    return win.sve == PROBE_ON;
}

unsigned a64_window_sve(void)
{
    if (win.sve == PROBE_UNTRIED)
        win.sve = sve_probe();
    return win.sve == PROBE_ON ? win.sve_bytes : 0;
}

bool plat_window_xstate(uint64_t xcr0)
{
    return xcr0 == 0; /* XCR0 is x86's; Advanced SIMD is on under UEFI on AArch64 */
}

void efi_window_report(struct window_report *r)
{
    kmemset(r, 0, sizeof(*r));
    r->windows = win.windows;
    r->longest_ticks = win.longest_ticks;
    r->lfence = "not on this architecture (AArch64: counter reads are ordered with DSB SY and ISB)";
    r->sve = win.sve != PROBE_UNTRIED ? win.sve_why : NULL;
    r->core_counter = win.pmu != PROBE_UNTRIED ? win.pmu_why : NULL;
    r->paging = win.ttbr0 ? "chase's own translation tables in TTBR0 (4 KiB granule)"
                          : "the firmware's translation tables";
}

/*
 * chase's exception vectors are in VBAR_ELx only inside windows, so an exception between
 * windows is the firmware's to report: chase runs unguarded.
 */
enum run_outcome efi_run_guarded(struct machine *m, const struct run_inputs *in,
                                 enum on_exit *on_exit)
{
    return chase_main(m, in, on_exit);
}
