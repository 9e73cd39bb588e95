// SPDX-License-Identifier: MIT
// Other processors on AArch64 firmware: what EFI_MP_SERVICES_PROTOCOL (PI spec vol. 2, 13.4)
// reports, and why the multi-processor experiments are skipped here (chase runs no AP work on
// AArch64 yet: each AP would need windows of its own, with its TTBR0 and DAIF).
#include "efi_internal.h"
#include "lib/fmt.h"
#include "platform.h"

#define MP_SERVICES_GUID                                                                           \
    {                                                                                              \
        0x3fdda605, 0xa76e, 0x4f46,                                                                \
        {                                                                                          \
            0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08                                         \
        }                                                                                          \
    }

/* The protocol's first member, in the PI specification's order (gnu-efi does not define it). */
struct mp_services {
    EFI_STATUS (*get_number_of_processors)(struct mp_services *self, UINTN *count, UINTN *enabled);
};

/* What the firmware said, asked once. Firmware facts. */
static struct {
    bool probed;
    unsigned total, enabled;
    char why[160];
} mp;

static void probe(void)
{
    EFI_GUID guid = MP_SERVICES_GUID;
    struct mp_services *s = NULL;
    UINTN count = 0, enabled = 0;
    mp.probed = true;
    if (uefi_call_wrapper(BS->LocateProtocol, 3, &guid, NULL, (void **)&s) != EFI_SUCCESS || !s) {
        ksnprintf(mp.why, sizeof(mp.why),
                  "the firmware has no EFI MP services protocol (EDK II's PSCI driver): "
                  "other processors cannot be started");
        return;
    }
    if (s->get_number_of_processors(s, &count, &enabled) != EFI_SUCCESS)
        count = enabled = 0;
    mp.total = (unsigned)count;
    mp.enabled = (unsigned)enabled;
    ksnprintf(mp.why, sizeof(mp.why),
              "MP services report %u processor(s), but chase runs no work on other processors "
              "on AArch64 yet",
              mp.total);
}

unsigned plat_cpus(struct plat_cpu *cpus, unsigned cap, char *why, size_t why_cap)
{
    (void)cpus;
    (void)cap;
    if (!mp.probed)
        probe();
    ksnprintf(why, why_cap, "%s", mp.why);
    return 0;
}

unsigned plat_cpus_total(unsigned *enabled, unsigned *held, unsigned *cpuid_failed)
{
    if (!mp.probed)
        probe();
    *enabled = mp.enabled;
    *held = 0;
    *cpuid_failed = 0;
    return mp.total;
}

int plat_cpu_run(unsigned id, void (*fn)(void *arg), void *arg, uint64_t timeout_us)
{
    (void)id;
    (void)fn;
    (void)arg;
    (void)timeout_us;
    return -1; /* plat_cpus listed no processor to run it on */
}

int plat_cpus_start(const unsigned *ids, unsigned n, bool (*step)(void *arg), void *const *args,
                    uint64_t timeout_us)
{
    (void)ids;
    (void)step;
    (void)args;
    (void)timeout_us;
    return n ? -1 : 0;
}

int plat_cpus_wait(bool *done, unsigned n, uint64_t timeout_us)
{
    (void)timeout_us;
    for (unsigned i = 0; i < n; i++)
        done[i] = false;
    return n ? PLAT_CPU_TIMEOUT : 0;
}

int plat_window_cpu(unsigned id, uint64_t timeout_us)
{
    (void)timeout_us;
    return id == PLAT_WINDOW_HERE ? 0 : -1;
}

bool efi_mp_release(void)
{
    return false; /* no processor was given work */
}
