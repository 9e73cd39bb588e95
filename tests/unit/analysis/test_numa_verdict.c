// SPDX-License-Identifier: MIT
// Unit tests of the numa verdict over matrices whose answer is known: local against remote,
// the ratio per pair, SLIT's order kept or broken, the read bandwidth matrix, and the step each
// memory-side cache's sweep (numa.msc.csv) shows.
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

#define HEAD "cpu_node,mem_node,ns_median,ns_min,slit_distance\n"

static struct an_result r;

/* Judge the numa table in text; the verdict. */
static const struct verdict *judge(const char *text)
{
    static struct csv t;
    char err[128];
    assert_int_equal(csv_parse(text, strlen(text), &t, err, sizeof(err)), 0);
    int idx = analysis_experiment_index("numa");
    assert_true(idx >= 0);
    struct an_input in = {.line_bytes = 64};
    in.table[idx] = &t;
    analysis_run(&in, &r);
    csv_free(&t);
    return &r.verdict[idx];
}

static bool has_line_starting(const struct verdict *v, const char *text)
{
    for (size_t i = 0; i < v->nlines; i++)
        if (strncmp(v->line[i], text, strlen(text)) == 0)
            return true;
    return false;
}

/* Two sockets: 90 ns local, 140 and 150 ns remote, SLIT 10/21: the order agrees. */
static void test_two_nodes_agree(void **state)
{
    (void)state;
    const struct verdict *v = judge(HEAD "0,0,90,85,10\n0,1,140,130,21\n"
                                         "1,0,150,140,21\n1,1,90,86,10\n");
    assert_true(v->present);
    assert_float_equal(item(v, "local_ns"), 90, 1e-9);
    assert_float_equal(item(v, "remote_ns"), 145, 1e-9);
    assert_float_equal(item(v, "remote_local_ratio"), (140.0 / 90 + 150.0 / 90) / 2, 1e-9);
    assert_float_equal(item(v, "slit_order_agrees"), 1, 0);
    assert_true(has_line(v, "| 0 | 90.0 ns (10) | 140.0 ns (21) |"));
    assert_true(has_line(v, "| 1 | 0 | 150.0 | 140.0 | 1.67 | 2.1 |"));
    assert_non_null(strstr(v->headline, "agrees with SLIT's (2 of 2 comparisons)"));
}

/* Three nodes where SLIT calls node 2 farther from node 0 than node 1 is, but it measures
 * nearer: the order is broken, and said so. */
static void test_three_nodes_break_slit(void **state)
{
    (void)state;
    const struct verdict *v = judge(HEAD "0,0,80,78,10\n0,1,150,140,16\n0,2,120,115,22\n"
                                         "1,0,150,140,16\n1,1,80,79,10\n1,2,160,150,22\n");
    assert_float_equal(item(v, "slit_order_agrees"), 0, 0);
    assert_non_null(strstr(v->headline, "breaks SLIT's"));
    assert_non_null(strstr(v->headline, "(5 of 6 comparisons)"));
    assert_true(has_line_starting(v, "| 1 | 150.0 ns (16) |"));
    assert_false(has_line_starting(v, "| 2 |")); /* node 2 has no processor: no matrix row */
}

/* No SLIT (empty distances): the matrix alone, nothing claimed about the order. */
static void test_no_slit(void **state)
{
    (void)state;
    const struct verdict *v = judge(HEAD "0,0,90,85,\n0,1,140,130,\n1,0,150,140,\n1,1,90,86,\n");
    assert_true(isnan(item(v, "slit_order_agrees")));
    assert_true(has_line(v, "| 0 | 90.0 ns | 140.0 ns |"));
    assert_non_null(strstr(v->headline, "no SLIT distances"));
}

/* The read bandwidth beside the latency: local and remote medians, the matrix table, the
 * headline; a cell left empty stays out of both. */
static void test_read_bandwidth(void **state)
{
    (void)state;
    const struct verdict *v = judge("cpu_node,mem_node,ns_median,ns_min,slit_distance,read_gbs,"
                                    "read_processors\n"
                                    "0,0,90,85,10,40.5,4\n0,1,140,130,21,20,4\n"
                                    "1,0,150,140,21,,\n1,1,90,86,10,39.5,4\n");
    assert_float_equal(item(v, "local_read_gbs"), 40, 1e-9);
    assert_float_equal(item(v, "remote_read_gbs"), 20, 1e-9);
    assert_true(has_line(v, "| processors' node \\ memory's node, read GB/s | 0 | 1 |"));
    assert_true(has_line(v, "| 0 | 40.5 GB/s (4) | 20.0 GB/s (4) |"));
    assert_true(has_line(v, "| 1 | - | 39.5 GB/s (4) |"));
    assert_non_null(strstr(v->headline, "; read 40.0 GB/s local, 20.0 remote"));
}

/* A run from before the bandwidth columns: no bandwidth items, no table. */
static void test_no_bandwidth_columns(void **state)
{
    (void)state;
    const struct verdict *v = judge(HEAD "0,0,90,85,10\n0,1,140,130,21\n"
                                         "1,0,150,140,21\n1,1,90,86,10\n");
    assert_null(verdict_find(v, "local_read_gbs"));
    assert_false(has_line_starting(v, "| processors' node"));
    assert_null(strstr(v->headline, "GB/s"));
}

#define MSC_HEAD "mem_node,mem_domain,cpu_node,cpu,cache_level,cache_bytes,size_bytes,ns_median\n"

/* Judge a two-node numa table with numa.msc.csv's text beside it (an LLC of 32M); the verdict. */
static const struct verdict *judge_msc(const char *msc)
{
    static struct csv t, side;
    const char *text = HEAD "0,0,90,85,10\n0,1,140,130,21\n";
    char err[128];
    assert_int_equal(csv_parse(text, strlen(text), &t, err, sizeof(err)), 0);
    assert_int_equal(csv_parse(msc, strlen(msc), &side, err, sizeof(err)), 0);
    int idx = analysis_experiment_index("numa");
    struct an_input in = {.line_bytes = 64, .llc_bytes = 32.0 * (1 << 20)};
    in.table[idx] = &t;
    in.side_table[idx] = &side;
    analysis_run(&in, &r);
    csv_free(&t);
    csv_free(&side);
    return &r.verdict[idx];
}

/* A 1G memory-side cache in front of node 1, chased from node 0: 100 ns up to it, 200 beyond;
 * a second, flat one (level 2, 4G) says no step. */
static void test_memory_side_cache(void **state)
{
    (void)state;
    const char *g = "1,1,0,0,1,1073741824,";
    char msc[1024];
    snprintf(msc, sizeof(msc),
             MSC_HEAD "%s134217728,98\n%s268435456,100\n%s536870912,101\n%s1073741824,120\n"
                      "%s2147483648,190\n%s4294967296,200\n%s8589934592,202\n"
                      "1,1,0,0,2,4294967296,1073741824,300\n1,1,0,0,2,4294967296,2147483648,301\n"
                      "1,1,0,0,2,4294967296,8589934592,302\n",
             g, g, g, g, g, g, g);
    const struct verdict *v = judge_msc(msc);
    assert_true(has_line(v, "| 1 | 1 | 0 | 1G (level 1) | 128M .. 8G (7) | step between 1G and 2G, "
                            "100.0 -> 200.0 ns (x2.00) |"));
    assert_true(has_line(v,
                         "| 1 | 1 | 0 | 4G (level 2) | 1G .. 8G (3) | no step: 300.5 -> 302.0 ns "
                         "(x1.00 < x1.15) |"));
    /* no side table: no such rows */
    v = judge(HEAD "0,0,90,85,10\n0,1,140,130,21\n");
    assert_false(has_line_starting(v, "| memory node |"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_nodes_agree),
        cmocka_unit_test(test_three_nodes_break_slit),
        cmocka_unit_test(test_no_slit),
        cmocka_unit_test(test_read_bandwidth),
        cmocka_unit_test(test_no_bandwidth_columns),
        cmocka_unit_test(test_memory_side_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
