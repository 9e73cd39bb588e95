// SPDX-License-Identifier: MIT
// Other processors on AArch64 firmware: started by chase with PSCI CPU_ON (Arm DEN0022) at its
// own entry (kernel/arch/aarch64/secondary.S), given work through a mailbox each, and turned off
// with CPU_OFF before chase ends. The processors are the MADT's enabled GICC entries.
//
// The firmware is not involved past CPU_ON: a secondary runs with DAIF masked and no interrupt
// routed to it, waits in WFE for its mailbox's generation to change, runs the job with chase's
// translation tables in TTBR0 (as the boot processor's windows do) and raises its done flag.
// When a processor may take new work, timeouts and lost processors are decided by
// efi/mp_ctl.c as on x86. Where the firmware has EFI MP services, chase does not
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
#include "mp_ctl.h"
#include "mp_held.h"
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

static const struct mp_held_ops held_ops;

/* What the firmware's tables said, and the secondaries chase holds. Hardware state. */
static struct {
    bool hvc;
    struct mp_held held;  /* total: GICC entries enabled; cpu[]: those held, the BSP first */
    struct ap_slot *slot; /* held.n, aligned; slot[0] (the BSP) unused */
    void *slot_pool;
    struct mp_ctl_slot *ctl_slot;
    struct pptt *pptt; /* while probing: the PPTT that gives cache groups (NULL: none) */
    const void *madt;  /* ... and the MADT that turns an MPIDR into its ACPI Processor ID */
} mps = {.held = {.window_cpu = -1, .ops = &held_ops}};

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
        ksnprintf(mps.held.why, sizeof(mps.held.why), "PSCI CPU_ON of MPIDR 0x%llx answered %lld%s",
                  (unsigned long long)s->mpidr, (long long)r,
                  r == PSCI_ALREADY_ON ? " (already on: the firmware holds it)" : "");
        plat_free(s->stack);
        s->stack = NULL;
        return false;
    }
    for (uint64_t waited = 0; !load(&s->up); waited += SECONDARY_POLL_US) {
        if (waited >= SECONDARY_UP_US) {
            ksnprintf(mps.held.why, sizeof(mps.held.why),
                      "MPIDR 0x%llx did not reach chase's entry within %llu ms",
                      (unsigned long long)s->mpidr, (unsigned long long)(SECONDARY_UP_US / 1000));
            mps.ctl_slot[i].lost = true; /* may still start later: the run ends with a reset */
            return false;
        }
        uefi_call_wrapper(BS->Stall, 1, (UINTN)SECONDARY_POLL_US);
    }
    return true;
}

/* The PPTT's cache groups of the processor with this MPIDR into c; false (c unchanged) when no
   PPTT lists its caches. A level it lists no cache for is a group of the processor's own. */
static void cache_groups(uint64_t mpidr, struct plat_cpu *c)
{
    uint32_t uid, l2, l3;
    if (!mps.pptt || !mps.madt || !arm_madt_gicc_uid(mps.madt, mpidr, &uid) ||
        !pptt_cache_groups(mps.pptt, uid, &l2, &l3))
        return;
    c->cache_groups_known = true;
    c->l2_group = l2 ? l2 : PLAT_GROUP_OWN | c->apic_id;
    c->l3_group = l3 ? l3 : PLAT_GROUP_OWN | c->apic_id;
}

/* Read the PPTT (and find the MADT) for cache_groups, while the processors are placed. */
static void groups_begin(const void *rsdp)
{
    const uint8_t *t = rsdp ? acpi_find_table(rsdp, "PPTT") : NULL;
    char why[120];
    mps.madt = rsdp ? acpi_find_table(rsdp, "APIC") : NULL;
    mps.pptt = t ? plat_alloc(sizeof(*mps.pptt)) : NULL;
    if (mps.pptt && !pptt_parse(t, acpi_rd32(t + 4), mps.pptt, why, sizeof(why))) {
        plat_free(mps.pptt); /* malformed: run.json's aarch64.pptt_note says why */
        mps.pptt = NULL;
    }
}

static void groups_end(void)
{
    plat_free(mps.pptt);
    mps.pptt = NULL;
}

/* Fill the processor table entry i from MPIDR and the MIDR the processor read itself. */
static void place(unsigned i, uint64_t mpidr, uint64_t midr, bool bsp)
{
    struct arm_place p;
    arm_mpidr_place(mpidr, &p);
    int node = efi_numa_node_of_apic(arm_mpidr_id(mpidr));
    mps.held.cpu[i] = (struct plat_cpu){.id = i,
                                        .apic_id = arm_mpidr_id(mpidr),
                                        .node = node >= 0 ? (unsigned)node : 0,
                                        .node_known = node >= 0,
                                        .package = p.package,
                                        .die = p.die,
                                        .core = p.core,
                                        .thread = p.thread,
                                        .core_type = (unsigned)midr,
                                        .topology = mps.hvc ? "MPIDR_EL1 (PSCI over HVC)"
                                                            : "MPIDR_EL1 (PSCI over SMC)",
                                        .bsp = bsp};
    cache_groups(mpidr, &mps.held.cpu[i]);
    mps.ctl_slot[i].bsp = bsp;
}

static bool alloc_tables(unsigned count)
{
    mps.held.cpu = plat_alloc(count * sizeof(*mps.held.cpu));
    mps.slot_pool = plat_alloc(count * sizeof(*mps.slot) + SLOT_ALIGN);
    mps.ctl_slot = plat_alloc(count * sizeof(*mps.ctl_slot));
    mps.held.started = plat_alloc(count * sizeof(*mps.held.started));
    if (!mps.held.cpu || !mps.slot_pool || !mps.ctl_slot || !mps.held.started)
        return false;
    uintptr_t at = ((uintptr_t)mps.slot_pool + SLOT_ALIGN - 1) / SLOT_ALIGN * SLOT_ALIGN;
    mps.slot = (struct ap_slot *)at;
    kmemset(mps.slot, 0, count * sizeof(*mps.slot));
    kmemset(mps.ctl_slot, 0, count * sizeof(*mps.ctl_slot));
    return true;
}

static const struct mp_fw_ops fw_ops;

/* The conduit and the processor list from ACPI (every enabled GICC entry, in a fresh array
 *mpidr), or 0 and the reason there is none. */
static unsigned list_processors(uint64_t **mpidr)
{
    const void *rsdp = efi_find_rsdp();
    const void *fadt = rsdp ? acpi_find_table(rsdp, "FACP") : NULL;
    const void *madt = rsdp ? acpi_find_table(rsdp, "APIC") : NULL;
    enum arm_psci_conduit conduit = fadt ? arm_fadt_psci(fadt) : ARM_PSCI_NONE;
    if (conduit == ARM_PSCI_NONE) {
        ksnprintf(mps.held.why, sizeof(mps.held.why), "%s",
                  fadt ? "the FADT says PSCI is not implemented"
                       : "the firmware supplies no ACPI FADT");
        return 0;
    }
    mps.hvc = conduit == ARM_PSCI_HVC;
    if (mps.hvc && a64_el() == 2) {
        ksnprintf(mps.held.why, sizeof(mps.held.why),
                  "the FADT names HVC for PSCI, but chase runs at EL2: HVC would call chase's "
                  "own level, not PSCI");
        return 0;
    }
    unsigned n = madt ? arm_madt_gicc_mpidrs(madt, NULL, 0) : 0;
    *mpidr = n ? plat_alloc(n * sizeof(**mpidr)) : NULL;
    if (n && !*mpidr) {
        ksnprintf(mps.held.why, sizeof(mps.held.why), "no memory for %u processors' MPIDRs", n);
        return 0;
    }
    if (n)
        arm_madt_gicc_mpidrs(madt, *mpidr, n);
    if (n < 2)
        ksnprintf(mps.held.why, sizeof(mps.held.why), "the MADT lists %u enabled processor(s)", n);
    return n;
}

/* A secondary could not be started (mps.held.why says why): said on the console; the rest go on
   (run.json: processor_counts.not_started and processors_note). */
static void not_started(void)
{
    char line[MP_HELD_WHY_BYTES + 40];
    ksnprintf(line, sizeof(line), "chase: a processor left out: %s\n", mps.held.why);
    plat_console_write(line);
}

/* List the processors, hold the boot processor's place first, start every other one; one that
   cannot be started is left out and the others still tried (a lost one stays lost). */
void efi_mp_probe(void)
{
    uint64_t *mpidr = NULL;
    struct mp_held *h = &mps.held;
    h->total = list_processors(&mpidr);
    if (h->total >= 2 && !alloc_tables(h->total)) {
        ksnprintf(h->why, sizeof(h->why), "no memory for %u processors", h->total);
        h->total = 0;
    }
    h->enabled = h->total; /* the MADT's enabled GICC entries are all it counts */
    if (h->total < 2) {
        plat_free(mpidr);
        return;
    }
    uint64_t own = a64_read_mpidr_el1() & MPIDR_AFFINITY_MASK;
    groups_begin(efi_find_rsdp());
    place(0, own, a64_read_midr_el1(), true);
    h->n = 1;
    for (unsigned k = 0; k < h->total && h->n < h->total; k++) {
        if (mpidr[k] == own)
            continue;
        mps.slot[h->n].mpidr = mpidr[k];
        if (ap_power_on(h->n)) {
            place(h->n, mpidr[k], mps.slot[h->n].midr, false);
            h->n++;
        } else if (mps.ctl_slot[h->n]
                       .lost) { /* it may start late: held as lost, reset at the end */
            place(h->n, mpidr[k], 0, false);
            h->n++;
            h->ctl.lost++;
            not_started();
        } else {
            not_started();
        }
    }
    plat_free(mpidr);
    groups_end();
    unsigned lost = h->ctl.lost;
    h->ctl = (struct mp_ctl){&fw_ops, mps.ctl_slot, h->n, 0, 0, 0};
    h->ctl.lost = lost;
}

/* ---- the mailbox's side of efi/mp_ctl.c ------------------------------------------------------ */

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

struct mp_held *efi_mp_held(void)
{
    return &mps.held;
}

/* Slot i takes fn(arg), or step(arg) until it returns false: its secondary waits meanwhile. */
static bool slot_prepare(void *ctx, unsigned i, void (*fn)(void *), bool (*step)(void *), void *arg)
{
    (void)ctx;
    struct ap_slot *s = &mps.slot[i];
    s->fn = fn;
    s->step = step;
    s->arg = arg;
    return true;
}

static const struct mp_held_ops held_ops = {slot_prepare, NULL, NULL, NULL};

int efi_mp_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault)
{
    int i = mps.held.window_cpu;
    if (i < 0)
        return 1;
    kmemset(fault, 0, sizeof(*fault)); /* no fault is caught on a secondary: it would hang */
    return plat_cpu_run(mps.held.cpu[i].id, fn, arg, mps.held.window_timeout_us) == 0 ? 0 : -1;
}

void efi_mp_window_report(struct window_report *r)
{
    (void)r; /* a secondary's windows (ap_job) keep no record: the report is the boot processor's */
}

/* Ask every secondary held to turn off and wait (bounded) for PSCI to say it is off. */
static void ap_power_off_all(void)
{
    for (unsigned i = 1; i < mps.held.n; i++)
        if (!mps.ctl_slot[i].lost)
            __atomic_store_n(&mps.slot[i].off, 1, __ATOMIC_RELEASE);
    a64_send_event();
    for (unsigned i = 1; i < mps.held.n; i++) {
        if (mps.ctl_slot[i].lost)
            continue;
        uint64_t waited = 0;
        while (a64_psci_call(mps.hvc, PSCI_AFFINITY_INFO_64, mps.slot[i].mpidr, 0, 0) !=
               PSCI_AFFINITY_OFF) {
            if (waited >= SECONDARY_OFF_US) {
                mps.ctl_slot[i].lost = true;
                mps.held.ctl.lost++;
                break;
            }
            uefi_call_wrapper(BS->Stall, 1, (UINTN)SECONDARY_POLL_US);
            waited += SECONDARY_POLL_US;
        }
    }
}

bool efi_mp_release(void)
{
    if (!mps.held.probed || !mps.held.n)
        return mps.held.ctl.lost > 0;
    mp_ctl_settle(&mps.held.ctl);
    ap_power_off_all();
    unsigned off = 0;
    for (unsigned i = 1; i < mps.held.n; i++)
        off += !mps.ctl_slot[i].lost;
    char line[120];
    ksnprintf(line, sizeof(line),
              "chase: %u of %u other processor(s) off (PSCI CPU_OFF, AFFINITY_INFO says off)\n",
              off, mps.held.total - 1);
    plat_console_write(line);
    if (mp_ctl_must_reset(&mps.held.ctl))
        return true; /* a processor may still run chase's code: keep its tables, reset follows */
    for (unsigned i = 1; i < mps.held.n; i++)
        plat_free(mps.slot[i].stack);
    plat_free(mps.held.cpu);
    plat_free(mps.slot_pool);
    plat_free(mps.ctl_slot);
    plat_free(mps.held.started);
    mps.held.started = NULL;
    mps.held.cpu = NULL;
    mps.slot = mps.slot_pool = NULL;
    mps.ctl_slot = NULL;
    mps.held.n = 0;
    return false;
}
