// SPDX-License-Identifier: MIT
// The timing the chase tests measure with on the host: the RDTSCP chase loop and a TSC taken as
// 1 GHz (one tick a nanosecond; no test judges the value). Include chase/timing.h first.
#ifndef CHASE_TEST_TIMING_RDTSCP_H
#define CHASE_TEST_TIMING_RDTSCP_H

#include <string.h>

#include "arch/chase_loop.h"

#define TEST_TSC_HZ 1000000000ULL /* 1 GHz: ticks read as nanoseconds */

/* t as the tests time with: RDTSCP at the end of a timed region, TEST_TSC_HZ. */
static inline void timing_rdtscp(struct timing *t)
{
    memset(t, 0, sizeof(*t));
    t->tsc_hz = TEST_TSC_HZ;
    t->rdtscp = true;
    t->chase = chase_timed_rdtscp;
}

#endif
