// SPDX-License-Identifier: MIT
// Unit tests of the sweep driver: hook order per point, skipped points, and a failing point.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "experiments/common.h"

#define POINTS 5
#define LOG_MAX 64

/* What the hooks saw, in order: "p0" plan of point 0, "b0" build, "r0" row, ... */
struct trace {
    char log[LOG_MAX][8];
    unsigned n;
    unsigned skip;     /* prepare skips this point */
    unsigned fail;     /* the measurement fails at this point */
    unsigned measured; /* points the fake measurement saw */
};

static struct trace *current;

static void note(struct trace *t, char what, unsigned i)
{
    if (t->n < LOG_MAX) {
        t->log[t->n][0] = what;
        t->log[t->n][1] = (char)('0' + i);
        t->log[t->n][2] = 0;
        t->n++;
    }
}

static void plan(const struct exp_ctx *ctx, void *data, struct exp_point *p)
{
    (void)ctx;
    note(data, 'p', p->index);
    p->label = 4096ULL << p->index;
    p->chain_bytes = p->label;
    p->slots = p->lap_hops = p->label / 64;
    p->plan.reps = 3;
}

static int prepare(struct exp_ctx *ctx, void *data, struct exp_point *p)
{
    (void)ctx;
    struct trace *t = data;
    note(t, 'q', p->index);
    return p->index == t->skip ? EXP_POINT_SKIPPED : 0;
}

static int build(struct exp_ctx *ctx, void *data, struct exp_point *p)
{
    (void)ctx;
    note(data, 'b', p->index);
    p->pt.streams = 1;
    p->pt.lap_hops = p->slots;
    return 0;
}

static void row(struct exp_ctx *ctx, void *data, const struct exp_point *p,
                const struct point_result *r)
{
    (void)ctx;
    struct trace *t = data;
    note(t, 'r', p->index);
    assert_int_equal(r->reps, 3);
}

/* The measurement: three repetitions of a made-up result, or out of memory at t->fail. */
static int fake_measure(const struct chase_point *pt, const struct measure_plan *plan,
                        const struct timing *t, struct point_result *r)
{
    (void)pt;
    (void)t;
    memset(r, 0, sizeof(*r));
    if (current->measured++ == current->fail)
        return -1;
    assert_int_equal(measure_alloc(r, plan->reps, 1), 0);
    r->reps = plan->reps;
    r->assessed = true;
    return 0;
}

static void run_sweep(struct trace *t, int expect)
{
    static struct exp_ctx ctx;
    static struct machine m;
    static struct chase_config cfg;
    struct timing timing = {.tsc_hz = 1000000000, .wall_tsc_hz = 1000000000};
    memset(&ctx, 0, sizeof(ctx));
    ctx.m = &m;
    ctx.cfg = &cfg;
    ctx.timing = &timing;
    ctx.measure = fake_measure;
    current = t;
    struct exp_sweep s = {
        .points = POINTS, .data = t, .plan = plan, .prepare = prepare, .build = build, .row = row};
    assert_int_equal(exp_sweep_run(&ctx, &s), expect);
    if (expect == EXP_RUN_FAILED)
        assert_string_equal(ctx.failure, "point 16K: out of memory");
}

static void assert_log(const struct trace *t, const char *const *want, unsigned n)
{
    assert_int_equal(t->n, n);
    for (unsigned i = 0; i < n; i++)
        assert_string_equal(t->log[i], want[i]);
}

/* Every point planned for the estimate first, then plan, prepare, build, row point by point. */
static void test_hook_order_and_skip(void **state)
{
    (void)state;
    struct trace t = {.skip = 2, .fail = 99};
    static const char *const want[] = {"p0", "p1", "p2", "p3", "p4", "p0", "q0", "b0",
                                       "r0", "p1", "q1", "b1", "r1", "p2", "q2", "p3",
                                       "q3", "b3", "r3", "p4", "q4", "b4", "r4"};
    run_sweep(&t, 0);
    assert_log(&t, want, sizeof(want) / sizeof(want[0]));
    assert_int_equal(t.measured, POINTS - 1); /* the skipped point is not measured */
}

/* A point that cannot be measured ends the sweep there; no row is written for it. */
static void test_failing_point_stops(void **state)
{
    (void)state;
    struct trace t = {.skip = 99, .fail = 2};
    static const char *const want[] = {"p0", "p1", "p2", "p3", "p4", "p0", "q0", "b0",
                                       "r0", "p1", "q1", "b1", "r1", "p2", "q2", "b2"};
    run_sweep(&t, EXP_RUN_FAILED);
    assert_log(&t, want, sizeof(want) / sizeof(want[0]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hook_order_and_skip),
        cmocka_unit_test(test_failing_point_stops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
