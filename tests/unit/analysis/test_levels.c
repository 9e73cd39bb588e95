// SPDX-License-Identifier: MIT
// chase-report's level detection on curves from the latency model with known levels and noise.
//
// Tolerances this file holds the detector to (effective size against the model's size S_i,
// detected latency against l_i), with 3% noise unless said otherwise:
//   sharp steps (sharpness >= 2): sizes within -15%..+25% at 4 points per octave and
//     -20%..+25% at 2 (a step between two samples is placed by interpolation),
//     latencies and DRAM within 10%;
//   soft steps (sharpness 1.5): sizes within -15%..+35%, latencies within 15%;
//   random replacement (sharpness 1, noise 1%): the right count, sizes within -15%..+35%,
//     latencies within 25% (such plateaus never flatten: the fit recovers l_i, see
//     test_report_fit.c);
//   set-associative LRU (Poisson fill of the sets): effective sizes 55%..105% of capacity.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "analysis/levels.h"
#include "test_noise.h"
#include "fit/model.h"

#define MAX_POINTS 4096
#define SEEDS 12

struct curve_buf {
    size_t n;
    double size[MAX_POINTS], ns[MAX_POINTS];
};

/* The model's curve from 2^lo to 2^hi bytes, ppo points per octave, multiplicative noise. */
static void make_curve(struct curve_buf *c, const struct lat_model *m, double lo, double hi,
                       double ppo, double noise, uint64_t seed)
{
    rng_state = seed * 7919 + 1;
    c->n = 0;
    for (double x = lo; x <= hi + 1e-9 && c->n < MAX_POINTS; x += 1 / ppo) {
        c->size[c->n] = round(exp2(x) / 64) * 64;
        c->ns[c->n] = model_latency(m, c->size[c->n]) * exp(noise * gauss());
        c->n++;
    }
}

static void expect_within(const char *what, size_t level, double got, double want, double lo,
                          double hi)
{
    double r = got / want;
    if (!(r >= lo && r <= hi)) {
        print_error("%s of level %zu: got %.4g, want %.4g (ratio %.3f outside %.2f..%.2f)\n", what,
                    level + 1, got, want, r, lo, hi);
        fail();
    }
}

/* Detect on the model's curve and compare every level with the model's. */
static void check_recovery(const struct lat_model *m, double lo, double hi, double ppo,
                           double noise, const double tol[4])
{
    static struct curve_buf c;
    struct detect_opts o = {.llc_bytes = 0};
    struct detection d;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        make_curve(&c, m, lo, hi, ppo, noise, seed);
        levels_detect(c.size, c.ns, NULL, c.n, &o, &d);
        if (d.nlevels != m->m - 1) {
            print_error("seed %llu: %zu levels detected, want %zu\n", (unsigned long long)seed,
                        d.nlevels, m->m - 1);
            for (size_t k = 0; k < d.nlevels; k++)
                print_error("  level %zu: %.4g bytes (%.4g..%.4g), %.3g ns, %s %.2f\n", k + 1,
                            d.level[k].size_bytes, d.level[k].size_lo_bytes,
                            d.level[k].size_hi_bytes, d.level[k].latency_ns,
                            level_kind_name(d.level[k].kind), d.level[k].confidence);
            fail();
        }
        for (size_t i = 0; i < d.nlevels; i++) {
            assert_true(d.level[i].size_known);
            expect_within("size", i, d.level[i].effective_bytes, m->size_bytes[i], tol[0], tol[1]);
            expect_within("latency", i, d.level[i].latency_ns, m->lat_ns[i], 1 - tol[2],
                          1 + tol[2]);
        }
        expect_within("DRAM latency", d.nlevels, d.dram_ns, m->lat_ns[m->m - 1], 1 - tol[3],
                      1 + tol[3]);
        assert_false(d.dram_lower_bound);
    }
}

static const double sharp_tol[4] = {0.85, 1.25, 0.10, 0.10};
static const double coarse_tol[4] = {0.80, 1.25, 0.10, 0.10};

static void test_three_levels_sharp(void **state)
{
    (void)state;
    struct lat_model m = {4, {1.2, 4.0, 14, 90}, {48 << 10, 1.25 * 1048576, 12 << 20}, 3, false};
    check_recovery(&m, 12, 30, 4, 0.03, sharp_tol);
}

static void test_non_power_of_two_two_per_octave(void **state)
{
    (void)state;
    struct lat_model m = {4, {1.5, 5, 20, 100}, {24 << 10, 3 << 20, 30 << 20}, 6, false};
    check_recovery(&m, 10, 30, 2, 0.02, coarse_tol);
}

static void test_two_level_machine(void **state)
{
    (void)state;
    struct lat_model m = {3, {1.5, 6, 110}, {32 << 10, 512 << 10}, 4, false};
    check_recovery(&m, 10, 28, 4, 0.03, sharp_tol);
    struct lat_model a53 = {3, {2.2, 9, 140}, {32 << 10, 1 << 20}, 2, false};
    check_recovery(&a53, 10, 28, 2, 0.02, coarse_tol);
}

static void test_four_levels(void **state)
{
    (void)state;
    struct lat_model m = {
        5, {1.0, 3, 10, 30, 100}, {32 << 10, 512 << 10, 4 << 20, 64 << 20}, 3, false};
    check_recovery(&m, 10, 31, 4, 0.02, sharp_tol);
}

static void test_soft_transitions(void **state)
{
    (void)state;
    static const double soft_tol[4] = {0.85, 1.35, 0.15, 0.15};
    struct lat_model m = {4, {1.2, 4.0, 14, 90}, {48 << 10, 1.25 * 1048576, 12 << 20}, 1.5, false};
    check_recovery(&m, 12, 30, 4, 0.02, soft_tol);
}

static void test_random_replacement(void **state)
{
    (void)state;
    static const double p1_tol[4] = {0.85, 1.35, 0.25, 0.15};
    struct lat_model m = {4, {1.2, 4.0, 14, 90}, {48 << 10, 1.25 * 1048576, 12 << 20}, 1, false};
    check_recovery(&m, 12, 30, 4, 0.01, p1_tol);
}

static void detect_plain(const struct curve_buf *c, struct detection *d, double llc)
{
    struct detect_opts o = {.llc_bytes = llc};
    levels_detect(c->size, c->ns, NULL, c->n, &o, d);
}

/* A flat curve, a slow drift and pure noise have no cache levels. */
static void test_never_invents(void **state)
{
    (void)state;
    static struct curve_buf c;
    struct detection d;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        struct lat_model flat = {1, {80}, {0}, 1, false};
        make_curve(&c, &flat, 12, 30, 4, 0.06, seed);
        detect_plain(&c, &d, 0);
        assert_int_equal(d.nlevels, 0);
        assert_true(fabs(d.dram_ns / 80 - 1) < 0.05);
        for (size_t i = 0; i < c.n; i++) /* DRAM with page walks: 6% more per octave */
            c.ns[i] = 60 * pow(1.06, log2(c.size[i]) - 12) * exp(0.01 * gauss());
        detect_plain(&c, &d, 0);
        assert_int_equal(d.nlevels, 0);
    }
}

/* The long 1/N tail of a soft step towards DRAM is no extra level, even without noise. */
static void test_soft_tail_is_no_level(void **state)
{
    (void)state;
    static struct curve_buf c;
    struct detection d;
    struct lat_model m = {3, {1.5, 6, 110}, {64 << 10, 1 << 20}, 1, false};
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        make_curve(&c, &m, 10, 30, 4, 0.005, seed);
        detect_plain(&c, &d, 0);
        assert_int_equal(d.nlevels, 2);
    }
}

static void test_outliers(void **state)
{
    (void)state;
    static struct curve_buf c;
    struct detection d;
    struct lat_model m = {4, {1.2, 4.0, 14, 90}, {48 << 10, 1.25 * 1048576, 12 << 20}, 3, false};
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        make_curve(&c, &m, 12, 30, 4, 0.02, seed);
        c.ns[5] *= 3; /* interrupts or SMIs hit three points */
        c.ns[30] *= 2.5;
        c.ns[50] *= 4;
        detect_plain(&c, &d, 0);
        assert_int_equal(d.nlevels, 3);
    }
}

/* Memory seen with contention: a plateau within 30% of DRAM's latency before it, and a single
 * wild dip inside DRAM (the "L4 19.5M at 131.6 ns"), are DRAM, not cache levels. */
static void test_memory_noise_is_no_level(void **state)
{
    (void)state;
    static struct curve_buf c;
    struct detection d;
    struct lat_model m = {4, {1.2, 4.5, 40, 150}, {32 << 10, 400 << 10, 4 << 20}, 3, false};
    for (double ppo = 1; ppo <= 4; ppo *= 2)
        for (uint64_t seed = 1; seed <= SEEDS; seed++) {
            make_curve(&c, &m, 12, 29, ppo, 0.02, seed);
            for (size_t i = 0; i < c.n; i++) {
                if (c.size[i] >= (12 << 20) && c.size[i] < (24 << 20))
                    c.ns[i] *= 0.87; /* memory a little faster while the host is quiet */
                if (fabs(log2(c.size[i] / (14 << 20))) < 0.5 / ppo)
                    c.ns[i] = 47; /* one wild point */
            }
            detect_plain(&c, &d, 0);
            if (d.nlevels != 3)
                print_error("%g points per octave, seed %llu: %zu levels\n", ppo,
                            (unsigned long long)seed, d.nlevels);
            assert_int_equal(d.nlevels, 3);
            assert_true(d.dram_ns > 120 && d.dram_ns < 170);
            for (size_t i = 0; i < d.nlevels; i++)
                assert_true(d.level[i].latency_ns < 150 / 1.3);
        }
}

/* One wild point anywhere (a spike or a dip of 2.5x) neither adds nor splits a level. */
static void test_single_wild_point_anywhere(void **state)
{
    (void)state;
    static struct curve_buf c;
    struct detection d;
    struct lat_model m = {4, {1.2, 4.0, 14, 90}, {48 << 10, 1.25 * 1048576, 12 << 20}, 3, false};
    make_curve(&c, &m, 12, 30, 4, 0.02, 5);
    for (size_t k = 0; k < c.n; k++)
        for (int dir = 0; dir < 2; dir++) {
            double keep = c.ns[k];
            c.ns[k] *= dir ? 2.5 : 0.4;
            detect_plain(&c, &d, 0);
            c.ns[k] = keep;
            if (d.nlevels != 3) {
                print_error("wild point %zu (%s): %zu levels\n", k, dir ? "up" : "down", d.nlevels);
                for (size_t i = 0; i < d.nlevels; i++)
                    print_error("  level %zu: %.4g bytes, %.3g ns, %s\n", i + 1,
                                d.level[i].size_bytes, d.level[i].latency_ns,
                                level_kind_name(d.level[i].kind));
                print_error("  dram %.3g ns%s\n", d.dram_ns, d.dram_lower_bound ? " (bound)" : "");
            }
            assert_int_equal(d.nlevels, 3);
        }
}

/* One point per octave (tinymembench, multichase): the latency model with k levels. Soft steps
 * (plateaus of one or two points), noise and a wild point inside the L1 or the memory plateau
 * still give every level within 1.5x of its size and no other level. (A wild point between its
 * neighbours, on a step's way up, cannot be told from the step at one point per octave.) */
static void test_one_point_per_octave(void **state)
{
    (void)state;
    static struct curve_buf c;
    struct detection d;
    const struct lat_model ms[] = {
        {4, {1.2, 4.5, 16, 90}, {32 << 10, 256 << 10, 2 << 20}, 1.8, false},
        {4, {1.0, 3.5, 12, 70}, {48 << 10, 1 << 20, 16 << 20}, 3, false},
        {3, {1.5, 6, 110}, {32 << 10, 512 << 10}, 1.5, false},
    };
    for (size_t k = 0; k < sizeof(ms) / sizeof(ms[0]); k++)
        for (uint64_t seed = 1; seed <= 6; seed++) {
            make_curve(&c, &ms[k], 10, 28, 1, 0.02, seed);
            size_t wild = seed % 2 ? 1 + seed % 3 : c.n - 1 - seed % 4;
            c.ns[wild] *= seed % 2 ? 2.5 : 0.4;
            detect_plain(&c, &d, 0);
            if (d.nlevels != ms[k].m - 1)
                print_error("model %zu seed %llu (wild point %zu): %zu levels\n", k,
                            (unsigned long long)seed, wild, d.nlevels);
            assert_int_equal(d.nlevels, ms[k].m - 1);
            for (size_t i = 0; i < d.nlevels; i++)
                expect_within("size", i, d.level[i].size_bytes, ms[k].size_bytes[i], 1 / 1.5, 1.5);
        }
}

/* A step in ns that the core cycles measured beside each point do not show is the core clock
 * changing (this machine's full run: 1.22 -> 1.39 ns at 11K, 5.0 cycles throughout), no level;
 * without cycles the same curve has that level (the clock halved here, so that the step in ns is
 * one the detector reads as a level). */
static void test_clock_change_is_no_level(void **state)
{
    (void)state;
    static struct curve_buf c;
    static double cycles[MAX_POINTS];
    struct lat_model m = {4, {1.2, 4.5, 35, 150}, {48 << 10, 2 << 20, 9 << 20}, 3, false};
    struct detect_opts o = {.llc_bytes = 0};
    struct detection d;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        make_curve(&c, &m, 12, 30, 4, 0.005, seed);
        for (size_t i = 0; i < c.n; i++) {
            double ghz = c.size[i] >= (11 << 10) && c.size[i] < (48 << 10) ? 2.05 : 4.1;
            cycles[i] = c.ns[i] * 4.1; /* the cache's cost in cycles does not move */
            c.ns[i] = cycles[i] / ghz;
        }
        levels_detect(c.size, c.ns, cycles, c.n, &o, &d);
        assert_int_equal(d.nlevels, 3);
        expect_within("size", 0, d.level[0].size_bytes, 48 << 10, 0.85, 1.25);
        levels_detect(c.size, c.ns, NULL, c.n, &o, &d);
        assert_int_equal(d.nlevels, 4);
    }
}

/* Where every load may pay a page walk (walk_bytes: 4K pages or a hypervisor), a gentle step
 * (under 2x in its steepest octave) from a plateau that starts beyond it is memory plus walks:
 * DRAM is the plateau before it. A last cache whose plateau starts below that size keeps its
 * step into memory. */
static void test_page_walk_steps_are_memory(void **state)
{
    (void)state;
    static struct curve_buf c;
    struct lat_model m = {4, {1.2, 4.5, 35, 150}, {48 << 10, 2 << 20, 9 << 20}, 3, false};
    struct lat_model big = {4, {1.2, 4.5, 60, 110}, {48 << 10, 1 << 20, 32 << 20}, 3, false};
    struct detect_opts walk = {.walk_bytes = 12 << 20}, none = {.llc_bytes = 0};
    struct detection d;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        make_curve(&c, &m, 12, 31, 4, 0.02, seed);
        for (size_t i = 0; i < c.n; i++)
            if (c.size[i] >= 1.5 * 1073741824.0)
                c.ns[i] *= 1.8;
        levels_detect(c.size, c.ns, NULL, c.n, &walk, &d);
        for (size_t i = 0; d.nlevels != 3 && i < d.nlevels; i++)
            print_error("seed %llu level %zu: %.4g bytes from %.4g, %.3g ns, %s\n",
                        (unsigned long long)seed, i + 1, d.level[i].size_bytes,
                        d.level[i].from_bytes, d.level[i].latency_ns,
                        level_kind_name(d.level[i].kind));
        assert_int_equal(d.nlevels, 3);
        assert_true(d.dram_ns > 135 && d.dram_ns < 165);
        levels_detect(c.size, c.ns, NULL, c.n, &none, &d);
        assert_int_equal(d.nlevels, 4);
        make_curve(&c, &big, 12, 31, 4, 0.02, seed);
        levels_detect(c.size, c.ns, NULL, c.n, &walk, &d);
        assert_int_equal(d.nlevels, 3);
        expect_within("size", 2, d.level[2].size_bytes, 32 << 20, 0.85, 1.25);
    }
}

/* Every level has a confidence in (0, 1]; a large, wide step is surer than a faint, narrow one. */
static void test_confidence(void **state)
{
    (void)state;
    static struct curve_buf c;
    struct detection d;
    struct lat_model clear = {3, {1.2, 6.0, 100}, {32 << 10, 1 << 20}, 4, false};
    make_curve(&c, &clear, 12, 28, 4, 0.01, 3);
    detect_plain(&c, &d, 0);
    assert_int_equal(d.nlevels, 2);
    for (size_t i = 0; i < d.nlevels; i++) {
        assert_true(d.level[i].confidence > 0.9 && d.level[i].confidence <= 1);
        assert_int_equal(d.level[i].kind, LEVEL_CACHE);
    }
    /* A faint step (1.25x) with 3% noise and a plateau of one octave. */
    struct lat_model faint = {4, {1.2, 6.0, 7.5, 100}, {32 << 10, 512 << 10, 1 << 20}, 4, false};
    double faint_conf = 0;
    size_t seen = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        make_curve(&c, &faint, 12, 28, 4, 0.03, seed);
        detect_plain(&c, &d, 0);
        if (d.nlevels == 3) {
            faint_conf += d.level[1].confidence;
            seen++;
        }
    }
    if (seen)
        assert_true(faint_conf / (double)seen < 0.8);
}

/* A curve that stops inside the last cache (CPUID says how big it is) has no DRAM. */
static void test_curve_inside_llc(void **state)
{
    (void)state;
    static struct curve_buf c;
    struct detection d;
    struct lat_model m = {4, {1.2, 4.0, 14, 90}, {48 << 10, 1.25 * 1048576, 32 << 20}, 3, false};
    make_curve(&c, &m, 12, 22, 2, 0.02, 1);
    detect_plain(&c, &d, 32 << 20);
    assert_int_equal(d.nlevels, 3);
    assert_false(d.level[2].size_known);
    assert_true(isnan(d.dram_ns));
    detect_plain(&c, &d, 0); /* without CPUID the last plateau is taken for DRAM */
    assert_int_equal(d.nlevels, 2);
    assert_true(fabs(d.dram_ns / 14 - 1) < 0.1);
}

static void test_curve_ends_rising(void **state)
{
    (void)state;
    static struct curve_buf c;
    struct detection d;
    struct lat_model m = {4, {1.2, 4.0, 14, 90}, {48 << 10, 1.25 * 1048576, 12 << 20}, 3, false};
    make_curve(&c, &m, 12, 24.5, 4, 0.01, 1);
    detect_plain(&c, &d, 0);
    assert_int_equal(d.nlevels, 3);
    assert_true(d.dram_lower_bound);
    assert_true(d.dram_ns > 20 && d.dram_ns < 90);
}

/* Share of N bytes that hits in a W-way cache of `sets` sets under LRU when a random chain's
 * lines fall into the sets like a Poisson process: a set with more than W lines misses all. */
static double lru_hits(double n_bytes, double sets, int ways)
{
    double lambda = n_bytes / 64 / sets, p = exp(-lambda), hits = 0;
    for (int k = 1; k <= ways; k++) {
        p *= lambda / k;
        hits += k * p;
    }
    return fmin(1, hits / lambda);
}

static void test_set_associative_lru(void **state)
{
    (void)state;
    static struct curve_buf c;
    struct detection d;
    const double sets[3] = {64, 2048, 16384}, lat[4] = {1.2, 4.5, 16, 95};
    const int ways[3] = {12, 16, 16};
    c.n = 0;
    rng_state = 3;
    for (double x = 12; x <= 30; x += 0.25) {
        double n = exp2(x), e = 0, prev = 0;
        for (int i = 0; i < 3; i++) {
            double h = lru_hits(n, sets[i], ways[i]);
            e += lat[i] * (h - prev);
            prev = fmax(prev, h);
        }
        c.size[c.n] = n;
        c.ns[c.n++] = (e + lat[3] * (1 - prev)) * exp(0.02 * gauss());
    }
    detect_plain(&c, &d, 0);
    assert_int_equal(d.nlevels, 3);
    for (int i = 0; i < 3; i++)
        expect_within("effective size", (size_t)i, d.level[i].effective_bytes,
                      sets[i] * ways[i] * 64, 0.55, 1.05);
}

static void test_degenerate_inputs(void **state)
{
    (void)state;
    struct detection d;
    struct detect_opts o = {.llc_bytes = 0};
    double s[6] = {4096, NAN, -1, INFINITY, 8192, 1e300}, v[6] = {1, 2, NAN, 3, -5, 7};
    levels_detect(s, v, NULL, 0, &o, &d);
    assert_int_equal(d.nlevels, 0);
    levels_detect(s, v, NULL, 6, &o, &d);
    assert_int_equal(d.nlevels, 0);
    assert_true(d.nnotes > 0);
    double same_s[8] = {4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096};
    double same_v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    levels_detect(same_s, same_v, NULL, 8, &o, &d);
    assert_int_equal(d.nlevels, 0);
}

/* A curve longer than the detector's limit is binned, not refused. */
static void test_long_curve(void **state)
{
    (void)state;
    static struct curve_buf c;
    struct detection d;
    struct lat_model m = {3, {1.5, 6, 110}, {32 << 10, 512 << 10}, 4, false};
    make_curve(&c, &m, 10, 28, 200, 0.03, 1);
    assert_true(c.n > LEVELS_MAX_POINTS);
    detect_plain(&c, &d, 0);
    assert_int_equal(d.nlevels, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_levels_sharp),
        cmocka_unit_test(test_non_power_of_two_two_per_octave),
        cmocka_unit_test(test_two_level_machine),
        cmocka_unit_test(test_four_levels),
        cmocka_unit_test(test_soft_transitions),
        cmocka_unit_test(test_random_replacement),
        cmocka_unit_test(test_never_invents),
        cmocka_unit_test(test_soft_tail_is_no_level),
        cmocka_unit_test(test_outliers),
        cmocka_unit_test(test_memory_noise_is_no_level),
        cmocka_unit_test(test_single_wild_point_anywhere),
        cmocka_unit_test(test_one_point_per_octave),
        cmocka_unit_test(test_clock_change_is_no_level),
        cmocka_unit_test(test_page_walk_steps_are_memory),
        cmocka_unit_test(test_confidence),
        cmocka_unit_test(test_curve_inside_llc),
        cmocka_unit_test(test_curve_ends_rising),
        cmocka_unit_test(test_set_associative_lru),
        cmocka_unit_test(test_degenerate_inputs),
        cmocka_unit_test(test_long_curve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
