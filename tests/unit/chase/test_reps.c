// SPDX-License-Identifier: MIT
// Unit tests of the repetition rules: the median's interval, the outlier rule, the stopping
// rule, the time split of points and experiments, on known inputs; the disturbed-point
// detector and the headline on synthetic repetitions (clean, bursts, modes, drift).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "chase/reps.h"
#include "lib/stats.h"
#include "chase/time_split.h"

/* P(B <= k), B ~ Binomial(n, 1/2), from the tail up in long double (2^-n fits for n < 16000). */
static long double binomial_cdf(size_t n, size_t k)
{
    long double p = 1, sum = 0;
    for (size_t i = 0; i < n; i++)
        p /= 2;
    for (size_t i = 0; i <= k; i++) {
        sum += p;
        p = p * (long double)(n - i) / (long double)(i + 1);
    }
    return sum;
}

/* Known pairs of ranks from the tables of the sign test (0-based). */
static void test_ci_ranks_known(void **state)
{
    (void)state;
    static const size_t known[][3] = {{6, 0, 5},    {7, 0, 6},     {8, 0, 7},       {9, 1, 7},
                                      {10, 1, 8},   {11, 1, 9},    {20, 5, 14},     {30, 9, 20},
                                      {50, 17, 32}, {100, 39, 60}, {1000, 468, 531}};
    size_t lo, hi;
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        assert_true(stats_median_ci_ranks(known[i][0], &lo, &hi));
        assert_int_equal(lo, known[i][1]);
        assert_int_equal(hi, known[i][2]);
    }
    /* five values cannot give 95%: [min, max] covers 1 - 2/32 = 93.75% */
    for (size_t n = 0; n < REPS_CI_MIN; n++)
        assert_false(stats_median_ci_ranks(n, &lo, &hi));
}

/* Every n: the pair covers at least 95%, and the next narrower pair would not. */
static void test_ci_ranks_are_the_narrowest(void **state)
{
    (void)state;
    for (size_t n = REPS_CI_MIN; n <= 4096; n += n < 200 ? 1 : 37) {
        size_t lo, hi;
        assert_true(stats_median_ci_ranks(n, &lo, &hi));
        assert_int_equal(lo + hi, n - 1);
        assert_true(binomial_cdf(n, lo) <= 0.025L);
        assert_true(binomial_cdf(n, lo + 1) > 0.025L);
    }
}

static void test_mad(void **state)
{
    (void)state;
    double odd[] = {1, 2, 3, 4, 100}; /* |v - 3| = 2 1 0 1 97: MAD 1 */
    assert_true(stats_mad_sorted(odd, 5, 3) == 1);
    double even[] = {1, 2, 4, 8}; /* median 3: |v - 3| = 2 1 1 5: MAD 1.5 */
    assert_true(stats_mad_sorted(even, 4, 3) == 1.5);
    double same[] = {7, 7, 7};
    assert_true(stats_mad_sorted(same, 3, 7) == 0);
    assert_true(stats_mad_sorted(same, 0, 7) == 0);
}

static void test_insert_sorted(void **state)
{
    (void)state;
    double v[8];
    const double in[] = {5, 1, 9, 5, 3, 0, 9};
    for (unsigned i = 0; i < 7; i++)
        reps_insert_sorted(v, i, in[i]);
    const double want[] = {0, 1, 3, 5, 5, 9, 9};
    for (unsigned i = 0; i < 7; i++)
        assert_true(v[i] == want[i]);
}

/* median 10, MAD 0.1: the threshold is 10 + 5 * 1.4826 * 0.1 = 10.7413. */
static void test_outlier_rule(void **state)
{
    (void)state;
    double v[] = {9.8, 9.9, 9.9, 10.0, 10.0, 10.0, 10.0, 10.1, 10.1, 10.2, 10.74, 10.75, 25.0};
    unsigned n = sizeof(v) / sizeof(v[0]);
    double median = stats_quantile_sorted(v, n, 0.5);
    assert_true(median == 10.0);
    assert_true(stats_mad_sorted(v, n, median) > 0.0999 && stats_mad_sorted(v, n, median) < 0.1001);
    double t = reps_outlier_threshold(v, n);
    assert_true(t > 10.7412 && t < 10.7414);
    struct reps_verdict r;
    reps_assess(v, n, &r);
    assert_int_equal(r.n, n);
    assert_int_equal(r.kept, n - 2); /* 10.75 and 25 */
    assert_true(r.kept_stats.max == 10.74);
    assert_true(r.kept_stats.median == 10.0);
    assert_true(r.kept_stats.min == 9.8);
}

/* With no spread at all, the floor keeps a one-tick difference from being an outlier. */
static void test_outlier_floor(void **state)
{
    (void)state;
    double v[] = {1000, 1000, 1000, 1000, 1000, 1000, 1000.5, 1002};
    double t = reps_outlier_threshold(v, 8);
    assert_true(t > 1001 - 1e-9 && t < 1001 + 1e-9); /* 1000 * (1 + REPS_OUTLIER_FLOOR) */
    struct reps_verdict r;
    reps_assess(v, 8, &r);
    assert_int_equal(r.kept, 7); /* 1000.5 kept (0.05%), 1002 dropped (0.2%) */
    /* at most half can be outliers: the median itself is always kept */
    double half[] = {1, 1, 1, 50, 60, 70};
    reps_assess(half, 6, &r);
    assert_true(r.kept >= 3);
}

/* The interval and precision of known values: 20 values 1..20, ranks 5 and 14 (6 and 15). */
static void test_assess_precision(void **state)
{
    (void)state;
    double v[20];
    for (unsigned i = 0; i < 20; i++)
        v[i] = 100 + i; /* median 109.5, MAD 5: nothing above 109.5 + 37 */
    struct reps_verdict r;
    reps_assess(v, 20, &r);
    assert_int_equal(r.kept, 20);
    assert_true(r.ci_valid);
    assert_true(r.ci_lo == 105 && r.ci_hi == 114);
    assert_true(r.precision > 4.5 / 109.5 - 1e-12 && r.precision < 4.5 / 109.5 + 1e-12);
    reps_assess(v, 5, &r); /* too few for a 95% interval */
    assert_false(r.ci_valid);
    assert_true(r.precision == 0);
}

static struct reps_verdict verdict(unsigned n, bool valid, double precision)
{
    struct reps_verdict v = {0};
    v.n = n;
    v.kept = n;
    v.ci_valid = valid;
    v.precision = precision;
    return v;
}

static void test_stopping_rule(void **state)
{
    (void)state;
    struct reps_rule fixed = {5, 5, 0, 0};
    struct reps_verdict v = verdict(4, false, 0);
    assert_int_equal(reps_should_stop(&fixed, &v, 0), REPS_GO_ON);
    v = verdict(5, false, 0);
    assert_int_equal(reps_should_stop(&fixed, &v, 0), REPS_STOP_FIXED);

    struct reps_rule rule = {5, 100, 0.005, 1000};
    v = verdict(3, true, 0.001); /* the minimum comes first, however precise */
    assert_int_equal(reps_should_stop(&rule, &v, 5000), REPS_GO_ON);
    v = verdict(6, true, 0.0051);
    assert_int_equal(reps_should_stop(&rule, &v, 999), REPS_GO_ON);
    v = verdict(6, true, 0.005);
    assert_int_equal(reps_should_stop(&rule, &v, 999), REPS_STOP_PRECISION);
    v = verdict(7, false, 0);
    assert_int_equal(reps_should_stop(&rule, &v, 999), REPS_GO_ON);
    assert_int_equal(reps_should_stop(&rule, &v, 1000), REPS_STOP_TIME);
    v = verdict(100, true, 0.02);
    assert_int_equal(reps_should_stop(&rule, &v, 10), REPS_STOP_CAPACITY);
    rule.max_ticks = 0; /* no time cap: only the capacity ends an imprecise point */
    v = verdict(99, true, 0.02);
    assert_int_equal(reps_should_stop(&rule, &v, UINT64_MAX), REPS_GO_ON);
}

/* A stream of repetitions through the rule: noisy ones need more, a quiet set stops at once. */
static unsigned reps_until_stop(const double *stream, unsigned n, const struct reps_rule *rule,
                                enum reps_stop *why)
{
    double sorted[256];
    struct reps_verdict v;
    for (unsigned i = 0; i < n; i++) {
        reps_insert_sorted(sorted, i, stream[i]);
        reps_assess(sorted, i + 1, &v);
        *why = reps_should_stop(rule, &v, (uint64_t)(i + 1) * 10);
        if (*why != REPS_GO_ON)
            return i + 1;
    }
    return n;
}

static void test_stopping_on_streams(void **state)
{
    (void)state;
    struct reps_rule rule = {5, 256, 0.005, 2000};
    enum reps_stop why;
    double quiet[8] = {100.0, 100.1, 99.9, 100.2, 100.0, 99.8, 100.1, 100.0};
    assert_int_equal(reps_until_stop(quiet, 8, &rule, &why), 6); /* [99.8, 100.2]: 0.2% */
    assert_int_equal(why, REPS_STOP_PRECISION);
    /* a disturbed repetition among quiet ones is set aside and does not widen the interval */
    double disturbed[8] = {100.0, 180.0, 99.9, 100.2, 100.0, 99.8, 100.1, 100.0};
    assert_int_equal(reps_until_stop(disturbed, 8, &rule, &why), 7);
    assert_int_equal(why, REPS_STOP_PRECISION);
    /* values spread by +-5% never get to 0.5% in 200 repetitions: the time cap stops them */
    double noisy[256];
    for (unsigned i = 0; i < 256; i++)
        noisy[i] = 100 + (double)((i * 37) % 11) - 5;
    assert_int_equal(reps_until_stop(noisy, 256, &rule, &why), 200);
    assert_int_equal(why, REPS_STOP_TIME);
}

static void test_time_split(void **state)
{
    (void)state;
    struct time_split p = {0};
    time_split_measured(&p, 1000, 200, 700); /* 100 of bookkeeping */
    assert_int_equal(p.bookkeeping, 100);
    p.build = 50;
    p.output = 50;
    assert_int_equal(time_split_total(&p), 1100);
    assert_true(time_split_timed_fraction(&p) > 700.0 / 1100 - 1e-12 &&
                time_split_timed_fraction(&p) < 700.0 / 1100 + 1e-12);
    struct time_split none = {0};
    time_split_measured(&none, 10, 20, 30); /* a simulated clock: nothing negative */
    assert_int_equal(none.bookkeeping, 0);
    struct time_split zero = {0};
    assert_true(time_split_timed_fraction(&zero) == 0);
    /* one tick over the mean timed region: 700 ticks in 7 regions of 100, 1% */
    assert_true(time_split_tick_share(&p, 7) > 0.01 - 1e-12 &&
                time_split_tick_share(&p, 7) < 0.01 + 1e-12);
    assert_true(time_split_tick_share(&zero, 7) == 0 && time_split_tick_share(&p, 0) == 0);

    struct time_split sum = {0};
    time_split_add(&sum, &p);
    time_split_add(&sum, &p);
    assert_int_equal(sum.timed, 1400);
    assert_int_equal(sum.build, 100);
    time_split_close(&sum, 2500); /* 300 outside the points */
    assert_int_equal(sum.other, 300);
    assert_int_equal(time_split_total(&sum), 2500);
    time_split_close(&sum, 100); /* a wall shorter than the parts adds nothing */
    assert_int_equal(sum.other, 300);
}

/* A repeatable pseudo-normal deviate: the sum of 12 uniforms less 6 (mean 0, sd 1). */
static double normal(uint64_t *state)
{
    double sum = 0;
    for (int i = 0; i < 12; i++) {
        *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
        sum += (double)(*state >> 11) / 9007199254740992.0;
    }
    return sum - 6;
}

#define SYNTH_MAX 400

/* n repetitions around 100 with sd sigma, in the order taken. */
static void clean_reps(double *v, unsigned n, double sigma, uint64_t seed)
{
    for (unsigned i = 0; i < n; i++)
        v[i] = 100 + sigma * normal(&seed);
}

/* Clean noise is never called disturbed: 200 seeds each at 15, 50 and 400 repetitions. */
static void test_disturbance_clean(void **state)
{
    (void)state;
    static const unsigned counts[] = {15, 50, SYNTH_MAX};
    double v[SYNTH_MAX], scratch[SYNTH_MAX];
    for (unsigned c = 0; c < 3; c++) {
        unsigned flagged = 0;
        for (uint64_t seed = 1; seed <= 200; seed++) {
            clean_reps(v, counts[c], 0.2, seed);
            flagged += reps_disturbance(v, counts[c], scratch) != 0;
        }
        assert_int_equal(flagged, 0);
    }
    clean_reps(v, REPS_DISTURB_MIN - 1, 0.2, 1);
    v[0] = 500; /* too few to judge, whatever they hold */
    assert_int_equal(reps_disturbance(v, REPS_DISTURB_MIN - 1, scratch), 0);
}

/* Bursts: 15% of the repetitions, spread over the point, 20% slower: a tail. */
static void test_disturbance_bursts(void **state)
{
    (void)state;
    double v[200], scratch[200];
    clean_reps(v, 200, 0.2, 7);
    for (unsigned i = 3; i < 200; i += 7)
        v[i] *= 1.2;
    assert_true(reps_disturbance(v, 200, scratch) & REPS_DISTURB_TAIL);
    assert_false(reps_disturbance(v, 200, scratch) & REPS_DISTURB_DRIFT);
}

/* Two modes 4% apart, alternating in time: modes, and no drift. */
static void test_disturbance_modes(void **state)
{
    (void)state;
    double v[200], scratch[200];
    clean_reps(v, 200, 0.2, 11);
    for (unsigned i = 0; i < 200; i += 2)
        v[i] += 4;
    unsigned bits = reps_disturbance(v, 200, scratch);
    assert_true(bits & REPS_DISTURB_MODES);
    assert_false(bits & REPS_DISTURB_DRIFT);
}

/* A clock or a neighbour that changes during the point: a ramp of 5% over it is a drift. */
static void test_disturbance_drift(void **state)
{
    (void)state;
    double v[120], scratch[120];
    clean_reps(v, 120, 0.2, 13);
    for (unsigned i = 0; i < 120; i++)
        v[i] += 5.0 * i / 119;
    unsigned bits = reps_disturbance(v, 120, scratch);
    assert_true(bits & REPS_DISTURB_DRIFT);
    assert_false(bits & REPS_DISTURB_TAIL);
    char text[24];
    reps_disturbance_text(REPS_DISTURB_TAIL | REPS_DISTURB_DRIFT, text, sizeof(text));
    assert_string_equal(text, "tail+drift");
    reps_disturbance_text(0, text, sizeof(text));
    assert_string_equal(text, "");
}

/* The headline quantile stays among the quiet repetitions with 60% of them in bursts, where
   the median does not. */
static void test_headline_robust(void **state)
{
    (void)state;
    double v[100];
    clean_reps(v, 100, 0.2, 17);
    for (unsigned i = 0; i < 100; i += 5) {
        v[i] *= 1.5;
        v[i + 1] *= 1.5;
        v[i + 2] *= 1.5;
    }
    stats_sort(v, 100);
    double headline = stats_quantile_sorted(v, 100, REPS_HEADLINE_QUANTILE);
    assert_true(headline > 99 && headline < 100.5);
    assert_true(stats_quantile_sorted(v, 100, 0.5) > 100.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ci_ranks_known),
        cmocka_unit_test(test_ci_ranks_are_the_narrowest),
        cmocka_unit_test(test_mad),
        cmocka_unit_test(test_insert_sorted),
        cmocka_unit_test(test_outlier_rule),
        cmocka_unit_test(test_outlier_floor),
        cmocka_unit_test(test_assess_precision),
        cmocka_unit_test(test_stopping_rule),
        cmocka_unit_test(test_stopping_on_streams),
        cmocka_unit_test(test_time_split),
        cmocka_unit_test(test_disturbance_clean),
        cmocka_unit_test(test_disturbance_bursts),
        cmocka_unit_test(test_disturbance_modes),
        cmocka_unit_test(test_disturbance_drift),
        cmocka_unit_test(test_headline_robust),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
