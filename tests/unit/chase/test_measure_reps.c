// SPDX-License-Identifier: MIT
// Unit tests of measure_chase's repetitions: adaptive precision, time and count caps, fixed
// counts, warm-up laps, outlier flags and the point's time split (on a real L1 chain); the
// keys that ask for them; the clock arithmetic and passes merged into one point.
#include <math.h>
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
#include "config/config.h"
#include "chase/measure.h"
#include "chase/reps.h"
#include "timing_rdtscp.h"

#define SLOTS 97 /* not a multiple of the unroll */
#define LINE 64

static uint8_t *buf;
static struct chase_point pt;
static struct timing t;

static int setup(void **state)
{
    (void)state;
    buf = aligned_alloc(4096, 4096 * 2);
    assert_non_null(buf);
    struct chain_layout l = {buf, 0, LINE, SLOTS, 0};
    memset(&pt, 0, sizeof(pt));
    pt.head[0] = chain_build_random(&l, 3);
    pt.streams = 1;
    pt.lap_hops = SLOTS;
    timing_rdtscp(&t);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(buf);
    return 0;
}

static struct measure_plan plan_of(unsigned reps, double precision, uint64_t max_ticks,
                                   unsigned max_reps)
{
    struct measure_plan p = {.reps = reps,
                             .min_hops = 256,
                             .target_ticks = 20000,
                             .max_hops = 1 << 20,
                             .core_iters = 4,
                             .partial_laps = true,
                             .precision = precision,
                             .max_ticks = max_ticks,
                             .max_reps = max_reps};
    return p;
}

/* The flags, the count and the statistics agree; the timed part is the repetitions' ticks. */
static void check_consistent(const struct point_result *r)
{
    unsigned flagged = 0;
    uint64_t ticks = 0;
    for (unsigned i = 0; i < r->reps; i++) {
        flagged += measure_is_outlier(r, i);
        ticks += r->ticks[i];
        if (!measure_is_outlier(r, i)) {
            assert_true(r->tsc_per_access[i] >= r->tsc.min);
            assert_true(r->tsc_per_access[i] <= r->tsc.max);
        }
    }
    assert_true(r->assessed);
    assert_int_equal(flagged, r->outliers);
    assert_true(2 * r->outliers <= r->reps);
    assert_int_equal(r->time.timed, ticks);
    assert_true(r->tsc.min <= r->tsc.median && r->tsc.median <= r->tsc.p90);
}

/* A loose target on an L1 chain is met as soon as an interval exists. */
static void test_precision_reached(void **state)
{
    (void)state;
    struct measure_plan p = plan_of(3, 0.5, 0, 64);
    struct point_result r;
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    assert_int_equal(r.stop, REPS_STOP_PRECISION);
    assert_true(r.reps >= REPS_CI_MIN && r.reps <= 64);
    assert_true(r.ci_valid && r.precision <= 0.5);
    check_consistent(&r);
    measure_release(&r);
}

/* The time cap ends the repetitions, but only after the fewest asked for. */
static void test_time_cap(void **state)
{
    (void)state;
    struct measure_plan p = plan_of(3, 1e-12, 1, 64);
    struct point_result r;
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    assert_int_equal(r.reps, 3);
    assert_int_equal(r.stop, REPS_STOP_TIME);
    assert_false(r.ci_valid); /* three are too few for a 95% interval */
    check_consistent(&r);
    measure_release(&r);
}

/* Without a time cap, an unreachable target ends at max_reps. */
static void test_capacity(void **state)
{
    (void)state;
    struct measure_plan p = plan_of(3, 1e-12, 0, 12);
    struct point_result r;
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    if (r.stop == REPS_STOP_PRECISION) { /* twelve identical repetitions: width 0 */
        assert_true(r.precision == 0);
    } else {
        assert_int_equal(r.stop, REPS_STOP_CAPACITY);
        assert_int_equal(r.reps, 12);
    }
    check_consistent(&r);
    measure_release(&r);
}

/* precision 0: exactly reps, whatever they say. */
static void test_fixed(void **state)
{
    (void)state;
    struct measure_plan p = plan_of(5, 0, 0, 0);
    struct point_result r;
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    assert_int_equal(r.reps, 5);
    assert_int_equal(r.stop, REPS_STOP_FIXED);
    check_consistent(&r);
    measure_release(&r);
}

/* warm_laps: none (then whole laps per repetition, as the plan asks), or whole laps. */
static void test_warm_laps(void **state)
{
    (void)state;
    struct measure_plan p = plan_of(2, 0, 0, 0);
    struct point_result r;
    p.warm_laps_set = true;
    p.warm_laps = 0;
    p.partial_laps = false;
    p.min_hops = 16;
    p.target_ticks = 0;
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    assert_int_equal(r.warm_hops, 0);
    assert_int_equal(r.time.warm, 0);
    assert_int_equal(r.hops, (SLOTS + CHASE_UNROLL - 1) / CHASE_UNROLL * CHASE_UNROLL);
    measure_release(&r);
    p.warm_laps = 2;
    assert_int_equal(measure_chase(&pt, &p, &t, &r), 0);
    assert_int_equal(r.warm_hops, (2 * SLOTS + CHASE_UNROLL - 1) / CHASE_UNROLL * CHASE_UNROLL);
    assert_true(r.time.warm >= r.warm_ticks && r.warm_ticks > 0);
    measure_release(&r);
}

/* A backend that summarized a fixed count itself gets its precision, nothing dropped. */
static void test_assess_fixed(void **state)
{
    (void)state;
    struct point_result r;
    assert_int_equal(measure_alloc(&r, 6, 1), 0);
    const double v[6] = {10, 10.1, 9.9, 10, 10.2, 30};
    memcpy(r.tsc_per_access, v, sizeof(v));
    measure_assess_fixed(&r);
    assert_int_equal(r.stop, REPS_STOP_FIXED);
    assert_false(r.assessed);
    assert_true(r.ci_valid);
    assert_true(r.precision > (30 - 9.9) / 2 / 10.05 - 1e-9); /* [min, max] for six */
    for (unsigned i = 0; i < 6; i++)
        assert_false(measure_is_outlier(&r, i));
    measure_release(&r);
}

/* The keys tested here are global: a configuration without experiments has them all. */
static const struct cfg_section *no_section(size_t i)
{
    (void)i;
    return NULL;
}

static const struct cfg_table no_experiments = {no_section, 0};

/* The keys: precision as a percentage, point_max_ms, warm_laps; their defaults by profile. */
static bool resolve(const char *options, struct chase_config *cfg, char *err, size_t cap)
{
    static struct cfg_entries entries;
    struct cfg_errors errs = {{0}, 0};
    struct machine m;
    memset(&m, 0, sizeof(m));
    memset(&entries, 0, sizeof(entries));
    m.memory_total_bytes = 4ull << 30;
    m.buffer_limit_bytes = 2ull << 30;
    cfg_read_options(&entries, options, &errs);
    cfg_resolve(cfg, &no_experiments, &entries, &m, &errs);
    snprintf(err, cap, "%s", strbuf_str(&errs.text));
    strbuf_release(&errs.text);
    return errs.count == 0;
}

static void test_keys(void **state)
{
    (void)state;
    static struct chase_config cfg;
    char err[512], text[32];
    assert_true(resolve("", &cfg, err, sizeof(err)));
    assert_int_equal(cfg.global.precision_ppm, 5000); /* 0.5% */
    assert_int_equal(cfg.global.point_max_ms, 1000);
    assert_true(cfg.global.warm_laps.is_auto);
    assert_int_equal(cfg.global.passes, 3);
    assert_true(resolve("profile=quick", &cfg, err, sizeof(err)));
    assert_int_equal(cfg.global.point_max_ms, 25);
    assert_int_equal(cfg.global.passes, 1);
    assert_true(resolve("passes=1", &cfg, err, sizeof(err)));
    assert_int_equal(cfg.global.passes, 1);
    assert_false(resolve("passes=0", &cfg, err, sizeof(err)));
    assert_false(resolve("passes=17", &cfg, err, sizeof(err)));
    assert_true(resolve("precision=0.25% point_max_ms=300 warm_laps=0", &cfg, err, sizeof(err)));
    assert_int_equal(cfg.global.precision_ppm, 2500);
    assert_int_equal(cfg.global.point_max_ms, 300);
    assert_false(cfg.global.warm_laps.is_auto);
    assert_int_equal(cfg.global.warm_laps.value, 0);
    assert_true(resolve("precision=2", &cfg, err, sizeof(err)));
    assert_int_equal(cfg.global.precision_ppm, 20000);
    assert_true(resolve("precision=0", &cfg, err, sizeof(err)));
    assert_int_equal(cfg.global.precision_ppm, 0);
    assert_true(resolve("precision=0.0001%", &cfg, err, sizeof(err)));
    assert_int_equal(cfg.global.precision_ppm, 1);
    static const char *const bad[] = {"precision=abc",     "precision=.5", "precision=0.5%%",
                                      "precision=0.00001", "precision=-1", "precision=1e-3"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_false(resolve(bad[i], &cfg, err, sizeof(err)));
        assert_non_null(strstr(err, "expected a percentage from 0% to 50%"));
    }
    assert_false(resolve("precision=60", &cfg, err, sizeof(err)));
    assert_non_null(strstr(err, "(out of range)"));
    assert_false(resolve("warm_laps=65", &cfg, err, sizeof(err)));
    cfg_format_percent(text, sizeof(text), 5000);
    assert_string_equal(text, "0.5%");
    cfg_format_percent(text, sizeof(text), 1);
    assert_string_equal(text, "0.0001%");
    cfg_format_percent(text, sizeof(text), 20000);
    assert_string_equal(text, "2%");
    cfg_format_percent(text, sizeof(text), 123400);
    assert_string_equal(text, "12.34%");
}

/* window_max_ms: default 10 ms, 1 ms to 1 s, with a clear error outside. */
static void test_window_key(void **state)
{
    (void)state;
    static struct chase_config cfg;
    char err[512];
    assert_true(resolve("", &cfg, err, sizeof(err)));
    assert_int_equal(cfg.global.window_max_ms, 10);
    assert_true(resolve("window_max_ms=50", &cfg, err, sizeof(err)));
    assert_int_equal(cfg.global.window_max_ms, 50);
    assert_false(resolve("window_max_ms=0", &cfg, err, sizeof(err)));
    assert_non_null(strstr(err, "window_max_ms"));
    assert_false(resolve("window_max_ms=5000", &cfg, err, sizeof(err)));
    assert_non_null(strstr(err, "(out of range)"));
    assert_false(resolve("window_max_ms=fast", &cfg, err, sizeof(err)));
    assert_non_null(strstr(err, "window_max_ms"));
}

/* The clock arithmetic: adds over net ticks, the pair rule, APERF over MPERF. */
static void test_clock_arithmetic(void **state)
{
    (void)state;
    /* 16000 adds in 10030 ticks of which 30 are the timer's own: 1.6 cycles a tick. */
    assert_float_equal(timing_adds_ratio(16000, 10030, 30), 1.6, 1e-12);
    assert_float_equal(timing_adds_ratio(16000, 30, 30), 0, 0);
    assert_float_equal(timing_adds_ratio(16000, 0, 0), 0, 0);
    /* Within 2%: the mean; beyond: the higher (the lower one was lengthened). */
    assert_float_equal(timing_pair_ratio(1.60, 1.62), 1.61, 1e-12);
    assert_float_equal(timing_pair_gap(1.60, 1.20), 0.25, 1e-12);
    assert_float_equal(timing_pair_gap(1.20, 1.60), 0.25, 1e-12);
    assert_float_equal(timing_pair_gap(0, 1.5), 0, 0);
    assert_float_equal(timing_pair_ratio(1.60, 1.20), 1.60, 0);
    assert_float_equal(timing_pair_ratio(1.20, 1.60), 1.60, 0);
    assert_float_equal(timing_pair_ratio(0, 1.5), 1.5, 0);
    assert_float_equal(timing_pair_ratio(0, 0), 0, 0);
    assert_float_equal(timing_msr_ratio(100, 260, 1000, 1100), 1.6, 1e-12);
    assert_float_equal(timing_msr_ratio(100, 100, 1000, 1100), 0, 0);
    assert_float_equal(timing_msr_ratio(100, 260, 1000, 1000), 0, 0);
}

/* A slice of n repetitions at ticks-per-access v, each with clock c (c 0: no clocks). */
static void make_slice(struct point_result *r, unsigned n, double v, double c)
{
    assert_int_equal(measure_alloc(r, n, 1), 0);
    r->hops = 1000;
    for (unsigned i = 0; i < n; i++) {
        r->tsc_per_access[i] = v;
        r->ticks[i] = (uint64_t)(v * 1000);
        r->time.timed += r->ticks[i];
    }
    if (c > 0) {
        for (unsigned i = 0; i < n; i++)
            r->core_per_rep[i] = c;
        r->clock = "adds";
    } else {
        plat_free(r->core_per_rep);
        r->core_per_rep = NULL;
        r->core_per_tick = 0.5;
    }
    r->stop = REPS_STOP_PRECISION;
}

/* Two passes at two clocks: each repetition's cycles at its own clock are the same 5 cycles,
   the ticks differ; the merged point has both slices' repetitions and time. */
static void test_merge_and_cycles(void **state)
{
    (void)state;
    struct point_result all = {0}, slice;
    make_slice(&slice, 4, 10.0, 0.5);
    assert_int_equal(measure_merge(&all, &slice), 0);
    make_slice(&slice, 4, 12.5, 0.4);
    assert_int_equal(measure_merge(&all, &slice), 0);
    assert_int_equal(all.reps, 8);
    assert_int_equal(all.time.timed, 4 * 10000 + 4 * 12500);
    assert_int_equal(measure_reassess(&all, 0.005), 0);
    assert_int_equal(measure_finish(&all), 0);
    assert_float_equal(all.cycles.min, 5.0, 1e-9);
    assert_float_equal(all.cycles.median, 5.0, 1e-9);
    assert_float_equal(all.headline_cycles, 5.0, 1e-9);
    assert_float_equal(all.core_per_tick, 0.45, 1e-9);
    /* p10 and p90 of four 0.4 and four 0.5: 0.4 and 0.5, over the median 0.45. */
    assert_float_equal(all.clock_disagree, 0.1 / 0.45, 1e-9);
    assert_float_equal(all.headline_tsc, 10.0, 1e-9);
    assert_true(all.tsc.median > 10 && all.tsc.median < 12.5);
    assert_int_equal(all.stop, REPS_STOP_PASSES); /* each slice precise, the whole not */
    /* A slice without clocks (a model) keeps the point's one estimate for its repetitions. */
    make_slice(&slice, 2, 10.0, 0);
    assert_int_equal(measure_merge(&all, &slice), 0);
    assert_float_equal(all.core_per_rep[9], 0.5, 0);
    measure_release(&all);
}

/* Three of twenty repetitions 10% slow in ticks and in cycles: contention when their clock
   estimates agree or no pair was taken (disturbed: a tail), a clock change during them when the
   estimates before and after lie 12% apart (their cycles are not known: not disturbed). */
static void test_disturbed_clock_pairs(void **state)
{
    (void)state;
    const double gaps[3] = {0.0, 0.12, NAN};
    for (int k = 0; k < 3; k++) {
        struct point_result all = {0}, slice;
        bool moved = k == 1;
        make_slice(&slice, 20, 10.0, 0.5);
        for (unsigned i = 4; i < 20; i += 6) {
            slice.tsc_per_access[i] = 11.0;
            slice.ticks[i] = 11000;
            slice.clock_pair[i] = gaps[k];
        }
        assert_int_equal(measure_merge(&all, &slice), 0);
        assert_int_equal(measure_reassess(&all, 0.005), 0);
        assert_int_equal(measure_finish(&all), 0);
        if (moved)
            assert_int_equal(all.disturbed, 0);
        else
            assert_true(all.disturbed & REPS_DISTURB_TAIL); /* and two modes, 10.0 and 11.0 */
        assert_float_equal(all.headline_cycles, 5.0, 1e-9);
        assert_true(isnan(gaps[k]) ? isnan(all.clock_pair[10]) : all.clock_pair[10] == gaps[k]);
        assert_true(isnan(all.clock_pair[0])); /* measure_alloc: no pair until one is taken */
        measure_release(&all);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precision_reached),
        cmocka_unit_test(test_time_cap),
        cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_warm_laps),
        cmocka_unit_test(test_assess_fixed),
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_window_key),
        cmocka_unit_test(test_clock_arithmetic),
        cmocka_unit_test(test_merge_and_cycles),
        cmocka_unit_test(test_disturbed_clock_pairs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
