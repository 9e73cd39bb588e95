// SPDX-License-Identifier: MIT
// Unit tests of the sweep driver: hook order per point, skipped points, and a failing point.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "experiments/driver.h"
#include "point/ctx.h"
#include "point/passes.h"

#define POINTS 5
#define LOG_MAX 128

/* What the hooks saw, in order: "p0" plan of point 0, "b0" build, "r0" row, ... */
struct trace {
    char log[LOG_MAX][8];
    unsigned n;
    unsigned skip;      /* prepare skips this point */
    unsigned fail;      /* the measurement fails at this point */
    unsigned measured;  /* points the fake measurement saw */
    unsigned want_reps; /* what each row must see (3: one pass) */
    unsigned want_passes;
    bool noisy;         /* the fake repetitions never reach a precision */
    uint64_t max_ticks; /* the points' time cap (0: none) */
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

static void assert_log(const struct trace *t, const char *const *want, unsigned n)
{
    assert_int_equal(t->n, n);
    for (unsigned i = 0; i < n; i++)
        assert_string_equal(t->log[i], want[i]);
}

/* The last n entries of the log are want. */
static void assert_log_tail(const struct trace *t, const char *const *want, unsigned n)
{
    assert_true(t->n >= n);
    for (unsigned i = 0; i < n; i++)
        assert_string_equal(t->log[t->n - n + i], want[i]);
}

static void plan(const struct exp_ctx *ctx, void *data, struct exp_point *p)
{
    (void)ctx;
    note(data, 'p', p->index);
    p->label = 4096ULL << p->index;
    p->chain_bytes = p->label;
    p->slots = p->lap_hops = p->label / 64;
    p->plan.reps = 3;
    p->plan.precision = 0.005;
    p->plan.max_ticks = ((struct trace *)data)->max_ticks;
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
    assert_int_equal(r->reps, t->want_reps ? t->want_reps : 3);
    assert_int_equal(r->passes, t->want_passes);
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
    r->hops = plan->min_hops;
    for (unsigned i = 0; i < r->reps; i++) {
        r->tsc_per_access[i] = current->noisy ? 1.0 + (i % 2) : 2.0;
        r->ticks[i] = 1000;
    }
    r->assessed = true;
    return 0;
}

/* Point i's position in the order. */
static unsigned position(const unsigned *order, unsigned n, unsigned i)
{
    for (unsigned k = 0; k < n; k++) {
        if (order[k] == i)
            return k;
    }
    fail_msg("point %u missing from the order", i);
    return 0;
}

/* Each pass visits every point once, neighbours in size never next to each other in time,
   never in size order, and no two passes start at the same point. */
static void test_pass_order(void **state)
{
    (void)state;
    static const unsigned sizes[] = {1, 2, 5, 13, 65, 256};
    unsigned order[256], first[4];
    for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        unsigned n = sizes[s];
        for (unsigned pass = 0; pass < 4; pass++) {
            unsigned seen[256] = {0};
            exp_pass_order(n, pass, 4, order);
            for (unsigned k = 0; k < n; k++) {
                assert_true(order[k] < n);
                assert_int_equal(seen[order[k]]++, 0);
            }
            first[pass] = order[0];
            if (n < 5 || pass)
                continue; /* the shift of later passes joins the ends of the sweep */
            unsigned ascending = 0;
            for (unsigned i = 0; i + 1 < n; i++) {
                unsigned a = position(order, n, i), b = position(order, n, i + 1);
                assert_true(a > b + 1 || b > a + 1);
                ascending += b > a;
            }
            assert_true(ascending < n - 1);
        }
        if (n >= 4)
            for (unsigned pass = 1; pass < 4; pass++)
                assert_int_not_equal(first[pass], first[pass - 1]);
    }
}

/* A slice: the same fewest repetitions, a share of the time cap, a precision sqrt(passes)
   wider, and the first slice's hops after it. */
static void test_slice_plan(void **state)
{
    (void)state;
    struct measure_plan plan = {
        .reps = 5, .precision = 0.005, .max_ticks = 900, .min_hops = 64, .max_hops = 1 << 20};
    struct measure_plan s = exp_slice_plan(&plan, 4, NULL);
    assert_int_equal(s.reps, 5);
    assert_true(s.precision > 0.00999 && s.precision < 0.01001);
    assert_int_equal(s.max_ticks, 225);
    assert_int_equal(s.min_hops, 64);
    /* After a first slice of 4096 hops a repetition whose warm-up took 1000 hops in 400
       ticks: the same hops, and a warm-up of at most a quarter of 225 ticks (140 hops). */
    struct point_result first = {.hops = 4096, .warm_hops = 1000, .warm_ticks = 400, .passes = 1};
    s = exp_slice_plan(&plan, 4, &first);
    assert_int_equal(s.min_hops, 4096);
    assert_int_equal(s.max_hops, 4096);
    assert_int_equal(s.warm_hops, 140);
    first.warm_ticks = 10; /* a fast warm-up: as long as the first one */
    assert_int_equal(exp_slice_plan(&plan, 4, &first).warm_hops, 1000);
    plan.warm_laps_set = true; /* whole laps asked for: left as they are */
    assert_int_equal(exp_slice_plan(&plan, 4, &first).warm_hops, 0);
    plan.warm_laps_set = false;
    s = exp_slice_plan(&plan, 1, NULL);
    assert_true(s.precision == plan.precision && s.max_ticks == plan.max_ticks);
}

/* Interleaved: all points planned, then passes (plan, prepare, build each time), then the rows
   in size order; a point whose precision is reached stops after two passes, one that never
   reaches it takes all three. */
static void run_interleaved(struct trace *t)
{
    static struct exp_ctx ctx;
    static struct machine m;
    static struct chase_config cfg;
    struct timing timing = {.tsc_hz = 1000000000, .wall_tsc_hz = 1000000000};
    memset(&ctx, 0, sizeof(ctx));
    cfg.global.passes = 3;
    cfg.global.precision_ppm = 5000;
    ctx.m = &m;
    ctx.cfg = &cfg;
    ctx.timing = &timing;
    ctx.measure = fake_measure;
    current = t;
    struct exp_sweep s = {.points = POINTS,
                          .data = t,
                          .interleave = true,
                          .plan = plan,
                          .prepare = prepare,
                          .build = build,
                          .row = row};
    assert_int_equal(exp_sweep_run(&ctx, &s), 0);
    cfg.global.passes = 0;
    cfg.global.precision_ppm = 0;
}

static void test_interleaved_passes(void **state)
{
    (void)state;
    struct trace quiet = {.skip = 99, .fail = 99, .want_reps = 6, .want_passes = 2};
    run_interleaved(&quiet);
    assert_int_equal(quiet.measured, 2 * POINTS);
    static const char *const rows[] = {"r0", "r1", "r2", "r3", "r4"};
    assert_log_tail(&quiet, rows, POINTS);
    struct trace noisy = {.skip = 99, .fail = 99, .want_reps = 9, .want_passes = 3, .noisy = true};
    run_interleaved(&noisy);
    assert_int_equal(noisy.measured, 3 * POINTS);
    /* A time cap so short that a build costs more than 15% of a slice: each point takes all
       its slices in one visit (two measurements: the first slice, then the rest). */
    struct trace costly = {
        .skip = 99, .fail = 99, .want_reps = 6, .want_passes = 1, .noisy = true, .max_ticks = 3};
    run_interleaved(&costly);
    assert_int_equal(costly.measured, 2 * POINTS);
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

static void measured(struct exp_ctx *ctx, void *data, const struct exp_point *p)
{
    (void)ctx;
    note(data, 'm', p->index);
}

/* The measured hook follows every measurement at once, before the row and the next point's
   build, also when the measurement failed; never for a skipped point. */
static void test_measured_hook(void **state)
{
    (void)state;
    static struct exp_ctx ctx;
    static struct machine m;
    static struct chase_config cfg;
    struct timing timing = {.tsc_hz = 1000000000, .wall_tsc_hz = 1000000000};
    struct trace t = {.skip = 1, .fail = 2};
    memset(&ctx, 0, sizeof(ctx));
    ctx.m = &m;
    ctx.cfg = &cfg;
    ctx.timing = &timing;
    ctx.measure = fake_measure;
    current = &t;
    struct exp_sweep s = {.points = POINTS,
                          .data = &t,
                          .plan = plan,
                          .prepare = prepare,
                          .build = build,
                          .measured = measured,
                          .row = row};
    assert_int_equal(exp_sweep_run(&ctx, &s), EXP_RUN_FAILED);
    /* the third measurement (point 3, point 1 being skipped) fails: its hook still runs */
    static const char *const want[] = {"p0", "p1", "p2", "p3", "p4", "p0", "q0",
                                       "b0", "m0", "r0", "p1", "q1", "p2", "q2",
                                       "b2", "m2", "r2", "p3", "q3", "b3", "m3"};
    assert_log(&t, want, sizeof(want) / sizeof(want[0]));

    /* Interleaved: one measured call per visit, right after that visit's build. */
    struct trace quiet = {.skip = 99, .fail = 99, .want_reps = 6, .want_passes = 2};
    cfg.global.passes = 3;
    cfg.global.precision_ppm = 5000;
    current = &quiet;
    s.data = &quiet;
    s.interleave = true;
    assert_int_equal(exp_sweep_run(&ctx, &s), 0);
    cfg.global.passes = 0;
    cfg.global.precision_ppm = 0;
    unsigned visits = 0, ms = 0;
    for (unsigned i = 0; i < quiet.n; i++) {
        visits += quiet.log[i][0] == 'b';
        ms += quiet.log[i][0] == 'm';
        if (quiet.log[i][0] == 'b')
            assert_true(quiet.log[i + 1][0] == 'm' && quiet.log[i + 1][1] == quiet.log[i][1]);
    }
    assert_int_equal(ms, visits);
    assert_int_equal(ms, quiet.measured);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hook_order_and_skip), cmocka_unit_test(test_failing_point_stops),
        cmocka_unit_test(test_pass_order),          cmocka_unit_test(test_slice_plan),
        cmocka_unit_test(test_interleaved_passes),  cmocka_unit_test(test_measured_hook),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
