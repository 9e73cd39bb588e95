// SPDX-License-Identifier: MIT
// Processors incrementing one shared line at once (LOCK ADD, LDADD): each counts its own
// increments over its own clock, in one window, until the first processor calls time.
//
// No processor's timestamp is compared with another's: each divides its own time by its own
// increments (ns per increment), and the group's rate is the sum of each one's own rate, which
// holds while they overlap: the others stop within one batch of the leader's stop.
#include "procs/contend.h"

#include "arch/cpu.h"
#include "procs/mp.h"

void contend_begin(struct contend_run *run, struct contend_side *sides, unsigned n)
{
    *run->line = 0;
    *run->start = 0;
    *run->stop = 0;
    run->n = n;
    for (unsigned i = 0; i < n; i++)
        sides[i] = (struct contend_side){.run = run, .leader = i == 0};
}

/* The increments, from the start to the stop (the leader's clock or its flag). */
static void contend_loop(struct contend_side *s)
{
    struct contend_run *r = s->run;
    uint64_t t0 = arch_tsc_fenced(), now = t0;
    for (;;) {
        arch_atomic_add_ones(r->line, CONTEND_BATCH, r->variant);
        s->ops += CONTEND_BATCH;
        now = arch_tsc_fenced();
        if (s->leader && now - t0 >= r->run_ticks) {
            __atomic_store_n(r->stop, 1, __ATOMIC_RELEASE);
            s->ok = true;
            break;
        }
        if (!s->leader && __atomic_load_n(r->stop, __ATOMIC_ACQUIRE)) {
            s->ok = true;
            break;
        }
        if (now > r->deadline) /* the leader is gone: stop, not ok */
            break;
    }
    s->ticks = now - t0;
}

bool contend_step(void *arg)
{
    struct contend_side *s = arg;
    struct contend_run *r = s->run;
    struct win_slice w;
    win_begin(&w, arch_tsc_fenced(), r->window_ticks);
    if (!s->arrived) {
        __atomic_fetch_add(r->start, 1, __ATOMIC_ACQ_REL);
        s->arrived = true;
    }
    enum win_state st = mp_wait_in(r->start, r->n, r->deadline, &w);
    if (st == WIN_WINDOW_END)
        return true; /* the others are late: wait on in the next window */
    if (st == WIN_GO_ON && !win_fits(&w, arch_tsc_fenced(), r->run_ticks))
        return true; /* the run would outlast this window: join it at the next one's start */
    if (st == WIN_GO_ON)
        contend_loop(s);
    return false;
}
