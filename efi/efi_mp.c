// SPDX-License-Identifier: MIT
// Other processors on the firmware path: EFI_MP_SERVICES_PROTOCOL (PI spec vol. 2, 13.4).
//
// AP work calls no UEFI service: the firmware calls ap_entry on the AP, which runs the job in
// a window of the AP's own (chase's CR3, an IDT of its own, interrupts off), restores what it
// found and raises its slot's done flag; the BSP polls the flags with Stall between. When a
// processor may take work again, retries and timeouts are decided by kernel/machine/mp_ctl.c;
// this file only carries them out. Every processor the firmware reports is held (the table
// is allocated from its count); each one's place comes from CPUID run on it.
#include "arch/x86_64/window.h"
#include "efi_internal.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/ap_msr.h"
#include "machine/mp_ctl.h"
#include "machine/topology.h"
#include "platform.h"

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

/* One AP's window: its IDT, the job, and whether it came back. */
struct ap_slot {
    struct window_env env;   /* 16-byte aligned: the table is aligned by hand */
    void (*fn)(void *arg);   /* a job of one window; or */
    bool (*step)(void *arg); /* ... one of several: true while more remains */
    bool more;
    void *arg;
    struct fault_info fault;
    int rc;
    volatile uint32_t done;
    EFI_EVENT event;
    unsigned book;        /* its slot in the AP MSR book (PLAT_CPUS_MAX: not recorded) */
    struct topology topo; /* what its CPUID probe found (its own: a late AP writes only here) */
};

#define SLOT_ALIGN 16

static struct {
    bool probed;
    struct mp_services *mp;
    unsigned total, enabled; /* the firmware's counts */
    unsigned n;              /* enabled processors held */
    struct plat_cpu *cpu;    /* n of them, by the firmware's number */
    struct ap_slot *slot;    /* n, aligned */
    void *slot_pool;         /* what plat_alloc gave for slot[] */
    struct mp_ctl_slot *ctl_slot;
    struct mp_ctl ctl;
    unsigned *started; /* n */
    unsigned nstarted;
    unsigned books;       /* AP MSR book slots handed out */
    unsigned topo_failed; /* processors whose CPUID probe did not run: firmware's location */
    char why[160];
    int window_cpu; /* index windows run on; -1: the BSP */
    uint64_t window_timeout_us;
} mps = {.window_cpu = -1};

/* MSR access on the AP, each in a window of its own there (a #GP is caught). */
static bool ap_rdmsr(void *ctx, uint32_t msr, uint64_t *value)
{
    return arch_window_rdmsr(ctx, msr, value) == 0;
}

static bool ap_wrmsr(void *ctx, uint32_t msr, uint64_t value)
{
    return arch_window_wrmsr(ctx, msr, value) == 0;
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
        s->rc = arch_window_run(&s->env, s->fn, s->arg, &s->fault);
        return;
    }
    int rc = 0;
    do {
        s->more = false; /* stays so when a fault stops the step half-way: nothing more of it */
        rc |= arch_window_run(&s->env, slot_step, s, &s->fault);
        arch_pause(); /* interrupts pending meanwhile are taken here */
    } while (s->more);
    s->rc = rc;
}

/*
 * Run on the AP by the firmware: the job in the AP's own windows, with the boot processor's
 * per-core settings (prefetchers, DE_CFG) made here for it and undone after; nothing of UEFI
 * is called.
 */
static void __attribute__((ms_abi)) ap_entry(void *arg)
{
    struct ap_slot *s = arg;
    unsigned i = (unsigned)(s - mps.slot);
    struct ap_msr_ops ops = {ap_rdmsr, ap_wrmsr, &s->env};
    struct ap_msr_held held;
    s->env.cr3 = efi_window_cr3();
    ap_msr_apply(ap_msr_book(), s->book, mps.cpu[i].id, &ops, &held);
    ap_windows(s);
    ap_msr_restore(ap_msr_book(), s->book, &ops, &held);
    __atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
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
    mps.topo_failed++;
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
    mps.cpu = plat_alloc(count * sizeof(*mps.cpu));
    mps.slot_pool = plat_alloc(count * sizeof(*mps.slot) + SLOT_ALIGN);
    mps.ctl_slot = plat_alloc(count * sizeof(*mps.ctl_slot));
    mps.started = plat_alloc(count * sizeof(*mps.started));
    if (!mps.cpu || !mps.slot_pool || !mps.ctl_slot || !mps.started)
        return false;
    uintptr_t at = ((uintptr_t)mps.slot_pool + SLOT_ALIGN - 1) / SLOT_ALIGN * SLOT_ALIGN;
    mps.slot = (struct ap_slot *)at;
    return true;
}

static void add_processor(UINTN i, const struct mp_processor_info *info,
                          const struct topo_firmware *fw)
{
    struct plat_cpu *c = &mps.cpu[mps.n];
    *c = (struct plat_cpu){.id = (unsigned)i,
                           .apic_id = (uint32_t)info->processor_id,
                           .node = efi_numa_node_of_apic((uint32_t)info->processor_id),
                           .bsp = (info->status_flag & PROCESSOR_AS_BSP_BIT) != 0};
    arch_window_init(&mps.slot[mps.n].env);
    mps.slot[mps.n].book = PLAT_CPUS_MAX;
    mps.ctl_slot[mps.n].bsp = c->bsp;
    place(c, &mps.slot[mps.n].topo, fw);
    mps.ctl_slot[mps.n].lost = c->lost;
    mps.n++;
}

static const struct mp_fw_ops fw_ops;

/* Find the protocol, hold every enabled processor and find its place (once). */
static void probe(void)
{
    EFI_GUID guid = MP_SERVICES_GUID;
    UINTN count = 0, enabled = 0;
    mps.probed = true;
    if (uefi_call_wrapper(BS->LocateProtocol, 3, &guid, NULL, (void **)&mps.mp) != EFI_SUCCESS) {
        ksnprintf(mps.why, sizeof(mps.why), "the firmware has no EFI MP services protocol");
        mps.mp = NULL;
        return;
    }
    if (mps.mp->get_number_of_processors(mps.mp, &count, &enabled) != EFI_SUCCESS || count < 2) {
        ksnprintf(mps.why, sizeof(mps.why), "MP services report %llu processor(s)",
                  (unsigned long long)count);
        return;
    }
    mps.total = (unsigned)count;
    mps.enabled = (unsigned)enabled;
    if (!alloc_tables(mps.total)) {
        ksnprintf(mps.why, sizeof(mps.why), "no memory for a table of %u processors", mps.total);
        return;
    }
    for (UINTN i = 0; i < count; i++) {
        struct mp_processor_info info;
        struct topo_firmware fw = {0};
        if (processor_info(i, &info, &fw) && (info.status_flag & PROCESSOR_ENABLED_BIT))
            add_processor(i, &info, &fw);
    }
    mps.ctl = (struct mp_ctl){&fw_ops, mps.ctl_slot, mps.n, 0, 0};
    for (unsigned i = 0; i < mps.n; i++)
        mps.ctl.lost += mps.ctl_slot[i].lost;
    if (mps.n < 2)
        ksnprintf(mps.why, sizeof(mps.why), "MP services report %u enabled processor(s)", mps.n);
}

static int cpu_index(unsigned id)
{
    for (unsigned i = 0; i < mps.n; i++)
        if (mps.cpu[i].id == id)
            return (int)i;
    return -1;
}

/* Copy the controller's lost marks into the processor table. */
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
    *enabled = mps.enabled;
    *held = mps.n;
    *cpuid_failed = mps.topo_failed;
    return mps.total;
}

/* ---- the firmware's side of kernel/machine/mp_ctl.c ---------------------------------------- */

static enum mp_fw fw_start(void *ctx, unsigned i, bool wait, uint64_t timeout_us)
{
    (void)ctx;
    struct ap_slot *s = &mps.slot[i];
    if (!wait && !s->event &&
        uefi_call_wrapper(BS->CreateEvent, 5, 0, 0, NULL, NULL, &s->event) != EFI_SUCCESS) {
        s->event = NULL;
        return MP_FW_ERROR;
    }
    EFI_STATUS st = mps.mp->startup_this_ap(mps.mp, ap_entry, mps.cpu[i].id, wait ? NULL : s->event,
                                            (UINTN)timeout_us, s, NULL);
    return st == EFI_SUCCESS     ? MP_FW_OK
           : st == EFI_NOT_READY ? MP_FW_NOT_READY
           : st == EFI_TIMEOUT   ? MP_FW_TIMEOUT
                                 : MP_FW_ERROR;
}

static bool fw_finished(void *ctx, unsigned i)
{
    (void)ctx;
    return mps.slot[i].event &&
           uefi_call_wrapper(BS->CheckEvent, 1, mps.slot[i].event) == EFI_SUCCESS;
}

static bool fw_job_done(void *ctx, unsigned i)
{
    (void)ctx;
    return __atomic_load_n(&mps.slot[i].done, __ATOMIC_ACQUIRE) != 0;
}

static void fw_stall(void *ctx, uint64_t us)
{
    (void)ctx;
    uefi_call_wrapper(BS->Stall, 1, (UINTN)us);
}

static const struct mp_fw_ops fw_ops = {fw_start, fw_finished, fw_job_done, fw_stall, NULL};

/* Prepare slot i for fn(arg), or step(arg) in windows; false when it cannot take work. */
static bool slot_ready(int i, void (*fn)(void *), bool (*step)(void *), void *arg)
{
    if (i < 0 || !mps.mp || mps.cpu[i].bsp || mps.ctl_slot[i].lost)
        return false;
    struct ap_slot *s = &mps.slot[i];
    if (s->book == PLAT_CPUS_MAX && mps.books < PLAT_CPUS_MAX)
        s->book = mps.books++; /* handed out here, on the BSP: the APs only write their own */
    s->fn = fn;
    s->step = step;
    s->arg = arg;
    s->rc = -1;
    s->done = 0;
    return true;
}

int plat_cpu_run(unsigned id, void (*fn)(void *arg), void *arg, uint64_t timeout_us)
{
    int i = cpu_index(id);
    if (!slot_ready(i, fn, NULL, arg))
        return -1;
    int rc = mp_ctl_run(&mps.ctl, (unsigned)i, timeout_us);
    sync_lost();
    return rc == MP_CTL_TIMEOUT ? PLAT_CPU_TIMEOUT : rc == 0 ? mps.slot[i].rc : -1;
}

int plat_cpus_start(const unsigned *ids, unsigned n, bool (*step)(void *arg), void *const *args,
                    uint64_t timeout_us)
{
    if (mps.nstarted || n > mps.n)
        return -1;
    for (unsigned k = 0; k < n; k++) {
        int i = cpu_index(ids[k]);
        /* every one back with the firmware first: then they start within microseconds */
        if (!slot_ready(i, NULL, step, args[k]) || !mp_ctl_ready(&mps.ctl, (unsigned)i)) {
            sync_lost();
            return -1;
        }
        mps.started[k] = (unsigned)i;
    }
    for (unsigned k = 0; k < n; k++)
        if (mp_ctl_start(&mps.ctl, mps.started[k], timeout_us) != 0) {
            /* the ones already started still run: wait for them, then report */
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
    int rc = mp_ctl_wait(&mps.ctl, mps.started, n, done, timeout_us);
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
    kmemset(fault, 0, sizeof(*fault));
    int rc = plat_cpu_run(mps.cpu[i].id, fn, arg, mps.window_timeout_us);
    if (rc == 0 || mps.slot[i].done)
        *fault = mps.slot[i].fault;
    return rc == 0 ? 0 : -1;
}

void efi_mp_window_stats(struct window_stats *sum)
{
    for (unsigned i = 0; i < mps.n; i++)
        arch_window_stats_add(&mps.slot[i].env, sum);
}

bool efi_mp_release(void)
{
    if (!mps.probed)
        return false;
    mp_ctl_settle(&mps.ctl);
    bool reset = mp_ctl_must_reset(&mps.ctl);
    for (unsigned i = 0; i < mps.n; i++)
        if (mps.slot[i].event && !mps.ctl_slot[i].busy)
            uefi_call_wrapper(BS->CloseEvent, 1, mps.slot[i].event);
    if (reset)
        return true; /* a lost processor may still use the tables: keep them, reset follows */
    plat_free(mps.cpu);
    plat_free(mps.slot_pool);
    plat_free(mps.ctl_slot);
    plat_free(mps.started);
    mps.cpu = NULL;
    mps.slot = mps.slot_pool = NULL;
    mps.ctl_slot = NULL;
    mps.started = NULL;
    mps.n = 0;
    return false;
}
