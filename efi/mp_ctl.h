// SPDX-License-Identifier: MIT
// The decisions about other processors that the firmware's MP services carry out: when a
// processor may take new work, retrying a busy answer, finite timeouts, which are lost.
#ifndef CHASE_MP_CTL_H
#define CHASE_MP_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MP_CTL_TIMEOUT (-2)       /* the processor did not come back: it is lost */
#define MP_NOT_READY_TRIES 50     /* busy answers retried before a start fails */
#define MP_NOT_READY_STALL_US 200 /* between them: the firmware's AP loop needs microseconds */
#define MP_POLL_US 10             /* between looks at the processors' flags */
#define MP_SETTLE_US                                                                               \
    2000000ULL /* a job done, the processor is back with the firmware by                           \
                  then (EDK II looks every 100 ms; 20 looks) */

/* What the firmware answered a start. */
enum mp_fw {
    MP_FW_OK,        /* started (and, when waited for, finished) */
    MP_FW_NOT_READY, /* the processor is still busy for the firmware: try again shortly */
    MP_FW_TIMEOUT,   /* waited for and not finished within the timeout */
    MP_FW_ERROR      /* refused otherwise */
};

/* The firmware's MP services, as thin as they can be (efi/x86_64/x64_mp.c; stubs in the tests). */
struct mp_fw_ops {
    /* Start slot's job; wait: return only when it is over or timeout_us passed. */
    enum mp_fw (*start)(void *ctx, unsigned slot, bool wait, uint64_t timeout_us);
    /* The firmware's completion event of slot's last start without waiting has signalled. */
    bool (*finished)(void *ctx, unsigned slot);
    /* The job's own flag: its work is over (raised by the processor before it returns). */
    bool (*job_done)(void *ctx, unsigned slot);
    void (*stall)(void *ctx, uint64_t us);
    void *ctx;
};

/* One processor as the controller sees it. */
struct mp_ctl_slot {
    bool bsp;  /* the caller's own: never started */
    bool busy; /* started without waiting; the firmware has not yet said it is back */
    bool lost; /* did not come back in time: never started again, the run ends with a reset */
};

struct mp_ctl {
    const struct mp_fw_ops *ops;
    struct mp_ctl_slot *slot;
    unsigned n;
    unsigned not_ready;        /* busy answers retried so far */
    unsigned lost;             /* processors lost so far */
    uint64_t settle_waited_us; /* stalled waiting for the firmware to have a processor back */
};

/* Run slot's job and wait at most timeout_us: 0, -1 (cannot: lost, the caller's, refused) or
 * MP_CTL_TIMEOUT (now lost). A processor still busy from a start is first awaited. */
int mp_ctl_run(struct mp_ctl *c, unsigned slot, uint64_t timeout_us);

/*
 * May slot take a job now? Waits (bounded) for the firmware to have it back from a start
 * without waiting; false when it is the caller's own, lost, or never came back (then lost).
 * Call it for every processor of a group before starting any, so they start together.
 */
bool mp_ctl_ready(struct mp_ctl *c, unsigned slot);

/* Start slot's job without waiting (the firmware's timeout timeout_us): 0 or -1. */
int mp_ctl_start(struct mp_ctl *c, unsigned slot, uint64_t timeout_us);

/*
 * Wait at most timeout_us for the jobs of slots[0..k) that mp_ctl_start started; done[i] says
 * whose job is over. Those not are lost. Returns 0 when all are over, else MP_CTL_TIMEOUT.
 */
int mp_ctl_wait(struct mp_ctl *c, const unsigned *slots, unsigned k, bool *done,
                uint64_t timeout_us);

/* Before chase returns: wait for every busy processor to be back (those not are lost). */
void mp_ctl_settle(struct mp_ctl *c);

/* A processor was lost: it may still run chase's code, so the run must end with a reset. */
bool mp_ctl_must_reset(const struct mp_ctl *c);

#endif
