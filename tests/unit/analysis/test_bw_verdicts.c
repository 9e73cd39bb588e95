// SPDX-License-Identifier: MIT
// Unit tests of the bandwidth verdict: per-level read, write and copy GB/s on known plateaus.
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

#define HEAD                                                                                       \
    "size_bytes,kernel,width_bits,gbs_median,gbs_min,gbs_max,bytes_per_cycle_median,reps,"         \
    "l1_peak_bytes_per_cycle\n"
#define CLOCK_GHZ 3.0

/* A machine with L1 32K (read 300 GB/s), L2 1M (100), memory (10): write half of read, copy
   0.8 of read; the documented L1 read peak 128 bytes per cycle at CLOCK_GHZ. One octave apart.
   dram_peak: the theoretical DRAM bandwidth in a dram_peak_gbs column (0: no such column). */
static void table_with(struct strbuf *sb, double dram_peak)
{
    static const char *const kernels[] = {"read", "write", "copy"};
    static const double share[] = {1.0, 0.5, 0.8};
    strbuf_puts(sb, dram_peak > 0 ? "size_bytes,kernel,width_bits,gbs_median,gbs_min,gbs_max,"
                                    "bytes_per_cycle_median,reps,l1_peak_bytes_per_cycle,"
                                    "dram_peak_gbs\n"
                                  : HEAD);
    for (double x = 12; x <= 26 + 1e-9; x += 1) {
        double b = exp2(x), g = b <= 32768 ? 300 : b <= (1 << 20) ? 100 : 10;
        for (unsigned k = 0; k < 3; k++) {
            strbuf_printf(sb, "%.0f,%s,512,%.3f,%.3f,%.3f,%.3f,7,%s", b, kernels[k], g * share[k],
                          g * share[k] * 0.99, g * share[k] * 1.01, g * share[k] / CLOCK_GHZ,
                          k < 2 ? (k ? "64" : "128") : "128");
            if (dram_peak > 0)
                strbuf_printf(sb, ",%.3f", dram_peak);
            strbuf_puts(sb, "\n");
        }
    }
}

static void table(struct strbuf *sb)
{
    table_with(sb, 0);
}

/* The rows of the verdict's table item name; fails the test when there is none. */
static const struct vtable *rows_of(const struct verdict *v, const char *name)
{
    const struct vitem *it = verdict_find(v, name);
    const struct vtable *t = it ? verdict_item_table(v, it) : NULL;
    if (!t)
        fail_msg("no table %s", name);
    return t;
}

/* Cell (row, column called col) of the table item name. */
static const struct vcell *cell(const struct verdict *v, const char *name, size_t row,
                                const char *col)
{
    const struct vtable *t = rows_of(v, name);
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->name[c], col) == 0)
            return vtable_cell(t, row, c);
    fail_msg("no column %s in %s", col, name);
    return NULL;
}

/* A number of the bandwidth verdict's levels table. */
static double lv(const struct verdict *v, size_t row, const char *col)
{
    return cell(v, "levels", row, col)->num;
}

static void judge(const char *text, const struct an_result *r, struct verdict *v)
{
    static struct csv t;
    char err[160];
    assert_int_equal(csv_parse(text, strlen(text), &t, err, sizeof(err)), 0);
    memset(v, 0, sizeof(*v));
    struct an_input in = {0};
    struct an_judge j = {.in = &in, .r = r, .t = &t, .name = "bandwidth"};
    const struct an_experiment *e =
        analysis_experiment((size_t)analysis_experiment_index("bandwidth"));
    e->judge(&j, v);
    csv_free(&t);
}

/* With the random chase's levels (L1 plateau 4K-32K, L2 64K-1M, memory from 4M). */
static void test_levels_from_the_random_chase(void **state)
{
    (void)state;
    static struct an_result r;
    struct strbuf sb = {0};
    struct verdict v;
    memset(&r, 0, sizeof(r));
    r.primary = 0;
    struct detection *d = &r.cr[0].det;
    d->nlevels = 2;
    d->level[0] = (struct level){.size_bytes = 32768,
                                 .size_known = true,
                                 .latency_ns = 1.3,
                                 .from_bytes = 4096,
                                 .to_bytes = 32768};
    d->level[1] = (struct level){.size_bytes = 1 << 20,
                                 .size_known = true,
                                 .latency_ns = 4.5,
                                 .from_bytes = 65536,
                                 .to_bytes = 1 << 20};
    d->dram_from_bytes = 4 << 20;
    d->dram_ns = 100;
    table(&sb);
    judge(strbuf_str(&sb), &r, &v);
    assert_int_equal(rows_of(&v, "levels")->nrows, 3);
    assert_string_equal(cell(&v, "levels", 0, "level")->text, "L1");
    assert_true(fabs(lv(&v, 0, "read_gbs") - 300) < 1e-9);
    assert_true(fabs(lv(&v, 0, "write_gbs") - 150) < 1e-9);
    assert_true(fabs(lv(&v, 0, "copy_gbs") - 240) < 1e-9);
    assert_true(fabs(lv(&v, 0, "read_peak_gbs") - 128 * CLOCK_GHZ) < 1e-6);
    assert_true(fabs(lv(&v, 0, "latency_ns") - 1.3) < 1e-9);
    assert_true(lv(&v, 0, "size_bytes") == 32768);
    assert_string_equal(cell(&v, "levels", 1, "level")->text, "L2");
    assert_true(fabs(lv(&v, 1, "read_gbs") - 100) < 1e-9);
    assert_true(isnan(lv(&v, 1, "read_peak_gbs")));
    assert_string_equal(cell(&v, "levels", 2, "level")->text, "DRAM");
    assert_true(fabs(lv(&v, 2, "read_gbs") - 10) < 1e-9);
    assert_true(fabs(lv(&v, 2, "copy_gbs") - 8) < 1e-9);
    /* 300 of 384 GB/s: 78% */
    assert_non_null(strstr(v.headline, "L1 300.0 (78% of the documented L1 peak), L2 100.0, "
                                       "DRAM 10.0 (levels from the random chase)"));
    assert_true(has_line(&v, "| L1 | 32K | 1.3 | 300.0 | 150.0 | 240.0 | 384.0 |"));
    strbuf_release(&sb);
}

/* Without a random chase: the read curve's own steps give the levels. */
static void test_levels_from_its_own_steps(void **state)
{
    (void)state;
    struct strbuf sb = {0};
    struct verdict v;
    table(&sb);
    judge(strbuf_str(&sb), NULL, &v);
    assert_int_equal(rows_of(&v, "levels")->nrows, 3);
    assert_true(fabs(lv(&v, 0, "read_gbs") - 300) < 1e-9);
    assert_true(fabs(lv(&v, 1, "read_gbs") - 100) < 1e-9);
    assert_string_equal(cell(&v, "levels", 2, "level")->text, "DRAM");
    assert_true(fabs(lv(&v, 2, "read_gbs") - 10) < 1e-9);
    assert_true(isnan(lv(&v, 0, "latency_ns")));
    assert_non_null(strstr(v.headline, "(levels from the read curve's own steps)"));
    strbuf_release(&sb);
}

/* The theoretical DRAM peak (SMBIOS type 17) beside DRAM's read, in the table and headline. */
static void test_dram_peak(void **state)
{
    (void)state;
    struct strbuf sb = {0};
    struct verdict v;
    table_with(&sb, 25.6); /* e.g. one channel of DDR4-3200, 8 bytes wide */
    judge(strbuf_str(&sb), NULL, &v);
    assert_string_equal(cell(&v, "levels", 2, "level")->text, "DRAM");
    assert_true(fabs(lv(&v, 2, "read_peak_gbs") - 25.6) < 1e-9);
    assert_true(isnan(lv(&v, 1, "read_peak_gbs")));
    assert_true(has_line(&v, "| DRAM | - | - | 10.0 | 5.0 | 8.0 | 25.6 |"));
    assert_non_null(strstr(v.headline, "DRAM 10.0 (39% of the theoretical 25.6)"));
    strbuf_release(&sb);
}

/* A table without the columns says so. */
static void test_missing_columns(void **state)
{
    (void)state;
    struct verdict v;
    judge("size_bytes,gbs\n4096,1\n", NULL, &v);
    assert_true(v.present);
    assert_string_equal(v.headline, "bandwidth.csv lacks kernel, size_bytes or gbs_median");
    judge(HEAD, NULL, &v); /* skipped: only the header, no verdict (run.json says why) */
    assert_false(v.present);
}

/* bw_cores: the scaling rows' first and last, and the peak table as data, in its order. */
static void test_bw_cores_scaling_and_peak(void **state)
{
    (void)state;
    static struct csv t;
    struct verdict v;
    char err[160];
    const char *text = "table,processors,level,kernel,gbs_total\n"
                       "scaling,1,dram,read,12\nscaling,2,dram,read,22\nscaling,4,dram,read,30\n"
                       "peak,4,dram,all-read,30\npeak,4,dram,3:1,28\npeak,4,dram,1:1,24\n";
    assert_int_equal(csv_parse(text, strlen(text), &t, err, sizeof(err)), 0);
    memset(&v, 0, sizeof(v));
    struct an_input in = {0};
    struct an_judge j = {.in = &in, .r = NULL, .t = &t, .name = "bw_cores"};
    analysis_experiment((size_t)analysis_experiment_index("bw_cores"))->judge(&j, &v);
    csv_free(&t);
    assert_string_equal(v.headline, "read: 12.00 GB/s on one processor, 30.00 on all 4 (2.50x); "
                                    "peak GB/s: all-read 30.0, 3:1 28.0, 1:1 24.0");
    assert_int_equal(rows_of(&v, "peak")->nrows, 3);
    assert_string_equal(cell(&v, "peak", 1, "mix")->text, "3:1");
    assert_true(cell(&v, "peak", 1, "gbs")->num == 28);
    assert_true(has_line(&v, "| 2 | 22.00 | 11.00 | 1.83x |"));
    assert_true(item(&v, "all_gbs") == 30);
}

/* One processor: one scaling row, said. */
static void test_bw_cores_one_processor(void **state)
{
    (void)state;
    static struct csv t;
    struct verdict v;
    char err[160];
    const char *text = "table,processors,level,kernel,gbs_total\nscaling,1,L2,copy,80\n";
    assert_int_equal(csv_parse(text, strlen(text), &t, err, sizeof(err)), 0);
    memset(&v, 0, sizeof(v));
    struct an_input in = {0};
    struct an_judge j = {.in = &in, .r = NULL, .t = &t, .name = "bw_cores"};
    analysis_experiment((size_t)analysis_experiment_index("bw_cores"))->judge(&j, &v);
    csv_free(&t);
    assert_string_equal(v.headline, "copy on one processor (the only one): 80.00 GB/s");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels_from_the_random_chase),
        cmocka_unit_test(test_levels_from_its_own_steps),
        cmocka_unit_test(test_missing_columns),
        cmocka_unit_test(test_dram_peak),
        cmocka_unit_test(test_bw_cores_scaling_and_peak),
        cmocka_unit_test(test_bw_cores_one_processor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
