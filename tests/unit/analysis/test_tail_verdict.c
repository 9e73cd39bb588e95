// SPDX-License-Identifier: MIT
// Unit tests of the tail verdict: the refresh line beside the DIMMs' type (or why nothing is
// implied, or the hypervisor's reason), the page walks' share of the tail, each row's pages.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/interpret.h"
#include "analysis/judge.h"
#include "lib/csv.h"
#include "verdict_lookup.h"

#define HEAD                                                                                       \
    "size_bytes,page_bytes,hops,batches,p50_ns,p90_ns,p99_ns,p999_ns,max_ns,mad_ns,slow_batches,"  \
    "refresh_period_ns,refresh_stall_ns,refresh_confidence,refresh_beats,refresh_strays,stalls,"   \
    "stall_longest_ns,stalls_per_minute,smi_count,dropped_windows,dram_type\n"
/* A cache row, then the largest size under 4K and 2M pages; %s: the refresh columns of the
   last row, then the type in every row. */
#define ROWS(last_refresh, type)                                                                   \
    HEAD "16384,2097152,4,1000,5,5,6,7,9,0,3,0,0,0,0,3,0,0,0,0,0," type "\n"                       \
         "134217728,4096,4,1000,500,600,900,1400,3000,20,30,0,0,0,0,30,0,0,0,0,0," type "\n"       \
         "134217728,2097152,4,1000,400,450,800,1000,2000,20,30," last_refresh                      \
         ",0.9,25,5,1,40000,60,0,0," type "\n"

static void judge(const char *text, bool hypervisor, struct verdict *v)
{
    static struct csv t;
    static struct an_result r;
    char err[160];
    assert_int_equal(csv_parse(text, strlen(text), &t, err, sizeof(err)), 0);
    memset(v, 0, sizeof(*v));
    memset(&r, 0, sizeof(r));
    struct an_input in = {.hypervisor = hypervisor};
    struct an_judge j = {.in = &in, .r = &r, .t = &t, .name = "tail"};
    analysis_experiment((size_t)analysis_experiment_index("tail"))->judge(&j, v);
    csv_free(&t);
}

static void test_found_beside_the_type(void **state)
{
    (void)state;
    struct verdict v;
    judge(ROWS("3901,352", "DDR5"), false, &v);
    assert_string_equal(v.headline, "DRAM refresh: every 3.9 us, about 352 ns (DDR5 implies every "
                                    "3.9 us, 1.95 us when hot; tRFC 195-410 ns by density)");
    assert_true(item(&v, "refresh_period_ns") == 3901 && item(&v, "refresh_stall_ns") == 352);
    /* 4K pages against 2M at 128M: 100 ns more at the median, 400 at the p99.9 */
    assert_true(item(&v, "page_walk_p50_ns") == 100 && item(&v, "page_walk_p999_ns") == 400);
    assert_true(has_line(&v, "- page walks at 128M: 4K pages add 100.0 ns to the median batch and "
                             "400.0 ns to its p99.9 against 2M pages"));
    assert_true(has_line(&v, "- 128M (4K pages): p50 500.0 ns, p99 900.0 ns, p99.9 1400.0 ns"));
    assert_true(has_line(&v, "- 16K (2M pages): p50 5.0 ns"));
}

static void test_none_under_a_hypervisor(void **state)
{
    (void)state;
    struct verdict v;
    judge(ROWS("0,0", "DDR4"), true, &v);
    assert_string_equal(v.headline,
                        "DRAM refresh: no period stands out (DDR4 implies every 7.8 us, 3.9 us "
                        "fine-granularity or hot; tRFC 160-550 ns by density); under a hypervisor "
                        "(its exits, the host's interrupts) it may not be measurable");
    assert_true(isnan(item(&v, "refresh_period_ns")) && isnan(item(&v, "refresh_stall_ns")));
    judge(ROWS("0,0", "none"), false, &v);
    assert_string_equal(v.headline, "DRAM refresh: no period stands out (the DIMMs' type is "
                                    "unknown: no SMBIOS table was read)");
}

/* One page size at the largest size (or a table from before page_bytes): no page walk figure. */
static void test_one_page_size(void **state)
{
    (void)state;
    struct verdict v;
    judge("size_bytes,p50_ns,p90_ns,p99_ns,p999_ns,max_ns,refresh_period_ns,refresh_stall_ns\n"
          "16384,5,5,6,7,9,0,0\n134217728,400,450,800,1000,2000,7800,280\n",
          false, &v);
    assert_string_equal(v.headline, "DRAM refresh: every 7.8 us, about 280 ns");
    assert_true(isnan(item(&v, "page_walk_p50_ns")) && isnan(item(&v, "page_walk_p999_ns")));
    assert_true(has_line(&v, "- 128M: p50 400.0 ns"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_found_beside_the_type),
        cmocka_unit_test(test_none_under_a_hypervisor),
        cmocka_unit_test(test_one_page_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
