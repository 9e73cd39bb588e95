// SPDX-License-Identifier: MIT
// Other processors on the firmware path: EFI_MP_SERVICES_PROTOCOL (PI spec vol. 2, 13.4).
//
// AP work calls no UEFI service: the firmware calls ap_entry on the AP, which runs the job in
// a window of the AP's own (chase's CR3, an IDT of its own, interrupts off), restores what it
// found and raises its slot's done flag; the BSP polls the flags with Stall between.
#include "arch/x86_64/window.h"
#include "efi_internal.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/ap_msr.h"
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
#define POLL_US 10
#define BIT32(n) (1u << (n))

typedef void(__attribute__((ms_abi)) * ap_procedure)(void *arg);

/* The protocol's members in the PI specification's order (gnu-efi does not define it). */
struct mp_location {
    UINT32 package, core, thread;
};
struct mp_processor_info {
    UINT64 processor_id; /* the APIC ID */
    UINT32 status_flag;
    struct mp_location location;
};
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
    struct window_env env;
    void (*fn)(void *arg);
    void *arg;
    struct fault_info fault;
    int rc;
    volatile uint32_t done;
    EFI_EVENT event;
};

static struct {
    bool probed;
    struct mp_services *mp;
    unsigned n;
    struct plat_cpu cpu[PLAT_CPUS_MAX];
    struct ap_slot slot[PLAT_CPUS_MAX];
    char why[160];
    int window_cpu; /* index windows run on; -1: the BSP */
    uint64_t window_timeout_us;
    unsigned started[PLAT_CPUS_MAX];
    unsigned nstarted;
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

/*
 * Run on the AP by the firmware: the job in the AP's own window, with the boot processor's
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
    ap_msr_apply(ap_msr_book(), i, mps.cpu[i].id, &ops, &held);
    s->rc = arch_window_run(&s->env, s->fn, s->arg, &s->fault);
    ap_msr_restore(ap_msr_book(), i, &ops, &held);
    __atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
}

/* Find the protocol and every processor's location (once). */
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
    for (UINTN i = 0; i < count && mps.n < PLAT_CPUS_MAX; i++) {
        struct mp_processor_info info;
        if (mps.mp->get_processor_info(mps.mp, i, &info) != EFI_SUCCESS ||
            !(info.status_flag & PROCESSOR_ENABLED_BIT))
            continue;
        struct plat_cpu *c = &mps.cpu[mps.n];
        *c = (struct plat_cpu){.id = (unsigned)i,
                               .apic_id = (uint32_t)info.processor_id,
                               .package = info.location.package,
                               .core = info.location.core,
                               .thread = info.location.thread,
                               .node = efi_numa_node_of_apic((uint32_t)info.processor_id),
                               .bsp = (info.status_flag & PROCESSOR_AS_BSP_BIT) != 0};
        arch_window_init(&mps.slot[mps.n].env);
        mps.n++;
    }
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

unsigned plat_cpus(struct plat_cpu *cpus, unsigned cap, char *why, size_t why_cap)
{
    if (!mps.probed)
        probe();
    unsigned n = mps.n < 2 ? 0 : mps.n < cap ? mps.n : cap;
    kmemcpy(cpus, mps.cpu, n * sizeof(*cpus));
    if (!n)
        ksnprintf(why, why_cap, "%s", mps.why);
    return n;
}

/* Prepare slot i for fn(arg); false when its processor cannot take work. */
static bool slot_ready(int i, void (*fn)(void *), void *arg)
{
    if (i < 0 || !mps.mp || mps.cpu[i].bsp || mps.cpu[i].lost)
        return false;
    struct ap_slot *s = &mps.slot[i];
    s->fn = fn;
    s->arg = arg;
    s->rc = -1;
    s->done = 0;
    return true;
}

int plat_cpu_run(unsigned id, void (*fn)(void *arg), void *arg, uint64_t timeout_us)
{
    int i = cpu_index(id);
    if (!slot_ready(i, fn, arg))
        return -1;
    EFI_STATUS st = mps.mp->startup_this_ap(mps.mp, ap_entry, mps.cpu[i].id, NULL,
                                            (UINTN)timeout_us, &mps.slot[i], NULL);
    if (st == EFI_TIMEOUT) {
        mps.cpu[i].lost = true;
        return PLAT_CPU_TIMEOUT;
    }
    return st == EFI_SUCCESS && mps.slot[i].done ? mps.slot[i].rc : -1;
}

/* Start slot i without waiting (an event makes StartupThisAP return at once). */
static bool start_one(int i)
{
    struct ap_slot *s = &mps.slot[i];
    if (!s->event &&
        uefi_call_wrapper(BS->CreateEvent, 5, 0, 0, NULL, NULL, &s->event) != EFI_SUCCESS) {
        s->event = NULL;
        return false;
    }
    return mps.mp->startup_this_ap(mps.mp, ap_entry, mps.cpu[i].id, s->event, 0, s, NULL) ==
           EFI_SUCCESS;
}

int plat_cpus_start(const unsigned *ids, unsigned n, void (*fn)(void *arg), void *const *args)
{
    if (mps.nstarted || n > PLAT_CPUS_MAX)
        return -1;
    for (unsigned k = 0; k < n; k++) {
        int i = cpu_index(ids[k]);
        if (!slot_ready(i, fn, args[k]))
            return -1;
        mps.started[k] = (unsigned)i;
    }
    for (unsigned k = 0; k < n; k++)
        if (!start_one((int)mps.started[k])) {
            /* the ones already started still run: wait for them, then report */
            bool done[PLAT_CPUS_MAX];
            mps.nstarted = k;
            plat_cpus_wait(done, k, 1000000);
            return -1;
        }
    mps.nstarted = n;
    return 0;
}

int plat_cpus_wait(bool *done, unsigned n, uint64_t timeout_us)
{
    if (n != mps.nstarted)
        return -1;
    uint64_t waited_us = 0;
    unsigned back = 0;
    for (;;) {
        back = 0;
        for (unsigned k = 0; k < n; k++)
            back += done[k] = __atomic_load_n(&mps.slot[mps.started[k]].done, __ATOMIC_ACQUIRE);
        if (back == n || waited_us >= timeout_us)
            break;
        uefi_call_wrapper(BS->Stall, 1, POLL_US);
        waited_us += POLL_US;
    }
    for (unsigned k = 0; k < n; k++)
        mps.cpu[mps.started[k]].lost |= !done[k]; /* still busy: it cannot be started again */
    mps.nstarted = 0;
    return back == n ? 0 : PLAT_CPU_TIMEOUT;
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
