// SPDX-License-Identifier: MIT
// The processors a front end holds, and the platform's calls on them, the same on x86 (EFI MP
// services) and AArch64 (PSCI and mailboxes): which processor an id names, a group ready before
// any starts, the controller's lost marks copied into the table after every call that may set
// them. The front end only probes the processors and gives one a job (struct mp_held_ops).
#include "mp_held.h"

#include "lib/kstring.h"

void mp_held_sync_lost(struct mp_held *h)
{
    for (unsigned i = 0; i < h->n; i++)
        h->cpu[i].lost = h->ctl.slot[i].lost;
}

int mp_held_index(const struct mp_held *h, unsigned id)
{
    for (unsigned i = 0; i < h->n; i++)
        if (h->cpu[i].id == id)
            return (int)i;
    return -1;
}

unsigned mp_held_cpus(struct mp_held *h, struct plat_cpu *cpus, unsigned cap, char *why,
                      size_t why_cap)
{
    mp_held_sync_lost(h);
    unsigned n = h->n < 2 ? 0 : h->n < cap ? h->n : cap;
    kmemcpy(cpus, h->cpu, n * sizeof(*cpus));
    if (!n || h->n < h->enabled) /* none, or some not started: the reason */
        kstrlcpy(why, h->why, why_cap);
    return n;
}

unsigned mp_held_total(const struct mp_held *h, unsigned *enabled, unsigned *held,
                       unsigned *cpuid_failed)
{
    *enabled = h->enabled;
    *held = h->n;
    *cpuid_failed = h->cpuid_failed;
    return h->total;
}

/* Slot i (from mp_held_index) takes the job: it is ready for one and the front end gave it. */
static bool takes(struct mp_held *h, int i, void (*fn)(void *), bool (*step)(void *), void *arg)
{
    return i >= 0 && mp_ctl_ready(&h->ctl, (unsigned)i) &&
           h->ops->prepare(h->ops->ctx, (unsigned)i, fn, step, arg);
}

/* The processors of the job about to start stay in chase's loop; those it leaves out go back
   to the firmware, so no idle one spins through the next job (on a real machine they would
   take power from the measured ones, under an emulator its host's time). */
static void keep_only(struct mp_held *h, const unsigned *slots, unsigned k)
{
    if (h->ops->release && k)
        h->ops->release(h->ops->ctx, slots, k);
}

int mp_held_run(struct mp_held *h, unsigned id, void (*fn)(void *arg), void *arg,
                uint64_t timeout_us)
{
    int i = mp_held_index(h, id);
    unsigned slot = (unsigned)i;
    if (i >= 0)
        keep_only(h, &slot, 1);
    if (!takes(h, i, fn, NULL, arg))
        return -1;
    int rc = mp_ctl_run(&h->ctl, (unsigned)i, timeout_us);
    mp_held_sync_lost(h);
    if (rc == MP_CTL_TIMEOUT)
        return PLAT_CPU_TIMEOUT;
    if (rc != 0)
        return -1;
    return h->ops->result ? h->ops->result(h->ops->ctx, (unsigned)i) : 0;
}

int mp_held_start(struct mp_held *h, const unsigned *ids, unsigned n, bool (*step)(void *arg),
                  void *const *args, uint64_t timeout_us)
{
    if (h->nstarted || n > h->n)
        return -1;
    for (unsigned k = 0; k < n; k++) {
        int i = mp_held_index(h, ids[k]);
        if (i < 0)
            return -1;
        h->started[k] = (unsigned)i;
    }
    keep_only(h, h->started, n);
    for (unsigned k = 0; k < n; k++) {
        /* every one ready first (back with the firmware, or idle): then they start together */
        if (!takes(h, (int)h->started[k], NULL, step, args[k])) {
            mp_held_sync_lost(h);
            return -1;
        }
    }
    for (unsigned k = 0; k < n; k++)
        if (mp_ctl_start(&h->ctl, h->started[k], timeout_us) != 0) {
            /* the ones already started still run: wait for them, then report */
            bool one;
            for (unsigned j = 0; j < k; j++)
                mp_ctl_wait(&h->ctl, &h->started[j], 1, &one, timeout_us);
            mp_held_sync_lost(h);
            return -1;
        }
    h->nstarted = n;
    return 0;
}

int mp_held_wait(struct mp_held *h, bool *done, unsigned n, uint64_t timeout_us)
{
    if (n != h->nstarted)
        return -1;
    int rc = n ? mp_ctl_wait(&h->ctl, h->started, n, done, timeout_us) : 0;
    h->nstarted = 0;
    mp_held_sync_lost(h);
    return rc == 0 ? 0 : PLAT_CPU_TIMEOUT;
}

int mp_held_window_cpu(struct mp_held *h, unsigned id, uint64_t timeout_us)
{
    int i = id == PLAT_WINDOW_HERE ? -1 : mp_held_index(h, id);
    if (id != PLAT_WINDOW_HERE && (i < 0 || h->cpu[i].lost))
        return -1;
    h->window_cpu = i >= 0 && h->cpu[i].bsp ? -1 : i;
    h->window_timeout_us = timeout_us;
    return 0;
}

void mp_held_release(struct mp_held *h)
{
    if (h->probed && h->ops->release)
        h->ops->release(h->ops->ctx, NULL, 0);
}
