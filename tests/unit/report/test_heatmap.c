// SPDX-License-Identifier: MIT
// Unit tests of the heatmap's colour scale: anchored at 0, so near-equal cells look alike.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/csv.h"
#include "outputs/plot.h"

/* The text of outdir/gnuplot/name.gp (static buffer). */
static const char *script_of(const char *outdir, const char *name)
{
    static char text[8192];
    char path[512];
    snprintf(path, sizeof(path), "%s/gnuplot/%s.gp", outdir, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    text[n] = 0;
    fclose(f);
    return text;
}

/* Render the matrix in csv_text; returns its script. */
static const char *render(const char *csv_text, const char *name)
{
    static char dir[] = "/tmp/chase-heatmap-XXXXXX";
    static bool made;
    if (!made)
        assert_non_null(mkdtemp(dir));
    made = true;
    struct csv t;
    char err[160];
    assert_int_equal(csv_parse(csv_text, strlen(csv_text), &t, err, sizeof(err)), 0);
    struct plot_heatmap h = {name, "t", "answering", "timing", "ns", "cpu_a", "cpu_b", "ns_median"};
    /* gnuplot may be absent where unit tests run: the script is written first either way */
    (void)plot_heatmap_render(dir, &h, &t, err, sizeof(err));
    csv_free(&t);
    return script_of(dir, name);
}

/* 64.6 against 65.4 ns: the scale runs from 0 to the largest, not over the 0.8 ns between. */
static void test_scale_anchored_at_zero(void **state)
{
    (void)state;
    const char *gp = render("cpu_a,cpu_b,ns_median\n0,1,64.6\n1,0,65.4\n", "near");
    assert_non_null(strstr(gp, "set cbrange [0:65.4]"));
    /* labels keep a decimal, so that two near values are told apart in numbers, not colour */
    assert_non_null(strstr(gp, "%.1f"));
}

/* Two real groups (20 and 80 ns) stay a quarter and all of the scale apart. */
static void test_scale_keeps_real_groups(void **state)
{
    (void)state;
    const char *gp = render("cpu_a,cpu_b,ns_median\n0,1,20\n1,0,20\n0,2,80\n2,0,80\n1,2,80\n"
                            "2,1,80\n",
                            "groups");
    assert_non_null(strstr(gp, "set cbrange [0:80]"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scale_anchored_at_zero),
        cmocka_unit_test(test_scale_keeps_real_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
