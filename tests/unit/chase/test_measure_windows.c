// SPDX-License-Identifier: MIT
// Unit tests of what measure_chase does inside each window: the untimed walk before the first
// timestamp (its hops counted through where the chain ends, bounded by what refills the TLBs),
// the window_max_ms cap on a repetition, a long warm-up cut short once steady, and repetitions
// dropped for an NMI or machine check.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/chase_loop.h"
#include "chase/chain.h"
#include "chase/measure.h"
#include "config/config.h"
#include "lib/kmath.h"
#include "stubs/stub_platform.h"
#include "timing_rdtscp.h"

#define LINE 64
#define SLOTS 1009 /* prime: the end position tells the hop count modulo it */

static uint8_t *buf;
static struct timing t;

static int setup(void **state)
{
    (void)state;
    buf = aligned_alloc(4096, (SLOTS * LINE + 4095) / 4096 * 4096);
    assert_non_null(buf);
    timing_rdtscp(&t);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(buf);
    return 0;
}

/* A linear ring over SLOTS lines: slot k points to slot k+1, the last to the first. */
static struct chase_point ring_point(unsigned streams)
{
    struct chase_point pt;
    memset(&pt, 0, sizeof(pt));
    struct chain_layout l = {buf, 0, LINE, SLOTS, 0};
    void **head = chain_build_linear(&l);
    for (unsigned i = 0; i < streams; i++)
        pt.head[i] = head; /* lock-step streams on one ring each advance alike */
    pt.streams = streams;
    pt.lap_hops = SLOTS;
    return pt;
}

static uint64_t slot_of(void **p)
{
    return (uint64_t)((uint8_t *)p - buf) / LINE;
}

static struct measure_plan fixed_plan(unsigned reps, uint64_t min_hops)
{
    struct measure_plan p = {.reps = reps,
                             .min_hops = min_hops,
                             .max_hops = 1 << 20,
                             .core_iters = 4,
                             .partial_laps = true,
                             .max_reps = reps};
    return p;
}

/*
 * Every hop the chain took is counted by where it stopped: the warm-up, then per repetition
 * the untimed walk and the timed hops, in one window each. The host and the firmware run this
 * same code (only plat_window_run differs), so both start every repetition equally warm.
 */
static void check_hops(unsigned streams, uint64_t min_hops, uint64_t bound, uint64_t want_prewalk)
{
    struct chase_point pt = ring_point(streams);
    struct measure_plan p = fixed_plan(4, min_hops);
    p.prewalk_max_hops = bound;
    struct point_result r;
    stub_windows = 0;
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    assert_int_equal(r.reps, 4);
    assert_int_equal(r.prewalk_hops, want_prewalk);
    uint64_t hops = r.warm_hops + r.reps * (r.prewalk_hops + r.hops);
    for (unsigned i = 0; i < streams; i++)
        assert_int_equal(slot_of(r.end[i]), hops % SLOTS);
    /* Without the untimed walk the chain would stop elsewhere: the check can fail. */
    assert_true(r.reps * r.prewalk_hops % SLOTS != 0);
    measure_release(&r);
}

/* Repetitions longer than a lap walk one lap first (rounded to the unroll); shorter ones as
   many hops as they time. One chain and lock-step chains alike. */
static void test_prewalk_hops_counted(void **state)
{
    (void)state;
    uint64_t lap = (SLOTS + CHASE_UNROLL - 1) / CHASE_UNROLL * CHASE_UNROLL;
    check_hops(1, 4096, 0, lap);
    check_hops(1, 256, 0, 256);
    check_hops(3, 4096, 0, lap);
    check_hops(3, 512, 0, 512);
    /* A bound (what refills the TLBs) shortens the walk of a chain longer than a repetition,
       never the lap of one that a repetition covers (that walk warms the caches too). */
    check_hops(1, 512, 100, 112);
    check_hops(3, 512, 100, 112);
    check_hops(1, 4096, 100, lap);
    check_hops(1, 512, 600, 512);
}

/* The bound as measure_prewalk_hops applies it. */
static void test_prewalk_bound(void **state)
{
    (void)state;
    struct measure_plan p = fixed_plan(1, 1);
    p.prewalk_max_hops = 1000;
    assert_int_equal(measure_prewalk_hops(50000, 8192, &p), 1008); /* rounded to the unroll */
    assert_int_equal(measure_prewalk_hops(50000, 512, &p), 512);   /* never past the repetition */
    assert_int_equal(measure_prewalk_hops(5000, 8192, &p), 5008);  /* a lap it covers: a lap */
    p.prewalk_max_hops = 0;
    assert_int_equal(measure_prewalk_hops(50000, 8192, &p), 8192);
}

/* The steady-state test: the third and last quarters' median paces, within the tolerance. */
static void test_warm_steady(void **state)
{
    (void)state;
    double paces[64], scratch[64];
    for (unsigned i = 0; i < 64; i++)
        paces[i] = 100.0;
    assert_false(measure_warm_steady(paces, 14, 0.01, scratch)); /* 3 in a quarter: too few */
    assert_true(measure_warm_steady(paces, 15, 0.01, scratch));
    paces[13] = 1e6; /* a preempted window: the median holds */
    assert_true(measure_warm_steady(paces, 16, 0.01, scratch));
    /* A transient (the build's leftovers leaving the caches): 20% excess decaying over 8
       windows. Steady only once the latest half is several decay lengths in. */
    unsigned first = 0;
    for (unsigned i = 0; i < 64; i++)
        paces[i] = 100.0 * (1 + 0.2 * kexp(-(double)i / 8));
    for (unsigned n = 15; n <= 64 && !first; n++)
        first = measure_warm_steady(paces, n, 0.01, scratch) ? n : 0;
    assert_true(first >= 32);
    assert_true(paces[first - 1] < 100.0 * 1.01); /* within the tolerance of the steady pace */
    /* A step in the last quarter is never steady. */
    for (unsigned i = 0; i < 64; i++)
        paces[i] = i < 56 ? 100.0 : 103.0;
    assert_false(measure_warm_steady(paces, 64, 0.01, scratch));
}

/* warm_steady_ticks lets a long warm-up stop once steady; every hop it took is counted. */
static void test_warmup_cut_when_steady(void **state)
{
    (void)state;
    struct chase_point pt = ring_point(1);
    struct measure_plan p = fixed_plan(2, 256);
    p.warm_hops = 1 << 20;
    p.window_max_ticks = 20000;
    p.precision = 0.5; /* a tolerance of 50%: whatever the machine's load, the paces agree */
    p.warm_steady_ticks = 1;
    struct point_result r;
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    assert_true(r.warm_hops < (1 << 20));
    uint64_t hops = r.warm_hops + r.reps * (r.prewalk_hops + r.hops);
    assert_int_equal(slot_of(r.end[0]), hops % SLOTS);
    measure_release(&r);
    p.warm_steady_ticks = 0; /* never: the whole warm-up */
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    assert_int_equal(r.warm_hops, 1 << 20);
    measure_release(&r);
    p.warm_steady_ticks = 1;
    p.warm_laps_set = true; /* laps asked for are laps taken */
    p.warm_laps = 300;
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    assert_int_equal(r.warm_hops, (300 * SLOTS + CHASE_UNROLL - 1) / CHASE_UNROLL * CHASE_UNROLL);
    measure_release(&r);
}

/* warm_laps = 0 asks for the way from cold: nothing walks before the timestamps. */
static void test_no_prewalk_without_warmup(void **state)
{
    (void)state;
    struct chase_point pt = ring_point(1);
    struct measure_plan p = fixed_plan(3, 1);
    p.warm_laps_set = true;
    p.warm_laps = 0;
    p.partial_laps = false;
    struct point_result r;
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    assert_int_equal(r.prewalk_hops, 0);
    assert_int_equal(r.warm_hops, 0);
    assert_int_equal(slot_of(r.end[0]), (3 * r.hops) % SLOTS);
    measure_release(&r);
    assert_int_equal(measure_prewalk_hops(5000, 8192, &p), 0);
    p.warm_laps = 1;
    assert_int_equal(measure_prewalk_hops(5000, 8192, &p), 5008);
    assert_int_equal(measure_prewalk_hops(50000, 8192, &p), 8192);
}

/* The window cap: at the warm-up's pace, walk and repetition fit in window_max_ticks. */
static void test_window_cap(void **state)
{
    (void)state;
    struct measure_plan p = fixed_plan(1, 4096);
    p.target_ticks = 10000000; /* 10 ms */
    p.window_max_ticks = 1000000;
    /* 10 ticks per hop: 1e6 ticks hold 2 x 50000 hops (walk and repetition). */
    assert_int_equal(measure_hops_per_rep(1 << 20, 1000, 10000, &p), 50000);
    p.window_max_ticks = 1000100; /* 50005 hops: down to a multiple of the unroll */
    assert_int_equal(measure_hops_per_rep(1 << 20, 1000, 10000, &p), 50000);
    p.window_max_ticks = 0;
    assert_int_equal(measure_hops_per_rep(1 << 20, 1000, 10000, &p), 1000000);
    /* The cap wins over min_hops, down to one iteration of the loop. */
    p.window_max_ticks = 100;
    assert_int_equal(measure_hops_per_rep(1 << 20, 1000, 10000, &p), CHASE_UNROLL);
    /* Whole laps are not split: the cap does not shorten them. */
    p.partial_laps = false;
    p.window_max_ticks = 1000000;
    assert_int_equal(measure_hops_per_rep(1 << 20, 1000, 10000, &p), 1 << 20);
}

/*
 * A warm-up that would take longer than warm_steady_ticks may stop from WARM_STEADY_FROM_SHARE
 * of it on (not only once it has taken all of it); a shorter one is taken whole.
 */
static void test_warmup_cut_early(void **state)
{
    (void)state;
    /* 1000 of 10000 hops in 30 ticks: 300 ticks in all. */
    assert_true(measure_warm_may_stop_at(30, 1000, 10000, 100));  /* 300 > 100, 30 >= 20 */
    assert_false(measure_warm_may_stop_at(19, 1000, 10000, 100)); /* 19 < 20: too soon */
    assert_false(measure_warm_may_stop_at(30, 1000, 10000, 300)); /* 300 in all: whole */
    assert_false(measure_warm_may_stop_at(30, 1000, 10000, 0));   /* 0: never */
    assert_false(measure_warm_may_stop_at(30, 0, 10000, 100));    /* no pace yet */
}

/* A bounded walk more than MEASURE_WALK_SHARE_MAX of the repetition makes it longer. */
static void test_walk_share(void **state)
{
    (void)state;
    struct measure_plan p = fixed_plan(1, 4096);
    /* A lap of 1024 covered by 4096 hops: the lap walk (25%) is left alone, bound or not. */
    assert_int_equal(measure_hops_per_rep(1024, 0, 0, &p), 4096);
    p.prewalk_max_hops = 1000;
    assert_int_equal(measure_hops_per_rep(1024, 0, 0, &p), 4096);
    p.prewalk_max_hops = 100; /* 112 hops, 3% of the repetition: as it was */
    assert_int_equal(measure_hops_per_rep(1 << 20, 0, 0, &p), 4096);
    /* A bounded walk (1008 hops) of a chain longer than the repetition: 8 x 1008, or short of
       the lap where that would cover it (the walk would become the lap). */
    p.prewalk_max_hops = 1000;
    assert_int_equal(measure_hops_per_rep(1 << 20, 0, 0, &p), 8064);
    assert_int_equal(measure_hops_per_rep(6000, 0, 0, &p), 6000 - CHASE_UNROLL);
    /* Without a bound the walk is as long as the repetition at any length: left alone. */
    p.prewalk_max_hops = 0;
    assert_int_equal(measure_hops_per_rep(1 << 20, 0, 0, &p), 4096);
    /* max_hops and the window cap still bound it (10 ticks per hop, 1e5-tick windows). */
    p.prewalk_max_hops = 1000;
    p.max_hops = 6000;
    assert_int_equal(measure_hops_per_rep(1 << 20, 0, 0, &p), 6000);
    p.max_hops = 1 << 20;
    p.window_max_ticks = 100000;
    assert_int_equal(measure_hops_per_rep(1 << 20, 1000, 10000, &p), 4992);
    /* Whole laps and the way from cold (no walk) are not touched. */
    p.window_max_ticks = 0;
    p.warm_laps_set = true;
    p.warm_laps = 0;
    assert_int_equal(measure_hops_per_rep(1 << 20, 0, 0, &p), 4096);
}

/* Add-chain calls, and what each returned (ticks), for test_clock_shared. */
static unsigned adds_calls;
static uint64_t adds_ticks[16];

static uint64_t counting_adds(uint64_t iters)
{
    uint64_t ticks = iters * CHASE_UNROLL / 3 + 5 * adds_calls; /* ~3 cycles a tick, drifting */
    if (adds_calls < 16)
        adds_ticks[adds_calls] = ticks;
    adds_calls++;
    return ticks;
}

/* Consecutive repetitions share a clock estimate: reps + 1 add chains, each repetition
   between the estimate before it and the one after it. */
static void test_clock_shared(void **state)
{
    (void)state;
    struct chase_point pt = ring_point(1);
    struct measure_plan p = fixed_plan(4, 4096);
    struct point_result r;
    struct timing tt = t;
    tt.adds = counting_adds;
    adds_calls = 0;
    assert_int_equal(measure_chase(&pt, &p, &tt, &r), 0);
    assert_int_equal(r.reps, 4);
    assert_int_equal(adds_calls, r.reps + 1);
    uint64_t adds = p.core_iters * CHASE_UNROLL;
    for (unsigned i = 0; i < r.reps; i++) {
        double before = timing_adds_ratio(adds, adds_ticks[i], tt.adds_overhead_ticks);
        double after = timing_adds_ratio(adds, adds_ticks[i + 1], tt.adds_overhead_ticks);
        assert_true(r.core_per_rep[i] > 0);
        assert_true(r.core_per_rep[i] == timing_pair_ratio(before, after));
    }
    assert_true(r.core_per_rep[0] != r.core_per_rep[1]); /* the drift shows: not one figure */
    measure_release(&r);
}

/* Windows measure_chase opens before the warm-up's (the core clock's), counted undisturbed. */
static unsigned windows_before_warmup(const struct chase_point *pt, const struct measure_plan *p)
{
    struct point_result r;
    stub_windows = 0;
    assert_int_equal(measure_chase(pt, p, &t, &r), 0);
    unsigned w = stub_windows - 1 - r.reps; /* the warm-up, then one per repetition */
    measure_release(&r);
    return w;
}

/* With a window cap the warm-up runs in several windows; every hop of it is still walked. */
static void test_warmup_split(void **state)
{
    (void)state;
    struct chase_point pt = ring_point(1);
    struct measure_plan p = fixed_plan(2, 256);
    p.warm_hops = 3 * 4096 + 160; /* more than the first window's 4096 hops */
    struct point_result r;
    unsigned before = windows_before_warmup(&pt, &p);
    stub_windows = 0;
    p.window_max_ticks = 1; /* tiny: every window after the first holds one iteration */
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    assert_int_equal(r.warm_hops, 3 * 4096 + 160);
    unsigned warm_windows = stub_windows - before - r.reps;
    assert_int_equal(warm_windows, 1 + (3 * 4096 + 160 - 4096) / CHASE_UNROLL);
    assert_int_equal(r.hops, CHASE_UNROLL); /* the repetitions are capped as well */
    uint64_t hops = r.warm_hops + r.reps * (r.prewalk_hops + r.hops);
    assert_int_equal(slot_of(r.end[0]), hops % SLOTS);
    measure_release(&r);
    p.window_max_ticks = 0; /* no cap: one window */
    stub_windows = 0;
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    assert_int_equal(stub_windows - before - r.reps, 1);
    measure_release(&r);
}

/* Whole laps (warm_laps = 0) longer than the window cap are timed in several windows, summed:
   the first at 4096 hops, the later repetitions at the pace of the one before. */
static void test_whole_lap_split(void **state)
{
    (void)state;
    struct chase_point pt = ring_point(1);
    struct measure_plan p = fixed_plan(3, 1);
    p.warm_laps_set = true;
    p.warm_laps = 0;
    p.partial_laps = false;
    struct point_result r;
    stub_windows = 0;
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    unsigned base = stub_windows - 3; /* the core clock's, if any */
    assert_int_equal(r.split_windows, 0);
    measure_release(&r);
    p.window_max_ticks = 1; /* tiny: a window of one loop iteration once the pace is known */
    stub_windows = 0;
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    uint64_t lap = (SLOTS + CHASE_UNROLL - 1) / CHASE_UNROLL * CHASE_UNROLL;
    assert_int_equal(r.hops, lap);
    assert_int_equal(r.split_windows, 2 * (lap / CHASE_UNROLL - 1));
    assert_int_equal(stub_windows, base + 1 + 2 * lap / CHASE_UNROLL);
    assert_int_equal(slot_of(r.end[0]), 3 * lap % SLOTS); /* every hop chased, none twice */
    for (unsigned i = 0; i < r.reps; i++)
        assert_true(r.ticks[i] > 0 && r.tsc_per_access[i] > 0);
    measure_release(&r);
}

/* An NMI or machine check costs the window it hit, counted; the point goes on. */
static void test_interruption_dropped(void **state)
{
    (void)state;
    struct chase_point pt = ring_point(1);
    struct measure_plan p = fixed_plan(5, 256);
    struct point_result r;
    unsigned before = windows_before_warmup(&pt, &p);
    stub_windows = 0;
    stub_window_skip = before;
    stub_window_interruptions = 3; /* the warm-up three times: it is taken again */
    stub_window_interruption_vector = 2;
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    assert_int_equal(r.reps, 5);
    assert_int_equal(r.dropped, 3);
    assert_int_equal(r.dropped_vector, 2);
    assert_int_equal(stub_windows, before + 1 + 5 + 3);
    uint64_t hops = 4 * r.warm_hops + 5 * (r.prewalk_hops + r.hops);
    assert_int_equal(slot_of(r.end[0]), hops % SLOTS); /* dropped windows still walked */
    measure_release(&r);
    stub_windows = 0;
    stub_window_skip = before + 1 + 2; /* the third repetition's window */
    stub_window_interruptions = 1;
    stub_window_interruption_vector = 18;
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    assert_int_equal(r.reps, 5);
    assert_int_equal(r.dropped, 1);
    assert_int_equal(r.dropped_vector, 18);
    assert_int_equal(stub_windows, before + 1 + 5 + 1);
    hops = r.warm_hops + 6 * (r.prewalk_hops + r.hops);
    assert_int_equal(slot_of(r.end[0]), hops % SLOTS);
    measure_release(&r);
}

/* A storm of them, or any other exception, fails the point and says which. */
static void test_interruption_storm_fails(void **state)
{
    (void)state;
    struct chase_point pt = ring_point(1);
    struct measure_plan p = fixed_plan(5, 256);
    struct point_result r;
    unsigned before = windows_before_warmup(&pt, &p);
    stub_window_skip = before;
    stub_window_interruptions = 1000;
    stub_window_interruption_vector = 2;
    assert_int_equal(measure_chase(&pt, &p, &t, &r), -1);
    assert_true(r.fault.faulted);
    assert_int_equal(r.fault.vector, 2);
    assert_true(r.dropped > 0 && r.dropped < 1000);
    measure_release(&r);
    stub_window_skip = before;
    stub_window_interruptions = 1;
    stub_window_interruption_vector = 14; /* a page fault is chase's own: no retry */
    assert_int_equal(measure_chase(&pt, &p, &t, &r), -1);
    assert_int_equal(r.dropped, 0);
    assert_int_equal(r.fault.vector, 14);
    measure_release(&r);
    stub_window_interruptions = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prewalk_hops_counted),
        cmocka_unit_test(test_prewalk_bound),
        cmocka_unit_test(test_warm_steady),
        cmocka_unit_test(test_warmup_cut_when_steady),
        cmocka_unit_test(test_no_prewalk_without_warmup),
        cmocka_unit_test(test_window_cap),
        cmocka_unit_test(test_walk_share),
        cmocka_unit_test(test_warmup_cut_early),
        cmocka_unit_test(test_clock_shared),
        cmocka_unit_test(test_warmup_split),
        cmocka_unit_test(test_whole_lap_split),
        cmocka_unit_test(test_interruption_dropped),
        cmocka_unit_test(test_interruption_storm_fails),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
