// SPDX-License-Identifier: MIT
// Unit tests of the multi-processor verdicts: cores' groups, c2c's noise, loaded's points.
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
#include "verdict_lookup.h"
#include "analysis/judge.h"
#include "lib/csv.h"
#include "lib/strbuf.h"

/* Run experiment name's verdict over the CSV text. */
/* Experiment `name`'s verdict on the table `text`, with CPUID's last cache of llc bytes (0:
 * unknown). */
static void judge_llc(const char *name, const char *text, double llc, struct verdict *v)
{
    static struct csv t;
    char err[160];
    assert_int_equal(csv_parse(text, strlen(text), &t, err, sizeof(err)), 0);
    memset(v, 0, sizeof(*v));
    struct an_input in = {.llc_bytes = llc};
    struct an_judge j = {.in = &in, .r = NULL, .t = &t, .name = name};
    const struct an_experiment *e = analysis_experiment((size_t)analysis_experiment_index(name));
    e->judge(&j, v);
    csv_free(&t);
}

static void judge_text(const char *name, const char *text, struct verdict *v)
{
    judge_llc(name, text, 0, v);
}

/* One processor's random curve: three cache levels then memory, slower by `slow`. */
static void add_curve(struct strbuf *sb, unsigned cpu, unsigned core, const char *type, unsigned l2,
                      unsigned l3, double l1_ns, double slow)
{
    for (double x = 12; x <= 28 + 1e-9; x += 0.5) {
        double b = exp2(x);
        double ns = b <= 32768 ? l1_ns : b <= (1 << 20) ? 5 : b <= (32 << 20) ? 30 : 100;
        strbuf_printf(sb, "%u,0,%u,0,0,%s,%u,%u,%.0f,%.3f\n", cpu, core, type, l2, l3, b,
                      ns * slow);
    }
}

#define CORES_HEAD "cpu,package,core,thread,node,core_type,l2_group,l3_group,size_bytes,ns_median\n"

/* A hybrid part: two P-cores (own L2s), two E-core modules of two cores sharing an L2 each,
   all under one L3: three groups, the P-cores' L1 below the E-cores'. */
static void test_cores_hybrid_groups(void **state)
{
    (void)state;
    struct strbuf sb = {0};
    struct verdict v;
    strbuf_puts(&sb, CORES_HEAD);
    add_curve(&sb, 0, 0, "P-core", 0, 0, 1.0, 1.0);
    add_curve(&sb, 1, 1, "P-core", 1, 0, 1.0, 1.0);
    add_curve(&sb, 2, 8, "E-core", 8, 0, 1.6, 1.2);
    add_curve(&sb, 3, 9, "E-core", 8, 0, 1.6, 1.2);
    add_curve(&sb, 4, 10, "E-core", 10, 0, 1.6, 1.2);
    add_curve(&sb, 5, 11, "E-core", 10, 0, 1.6, 1.2);
    judge_text("cores", strbuf_str(&sb), &v);
    assert_true(v.present);
    assert_true(item(&v, "processors") == 6);
    assert_true(item(&v, "groups") == 3);
    assert_non_null(strstr(v.headline, "P-core, package 0, L3 0"));
    assert_non_null(strstr(v.headline, "E-core, package 0, L3 0, L2 8"));
    assert_non_null(strstr(v.headline, "E-core, package 0, L3 0, L2 10"));
    /* each group's levels from its median curve; each processor on its group's plateaus */
    assert_true(has_line(&v, "| 2 | P-core, package 0, L3 0 | 1.0 ("));
    assert_true(has_line(&v, "| 2 | E-core, package 0, L3 0, L2 8 | 1.9 ("));
    assert_true(has_line(&v, "| 0 | P-core, package 0, L3 0 | 1.0 | 5.0 | 30.0 | 100.0 |"));
    assert_true(has_line(&v, "| 5 | E-core, package 0, L3 0, L2 10 | 1.9 | 6.0 | 36.0 | 120.0 |"));
    strbuf_release(&sb);
}

/* SMT threads share their core's L2: no cluster; two L3s (two CCXs) make two groups. */
static void test_cores_ccx_and_smt(void **state)
{
    (void)state;
    struct strbuf sb = {0};
    struct verdict v;
    strbuf_puts(&sb, CORES_HEAD);
    add_curve(&sb, 0, 0, "-", 0, 0, 1.0, 1.0);
    add_curve(&sb, 1, 0, "-", 0, 0, 1.0, 1.0); /* core 0's second thread */
    add_curve(&sb, 2, 1, "-", 1, 0, 1.0, 1.0);
    add_curve(&sb, 3, 8, "-", 8, 8, 1.0, 1.0);
    judge_text("cores", strbuf_str(&sb), &v);
    assert_true(item(&v, "groups") == 2);
    assert_non_null(strstr(v.headline, "(package 0, L3 0; package 0, L3 8)"));
    assert_null(strstr(v.headline, "L2"));
    strbuf_release(&sb);
}

/* Two processors of one group whose shared L3 share differs (16M and 32M: other tenants). The
   group's curve is their lower median, one of them at each size, so it has no plateau between
   30 and 100 ns that neither has (their mean would); their plateaus and DRAM agree, while their
   curves differ most where one has stepped into memory and the other not. */
static void test_cores_shared_share_moves(void **state)
{
    (void)state;
    struct strbuf sb = {0};
    struct verdict v;
    strbuf_puts(&sb, CORES_HEAD);
    for (unsigned cpu = 0; cpu < 2; cpu++)
        for (double x = 12; x <= 28 + 1e-9; x += 0.5) {
            double b = exp2(x), llc = cpu ? 16 << 20 : 32 << 20;
            double ns = b <= 32768 ? 1.0 : b <= (1 << 20) ? 5 : b <= llc ? 30 : 100;
            strbuf_printf(&sb, "%u,0,%u,0,0,-,%u,0,%.0f,%.3f\n", cpu, cpu, cpu, b, ns);
        }
    judge_text("cores", strbuf_str(&sb), &v);
    assert_true(item(&v, "groups") == 1);
    assert_true(item(&v, "largest_spread") > 1);
    assert_true(item(&v, "plateau_spread") < 0.01);
    assert_true(has_line(&v, "| 2 | package 0, L3 0 | 1.0 ("));
    assert_false(has_line(&v, "| 2 | package 0, L3 0 | 1.0 (35.5K) | 5.0 (1.11M) | 30.0 (17.8M) | "
                              "65.0"));
    assert_non_null(strstr(v.headline, "plateaus and DRAM agree within 0%"));
    assert_non_null(strstr(v.headline, "differ most at 22.6M (233%)"));
    strbuf_release(&sb);
}

/* Whether the verdict has an item called key. */
static bool has_item(const struct verdict *v, const char *key)
{
    return verdict_find(v, key) != NULL;
}

/* A quick run's curves end at 4M, inside the 32M last cache: the headline compares the
   plateaus, not DRAM, which no curve reached. With one processor a group (QEMU's two cores,
   each with an L3 of its own) there is nothing to compare within a group, and no spread of 0%. */
static void test_cores_without_dram_or_peers(void **state)
{
    (void)state;
    struct strbuf sb = {0};
    struct verdict v;
    strbuf_puts(&sb, CORES_HEAD);
    for (unsigned cpu = 0; cpu < 2; cpu++)
        for (double x = 12; x <= 22 + 1e-9; x += 0.5) {
            double b = exp2(x), ns = b <= 32768 ? 1.0 : b <= (512 << 10) ? 5 : 30;
            strbuf_printf(&sb, "%u,0,%u,0,0,-,%u,0,%.0f,%.3f\n", cpu, cpu, cpu, b, ns);
        }
    judge_llc("cores", strbuf_str(&sb), 32 << 20, &v);
    assert_non_null(strstr(v.headline, "within a group plateaus (DRAM not reached) agree within"));
    assert_null(strstr(v.headline, "DRAM agree"));

    strbuf_reset(&sb);
    strbuf_puts(&sb, CORES_HEAD);
    add_curve(&sb, 0, 0, "-", 0, 0, 1.0, 1.0);
    add_curve(&sb, 1, 1, "-", 1, 1, 1.0, 1.3);
    judge_text("cores", strbuf_str(&sb), &v);
    assert_true(item(&v, "groups") == 2);
    assert_non_null(strstr(v.headline, "one processor a group, so none to compare within one"));
    assert_null(strstr(v.headline, "agree within"));
    assert_false(has_item(&v, "plateau_spread"));
    strbuf_release(&sb);
}

#define C2C_HEAD "cpu_a,cpu_b,group,ns_median,ns_p90\n"

/* Groups 0.4 ns apart with 0.4 ns between a->b and b->a are one group, not two; 25 ns apart
   they are two. */
static void test_c2c_groups_not_from_noise(void **state)
{
    (void)state;
    struct verdict v;
    judge_text("c2c",
               C2C_HEAD "0,1,same_core,20.0,20.1\n1,0,same_core,20.4,20.5\n"
                        "0,2,shared_l3,65.0,65.1\n2,0,shared_l3,65.4,65.5\n"
                        "1,2,same_package,65.4,65.5\n2,1,same_package,65.8,65.9\n",
               &v);
    assert_true(fabs(item(&v, "noise_ns") - 0.4) < 1e-9); /* each pair's a->b against b->a */
    assert_non_null(strstr(v.headline, "same_core 20 ns (2 pairs), shared_l3 65 ns (2 pairs)"));
    assert_non_null(strstr(v.headline, "not apart from the nearer group beyond the noise"));
    assert_non_null(strstr(v.headline, ": same_package 66 ns"));
    assert_true(has_line(&v, "| same_package | 2 | 65.6 | 65.4 | 65.8 | no: within the noise |"));

    judge_text("c2c",
               C2C_HEAD "0,1,shared_l3,65.0,65.1\n1,0,shared_l3,65.4,65.5\n"
                        "0,2,other_package,90.0,90.1\n2,0,other_package,90.4,90.5\n",
               &v);
    assert_string_equal(v.headline, "core-to-core one-way latency by group: shared_l3 65 ns "
                                    "(2 pairs), other_package 90 ns (2 pairs)");
    assert_true(has_line(&v, "| other_package | 2 | 90.2 | 90.0 | 90.4 | yes |"));
}

/* A pair's own repetitions spread: that is noise too, even when a->b and b->a agree. */
static void test_c2c_noise_from_spread(void **state)
{
    (void)state;
    struct verdict v;
    judge_text("c2c",
               C2C_HEAD "0,1,shared_l3,60.0,64.0\n1,0,shared_l3,60.0,64.0\n"
                        "0,2,same_package,66.0,70.0\n2,0,same_package,66.0,70.0\n",
               &v);
    assert_true(item(&v, "noise_ns") == 4.0);
    assert_non_null(strstr(v.headline, ": same_package 66 ns"));
}

/* Line-state rows (issue 53) beside the bounce: the groups come from the bounce rows alone, each
   state's median by home is its own item, and the headline names them. */
static void test_c2c_line_states(void **state)
{
    (void)state;
    struct verdict v;
    judge_text("c2c",
               "cpu_a,cpu_b,group,ns_median,ns_p90,state,home\n"
               "0,1,shared_l3,60.0,60.1,bounce,buffer\n1,0,shared_l3,60.2,60.3,bounce,buffer\n"
               "0,1,shared_l3,30.0,31,modified,buffer\n1,0,shared_l3,34.0,35,modified,buffer\n"
               "0,1,shared_l3,20.0,21,exclusive,buffer\n1,0,shared_l3,22.0,23,exclusive,buffer\n"
               "0,1,shared_l3,200.0,201,modified,other_node\n",
               &v);
    assert_true(item(&v, "shared_l3") == 60.1); /* not pulled down by the state rows */
    assert_true(item(&v, "modified_ns") == 32.0);
    assert_true(item(&v, "exclusive_ns") == 21.0);
    assert_true(item(&v, "modified_other_node_ns") == 200.0);
    assert_null(verdict_find(&v, "shared_ns")); /* no shared rows: no item */
    assert_true(has_line(&v, "| modified | buffer | 2 | 32.0 | 30.0 | 34.0 |"));
    assert_true(has_line(&v, "| modified | other_node | 1 | 200.0 | 200.0 | 200.0 |"));
    assert_non_null(strstr(v.headline, "; a line read from the other: modified 32 ns, exclusive "
                                       "21 ns, modified (home away from both) 200 ns"));
}

#define ATOMICS_HEAD                                                                               \
    "processors,reps,reps_ok,method,run_us,ops_median,mops_median,mops_min,mops_max,"              \
    "ns_per_op_median,ns_per_op_fastest,ns_per_op_slowest\n"

/* atomics: one processor's time, the largest count's median, fastest and slowest, its rate. */
static void test_atomics_counts(void **state)
{
    (void)state;
    struct verdict v;
    judge_text("atomics",
               ATOMICS_HEAD "1,5,5,lock add,1000,1,250.0,249,251,4.0,4.0,4.0\n"
                            "2,5,5,lock add,1000,1,100.0,99,101,20.0,18.0,22.0\n"
                            "4,5,5,lock add,1000,1,80.0,79,81,50.0,30.0,90.0\n",
               &v);
    assert_true(item(&v, "one_ns_per_op") == 4.0);
    assert_true(item(&v, "all_ns_per_op") == 50.0);
    assert_true(item(&v, "all_mops") == 80.0);
    assert_true(item(&v, "all_processors") == 4.0);
    assert_string_equal(v.headline, "contended atomics (lock add): 1 processor 4.0 ns an increment "
                                    "(250.0 M/s); 4 at once 50.0 ns each (fastest 30.0, slowest "
                                    "90.0), 80.0 M/s in all");
    judge_text("atomics", ATOMICS_HEAD "1,5,0,lock add,1000,,,,,,,\n", &v);
    assert_string_equal(v.headline, "contended atomics: no count came back");
}

#define LOADED_HEAD "cpu,size_bytes,generators,mix,delay_ns,bandwidth_gb_per_s,ns_median\n"

/* loaded: idle, the highest bandwidth, and where a point hardly moves data (generators busy),
   its latency apart. */
static void test_loaded_lightest_point(void **state)
{
    (void)state;
    struct verdict v;
    judge_text("loaded",
               LOADED_HEAD "0,64,0,read,0,0.000,100.0\n0,64,1,read,1000000,0.001,140.0\n"
                           "0,64,1,read,100,2.000,145.0\n0,64,1,read,0,5.000,150.0\n",
               &v);
    assert_true(item(&v, "idle_ns") == 100.0);
    assert_true(item(&v, "top_ns") == 150.0 && item(&v, "top_gb_per_s") == 5.0);
    assert_true(item(&v, "lightest_ns") == 140.0);
    assert_non_null(strstr(v.headline, "100.0 ns idle, 140.0 ns at the lightest load (0.001"));
    assert_non_null(strstr(v.headline, "150.0 ns at the highest bandwidth (5.00 GB/s"));
    assert_true(has_line(&v, "| read | 0.00:140.0 (1000000), 2.00:145.0 (100), 5.00:150.0 (0) |"));
    judge_text("loaded", LOADED_HEAD "0,64,0,read,0,0.000,100.0\n0,64,1,readwrite,0,5.0,110.0\n",
               &v);
    assert_string_equal(v.headline, "loaded latency: 100.0 ns idle, 110.0 ns at the highest "
                                    "bandwidth (5.00 GB/s from the others), +10%");
}

/* loaded's family: per mix (in the table's order) its peak bandwidth, read and write apart, and
   the latency there against the one idle point; the headline names the mix of the highest. */
static void test_loaded_family_per_mix(void **state)
{
    (void)state;
    struct verdict v;
    judge_text("loaded",
               "cpu,size_bytes,generators,mix,delay_ns,bandwidth_gb_per_s,read_gb_per_s,"
               "write_gb_per_s,ns_median\n0,64,0,idle,0,0.000,0.000,0.000,100.0\n"
               "0,64,1,100:0,100,2.000,2.000,0.000,110.0\n0,64,1,100:0,0,6.000,6.000,0.000,120.0\n"
               "0,64,1,0:100nt,100,3.000,0.000,3.000,105.0\n0,64,1,0:100nt,0,8.000,0.000,8.000,"
               "130.0\n",
               &v);
    const struct vitem *it = verdict_find(&v, "mixes");
    assert_non_null(it);
    const struct vtable *t = verdict_item_table(&v, it);
    assert_int_equal(t->nrows, 2);
    assert_string_equal(vtable_cell(t, 0, 0)->text, "100:0");
    assert_true(vtable_cell(t, 0, 1)->num == 100.0); /* idle */
    assert_true(vtable_cell(t, 0, 2)->num == 6.0 && vtable_cell(t, 0, 5)->num == 120.0);
    assert_string_equal(vtable_cell(t, 1, 0)->text, "0:100nt");
    assert_true(vtable_cell(t, 1, 2)->num == 8.0 && vtable_cell(t, 1, 3)->num == 0.0 &&
                vtable_cell(t, 1, 4)->num == 8.0 && vtable_cell(t, 1, 6)->num == 1.3);
    assert_true(has_line(&v, "| 0:100nt | 3.00:105.0 (100), 8.00:130.0 (0) |"));
    assert_string_equal(v.headline, "loaded latency: 100.0 ns idle, 130.0 ns at the highest "
                                    "bandwidth (8.00 GB/s from the others in mix 0:100nt, of 2 "
                                    "read:write mixes), +30%");
}

/* loaded: a chase the last cache holds (the quick profile's 4M under a 32M L3) times that cache
 * under load, and the headline says so; one beyond it is memory's, said as before. */
static void test_loaded_chase_in_llc(void **state)
{
    (void)state;
    struct verdict v;
    judge_llc("loaded", LOADED_HEAD "0,4194304,0,read,0,0.000,16.3\n0,4194304,1,read,0,24.5,16.5\n",
              32 << 20, &v);
    assert_string_equal(v.headline, "loaded latency (the 4M chase fits in the 32M last cache: not "
                                    "memory's): 16.3 ns idle, 16.5 ns at the highest bandwidth "
                                    "(24.50 GB/s from the others), +1%");
    judge_llc("loaded", LOADED_HEAD "0,134217728,0,read,0,0.000,90\n0,134217728,1,read,0,24.5,99\n",
              32 << 20, &v);
    assert_string_equal(v.headline, "loaded latency: 90.0 ns idle, 99.0 ns at the highest "
                                    "bandwidth (24.50 GB/s from the others), +10%");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cores_hybrid_groups),
        cmocka_unit_test(test_cores_ccx_and_smt),
        cmocka_unit_test(test_cores_shared_share_moves),
        cmocka_unit_test(test_cores_without_dram_or_peers),
        cmocka_unit_test(test_c2c_groups_not_from_noise),
        cmocka_unit_test(test_c2c_noise_from_spread),
        cmocka_unit_test(test_c2c_line_states),
        cmocka_unit_test(test_atomics_counts),
        cmocka_unit_test(test_loaded_lightest_point),
        cmocka_unit_test(test_loaded_chase_in_llc),
        cmocka_unit_test(test_loaded_family_per_mix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
