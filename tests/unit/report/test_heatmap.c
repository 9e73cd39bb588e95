// SPDX-License-Identifier: MIT
// Unit tests of the heatmap's colour scale (anchored at 0, so near-equal cells look alike) and of
// the bar chart's rows (only those chosen, in table order, named by their text).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fake_tree.h"
#include "lib/csv.h"
#include "outputs/plot.h"

/* The text of outdir/gnuplot/name.ext, ext "gp" (the script) or "dat" (static buffer). */
static const char *gnuplot_file(const char *outdir, const char *name, const char *ext)
{
    static char text[8192];
    char path[512];
    snprintf(path, sizeof(path), "%s/gnuplot/%s.%s", outdir, name, ext);
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
    struct csv t;
    char err[160];
    assert_int_equal(csv_parse(csv_text, strlen(csv_text), &t, err, sizeof(err)), 0);
    struct plot_heatmap h = {name,    "t",         "answering", "timing", "ns", "cpu_a",
                             "cpu_b", "ns_median", NULL,        NULL,     NULL, NULL};
    /* gnuplot may be absent where unit tests run: the script is written first either way */
    (void)plot_heatmap_render(ft_root, &h, &t, err, sizeof(err));
    csv_free(&t);
    return gnuplot_file(ft_root, name, "gp");
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

/* c2c's heatmap per line state: only the rows of that state in chase's buffer, the scale from
   their own largest (issue 53). */
static void test_heatmap_of_one_state(void **state)
{
    (void)state;
    static const char text[] = "cpu_a,cpu_b,ns_median,state,home\n0,1,300,bounce,buffer\n"
                               "0,1,40,modified,buffer\n1,0,44,modified,buffer\n"
                               "0,1,900,modified,other_node\n0,1,20,exclusive,buffer\n";
    struct csv t;
    char err[160];
    assert_int_equal(csv_parse(text, strlen(text), &t, err, sizeof(err)), 0);
    struct plot_heatmap h = {"mod",   "t",         "answering", "timing",   "ns",   "cpu_a",
                             "cpu_b", "ns_median", "state",     "modified", "home", "buffer"};
    (void)plot_heatmap_render(ft_root, &h, &t, err, sizeof(err)); /* gnuplot may be absent */
    assert_string_equal(gnuplot_file(ft_root, "mod", "dat"), "1 0 40\n\n0 1 44\n\n");
    assert_non_null(strstr(gnuplot_file(ft_root, "mod", "gp"), "set cbrange [0:44]"));
    csv_free(&t);
}

/* bw_cores' peak table: the peak rows only, in order, named by their mix; the scale from 0. */
static void test_bars_of_chosen_rows(void **state)
{
    (void)state;
    static const char text[] = "table,processors,kernel,gbs_total\nscaling,1,read,10\n"
                               "scaling,2,read,18\npeak,2,all-read,30\npeak,2,nt-write 1:1,\n"
                               "peak,2,1:1,24\n";
    struct csv t;
    char err[160];
    assert_int_equal(csv_parse(text, strlen(text), &t, err, sizeof(err)), 0);
    struct plot_bars b = {"peak", "t", "mix", "GB/s", "kernel", "gbs_total", "table", "peak"};
    (void)plot_bars_render(ft_root, &b, &t, err, sizeof(err)); /* gnuplot may be absent */
    assert_string_equal(gnuplot_file(ft_root, "peak", "dat"), "0 \"all-read\" 30\n1 \"1:1\" 24\n");
    assert_non_null(strstr(gnuplot_file(ft_root, "peak", "gp"), "set yrange [0:34.5]"));
    assert_non_null(strstr(gnuplot_file(ft_root, "peak", "gp"), "xtic(2) with boxes"));
    /* a missing column is said, nothing drawn */
    struct plot_bars bad = {"bad", "t", "mix", "GB/s", "mix", "gbs_total", NULL, NULL};
    assert_int_equal(plot_bars_render(ft_root, &bad, &t, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "lacks mix"));
    csv_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scale_anchored_at_zero),
        cmocka_unit_test(test_scale_keeps_real_groups),
        cmocka_unit_test(test_heatmap_of_one_state),
        cmocka_unit_test(test_bars_of_chosen_rows),
    };
    return cmocka_run_group_tests(tests, ft_group_setup, ft_group_teardown);
}
