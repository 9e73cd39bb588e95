// SPDX-License-Identifier: MIT
// The processors a front end holds, and what plat_cpus, plat_cpu_run, plat_cpus_start/wait and
// plat_window_cpu do with them: the same on every architecture, whatever starts the processors.
#ifndef CHASE_MP_HELD_H
#define CHASE_MP_HELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mp_ctl.h"
#include "platform.h"

#define MP_HELD_WHY_BYTES 160 /* the reason no other processor can be used, as text */

/* How a front end gives one of its processors a job (efi/x86_64/x64_mp.c, efi/aarch64/a64_mp.c). */
struct mp_held_ops {
    /* Give slot i fn(arg), or step(arg) window after window until it returns false (fn NULL);
       called only when mp_ctl_ready said slot i may take work. False when it cannot. */
    bool (*prepare)(void *ctx, unsigned i, void (*fn)(void *), bool (*step)(void *), void *arg);
    /* The result slot i's job of plat_cpu_run gave, once it is over: 0 when it ran whole.
       NULL: a job that is over ran whole. */
    int (*result)(void *ctx, unsigned i);
    void *ctx;
    /* Every processor serving jobs from chase's own loop leaves it but those of slots
       keep[0..nkeep) (x86: its StartupThisAP returns); nkeep 0 at the experiment's end, when
       each is also awaited out of the loop. NULL: processors stay as they are (AArch64's
       secondaries are chase's for the whole run). */
    void (*release)(void *ctx, const unsigned *keep, unsigned nkeep);
};

/*
 * The front end fills cpu[0..n) (by index), ctl (its slots the same n), started (room for n),
 * the counts and ops; why says why there is no other processor to use when n < 2.
 */
struct mp_held {
    bool probed; /* the front end has looked for them */
    struct plat_cpu *cpu;
    unsigned n;
    unsigned total, enabled, cpuid_failed; /* as plat_cpus_total reports them */
    struct mp_ctl ctl;
    unsigned *started; /* the slots plat_cpus_start started, nstarted of them */
    unsigned nstarted;
    int window_cpu; /* the slot windows run on; -1: the caller's own */
    uint64_t window_timeout_us;
    const struct mp_held_ops *ops;
    char why[MP_HELD_WHY_BYTES];
};

/* Copy the controller's lost marks into the processor table. */
void mp_held_sync_lost(struct mp_held *h);

/* The slot of processor id, or -1 when none is held. */
int mp_held_index(const struct mp_held *h, unsigned id);

/* plat_cpus over h: the first cap processors, or 0 with h's reason in why. */
unsigned mp_held_cpus(struct mp_held *h, struct plat_cpu *cpus, unsigned cap, char *why,
                      size_t why_cap);

/* plat_cpus_total over h. */
unsigned mp_held_total(const struct mp_held *h, unsigned *enabled, unsigned *held,
                       unsigned *cpuid_failed);

/* plat_cpu_run over h: 0, the job's result, -1 (cannot) or PLAT_CPU_TIMEOUT (now lost). */
int mp_held_run(struct mp_held *h, unsigned id, void (*fn)(void *arg), void *arg,
                uint64_t timeout_us);

/* plat_cpus_start over h: every processor ready first, then all started; 0 or -1. */
int mp_held_start(struct mp_held *h, const unsigned *ids, unsigned n, bool (*step)(void *arg),
                  void *const *args, uint64_t timeout_us);

/* plat_cpus_wait over h: 0, -1 (n is not what was started) or PLAT_CPU_TIMEOUT. */
int mp_held_wait(struct mp_held *h, bool *done, unsigned n, uint64_t timeout_us);

/* plat_cpus_release over h: the front end's release, when it has one. */
void mp_held_release(struct mp_held *h);

/* plat_window_cpu over h: 0, or -1 when id cannot run windows (unknown, lost). */
int mp_held_window_cpu(struct mp_held *h, unsigned id, uint64_t timeout_us);

#endif
