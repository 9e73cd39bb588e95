// SPDX-License-Identifier: MIT
// chase-report's GSL fit of the latency model: parameters recovered with honest uncertainties,
// both forms, disagreement notes, and no crash on hopeless input.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fit/fit.h"
#include "analysis/levels.h"
#include "fit/model.h"

#define MAX_POINTS 512

static uint64_t rng_state;

static double gauss(void)
{
    double u[2];
    for (int i = 0; i < 2; i++) {
        rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
        u[i] = ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
    }
    return sqrt(-2 * log(u[0])) * cos(2 * M_PI * u[1]);
}

static size_t make_curve(const struct lat_model *m, double noise, uint64_t seed, double *size,
                         double *ns)
{
    size_t n = 0;
    rng_state = seed;
    for (double x = 12; x <= 30 + 1e-9; x += 0.25) {
        size[n] = exp2(x);
        ns[n] = model_latency(m, size[n]) * exp(noise * gauss());
        n++;
    }
    return n;
}

static void expect_close(const char *what, double got, double want, double sd, double frac)
{
    bool near = fabs(got / want - 1) <= frac;
    bool covered = fabs(got - want) <= 5 * sd; /* the stated uncertainty covers the truth */
    if (!near || !covered) {
        print_error("%s: fit %.5g +- %.3g, true %.5g\n", what, got, sd, want);
        fail();
    }
}

static void test_model_shape(void **state)
{
    (void)state;
    struct lat_model m = {4, {1, 4, 15, 90}, {32768, 1 << 20, 16 << 20}, 2, false};
    assert_true(fabs(model_latency(&m, 4096) - 1) < 1e-12);
    assert_true(fabs(model_latency(&m, 32768) - 1) < 1e-12);
    assert_true(fabs(model_latency(&m, 1e15) - 90) < 1e-3);
    double prev = 0;
    for (double x = 10; x < 32; x += 0.1) {
        double e = model_latency(&m, exp2(x));
        assert_true(e >= prev - 1e-12);
        prev = e;
    }
    /* Exclusive: the first two levels hold 32K + 1M together, so nothing comes from L3 at
     * that size; L1 serves (32K / N)^2 of it. */
    m.exclusive = true;
    double n = 32768 + (1 << 20), h1 = pow(32768 / n, 2);
    assert_true(fabs(model_latency(&m, n) - (1 * h1 + 4 * (1 - h1))) < 1e-9);
    assert_true(isnan(model_latency(&m, 0)));
}

/* Detection then fit on a noisy curve: sizes and latencies within 5%, inside 5 sigma. */
static void test_fit_recovers(void **state)
{
    (void)state;
    static double size[MAX_POINTS], ns[MAX_POINTS];
    struct lat_model truth = {
        4, {1.2, 4.0, 14, 90}, {48 << 10, 1.25 * 1048576, 12 << 20}, 3, false};
    for (uint64_t seed = 1; seed <= 6; seed++) {
        size_t n = make_curve(&truth, 0.02, seed, size, ns);
        struct detection d;
        struct detect_opts o = {.llc_bytes = 0};
        struct fit_result f;
        levels_detect(size, ns, NULL, n, &o, &d);
        assert_int_equal(d.nlevels, 3);
        assert_true(fit_model(size, ns, n, &d, false, 0, &f));
        assert_int_equal(f.model.m, 4);
        for (size_t i = 0; i < 3; i++)
            expect_close("size", f.model.size_bytes[i], truth.size_bytes[i], f.size_sd[i], 0.05);
        for (size_t i = 0; i < 4; i++)
            expect_close("latency", f.model.lat_ns[i], truth.lat_ns[i], f.lat_sd[i], 0.05);
        expect_close("sharpness", f.model.sharpness, 3, f.sharpness_sd, 0.2);
        assert_true(f.rms < 0.03);
    }
}

/* Soft steps: the fit finds the l_i that the plateaus never reach. */
static void test_fit_random_replacement(void **state)
{
    (void)state;
    static double size[MAX_POINTS], ns[MAX_POINTS];
    struct lat_model truth = {
        4, {1.2, 4.0, 14, 90}, {48 << 10, 1.25 * 1048576, 12 << 20}, 1, false};
    size_t n = make_curve(&truth, 0.01, 3, size, ns);
    struct detection d;
    struct detect_opts o = {.llc_bytes = 0};
    struct fit_result f;
    levels_detect(size, ns, NULL, n, &o, &d);
    assert_int_equal(d.nlevels, 3);
    assert_true(fit_model(size, ns, n, &d, false, 0, &f));
    for (size_t i = 0; i < 4; i++)
        expect_close("latency", f.model.lat_ns[i], truth.lat_ns[i], f.lat_sd[i], 0.05);
    expect_close("sharpness", f.model.sharpness, 1, f.sharpness_sd, 0.15);
}

/* Exclusive caches: the exclusive form gives each level's own size. */
static void test_fit_exclusive(void **state)
{
    (void)state;
    static double size[MAX_POINTS], ns[MAX_POINTS];
    struct lat_model truth = {4, {1.0, 3.5, 12, 80}, {32 << 10, 512 << 10, 8 << 20}, 4, true};
    size_t n = make_curve(&truth, 0.015, 9, size, ns);
    struct detection d;
    struct detect_opts o = {.llc_bytes = 0};
    struct fit_result ex, in;
    levels_detect(size, ns, NULL, n, &o, &d);
    assert_int_equal(d.nlevels, 3);
    assert_true(fit_model(size, ns, n, &d, true, 0, &ex));
    assert_true(fit_model(size, ns, n, &d, false, 0, &in));
    for (size_t i = 0; i < 3; i++)
        expect_close("exclusive size", ex.model.size_bytes[i], truth.size_bytes[i], ex.size_sd[i],
                     0.05);
    /* The inclusive reading of the same curve: what levels 1..i hold together. */
    expect_close("inclusive L2", in.model.size_bytes[1], (32 << 10) + (512 << 10), in.size_sd[1],
                 0.05);
}

/* tinymembench-like curves (time above L1) are fitted with an offset and reported without it. */
static void test_fit_with_offset(void **state)
{
    (void)state;
    static double size[MAX_POINTS], ns[MAX_POINTS];
    struct lat_model truth = {3, {1.5, 6, 110}, {32 << 10, 1 << 20}, 4, false};
    size_t n = make_curve(&truth, 0.01, 4, size, ns);
    for (size_t i = 0; i < n; i++)
        ns[i] -= 1.5;
    struct detection d;
    struct detect_opts o = {.ns_offset = 1.0};
    struct fit_result f;
    levels_detect(size, ns, NULL, n, &o, &d);
    assert_int_equal(d.nlevels, 2);
    assert_true(fabs(d.level[0].latency_ns) < 0.05);
    assert_true(fit_model(size, ns, n, &d, false, 1.0, &f));
    assert_true(fabs(f.model.lat_ns[1] - 4.5) < 0.3);
    assert_true(f.lat_sd[1] > 0);
}

/* A detection missing a level: the fit says a level more fits better. */
static void test_check_finds_missing_level(void **state)
{
    (void)state;
    static double size[MAX_POINTS], ns[MAX_POINTS];
    struct lat_model truth = {
        4, {1.2, 4.0, 14, 90}, {48 << 10, 1.25 * 1048576, 12 << 20}, 3, false};
    size_t n = make_curve(&truth, 0.02, 5, size, ns);
    struct detection d;
    struct detect_opts o = {.llc_bytes = 0};
    struct fit_result f;
    struct fit_check c;
    levels_detect(size, ns, NULL, n, &o, &d);
    assert_true(fit_model(size, ns, n, &d, false, 0, &f));
    fit_check(size, ns, n, &d, &f, 0, &c);
    assert_true(c.agrees);
    assert_int_equal(c.preferred_levels, 3);
    d.level[1] = d.level[2]; /* forget L2 */
    d.nlevels = 2;
    assert_true(fit_model(size, ns, n, &d, false, 0, &f) || !f.ok);
    fit_check(size, ns, n, &d, &f, 0, &c);
    if (f.ok) {
        assert_false(c.agrees);
        assert_int_equal(c.preferred_levels, 3);
    }
}

static void test_fit_hopeless_input(void **state)
{
    (void)state;
    struct detection d;
    struct fit_result f;
    memset(&d, 0, sizeof(d));
    double s[3] = {4096, 8192, 16384}, v[3] = {1, 1, 1};
    assert_false(fit_model(s, v, 3, &d, false, 0, &f));
    assert_true(strlen(f.why) > 0);
    d.nlevels = 1;
    d.level[0] = (struct level){.size_bytes = 8192, .size_known = true, .latency_ns = 1};
    d.dram_ns = 2;
    assert_false(fit_model(s, v, 3, &d, false, 0, &f));
    assert_true(strstr(f.why, "too few points") != NULL);
    double bad_s[12], bad_v[12];
    for (int i = 0; i < 12; i++) {
        bad_s[i] = i % 3 ? exp2(10 + i) : NAN;
        bad_v[i] = i % 4 ? INFINITY : -1;
    }
    assert_false(fit_model(bad_s, bad_v, 12, &d, true, 0, &f));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_shape),
        cmocka_unit_test(test_fit_recovers),
        cmocka_unit_test(test_fit_random_replacement),
        cmocka_unit_test(test_fit_exclusive),
        cmocka_unit_test(test_fit_with_offset),
        cmocka_unit_test(test_check_finds_missing_level),
        cmocka_unit_test(test_fit_hopeless_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
