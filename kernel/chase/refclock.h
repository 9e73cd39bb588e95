// SPDX-License-Identifier: MIT
// Calibrating the TSC against a free-running counter of known frequency (PM timer, HPET).
#ifndef CHASE_REFCLOCK_H
#define CHASE_REFCLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct counter {
    uint64_t (*read)(const struct counter *c); /* the counter's current value */
    uint64_t hz;                               /* counts per second */
    unsigned bits;                             /* width: it wraps at 2^bits */
    uint64_t addr;                             /* for read(): port or physical address */
};

/*
 * Count TSC ticks over about interval_ns of the counter, following its wrap-around;
 * the interval starts on a counter edge so a partial count is not included. Returns
 * false when the counter does not advance (not running).
 */
bool refclock_sample(const struct counter *c, uint64_t interval_ns, uint64_t *ticks,
                     uint64_t *ref_ns);

#endif
