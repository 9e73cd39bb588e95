// SPDX-License-Identifier: MIT
// Other processors on AArch64 firmware: started by chase with PSCI CPU_ON (Arm DEN0022) at its
// own entry (kernel/arch/aarch64/secondary.S), given work through a mailbox each, and turned off
// with CPU_OFF before chase ends. The processors are the MADT's enabled GICC entries.
//
// The firmware is not involved past CPU_ON: a secondary runs with DAIF masked and no interrupt
// routed to it, waits in WFE for its mailbox's generation to change, runs the job with chase's
// translation tables in TTBR0 (as the boot processor's windows do) and raises its done flag.
// When a processor may take new work, timeouts and lost processors are decided by
// kernel/machine/mp_ctl.c as on x86. Where the firmware has EFI MP services, chase does not
// call them: EDK II's PSCI-based driver also turns a processor on for each job and off after it,
// so an idle processor is off for it as for chase; one the firmware holds on answers
// ALREADY_ON, which is said as the reason.
#include "arch/aarch64/secondary.h"
#include "arch/aarch64/sysreg.h"
#include "aarch64/a64_internal.h"
#include "efi_internal.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/acpi.h"
#include "machine/arm_cpu.h"
#include "machine/arm_smp.h"
#include "machine/mp_ctl.h"
#include "platform.h"

#define SECONDARY_STACK_BYTES (64 * 1024) /* a job's frames: the experiments' steps are shallow */
#define SECONDARY_UP_US 1000000ULL        /* CPU_ON to the secondary's first word from C: 1 s */
#define SECONDARY_OFF_US 1000000ULL       /* CPU_OFF asked to AFFINITY_INFO saying off: 1 s */
#define SECONDARY_POLL_US 10              /* between looks at a secondary's flags */
#define SLOT_ALIGN 64                     /* a slot per cache line group: no false sharing */

/* One secondary: its boot block, its mailbox (BSP writes gen/off, it writes the rest). */
struct ap_slot {
    struct a64_boot boot; /* read with the MMU off: cleaned to the point of coherency */
    uint64_t mpidr;
    void *stack;
    uint32_t up;   /* it runs C (its MIDR is below) */
    uint32_t gen;  /* the job posted: BSP increments */
    uint32_t done; /* the generation whose job is over */
    uint32_t off;  /* BSP: turn off */
    uint64_t midr;
    void (*fn)(void *arg);
    bool (*step)(void *arg);
    void *arg;
};

/* What the firmware's tables said, and the secondaries chase holds. Hardware state. */
static struct {
    bool probed;
    bool hvc;
    unsigned total, n; /* GICC entries enabled; processors held (the BSP first) */
    struct plat_cpu *cpu;
    struct ap_slot *slot; /* n, aligned; slot[0] (the BSP) unused */
    void *slot_pool;
    struct mp_ctl_slot *ctl_slot;
    struct mp_ctl ctl;
    unsigned started[PLAT_CPUS_MAX];
    unsigned nstarted;
    int window_cpu; /* index windows run on; -1: the BSP */
    uint64_t window_timeout_us;
    char why[160];
} mps = {.window_cpu = -1};

static uint32_t load(const uint32_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* What a secondary's windows hold: chase's tables in TTBR0 (when built), and SVE let through
   when the boot processor's windows let it through (bw_cores may run SVE kernels here). */
struct ap_window {
    unsigned el;
    uint64_t fw_ttbr0, ttbr0;
    bool sve;
    struct a64_sve_saved sve_saved;
};

static void ap_window_enter(struct ap_window *w)
{
    if (w->ttbr0)
        a64_ttbr0_switch(w->el, w->ttbr0);
    if (w->sve)
        a64_sve_enter(w->el, &w->sve_saved);
}

static void ap_window_leave(struct ap_window *w)
{
    if (w->sve)
        a64_sve_leave(w->el, &w->sve_saved);
    if (w->ttbr0)
        a64_ttbr0_switch(w->el, w->fw_ttbr0);
}

/* One job on the secondary, in its own windows. */
static void ap_job(struct ap_slot *s)
{
    struct ap_window w = {
        .el = (unsigned)s->boot.el, .ttbr0 = a64_window_ttbr0(), .sve = a64_window_sve_active()};
    w.fw_ttbr0 = a64_ttbr0(w.el);
    if (!s->step) {
        ap_window_enter(&w);
        s->fn(s->arg);
        ap_window_leave(&w);
        return;
    }
    bool more;
    do { /* DAIF stays masked between steps: no interrupt is routed to a secondary */
        ap_window_enter(&w);
        more = s->step(s->arg);
        ap_window_leave(&w);
    } while (more);
}

/* The secondary's C: say it is up, then run each job posted until told to turn off. */
static void ap_main(void *arg)
{
    struct ap_slot *s = arg;
    uint32_t seen = 0;
    s->midr = a64_read_midr_el1();
    __atomic_store_n(&s->up, 1, __ATOMIC_RELEASE);
    a64_send_event();
    for (;;) {
        uint32_t g;
        while ((g = load(&s->gen)) == seen && !load(&s->off))
            a64_wait_event();
        if (g == seen) /* off asked, no job pending */
            break;
        seen = g;
        ap_job(s);
        __atomic_store_n(&s->done, g, __ATOMIC_RELEASE);
        a64_send_event();
    }
    a64_psci_call(mps.hvc, PSCI_CPU_OFF, 0, 0, 0); /* does not return when it succeeds */
}

/* Start the secondary of slot i at a64_secondary_entry; true when it reached C in time. */
static bool ap_power_on(unsigned i)
{
    struct ap_slot *s = &mps.slot[i];
    unsigned el = a64_el();
    s->stack = plat_alloc(SECONDARY_STACK_BYTES);
    if (!s->stack)
        return false;
    s->boot = (struct a64_boot){
        .ttbr0 = a64_ttbr0(el),
        .mair = a64_mair(el),
        .tcr = a64_tcr(el),
        .sctlr = a64_sctlr(el),
        .cpacr = el == 2 ? a64_read_cptr_el2() : a64_read_cpacr_el1(),
        .hcr = el == 2 ? a64_read_hcr_el2() : 0,
        .vbar = a64_vbar(el),
        .stack_top = ((uint64_t)(uintptr_t)s->stack + SECONDARY_STACK_BYTES) & ~15ULL,
        .entry = ap_main,
        .arg = s,
        .el = el,
        .cntvoff = el == 2 ? a64_read_cntvoff_el2() : 0,
        .cnthctl = el == 2 ? a64_read_cnthctl_el2() : 0};
    /* the loader cleaned the image only to the point of unification: the code a processor
       fetches with its MMU off must be in memory too */
    a64_clean_to_poc(s, sizeof(*s));
    a64_clean_to_poc((const void *)a64_secondary_entry,
                     (size_t)(a64_secondary_entry_end - (const char *)a64_secondary_entry));
    int64_t r =
        a64_psci_call(mps.hvc, PSCI_CPU_ON_64, s->mpidr, (uint64_t)(uintptr_t)a64_secondary_entry,
                      (uint64_t)(uintptr_t)&s->boot);
    if (r != PSCI_SUCCESS) {
        ksnprintf(mps.why, sizeof(mps.why), "PSCI CPU_ON of MPIDR 0x%llx answered %lld%s",
                  (unsigned long long)s->mpidr, (long long)r,
                  r == PSCI_ALREADY_ON ? " (already on: the firmware holds it)" : "");
        plat_free(s->stack);
        s->stack = NULL;
        return false;
    }
    for (uint64_t waited = 0; !load(&s->up); waited += SECONDARY_POLL_US) {
        if (waited >= SECONDARY_UP_US) {
            ksnprintf(mps.why, sizeof(mps.why),
                      "MPIDR 0x%llx did not reach chase's entry within %llu ms",
                      (unsigned long long)s->mpidr, (unsigned long long)(SECONDARY_UP_US / 1000));
            mps.ctl_slot[i].lost = true; /* may still start later: the run ends with a reset */
            return false;
        }
        uefi_call_wrapper(BS->Stall, 1, (UINTN)SECONDARY_POLL_US);
    }
    return true;
}

/* Fill the processor table entry i from MPIDR and the MIDR the processor read itself. */
static void place(unsigned i, uint64_t mpidr, uint64_t midr, bool bsp)
{
    struct arm_place p;
    arm_mpidr_place(mpidr, &p);
    mps.cpu[i] = (struct plat_cpu){.id = i,
                                   .apic_id = (uint32_t)(mpidr & 0xffffff),
                                   .package = p.package,
                                   .die = p.die,
                                   .core = p.core,
                                   .thread = p.thread,
                                   .core_type = (unsigned)midr,
                                   .topology = mps.hvc ? "MPIDR_EL1 (PSCI over HVC)"
                                                       : "MPIDR_EL1 (PSCI over SMC)",
                                   .bsp = bsp};
    mps.ctl_slot[i].bsp = bsp;
}

static bool alloc_tables(unsigned count)
{
    mps.cpu = plat_alloc(count * sizeof(*mps.cpu));
    mps.slot_pool = plat_alloc(count * sizeof(*mps.slot) + SLOT_ALIGN);
    mps.ctl_slot = plat_alloc(count * sizeof(*mps.ctl_slot));
    if (!mps.cpu || !mps.slot_pool || !mps.ctl_slot)
        return false;
    uintptr_t at = ((uintptr_t)mps.slot_pool + SLOT_ALIGN - 1) / SLOT_ALIGN * SLOT_ALIGN;
    mps.slot = (struct ap_slot *)at;
    kmemset(mps.slot, 0, count * sizeof(*mps.slot));
    kmemset(mps.ctl_slot, 0, count * sizeof(*mps.ctl_slot));
    return true;
}

static const struct mp_fw_ops fw_ops;

/* The conduit and the processor list from ACPI, or the reason there is none. */
static unsigned list_processors(uint64_t *mpidr, unsigned cap)
{
    const void *rsdp = efi_find_rsdp();
    const void *fadt = rsdp ? acpi_find_table(rsdp, "FACP") : NULL;
    const void *madt = rsdp ? acpi_find_table(rsdp, "APIC") : NULL;
    enum arm_psci_conduit conduit = fadt ? arm_fadt_psci(fadt) : ARM_PSCI_NONE;
    if (conduit == ARM_PSCI_NONE) {
        ksnprintf(mps.why, sizeof(mps.why), "%s",
                  fadt ? "the FADT says PSCI is not implemented"
                       : "the firmware supplies no ACPI FADT");
        return 0;
    }
    mps.hvc = conduit == ARM_PSCI_HVC;
    if (mps.hvc && a64_el() == 2) {
        ksnprintf(mps.why, sizeof(mps.why),
                  "the FADT names HVC for PSCI, but chase runs at EL2: HVC would call chase's "
                  "own level, not PSCI");
        return 0;
    }
    unsigned n = madt ? arm_madt_gicc_mpidrs(madt, mpidr, cap) : 0;
    if (n < 2)
        ksnprintf(mps.why, sizeof(mps.why), "the MADT lists %u enabled processor(s)", n);
    return n;
}

/* List the processors, hold the boot processor's place first, start every other one. */
static void probe(void)
{
    static uint64_t mpidr[PLAT_CPUS_MAX];
    mps.probed = true;
    mps.total = list_processors(mpidr, PLAT_CPUS_MAX);
    if (mps.total < 2 || !alloc_tables(mps.total)) {
        if (mps.total >= 2)
            ksnprintf(mps.why, sizeof(mps.why), "no memory for %u processors", mps.total);
        mps.total = mps.total < 2 ? mps.total : 0;
        return;
    }
    uint64_t own = a64_read_mpidr_el1() & MPIDR_AFFINITY_MASK;
    place(0, own, a64_read_midr_el1(), true);
    mps.n = 1;
    for (unsigned k = 0; k < mps.total; k++) {
        if (mpidr[k] == own)
            continue;
        mps.slot[mps.n].mpidr = mpidr[k];
        if (!ap_power_on(mps.n))
            break; /* the reason is in why; the ones already on serve */
        place(mps.n, mpidr[k], mps.slot[mps.n].midr, false);
        mps.n++;
    }
    mps.ctl = (struct mp_ctl){&fw_ops, mps.ctl_slot, mps.n, 0, 0};
    if (mps.n < mps.total && mps.ctl_slot[mps.n].lost) /* one started too late: never again */
        mps.ctl.lost = 1;
}

/* ---- the mailbox's side of kernel/machine/mp_ctl.c ----------------------------------------- */

/* Post slot i's job; when wait, until it is over or timeout_us passed. */
static enum mp_fw fw_start(void *ctx, unsigned i, bool wait, uint64_t timeout_us)
{
    (void)ctx;
    struct ap_slot *s = &mps.slot[i];
    if (load(&s->done) != load(&s->gen))
        return MP_FW_NOT_READY;
    __atomic_store_n(&s->gen, s->gen + 1, __ATOMIC_RELEASE);
    a64_send_event();
    for (uint64_t waited = 0; wait && load(&s->done) != s->gen; waited += SECONDARY_POLL_US) {
        if (waited >= timeout_us)
            return MP_FW_TIMEOUT;
        uefi_call_wrapper(BS->Stall, 1, (UINTN)SECONDARY_POLL_US);
    }
    return MP_FW_OK;
}

/* The job is over and the secondary waits for the next one: the same flag here. */
static bool fw_job_done(void *ctx, unsigned i)
{
    (void)ctx;
    return load(&mps.slot[i].done) == mps.slot[i].gen;
}

static void fw_stall(void *ctx, uint64_t us)
{
    (void)ctx;
    uefi_call_wrapper(BS->Stall, 1, (UINTN)us);
}

static const struct mp_fw_ops fw_ops = {fw_start, fw_job_done, fw_job_done, fw_stall, NULL};

static int cpu_index(unsigned id)
{
    return id < mps.n ? (int)id : -1;
}

static void sync_lost(void)
{
    for (unsigned i = 0; i < mps.n; i++)
        mps.cpu[i].lost = mps.ctl_slot[i].lost;
}

unsigned plat_cpus(struct plat_cpu *cpus, unsigned cap, char *why, size_t why_cap)
{
    if (!mps.probed)
        probe();
    sync_lost();
    unsigned n = mps.n < 2 ? 0 : mps.n < cap ? mps.n : cap;
    kmemcpy(cpus, mps.cpu, n * sizeof(*cpus));
    if (!n)
        ksnprintf(why, why_cap, "%s", mps.why);
    return n;
}

unsigned plat_cpus_total(unsigned *enabled, unsigned *held, unsigned *cpuid_failed)
{
    if (!mps.probed)
        probe();
    *enabled = mps.total;
    *held = mps.n;
    *cpuid_failed = 0;
    return mps.total;
}

/* Prepare slot i for fn(arg), or step(arg) until it returns false; false when it cannot. */
static bool slot_ready(int i, void (*fn)(void *), bool (*step)(void *), void *arg)
{
    if (i < 0 || mps.cpu[i].bsp || mps.ctl_slot[i].lost)
        return false;
    struct ap_slot *s = &mps.slot[i];
    s->fn = fn;
    s->step = step;
    s->arg = arg;
    return true;
}

int plat_cpu_run(unsigned id, void (*fn)(void *arg), void *arg, uint64_t timeout_us)
{
    int i = cpu_index(id);
    if (!mp_ctl_ready(&mps.ctl, (unsigned)(i < 0 ? 0 : i)) || !slot_ready(i, fn, NULL, arg))
        return -1;
    int rc = mp_ctl_run(&mps.ctl, (unsigned)i, timeout_us);
    sync_lost();
    return rc == MP_CTL_TIMEOUT ? PLAT_CPU_TIMEOUT : rc == 0 ? 0 : -1;
}

int plat_cpus_start(const unsigned *ids, unsigned n, bool (*step)(void *arg), void *const *args,
                    uint64_t timeout_us)
{
    if (mps.nstarted || n > mps.n || n > PLAT_CPUS_MAX)
        return -1;
    for (unsigned k = 0; k < n; k++) {
        int i = cpu_index(ids[k]);
        /* every one idle first: a slot's job is changed only while its secondary waits */
        if (i < 0 || !mp_ctl_ready(&mps.ctl, (unsigned)i) || !slot_ready(i, NULL, step, args[k])) {
            sync_lost();
            return -1;
        }
        mps.started[k] = (unsigned)i;
    }
    for (unsigned k = 0; k < n; k++)
        if (mp_ctl_start(&mps.ctl, mps.started[k], timeout_us) != 0) {
            bool one;
            for (unsigned j = 0; j < k; j++)
                mp_ctl_wait(&mps.ctl, &mps.started[j], 1, &one, timeout_us);
            sync_lost();
            return -1;
        }
    mps.nstarted = n;
    return 0;
}

int plat_cpus_wait(bool *done, unsigned n, uint64_t timeout_us)
{
    if (n != mps.nstarted)
        return -1;
    int rc = n ? mp_ctl_wait(&mps.ctl, mps.started, n, done, timeout_us) : 0;
    mps.nstarted = 0;
    sync_lost();
    return rc == 0 ? 0 : PLAT_CPU_TIMEOUT;
}

int plat_window_cpu(unsigned id, uint64_t timeout_us)
{
    int i = id == PLAT_WINDOW_HERE ? -1 : cpu_index(id);
    if (id != PLAT_WINDOW_HERE && (i < 0 || mps.cpu[i].lost))
        return -1;
    mps.window_cpu = i >= 0 && mps.cpu[i].bsp ? -1 : i;
    mps.window_timeout_us = timeout_us;
    return 0;
}

int efi_mp_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault)
{
    int i = mps.window_cpu;
    if (i < 0)
        return 1;
    kmemset(fault, 0, sizeof(*fault)); /* no fault is caught on a secondary: it would hang */
    return plat_cpu_run(mps.cpu[i].id, fn, arg, mps.window_timeout_us) == 0 ? 0 : -1;
}

/* Ask every secondary held to turn off and wait (bounded) for PSCI to say it is off. */
static void ap_power_off_all(void)
{
    for (unsigned i = 1; i < mps.n; i++)
        if (!mps.ctl_slot[i].lost)
            __atomic_store_n(&mps.slot[i].off, 1, __ATOMIC_RELEASE);
    a64_send_event();
    for (unsigned i = 1; i < mps.n; i++) {
        if (mps.ctl_slot[i].lost)
            continue;
        uint64_t waited = 0;
        while (a64_psci_call(mps.hvc, PSCI_AFFINITY_INFO_64, mps.slot[i].mpidr, 0, 0) !=
               PSCI_AFFINITY_OFF) {
            if (waited >= SECONDARY_OFF_US) {
                mps.ctl_slot[i].lost = true;
                mps.ctl.lost++;
                break;
            }
            uefi_call_wrapper(BS->Stall, 1, (UINTN)SECONDARY_POLL_US);
            waited += SECONDARY_POLL_US;
        }
    }
}

bool efi_mp_release(void)
{
    if (!mps.probed || !mps.n)
        return mps.ctl.lost > 0;
    mp_ctl_settle(&mps.ctl);
    ap_power_off_all();
    unsigned off = 0;
    for (unsigned i = 1; i < mps.n; i++)
        off += !mps.ctl_slot[i].lost;
    char line[120];
    ksnprintf(line, sizeof(line),
              "chase: %u of %u other processor(s) off (PSCI CPU_OFF, AFFINITY_INFO says off)\n",
              off, mps.total - 1);
    plat_console_write(line);
    if (mp_ctl_must_reset(&mps.ctl))
        return true; /* a processor may still run chase's code: keep its tables, reset follows */
    for (unsigned i = 1; i < mps.n; i++)
        plat_free(mps.slot[i].stack);
    plat_free(mps.cpu);
    plat_free(mps.slot_pool);
    plat_free(mps.ctl_slot);
    mps.cpu = NULL;
    mps.slot = mps.slot_pool = NULL;
    mps.ctl_slot = NULL;
    mps.n = 0;
    return false;
}
