// SPDX-License-Identifier: MIT
// Unit tests of the lock-step and serialized chase loops (chase_loop.S) and measure_chase.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/chase_loop.h"
#include "chase/chain.h"
#include "chase/measure.h"
#include "timing_rdtscp.h"

#define LINE 64
#define SLOTS 97 /* not a multiple of the unroll: laps end inside iterations */
#define ITERS 5

/* Every loop of chase_loop.h's list, by number of chains (index 0 and 1 unused). */
#define LOCKSTEP_ENTRY(n) [n] = chase_lockstep_##n,
#define SERIAL_ENTRY(n) [n] = chase_serial_##n,
static const chase_lockstep_fn lockstep[CHASE_LOCKSTEP_MAX + 1] = {
    CHASE_LOCKSTEP_COUNTS(LOCKSTEP_ENTRY)};
static const chase_lockstep_fn serial[CHASE_LOCKSTEP_MAX + 1] = {
    CHASE_LOCKSTEP_COUNTS(SERIAL_ENTRY)};

/* n random chains of SLOTS slots each, in one buffer; heads and a copy of them. */
static uint8_t *chains(unsigned n, void **heads[])
{
    size_t bytes = ((size_t)n * SLOTS * LINE + 4095) / 4096 * 4096;
    uint8_t *buf = aligned_alloc(4096, bytes);
    assert_non_null(buf);
    for (unsigned j = 0; j < n; j++) {
        struct chain_layout l = {buf, (uint64_t)j * SLOTS * LINE, LINE, SLOTS, 0};
        heads[j] = chain_build_random(&l, 100 + j);
    }
    return buf;
}

/* Every loop makes ITERS x CHASE_UNROLL hops on each chain and hands back where it got to. */
static void check_loops(const chase_lockstep_fn *fns, uint64_t use_rdtscp)
{
    for (unsigned n = 2; n <= CHASE_LOCKSTEP_MAX; n++) {
        void **heads[CHASE_LOCKSTEP_MAX], **p[CHASE_LOCKSTEP_MAX];
        assert_non_null(fns[n]); /* the list has every count from 2 up */
        uint8_t *buf = chains(n, heads);
        memcpy(p, heads, sizeof(heads));
        uint64_t ticks = fns[n](p, ITERS, use_rdtscp);
        assert_true(ticks > 0);
        for (unsigned j = 0; j < n; j++)
            assert_ptr_equal(p[j], chain_walk(heads[j], ITERS * CHASE_UNROLL));
        /* A second call continues from there. */
        fns[n](p, 1, use_rdtscp);
        for (unsigned j = 0; j < n; j++)
            assert_ptr_equal(p[j], chain_walk(heads[j], (ITERS + 1) * CHASE_UNROLL));
        free(buf);
    }
}

static void test_lockstep_loops(void **state)
{
    (void)state;
    check_loops(lockstep, 1);
    check_loops(lockstep, 0);
}

static void test_serial_loops(void **state)
{
    (void)state;
    check_loops(serial, 1);
    check_loops(serial, 0);
}

/* measure_chase times points of 1 to CHASE_LOCKSTEP_MAX streams; more cannot be measured. */
static void test_measure_streams(void **state)
{
    (void)state;
    struct timing t;
    timing_rdtscp(&t);
    struct measure_plan plan = {.reps = 3,
                                .min_hops = 64,
                                .target_ticks = 1000,
                                .max_hops = 1 << 20,
                                .core_iters = 4,
                                .partial_laps = true};
    for (unsigned n = 1; n <= CHASE_LOCKSTEP_MAX + 1; n++) {
        void **heads[CHASE_MAX_STREAMS];
        uint8_t *buf = chains(n, heads);
        struct chase_point pt = {.streams = n, .serialized = n % 2, .lap_hops = SLOTS};
        memcpy(pt.head, heads, sizeof(void *) * n);
        struct point_result r;
        int rc = measure_chase(&pt, &plan, &t, &r);
        if (n > CHASE_LOCKSTEP_MAX) {
            assert_int_equal(rc, -1);
        } else {
            assert_int_equal(rc, 0);
            assert_int_equal(r.reps, 3);
            assert_int_equal(r.hops % CHASE_UNROLL, 0);
            assert_true(r.hops >= 64);
            assert_int_equal(r.warm_hops, (SLOTS + CHASE_UNROLL - 1) / CHASE_UNROLL * CHASE_UNROLL);
            assert_true(r.tsc.median > 0);
            measure_release(&r);
        }
        free(buf);
    }
}

/* Repetitions: whole laps unless partial laps are allowed; a bounded warm-up when asked. */
static void test_hops_per_rep(void **state)
{
    (void)state;
    struct measure_plan plan = {.min_hops = 1000, .target_ticks = 100000, .max_hops = 1 << 30};
    /* 10 ticks a hop: the target wants 10000 hops, a lap is 50000 */
    assert_int_equal(measure_hops_per_rep(50000, 50000, 500000, &plan), 50000);
    plan.partial_laps = true;
    assert_int_equal(measure_hops_per_rep(50000, 50000, 500000, &plan), 10000);
    /* the warm-up's own pace counts, whatever its length */
    assert_int_equal(measure_hops_per_rep(50000, 1000, 10000, &plan), 10000);
    plan.max_hops = 4096;
    assert_int_equal(measure_hops_per_rep(50000, 1000, 10000, &plan), 4096);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lockstep_loops),
        cmocka_unit_test(test_serial_loops),
        cmocka_unit_test(test_measure_streams),
        cmocka_unit_test(test_hops_per_rep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
