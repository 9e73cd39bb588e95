// SPDX-License-Identifier: MIT
// The platform's calls on other processors, one copy for both firmware builds: the processors
// are found once (efi/x86_64/x64_mp.c, efi/aarch64/a64_mp.c) and used through efi/mp_held.c;
// a window runs on the processor plat_window_cpu chose, here or there.
#include "efi_internal.h"
#include "mp_held.h"
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

void plat_cpus_release(void)
{
    mp_held_release(efi_mp_held());
}

int plat_window_cpu(unsigned id, uint64_t timeout_us)
{
    return mp_held_window_cpu(efi_mp_held(), id, timeout_us);
}

int plat_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault)
{
    int elsewhere = efi_mp_window_run(fn, arg, fault); /* plat_window_cpu chose another */
    return elsewhere == 1 ? efi_window_run(fn, arg, fault) : elsewhere;
}

void plat_window_report(struct window_report *r)
{
    efi_window_report(r);
    efi_mp_window_report(r);
}
