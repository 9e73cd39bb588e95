// SPDX-License-Identifier: MIT
// Unit tests of the dual and scan verdicts' rules against LRU's expectation: adaptive insertion
// when most second touches miss, scan resistance when a small array outlives LRU's half LLC.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/interpret.h"
#include "verdict_lookup.h"

#define LLC (16.0 * 1048576)
#define L3_NS 14.0
#define DRAM_NS 90.0

static double size[128], ns[128];
static struct an_curve curve;
static struct an_result r;
static struct csv table;

/* A random chase with caches at 32K, 1M and 12M (1.2, 4, 14 ns) and DRAM at 90 ns. */
static void make_curve(void)
{
    size_t n = 0;
    for (double x = 12; x <= 30 + 1e-9; x += 0.25) {
        double b = exp2(x);
        size[n] = b;
        ns[n++] = b <= 32768 ? 1.2 : b <= 1048576 ? 4.0 : b <= 12.0 * 1048576 ? L3_NS : DRAM_NS;
    }
    curve = (struct an_curve){.label = "random",
                              .role = AN_ROLE_LEVELS,
                              .page_bytes = 1 << 30,
                              .n = n,
                              .size = size,
                              .ns = ns};
}

/* Judge experiment name's table text against the curve and a 16M LLC: its verdict. */
static const struct verdict *judge(const char *name, const char *text)
{
    char err[128];
    csv_free(&table); /* the previous table (a zeroed one frees nothing) */
    assert_int_equal(csv_parse(text, strlen(text), &table, err, sizeof(err)), 0);
    make_curve();
    struct an_input in = {.curve = &curve, .ncurves = 1, .llc_bytes = LLC, .line_bytes = 64};
    int e = analysis_experiment_index(name);
    assert_true(e >= 0);
    in.table[e] = &table;
    analysis_run(&in, &r);
    return &r.verdict[e];
}

/* A dual table: dual costs `overlap` of random inside the LLC (two pointers' loads overlap),
 * and above it `share` of the way from LRU's expectation ((1 + L3/DRAM) / 2: every second
 * touch hits) to random's, both times the overlap. */
static const struct verdict *dual_overlapped(double share, double overlap)
{
    char t[512] = "size_bytes,lag_slots,ns_median\n";
    for (double x = 2; x <= 8; x *= 2)
        snprintf(t + strlen(t), sizeof(t) - strlen(t), "%.0f,99,%.4f\n", x * 1048576,
                 overlap * L3_NS);
    double lru = 0.5 * (1 + L3_NS / DRAM_NS);
    for (double x = 64; x <= 256; x *= 4)
        snprintf(t + strlen(t), sizeof(t) - strlen(t), "%.0f,99,%.4f\n", x * 1048576,
                 overlap * DRAM_NS * (lru + share * (1 - lru)));
    return judge("dual", t);
}

static const struct verdict *dual_with_share(double share)
{
    return dual_overlapped(share, 1);
}

/* Adaptive insertion when more than half the second touches miss (chase-sim: DRRIP 78%, DIP
 * 54-72%, SRRIP 30-42%, LRU 0%); the ratios beside it. */
static void test_dual_against_lru(void **state)
{
    (void)state;
    const struct verdict *v = dual_with_share(0.7);
    assert_float_equal(item(v, "lru_expectation"), 0.5 * (1 + L3_NS / DRAM_NS), 1e-3);
    assert_float_equal(item(v, "second_touch_miss_share"), 0.7, 1e-3);
    assert_true(item(v, "adaptive_insertion") == 1);
    assert_non_null(strstr(v->headline, "LRU 58%: 70% of second touches miss, lines are "
                                        "inserted at low priority"));
    v = dual_with_share(0.3);
    assert_float_equal(item(v, "second_touch_miss_share"), 0.3, 1e-3);
    assert_true(item(v, "adaptive_insertion") == 0);
    assert_non_null(strstr(v->headline, "as under LRU"));
    v = dual_with_share(0);
    assert_float_equal(item(v, "dual_over_random_above_llc"), item(v, "lru_expectation"), 1e-3);
    assert_true(item(v, "adaptive_insertion") == 0);
    /* With the pointers overlapping (dual 80% of random inside the LLC), both ends scale. */
    v = dual_overlapped(0.7, 0.8);
    assert_float_equal(item(v, "second_touch_miss_share"), 0.7, 1e-3);
    assert_float_equal(item(v, "lru_expectation"), 0.8 * 0.5 * (1 + L3_NS / DRAM_NS), 1e-3);
    assert_true(item(v, "adaptive_insertion") == 1);
}

/* Resistant beyond half the LLC moved up a quarter octave (0.59 of it): a small array lost at
 * 0.67 of the LLC (DRRIP on chase-sim) is kept beyond LRU's, one lost at 0.55 (LRU on
 * chase-sim: 0.53, 0.54) is not. It leaves half way between the rows around it (log2 size). */
static void test_scan_against_lru(void **state)
{
    (void)state;
    static const struct {
        double leave, want;
    } cases[] = {{0.67, 1}, {0.55, 0}};
    for (size_t i = 0; i < 2; i++) {
        double at = cases[i].leave * LLC;
        char t[256];
        snprintf(t, sizeof(t),
                 "small_bytes,huge_bytes,ns_median\n65536,268435456,40\n%.0f,268435456,40\n"
                 "%.0f,268435456,100\n33554432,268435456,100\n",
                 at / 1.1, at * 1.1);
        const struct verdict *v = judge("scan", t);
        assert_float_equal(item(v, "fraction_of_llc"), cases[i].leave, 0.005);
        assert_float_equal(item(v, "lru_fraction_of_llc"), 0.5 * pow(2, 0.25), 1e-9);
        assert_true(item(v, "scan_resistant") == cases[i].want);
        assert_non_null(strstr(v->headline, cases[i].want ? ": scan-resistant" : "as under LRU"));
    }
}

static int teardown(void **state)
{
    (void)state;
    csv_free(&table);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dual_against_lru),
        cmocka_unit_test(test_scan_against_lru),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
