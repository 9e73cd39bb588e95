// SPDX-License-Identifier: MIT
// Unit tests of the refresh finder on made-up trains: a known period with jitter, missing beats
// and strays, recovered with its stall; noise with no period, where none is claimed.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "point/refresh.h"
#include "lib/rng.h"

#define TRAIN_MAX 20000
#define TSC_HZ 2.4e9
#define HOP_NS 90.0
#define BATCH_NS (4 * HOP_NS)

static uint64_t tsc[TRAIN_MAX];
static double excess[TRAIN_MAX];

static uint64_t ticks(double ns)
{
    return (uint64_t)(ns * TSC_HZ / 1e9);
}

/* A train of `beats` refreshes every period_ns costing stall_ns: each lands in a batch (the
 * batch's start is timed, so up to one batch early), a share `missing` met no access, and a
 * share `strays` of extra slow batches fall anywhere. Returns the events written. */
static size_t make_train(struct rng *r, double period_ns, double stall_ns, size_t beats,
                         double missing, double strays)
{
    size_t n = 0;
    for (size_t k = 1; k <= beats && n + 2 < TRAIN_MAX; k++) {
        double t = k * period_ns;
        if (rng_uniform(r) < strays) { /* a stray somewhere in this period */
            tsc[n] = ticks(t + rng_uniform(r) * period_ns * 0.9);
            excess[n++] = 50 + 2000 * rng_uniform(r);
        }
        if (rng_uniform(r) < missing)
            continue;
        tsc[n] = ticks(t - rng_uniform(r) * BATCH_NS + 5 * rng_gauss(r));
        excess[n++] = stall_ns - rng_uniform(r) * HOP_NS + 3 * rng_gauss(r);
    }
    /* strays were written after their period's start: order the train */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && tsc[j - 1] > tsc[j]; j--) {
            uint64_t t = tsc[j];
            tsc[j] = tsc[j - 1];
            tsc[j - 1] = t;
            double e = excess[j];
            excess[j] = excess[j - 1];
            excess[j - 1] = e;
        }
    return n;
}

static struct refresh_result find(size_t n)
{
    struct refresh_series s = {.tsc = tsc,
                               .excess_ns = excess,
                               .n = n,
                               .tsc_hz = TSC_HZ,
                               .batch_ns = BATCH_NS,
                               .hop_ns = HOP_NS};
    struct refresh_result res;
    bool ok = refresh_find(&s, &res);
    assert_int_equal(ok, res.found);
    return res;
}

static void check_recovered(double period_ns, double stall_ns, double missing, double strays,
                            uint64_t seed)
{
    struct rng r;
    rng_seed(&r, seed);
    size_t n = make_train(&r, period_ns, stall_ns, 3000, missing, strays);
    struct refresh_result res = find(n);
    print_message("period %.0f stall %.0f: found %d period %.1f stall %.1f conf %.2f beats %zu "
                  "strays %zu\n",
                  period_ns, stall_ns, res.found, res.period_ns, res.stall_ns, res.confidence,
                  res.beats, res.strays);
    assert_true(res.found);
    assert_true(fabs(res.period_ns - period_ns) < 0.01 * period_ns);
    assert_true(fabs(res.stall_ns - stall_ns) < 0.05 * stall_ns);
    assert_true(res.confidence >= REFRESH_MIN_CONFIDENCE);
}

static void test_period_3900(void **state)
{
    (void)state;
    check_recovered(3900, 350, 0.3, 0.1, 52);
}

static void test_period_7800(void **state)
{
    (void)state;
    /* half the beats missing and a stray in a fifth of the periods: half the period fits every
     * beat and more strays, and must still lose to the period, whatever the seed */
    for (uint64_t seed = 1; seed <= 20; seed++)
        check_recovered(7800, 280, 0.5, 0.2, seed);
}

static void test_period_1950_clean(void **state)
{
    (void)state;
    check_recovered(1950, 160, 0.0, 0.0, 52);
}

/* Slow batches at random (exponential gaps of mean gap_ns): no period stands out. */
static void check_noise(double gap_ns, uint64_t seed)
{
    struct rng r;
    rng_seed(&r, seed);
    double t = 0;
    for (size_t i = 0; i < 4000; i++) {
        t += -gap_ns * log(rng_uniform(&r));
        tsc[i] = ticks(t);
        excess[i] = 300 * rng_uniform(&r);
    }
    struct refresh_result res = find(4000);
    print_message("noise %.0f: found %d conf %.2f\n", gap_ns, res.found, res.confidence);
    assert_false(res.found);
    assert_true(res.period_ns == 0 && res.stall_ns == 0);
}

static void test_noise(void **state)
{
    (void)state;
    check_noise(5000, 1);
    check_noise(2000, 2);
    check_noise(20000, 3);
}

/* Too short a train, or no timer rate: nothing claimed. */
static void test_unusable(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 7);
    size_t n = make_train(&r, 3900, 350, 10, 0, 0);
    assert_false(find(n).found);
    struct refresh_series s = {.tsc = tsc, .excess_ns = excess, .n = n, .tsc_hz = 0};
    struct refresh_result res;
    assert_false(refresh_find(&s, &res));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_period_3900),       cmocka_unit_test(test_period_7800),
        cmocka_unit_test(test_period_1950_clean), cmocka_unit_test(test_noise),
        cmocka_unit_test(test_unusable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
