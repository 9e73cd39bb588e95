// SPDX-License-Identifier: MIT
// Unit tests of what the shared interpretation stands on: the CSV reader, kmath, the table.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/interpret.h"
#include "lib/csv.h"
#include "lib/kmath.h"

/* Numbers as chase writes them read to the same double as strtod gives. */
static void test_numbers_match_strtod(void **state)
{
    (void)state;
    static const char *const fixed[] = {"0",       "1.222", "-3.5",     "2097152",
                                        "0.9962",  "1e-3",  "+4.25E+2", "123456789012345678901234",
                                        "0.000001"};
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
        double v;
        assert_true(csv_parse_number(fixed[i], strlen(fixed[i]), &v));
        assert_true(v == strtod(fixed[i], NULL) || fabs(v / strtod(fixed[i], NULL) - 1) < 1e-15);
    }
    srand(7);
    for (int i = 0; i < 20000; i++) {
        char buf[40];
        snprintf(buf, sizeof(buf), "%.*f", rand() % 5, (double)rand() / (rand() % 1000 + 1));
        double v;
        assert_true(csv_parse_number(buf, strlen(buf), &v));
        assert_true(v == strtod(buf, NULL));
    }
    static const char *const bad[] = {"",     "-",  ".",   "1.2.3", "nan",  "inf",
                                      "0x10", "1e", "1e+", "12a",   "1e400"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        double v;
        assert_false(csv_parse_number(bad[i], strlen(bad[i]), &v));
    }
}

static void test_csv_table(void **state)
{
    (void)state;
    const char text[] = "# comment\r\nsize_bytes, ns_median ,\"note\"\r\n4096,1.5,a\r\n\r\n"
                        "8192,x,b\n1,2\n16384,3.25,\"c\"";
    struct csv t;
    char err[80];
    assert_int_equal(csv_parse(text, strlen(text), &t, err, sizeof(err)), 0);
    assert_int_equal(t.ncols, 3);
    assert_int_equal(t.nrows, 3);
    assert_int_equal(t.bad_rows, 1);
    assert_int_equal(csv_col(&t, "ns_median"), 1);
    assert_int_equal(csv_col(&t, "note"), 2);
    assert_int_equal(csv_col(&t, "missing"), -1);
    assert_true(csv_num(&t, 0, 1) == 1.5);
    assert_true(isnan(csv_num(&t, 1, 1)));
    assert_true(csv_num(&t, 2, 0) == 16384);
    assert_string_equal(csv_text(&t, 2, 2), "c");
    assert_string_equal(csv_text(&t, 9, 2), "");
    csv_free(&t);
    assert_int_equal(csv_parse("\n# only\n", 8, &t, err, sizeof(err)), -1);
    assert_string_equal(err, "no header row");
    assert_int_equal(csv_parse("a,,b\n", 5, &t, err, sizeof(err)), -1);
    assert_string_equal(err, "header column 2 has no name");
}

static void test_kmath_against_libm(void **state)
{
    (void)state;
    for (double x = 1e-6; x < 1e15; x *= 1.37) {
        assert_true(fabs(kln(x) - log(x)) < 1e-12 * fmax(1, fabs(log(x))));
        assert_true(fabs(ksqrt(x) / sqrt(x) - 1) < 1e-15);
    }
    for (double x = -40; x < 40; x += 0.173) {
        assert_true(fabs(kexp(x) / exp(x) - 1) < 1e-12);
        assert_true(kfloor(x * 1e6) == floor(x * 1e6));
    }
    assert_true(kfloor(-2.0) == -2 && kfloor(-0.5) == -1 && kfloor(3.0) == 3);
    assert_true(kexp2(2000) == KM_INF && kexp2(-2000) == 0);
    assert_true(kfmax(KM_NAN, 2) == 2 && kfmin(3, KM_NAN) == 3 && kisnan(ksqrt(-1)));
}

static void test_table_lists_each_experiment_once(void **state)
{
    (void)state;
    size_t n = analysis_experiment_count();
    assert_true(n > 0 && n <= AN_EXP_MAX);
    for (size_t i = 0; i < n; i++) {
        const struct an_experiment *e = analysis_experiment(i);
        assert_non_null(e->judge);
        assert_int_equal(analysis_experiment_index(e->name), (int)i);
    }
    assert_null(analysis_experiment(n));
    assert_int_equal(analysis_experiment_index("nonesuch"), -1);
}

/* Every plot's caption and title fit what the report holds for them (none cut short). */
static void test_plot_texts_fit(void **state)
{
    (void)state;
    for (size_t i = 0; i < analysis_experiment_count(); i++) {
        const struct an_plot *p = &analysis_experiment(i)->plot;
        if (p->caption)
            assert_true(strlen(p->caption) < PLOT_CAPTION_CHARS);
        if (p->what)
            assert_true(strlen(p->what) < VERDICT_CHARS);
    }
}

/* A last cache far below CPUID's LLC is a share of it, unless a smaller CPUID cache is near it:
 * then it is that cache and the LLC left no plateau (a guest whose host's tenants fill the L3). */
static void test_last_cache_share_or_l2(void **state)
{
    (void)state;
    static double size[96], ns[96];
    static struct an_result r;
    size_t n = 0;
    for (double x = 12; x <= 28 + 1e-9; x += 0.25, n++) {
        size[n] = exp2(x);
        ns[n] = size[n] <= 32768 ? 1.2 : size[n] <= 1048576 ? 4.5 : 100;
    }
    struct an_curve c = {.label = "random",
                         .role = AN_ROLE_LEVELS,
                         .n = n,
                         .size = size,
                         .ns = ns,
                         .page_bytes = 2097152};
    for (int l2_listed = 0; l2_listed < 2; l2_listed++) {
        struct an_input in = {.curve = &c,
                              .ncurves = 1,
                              .llc_bytes = 36 << 20,
                              .hypervisor = true,
                              .ncaches = 3,
                              .cache_bytes = {32768, l2_listed ? 1048576 : 262144, 36 << 20}};
        analysis_run(&in, &r);
        const struct detection *d = &r.cr[0].det;
        assert_int_equal(d->nlevels, 2);
        assert_int_equal(d->level[1].shared, !l2_listed);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers_match_strtod),
        cmocka_unit_test(test_last_cache_share_or_l2),
        cmocka_unit_test(test_csv_table),
        cmocka_unit_test(test_kmath_against_libm),
        cmocka_unit_test(test_table_lists_each_experiment_once),
        cmocka_unit_test(test_plot_texts_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
