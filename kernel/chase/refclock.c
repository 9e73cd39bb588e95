// SPDX-License-Identifier: MIT
// Calibrating the TSC against a free-running counter of known frequency (PM timer, HPET).
#include "chase/refclock.h"

#include "arch/cpu.h"

/* Reads that may pass before a counter that never changes is given up on. */
#define STUCK_READS 1000000

bool refclock_sample(const struct counter *c, uint64_t interval_ns, uint64_t *ticks,
                     uint64_t *ref_ns)
{
    uint64_t mask = c->bits >= 64 ? UINT64_MAX : (1ULL << c->bits) - 1;
    uint64_t want = (uint64_t)((double)interval_ns * (double)c->hz / 1e9);
    uint64_t last = c->read(c) & mask, now;
    unsigned spins = 0;
    /* Start on an edge: wait for the counter to change. */
    while ((now = c->read(c) & mask) == last) {
        if (++spins > STUCK_READS)
            return false;
    }
    uint64_t t0 = arch_tsc_fenced();
    uint64_t counted = 0, t1 = t0;
    last = now;
    spins = 0;
    while (counted < want) {
        now = c->read(c) & mask;
        t1 = arch_tsc_fenced();
        uint64_t delta = (now - last) & mask;
        if (!delta && ++spins > STUCK_READS)
            return false;
        counted += delta;
        last = now;
    }
    *ticks = t1 - t0;
    *ref_ns = (uint64_t)((double)counted * 1e9 / (double)c->hz);
    return true;
}
