// SPDX-License-Identifier: MIT
// Other processors on the firmware path: not yet driven; the experiments that need them skip.
//
// EFI_MP_SERVICES_PROTOCOL (PI spec vol. 2) is the way to drive them; until this file does,
// plat_cpus says so and cores, c2c, loaded and numa are skipped with that reason.
#include "efi_internal.h"
#include "lib/fmt.h"
#include "platform.h"

unsigned plat_cpus(struct plat_cpu *cpus, unsigned cap, char *why, size_t why_cap)
{
    (void)cpus, (void)cap;
    ksnprintf(why, why_cap, "chase.efi does not drive other processors yet (EFI MP services)");
    return 0;
}

int plat_cpu_run(unsigned id, void (*fn)(void *arg), void *arg, uint64_t timeout_us)
{
    (void)id, (void)fn, (void)arg, (void)timeout_us;
    return -1;
}

int plat_cpus_start(const unsigned *ids, unsigned n, void (*fn)(void *arg), void *const *args)
{
    (void)ids, (void)n, (void)fn, (void)args;
    return -1;
}

int plat_cpus_wait(bool *done, unsigned n, uint64_t timeout_us)
{
    (void)done, (void)n, (void)timeout_us;
    return -1;
}

int plat_window_cpu(unsigned id, uint64_t timeout_us)
{
    (void)timeout_us;
    return id == PLAT_WINDOW_HERE ? 0 : -1;
}
