// SPDX-License-Identifier: MIT
// Other processors on the firmware path: EFI_MP_SERVICES_PROTOCOL (PI spec vol. 2, 13.4).
//
// AP work calls no UEFI service. The first job of an experiment on an AP starts it (one
// StartupThisAP, no firmware timeout) in ap_loop, chase's own loop: it makes the per-core
// settings, then serves jobs from its mailbox (efi/mp_loop.c) until the experiment's end
// releases it; each job runs in a window of the AP's own (chase's CR3, an IDT of its own,
// interrupts off). The BSP posts jobs and polls the mailboxes with Stall between; a job's
// deadline is chase's (mp_ctl), the firmware is asked again only in the next experiment. When a
// processor may take work again, retries and timeouts are decided by efi/mp_ctl.c;
// this file only carries them out. Every processor the firmware reports is held (the table
// is allocated from its count); each one's place comes from CPUID run on it.
#include "efi_internal.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/ap_msr.h"
#include "machine/topology.h"
#include "mp_ctl.h"
#include "mp_held.h"
#include "mp_loop.h"
#include "platform.h"
#include "x86_64/x64_internal.h"
#include "x86_64/x64_window.h"

#define MP_SERVICES_GUID                                                                           \
    {                                                                                              \
        0x3fdda605, 0xa76e, 0x4f46,                                                                \
        {                                                                                          \
            0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08                                         \
        }                                                                                          \
    }
#define PROCESSOR_AS_BSP_BIT BIT32(0)
#define PROCESSOR_ENABLED_BIT BIT32(1)
#define CPU_V2_EXTENDED_TOPOLOGY BIT32(24) /* GetProcessorInfo: fill the PI 1.7 Location2 too */
#define TOPOLOGY_TIMEOUT_US 1000000ULL     /* an AP's CPUID probe at the start: 1 s */
#define BIT32(n) (1u << (n))

typedef void(__attribute__((ms_abi)) * ap_procedure)(void *arg);

/* The protocol's members in the PI specification's order (gnu-efi does not define it). */
struct mp_location {
    UINT32 package, core, thread;
};
/* PI 1.7 EFI_CPU_PHYSICAL_LOCATION2, the one member of the extended-information union. */
struct mp_location2 {
    UINT32 package, die, tile, module, core, thread;
};
/* EFI_PROCESSOR_INFORMATION as PI 1.7 declares it: 48 bytes, all of which a firmware may write. */
struct mp_processor_info {
    UINT64 processor_id; /* the APIC ID */
    UINT32 status_flag;
    struct mp_location location;
    union {
        struct mp_location2 location2;
    } extended;
};
_Static_assert(sizeof(struct mp_processor_info) == 48, "PI 1.7 EFI_PROCESSOR_INFORMATION");
struct mp_services {
    EFI_STATUS(__attribute__((ms_abi)) * get_number_of_processors)
    (struct mp_services *self, UINTN *count, UINTN *enabled);
    EFI_STATUS(__attribute__((ms_abi)) * get_processor_info)
    (struct mp_services *self, UINTN number, struct mp_processor_info *info);
    EFI_STATUS(__attribute__((ms_abi)) * startup_all_aps)
    (struct mp_services *self, ap_procedure fn, BOOLEAN single_thread, EFI_EVENT wait_event,
     UINTN timeout_us, void *arg, UINTN **failed);
    EFI_STATUS(__attribute__((ms_abi)) * startup_this_ap)
    (struct mp_services *self, ap_procedure fn, UINTN number, EFI_EVENT wait_event,
     UINTN timeout_us, void *arg, BOOLEAN *finished);
};

/* One AP's window: its IDT, the job, its mailbox. */
struct ap_slot {
    struct mp_mailbox box;   /* on a line of its own: the table is aligned by hand */
    struct window_env env;   /* 16-byte aligned */
    void (*fn)(void *arg);   /* a job of one window; or */
    bool (*step)(void *arg); /* ... one of several: true while more remains */
    bool more;
    void *arg;
    struct fault_info fault;
    int rc;
    bool looping; /* the BSP started it into ap_loop this experiment and has not released it */
    EFI_EVENT event;
    unsigned book;        /* its slot in the AP MSR book (PLAT_CPUS_MAX: not recorded) */
    struct topology topo; /* what its CPUID probe found (its own: a late AP writes only here) */
};

#define SLOT_ALIGN MP_MAILBOX_ALIGN

static const struct mp_held_ops held_ops;

static struct {
    struct mp_services *mp;
    struct mp_held held;  /* cpu[] by the firmware's number; cpuid_failed: the firmware's word */
    struct ap_slot *slot; /* held.n, aligned */
    void *slot_pool;      /* what plat_alloc gave for slot[] */
    struct mp_ctl_slot *ctl_slot;
    unsigned books;      /* AP MSR book slots handed out */
    unsigned fw_starts;  /* StartupThisAP calls that entered a loop, this experiment */
    uint64_t waited0_us; /* the controller's settle wait at the experiment's start */
} mps = {.held = {.window_cpu = -1, .ops = &held_ops}};

/* MSR access on the AP, each in a window of its own there (a #GP is caught). */
static bool ap_rdmsr(void *ctx, uint32_t msr, uint64_t *value)
{
    return x64_window_rdmsr(ctx, msr, value) == 0;
}

static bool ap_wrmsr(void *ctx, uint32_t msr, uint64_t value)
{
    return x64_window_wrmsr(ctx, msr, value) == 0;
}

/* One window's share of a job of several windows. */
static void slot_step(void *arg)
{
    struct ap_slot *s = arg;
    s->more = s->step(s->arg);
}

/*
 * The job in windows of the AP's own: one, or as many as its steps ask for, the AP's interrupts
 * as the firmware had them between two (an NMI in one does not stop the work: the step ran to
 * its end; rc says that one window was lost).
 */
static void ap_windows(struct ap_slot *s)
{
    if (!s->step) {
        s->rc = x64_window_run(&s->env, s->fn, s->arg, &s->fault);
        return;
    }
    int rc = 0;
    do {
        s->more = false; /* stays so when a fault stops the step half-way: nothing more of it */
        rc |= x64_window_run(&s->env, slot_step, s, &s->fault);
        arch_pause(); /* interrupts pending meanwhile are taken here */
    } while (s->more);
    s->rc = rc;
}

/* One job from the mailbox: chase's tables as they are now (set_pages may rebuild them between
   two jobs; the post that handed this one over published them). */
static void ap_job(void *ctx)
{
    struct ap_slot *s = ctx;
    s->env.cr3 = x64_window_cr3();
    ap_windows(s);
}

static void ap_idle(void *ctx)
{
    (void)ctx;
    arch_pause();
}

/*
 * Run on the AP by the firmware, once per experiment: the boot processor's per-core settings
 * (prefetchers, DE_CFG) made here for it, the jobs of the mailbox until the release, the
 * settings undone; nothing of UEFI is called.
 */
static void __attribute__((ms_abi)) ap_loop(void *arg)
{
    struct ap_slot *s = arg;
    unsigned i = (unsigned)(s - mps.slot);
    const struct plat_cpu *c = &mps.held.cpu[i];
    struct ap_msr_ops ops = {ap_rdmsr, ap_wrmsr, &s->env};
    struct ap_msr_held held;
    struct mp_loop_ops loop = {ap_job, ap_idle, s};
    s->env.cr3 = x64_window_cr3();
    ap_msr_apply(ap_msr_book(), s->book, c->id, ap_msr_core_key(c), &ops, &held);
    mp_loop_serve(&s->box, &loop);
    ap_msr_restore(ap_msr_book(), s->book, &ops, &held);
}

/* Run on each AP at the start: its place from CPUID (no window: CPUID cannot fault). */
static void __attribute__((ms_abi)) ap_topology(void *arg)
{
    topo_decode(&topo_cpuid_here, arg);
}

/* The firmware's info on processor number: the PI 1.7 extended form first. */
static bool processor_info(UINTN number, struct mp_processor_info *info, struct topo_firmware *fw)
{
    kmemset(info, 0, sizeof(*info));
    fw->has_die =
        mps.mp->get_processor_info(mps.mp, number | CPU_V2_EXTENDED_TOPOLOGY, info) == EFI_SUCCESS;
    if (!fw->has_die && mps.mp->get_processor_info(mps.mp, number, info) != EFI_SUCCESS)
        return false;
    fw->known = true;
    fw->package = info->location.package;
    fw->core = info->location.core;
    fw->thread = info->location.thread;
    fw->die = fw->has_die ? info->extended.location2.die : 0;
    return true;
}

/* Processor c's place from CPUID on itself; the firmware's word when that cannot run. */
static void place(struct plat_cpu *c, struct topology *t, const struct topo_firmware *fw)
{
    kmemset(t, 0, sizeof(*t));
    EFI_STATUS st = EFI_SUCCESS;
    if (c->bsp)
        topo_decode(&topo_cpuid_here, t);
    else
        st = mps.mp->startup_this_ap(mps.mp, ap_topology, c->id, NULL, (UINTN)TOPOLOGY_TIMEOUT_US,
                                     t, NULL);
    if (st == EFI_SUCCESS && t->source) {
        topo_fill_cpu(c, t, fw);
        return;
    }
    mps.held.cpuid_failed++;
    c->package = fw->package;
    c->die = fw->die;
    c->core = fw->core;
    c->thread = fw->thread;
    c->topology = "firmware (the CPUID probe did not run there)";
    c->lost = st == EFI_TIMEOUT; /* it may still run: never started again */
}

/* Allocate the tables for count processors; false when there is no memory. */
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
    return true;
}

static void add_processor(UINTN i, const struct mp_processor_info *info,
                          const struct topo_firmware *fw)
{
    struct plat_cpu *c = &mps.held.cpu[mps.held.n];
    int node = efi_numa_node_of_apic((uint32_t)info->processor_id);
    *c = (struct plat_cpu){.id = (unsigned)i,
                           .apic_id = (uint32_t)info->processor_id,
                           .node = node >= 0 ? (unsigned)node : 0,
                           .node_known = node >= 0,
                           .bsp = (info->status_flag & PROCESSOR_AS_BSP_BIT) != 0};
    x64_window_init(&mps.slot[mps.held.n].env);
    mps.slot[mps.held.n].book = PLAT_CPUS_MAX;
    mps.ctl_slot[mps.held.n].bsp = c->bsp;
    place(c, &mps.slot[mps.held.n].topo, fw);
    mps.ctl_slot[mps.held.n].lost = c->lost;
    mps.held.n++;
}

static const struct mp_fw_ops fw_ops;

/* Find the protocol, hold every enabled processor and find its place (once). */
void efi_mp_probe(void)
{
    EFI_GUID guid = MP_SERVICES_GUID;
    UINTN count = 0, enabled = 0;
    if (uefi_call_wrapper(BS->LocateProtocol, 3, &guid, NULL, (void **)&mps.mp) != EFI_SUCCESS) {
        ksnprintf(mps.held.why, sizeof(mps.held.why),
                  "the firmware has no EFI MP services protocol");
        mps.mp = NULL;
        return;
    }
    if (mps.mp->get_number_of_processors(mps.mp, &count, &enabled) != EFI_SUCCESS || count < 2) {
        ksnprintf(mps.held.why, sizeof(mps.held.why), "MP services report %llu processor(s)",
                  (unsigned long long)count);
        return;
    }
    mps.held.total = (unsigned)count;
    mps.held.enabled = (unsigned)enabled;
    if (!alloc_tables(mps.held.total)) {
        ksnprintf(mps.held.why, sizeof(mps.held.why), "no memory for a table of %u processors",
                  mps.held.total);
        return;
    }
    for (UINTN i = 0; i < count; i++) {
        struct mp_processor_info info;
        struct topo_firmware fw = {0};
        if (processor_info(i, &info, &fw) && (info.status_flag & PROCESSOR_ENABLED_BIT))
            add_processor(i, &info, &fw);
    }
    mps.held.ctl = (struct mp_ctl){&fw_ops, mps.ctl_slot, mps.held.n, 0, 0, 0};
    for (unsigned i = 0; i < mps.held.n; i++)
        mps.held.ctl.lost += mps.ctl_slot[i].lost;
    if (mps.held.n < 2)
        ksnprintf(mps.held.why, sizeof(mps.held.why), "MP services report %u enabled processor(s)",
                  mps.held.n);
}

struct mp_held *efi_mp_held(void)
{
    return &mps.held;
}

/* ---- the firmware's side of efi/mp_ctl.c ----------------------------------------------------- */

/* Start slot i into ap_loop with its first job posted: no firmware timeout (the loop lasts the
   experiment; each job's deadline is chase's), the completion event signals at the release. */
static enum mp_fw loop_enter(struct ap_slot *s, unsigned i)
{
    if (!s->event &&
        uefi_call_wrapper(BS->CreateEvent, 5, 0, 0, NULL, NULL, &s->event) != EFI_SUCCESS) {
        s->event = NULL;
        return MP_FW_ERROR;
    }
    mp_loop_reset(&s->box);
    mp_loop_post(&s->box);
    EFI_STATUS st =
        mps.mp->startup_this_ap(mps.mp, ap_loop, mps.held.cpu[i].id, s->event, 0, s, NULL);
    mps.fw_starts++;
    s->looping = st == EFI_SUCCESS;
    return st == EFI_SUCCESS ? MP_FW_OK : st == EFI_NOT_READY ? MP_FW_NOT_READY : MP_FW_ERROR;
}

/* Give slot i its job: through its mailbox, the AP started into its loop first if need be. */
static enum mp_fw fw_start(void *ctx, unsigned i, bool wait, uint64_t timeout_us)
{
    (void)ctx;
    struct ap_slot *s = &mps.slot[i];
    enum mp_fw r =
        s->looping ? (mp_loop_post(&s->box) ? MP_FW_OK : MP_FW_NOT_READY) : loop_enter(s, i);
    for (uint64_t waited = 0; r == MP_FW_OK && wait && !mp_loop_done(&s->box);
         waited += MP_POLL_US) {
        if (waited >= timeout_us)
            return MP_FW_TIMEOUT;
        uefi_call_wrapper(BS->Stall, 1, (UINTN)MP_POLL_US);
    }
    return r;
}

/* In its loop: its job is over; released: the firmware's completion event has signalled. */
static bool fw_finished(void *ctx, unsigned i)
{
    (void)ctx;
    if (mps.slot[i].looping)
        return mp_loop_done(&mps.slot[i].box);
    return mps.slot[i].event &&
           uefi_call_wrapper(BS->CheckEvent, 1, mps.slot[i].event) == EFI_SUCCESS;
}

static bool fw_job_done(void *ctx, unsigned i)
{
    (void)ctx;
    return mp_loop_done(&mps.slot[i].box);
}

static void fw_stall(void *ctx, uint64_t us)
{
    (void)ctx;
    uefi_call_wrapper(BS->Stall, 1, (UINTN)us);
}

static const struct mp_fw_ops fw_ops = {fw_start, fw_finished, fw_job_done, fw_stall, NULL};

/* Slot i takes fn(arg), or step(arg) in windows: its MSR book slot handed out at the first. */
static bool slot_prepare(void *ctx, unsigned i, void (*fn)(void *), bool (*step)(void *), void *arg)
{
    (void)ctx;
    struct ap_slot *s = &mps.slot[i];
    if (s->book == PLAT_CPUS_MAX && mps.books < PLAT_CPUS_MAX)
        s->book = mps.books++; /* handed out here, on the BSP: the APs only write their own */
    s->fn = fn;
    s->step = step;
    s->arg = arg;
    s->rc = -1;
    return true;
}

/* What the job's windows returned (x64_window_run's answer, 0: none faulted). */
static int slot_result(void *ctx, unsigned i)
{
    (void)ctx;
    return mps.slot[i].rc;
}

/* At the experiment's end, on the serial console (the firmware's waits are real time even under
   an emulator): how often the firmware started a processor, how long chase waited for it to have
   one back. */
static void say_firmware_starts(void)
{
    char line[160];
    if (!mps.fw_starts)
        return;
    ksnprintf(line, sizeof(line),
              "chase: %u StartupThisAP into chase's loop this experiment, %llu ms waited for the "
              "firmware to have a processor back\n",
              mps.fw_starts,
              (unsigned long long)((mps.held.ctl.settle_waited_us - mps.waited0_us) / 1000));
    plat_console_write(line);
    mps.fw_starts = 0;
    mps.waited0_us = mps.held.ctl.settle_waited_us;
}

/* Slot i is one of keep[0..n). */
static bool kept(unsigned i, const unsigned *keep, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        if (keep[k] == i)
            return true;
    return false;
}

/*
 * Every AP in its loop but those kept leaves it (after its job, for a lost one) and is the
 * firmware's again once the completion event says so (mp_ctl waits for that before the next
 * start, as for any start without waiting). At the experiment's end (none kept) each is awaited
 * out of its loop, its settings restored.
 */
static void slots_release(void *ctx, const unsigned *keep, unsigned nkeep)
{
    (void)ctx;
    bool any = false;
    for (unsigned i = 0; i < mps.held.n; i++) {
        struct ap_slot *s = &mps.slot[i];
        if (!s->looping || kept(i, keep, nkeep))
            continue;
        mp_loop_release(&s->box);
        s->looping = false;
        mps.ctl_slot[i].busy = !mps.ctl_slot[i].lost;
        any = true;
    }
    if (!nkeep)
        say_firmware_starts();
    /* the loops leave within microseconds (a lost one is not waited for) */
    for (uint64_t waited = 0; !nkeep && any && waited < MP_SETTLE_US; waited += MP_POLL_US) {
        any = false;
        for (unsigned i = 0; i < mps.held.n; i++)
            any |= !mps.ctl_slot[i].lost && mp_loop_serving(&mps.slot[i].box);
        if (any)
            uefi_call_wrapper(BS->Stall, 1, (UINTN)MP_POLL_US);
    }
}

static const struct mp_held_ops held_ops = {slot_prepare, slot_result, NULL, slots_release};

int efi_mp_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault)
{
    int i = mps.held.window_cpu;
    if (i < 0)
        return 1;
    kmemset(fault, 0, sizeof(*fault));
    int rc = plat_cpu_run(mps.held.cpu[i].id, fn, arg, mps.held.window_timeout_us);
    if (rc == 0 || mp_loop_done(&mps.slot[i].box))
        *fault = mps.slot[i].fault;
    return rc == 0 ? 0 : -1;
}

void efi_mp_window_report(struct window_report *r)
{
    struct window_stats s;
    kmemset(&s, 0, sizeof(s));
    for (unsigned i = 0; i < mps.held.n; i++) /* each processor's own record, summed */
        x64_window_stats_add(&mps.slot[i].env, &s);
    window_stats_report(r, &s);
}

bool efi_mp_release(void)
{
    if (!mps.held.probed)
        return false;
    slots_release(NULL, NULL, 0);
    mp_ctl_settle(&mps.held.ctl);
    bool reset = mp_ctl_must_reset(&mps.held.ctl);
    for (unsigned i = 0; i < mps.held.n; i++)
        if (mps.slot[i].event && !mps.ctl_slot[i].busy)
            uefi_call_wrapper(BS->CloseEvent, 1, mps.slot[i].event);
    if (reset)
        return true; /* a lost processor may still use the tables: keep them, reset follows */
    plat_free(mps.held.cpu);
    plat_free(mps.slot_pool);
    plat_free(mps.ctl_slot);
    plat_free(mps.held.started);
    mps.held.cpu = NULL;
    mps.slot = mps.slot_pool = NULL;
    mps.ctl_slot = NULL;
    mps.held.started = NULL;
    mps.held.n = 0;
    return false;
}
