// SPDX-License-Identifier: MIT
// The decisions about other processors that the firmware's MP services carry out: when a
// processor may take new work, retrying a busy answer, finite timeouts, which are lost.
//
// A job raises its own done flag before it returns to the firmware, so the flag says the work
// is over, not that the processor is free again: the firmware learns that later (EDK II on a
// timer, and AMI answers a new start with "not ready" meanwhile). So a processor started
// without waiting is taken again only after the firmware's completion event has signalled.
#include "mp_ctl.h"

static void lose(struct mp_ctl *c, unsigned slot)
{
    if (!c->slot[slot].lost)
        c->lost++;
    c->slot[slot].lost = true;
}

/* A processor still busy for the firmware: wait for its completion event, bounded. */
static bool settled(struct mp_ctl *c, unsigned slot)
{
    struct mp_ctl_slot *s = &c->slot[slot];
    for (uint64_t waited = 0; s->busy; waited += MP_POLL_US) {
        if (c->ops->finished(c->ops->ctx, slot)) {
            s->busy = false;
            break;
        }
        if (waited >= MP_SETTLE_US) {
            lose(c, slot);
            return false;
        }
        c->ops->stall(c->ops->ctx, MP_POLL_US);
        c->settle_waited_us += MP_POLL_US;
    }
    return true;
}

/* Start slot, retrying busy answers with a short stall. */
static enum mp_fw start_retrying(struct mp_ctl *c, unsigned slot, bool wait, uint64_t timeout_us)
{
    enum mp_fw r = MP_FW_NOT_READY;
    for (unsigned t = 0; t < MP_NOT_READY_TRIES; t++) {
        r = c->ops->start(c->ops->ctx, slot, wait, timeout_us);
        if (r != MP_FW_NOT_READY)
            break;
        c->not_ready++;
        c->ops->stall(c->ops->ctx, MP_NOT_READY_STALL_US);
    }
    return r;
}

bool mp_ctl_ready(struct mp_ctl *c, unsigned slot)
{
    return slot < c->n && !c->slot[slot].bsp && !c->slot[slot].lost && settled(c, slot);
}

int mp_ctl_run(struct mp_ctl *c, unsigned slot, uint64_t timeout_us)
{
    if (!mp_ctl_ready(c, slot))
        return -1;
    enum mp_fw r = start_retrying(c, slot, true, timeout_us);
    if (r == MP_FW_TIMEOUT) {
        lose(c, slot);
        return MP_CTL_TIMEOUT;
    }
    return r == MP_FW_OK && c->ops->job_done(c->ops->ctx, slot) ? 0 : -1;
}

int mp_ctl_start(struct mp_ctl *c, unsigned slot, uint64_t timeout_us)
{
    if (!mp_ctl_ready(c, slot))
        return -1;
    if (start_retrying(c, slot, false, timeout_us) != MP_FW_OK)
        return -1;
    c->slot[slot].busy = true;
    return 0;
}

int mp_ctl_wait(struct mp_ctl *c, const unsigned *slots, unsigned k, bool *done,
                uint64_t timeout_us)
{
    unsigned back = 0;
    for (uint64_t waited = 0;; waited += MP_POLL_US) {
        back = 0;
        for (unsigned i = 0; i < k; i++)
            back += done[i] = c->ops->job_done(c->ops->ctx, slots[i]);
        if (back == k || waited >= timeout_us)
            break;
        c->ops->stall(c->ops->ctx, MP_POLL_US);
    }
    for (unsigned i = 0; i < k; i++)
        if (!done[i])
            lose(c, slots[i]); /* still running chase's code: never started again */
    return back == k ? 0 : MP_CTL_TIMEOUT;
}

void mp_ctl_settle(struct mp_ctl *c)
{
    for (unsigned i = 0; i < c->n; i++)
        if (!c->slot[i].lost)
            settled(c, i);
}

bool mp_ctl_must_reset(const struct mp_ctl *c)
{
    return c->lost > 0;
}
