// SPDX-License-Identifier: MIT
// The platform's calls on other processors, one copy for both firmware builds: the processors
// are found once (efi_mp.c, efi/aarch64/a64_mp.c) and used through kernel/machine/mp_held.c.
#include "efi_internal.h"
#include "machine/mp_held.h"
#include "platform.h"

/* The processors, found at the first call that needs them. */
static struct mp_held *probed(void)
{
    struct mp_held *h = efi_mp_held();
    if (!h->probed) {
        h->probed = true;
        efi_mp_probe();
    }
    return h;
}

unsigned plat_cpus(struct plat_cpu *cpus, unsigned cap, char *why, size_t why_cap)
{
    return mp_held_cpus(probed(), cpus, cap, why, why_cap);
}

unsigned plat_cpus_total(unsigned *enabled, unsigned *held, unsigned *cpuid_failed)
{
    return mp_held_total(probed(), enabled, held, cpuid_failed);
}

int plat_cpu_run(unsigned id, void (*fn)(void *arg), void *arg, uint64_t timeout_us)
{
    return mp_held_run(efi_mp_held(), id, fn, arg, timeout_us);
}

int plat_cpus_start(const unsigned *ids, unsigned n, bool (*step)(void *arg), void *const *args,
                    uint64_t timeout_us)
{
    return mp_held_start(efi_mp_held(), ids, n, step, args, timeout_us);
}

int plat_cpus_wait(bool *done, unsigned n, uint64_t timeout_us)
{
    return mp_held_wait(efi_mp_held(), done, n, timeout_us);
}

int plat_window_cpu(unsigned id, uint64_t timeout_us)
{
    return mp_held_window_cpu(efi_mp_held(), id, timeout_us);
}
