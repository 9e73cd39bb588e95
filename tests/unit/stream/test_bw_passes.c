// SPDX-License-Identifier: MIT
// Unit tests of the bandwidth sweep's passes: the visits' order and plans, the slices merged.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stream/bw.h"
#include "point/passes.h"
#include "lib/kmath.h"

#define POINTS 5
#define VISITS_MAX 64
#define SLICE_REPS 6
#define BYTES_PER_REP 1000
#define PLAN_PRECISION 0.005
#define PLAN_MAX_TICKS 3000000ULL

/* How the fake measurement behaves, and what the hooks saw. */
struct fake {
    enum reps_stop slice_stop; /* each slice's own stop */
    bool vary;                 /* each slice of a point slower than the one before */
    bool spread;               /* a slice's repetitions spread widely (else all alike) */
    unsigned costly;           /* this point's warm-up costs most of a slice (POINTS: none) */
    struct {                   /* each visit, in order */
        unsigned point;
        bool warm;
        double precision;
        uint64_t max_ticks;
    } visit[VISITS_MAX];
    unsigned nvisits, slices[POINTS];
    unsigned rows[POINTS], nrows;
    struct bw_result out[POINTS]; /* each point's row */
    unsigned rows_before_visit[VISITS_MAX];
};

static const struct timing timing = {.tsc_hz = 1000000000, .wall_tsc_hz = 1000000000};

static struct measure_plan fake_plan(void *data, unsigned i)
{
    (void)data, (void)i;
    return (struct measure_plan){
        .reps = 5, .precision = PLAN_PRECISION, .max_ticks = PLAN_MAX_TICKS, .max_reps = 1000};
}

/* SLICE_REPS repetitions of BYTES_PER_REP bytes, 100 ticks each; vary: 10 n more in the point's
   n-th slice; spread: 40 more every other one. */
static int fake_measure(void *data, unsigned i, const struct measure_plan *plan, bool warm,
                        struct bw_result *r)
{
    struct fake *f = data;
    assert_true(f->nvisits < VISITS_MAX);
    f->rows_before_visit[f->nvisits] = f->nrows;
    f->visit[f->nvisits].point = i;
    f->visit[f->nvisits].warm = warm;
    f->visit[f->nvisits].precision = plan->precision;
    f->visit[f->nvisits].max_ticks = plan->max_ticks;
    f->nvisits++;
    if (warm || !r->reps)
        r->warm_ticks += i == f->costly ? PLAN_MAX_TICKS : PLAN_MAX_TICKS / 1000;
    r->bytes_per_rep = BYTES_PER_REP;
    for (unsigned k = 0; k < SLICE_REPS; k++)
        r->ticks[r->reps++] =
            100 + (f->vary ? 10 * f->slices[i] : 0) + (f->spread && k % 2 ? 40 : 0);
    f->slices[i]++;
    r->stop = f->slice_stop;
    bw_result_summarize(r, &timing);
    return 0;
}

static void fake_row(void *data, unsigned i, const struct bw_result *r)
{
    struct fake *f = data;
    f->rows[f->nrows++] = i;
    f->out[i] = *r;
}

static int run(struct fake *f, unsigned passes)
{
    struct bw_sweep s = {.points = POINTS,
                         .passes = passes,
                         .wall_tsc_hz = timing.wall_tsc_hz,
                         .data = f,
                         .plan = fake_plan,
                         .measure = fake_measure,
                         .row = fake_row};
    return bw_sweep_run(&s);
}

static struct fake *new_fake(enum reps_stop slice_stop, bool vary)
{
    struct fake *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    f->slice_stop = slice_stop;
    f->vary = vary;
    f->costly = POINTS;
    return f;
}

/* Three passes, no point done early: each pass visits the points in exp_pass_order (never two
   neighbours in a row), each visit a warm slice with the slice plan; the rows come after the
   last pass, in point order, each with every slice's repetitions marked with its pass. */
static void test_interleaved_order_and_plans(void **state)
{
    (void)state;
    struct fake *f = new_fake(REPS_STOP_TIME, true);
    assert_int_equal(run(f, 3), 0);
    assert_int_equal(f->nvisits, 3 * POINTS);
    for (unsigned pass = 0; pass < 3; pass++) {
        unsigned order[POINTS];
        exp_pass_order(POINTS, pass, 3, order);
        for (unsigned k = 0; k < POINTS; k++) {
            unsigned v = pass * POINTS + k;
            assert_int_equal(f->visit[v].point, order[k]);
            assert_true(f->visit[v].warm);
            assert_float_equal(f->visit[v].precision, PLAN_PRECISION * ksqrt(3.0), 1e-12);
            assert_int_equal(f->visit[v].max_ticks, PLAN_MAX_TICKS / 3);
            assert_int_equal(f->rows_before_visit[v], 0);
            if (k)
                assert_true(abs((int)order[k] - (int)order[k - 1]) != 1);
        }
    }
    assert_int_equal(f->nrows, POINTS);
    for (unsigned i = 0; i < POINTS; i++) {
        const struct bw_result *r = &f->out[i];
        assert_int_equal(f->rows[i], i);
        assert_int_equal(r->reps, 3 * SLICE_REPS);
        assert_int_equal(r->passes, 3);
        assert_int_equal(r->stop, REPS_STOP_TIME);
        for (unsigned k = 0; k < r->reps; k++)
            assert_int_equal(r->pass[k], k / SLICE_REPS);
    }
    free(f);
}

/* The median is over all the passes' repetitions: slices of 100, 110 and 120 ticks per
   1000 bytes give 110 (9.09 GB/s at 1 GHz), not one pass's figure; min and max span them. */
static void test_median_over_all_passes(void **state)
{
    (void)state;
    struct fake *f = new_fake(REPS_STOP_TIME, true);
    assert_int_equal(run(f, 3), 0);
    for (unsigned i = 0; i < POINTS; i++) {
        assert_float_equal(f->out[i].gbs_median, 1000.0 / 110.0, 1e-9);
        assert_float_equal(f->out[i].gbs_max, 1000.0 / 100.0, 1e-9);
        assert_float_equal(f->out[i].gbs_min, 1000.0 / 120.0, 1e-9);
        assert_int_equal(f->out[i].outliers, 0);
    }
    free(f);
}

/* Slices that reach their own precision: a point whose repetitions all together reach the
   plan's stops after its second pass ("precision"); one whose do not (widely spread) has all
   three and says so ("passes"). */
static void test_stop_after_two_passes_or_passes(void **state)
{
    (void)state;
    struct fake *f = new_fake(REPS_STOP_PRECISION, false);
    assert_int_equal(run(f, 3), 0);
    assert_int_equal(f->nvisits, 2 * POINTS);
    for (unsigned i = 0; i < POINTS; i++) {
        assert_int_equal(f->out[i].passes, 2);
        assert_int_equal(f->out[i].reps, 2 * SLICE_REPS);
        assert_int_equal(f->out[i].stop, REPS_STOP_PRECISION);
    }
    free(f);

    f = new_fake(REPS_STOP_PRECISION, false);
    f->spread = true;
    assert_int_equal(run(f, 3), 0);
    assert_int_equal(f->nvisits, 3 * POINTS);
    for (unsigned i = 0; i < POINTS; i++) {
        assert_true(f->out[i].precision > PLAN_PRECISION);
        assert_int_equal(f->out[i].passes, 3);
        assert_int_equal(f->out[i].stop, REPS_STOP_PASSES);
    }
    free(f);
}

/* A point whose warm-up lap costs more than EXP_PASS_COST_SHARE of a slice takes the other
   passes' share right after its first slice, unwarmed, with exp_rest_plan's plan, and is not
   visited again (its passes column says 1); the others are interleaved as before. */
static void test_costly_point_in_one_visit(void **state)
{
    (void)state;
    struct fake *f = new_fake(REPS_STOP_TIME, true);
    f->costly = 2;
    f->spread = true; /* its first slice is not precise */
    assert_int_equal(run(f, 3), 0);
    assert_int_equal(f->nvisits, 3 * POINTS - 1);
    unsigned first = VISITS_MAX, seen = 0;
    for (unsigned v = 0; v < f->nvisits; v++)
        if (f->visit[v].point == 2) {
            first = first < v ? first : v;
            seen++;
        }
    assert_int_equal(seen, 2);
    assert_true(first + 1 < f->nvisits);
    assert_int_equal(f->visit[first + 1].point, 2);
    assert_true(f->visit[first].warm);
    assert_false(f->visit[first + 1].warm);
    assert_float_equal(f->visit[first + 1].precision, PLAN_PRECISION * ksqrt(1.5), 1e-12);
    assert_int_equal(f->visit[first + 1].max_ticks, PLAN_MAX_TICKS - PLAN_MAX_TICKS / 3);
    assert_int_equal(f->out[2].passes, 1);
    assert_int_equal(f->out[2].reps, 2 * SLICE_REPS);
    assert_int_equal(f->out[0].passes, 3);
    free(f);
}

/* One pass: each point measured once with its whole plan, its row written before the next. */
static void test_one_pass(void **state)
{
    (void)state;
    struct fake *f = new_fake(REPS_STOP_PRECISION, false);
    assert_int_equal(run(f, 1), 0);
    assert_int_equal(f->nvisits, POINTS);
    for (unsigned v = 0; v < POINTS; v++) {
        assert_int_equal(f->visit[v].point, v);
        assert_true(f->visit[v].warm);
        assert_float_equal(f->visit[v].precision, PLAN_PRECISION, 0);
        assert_int_equal(f->visit[v].max_ticks, PLAN_MAX_TICKS);
        assert_int_equal(f->rows_before_visit[v], v);
        assert_int_equal(f->out[v].passes, 1);
        assert_int_equal(f->out[v].reps, SLICE_REPS);
        assert_int_equal(f->out[v].stop, REPS_STOP_PRECISION);
    }
    free(f);
}

/* The stop of the whole after a slice (measure_reassess's rule). */
static void test_merge_stop(void **state)
{
    (void)state;
    struct bw_result r = {.stop = REPS_STOP_PRECISION, .precision = 0.004};
    bw_result_merge_stop(&r, REPS_GO_ON, 0.005);
    assert_int_equal(r.stop, REPS_STOP_PRECISION);
    r = (struct bw_result){.stop = REPS_STOP_PRECISION, .precision = 0.006};
    bw_result_merge_stop(&r, REPS_GO_ON, 0.005);
    assert_int_equal(r.stop, REPS_STOP_PASSES);
    r = (struct bw_result){.stop = REPS_STOP_PRECISION, .precision = 0.006};
    bw_result_merge_stop(&r, REPS_STOP_TIME, 0.005);
    assert_int_equal(r.stop, REPS_STOP_TIME);
    r = (struct bw_result){.stop = REPS_STOP_TIME, .precision = 0.001};
    bw_result_merge_stop(&r, REPS_STOP_TIME, 0.005);
    assert_int_equal(r.stop, REPS_STOP_PRECISION);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interleaved_order_and_plans),
        cmocka_unit_test(test_median_over_all_passes),
        cmocka_unit_test(test_stop_after_two_passes_or_passes),
        cmocka_unit_test(test_costly_point_in_one_visit),
        cmocka_unit_test(test_one_pass),
        cmocka_unit_test(test_merge_stop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
