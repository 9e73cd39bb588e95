// SPDX-License-Identifier: MIT
// Unit tests of the per-processor window records: an NMI costs only its own processor's window.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "x86_64/x64_window_stats.h"

/* What window.S does on an NMI: its own processor's record, nobody else's. */
static void nmi_on(struct window_stats *cpu)
{
    cpu->nmis++;
}

/*
 * Two processors in windows at once: an NMI on B during A's window costs B's window only, A's
 * result stands (with one count shared by all, A's window would have been dropped too).
 */
static void test_nmi_costs_its_own_processor_only(void **state)
{
    (void)state;
    struct window_stats a = {0}, b = {0};
    uint64_t a0 = a.nmis, b0 = b.nmis; /* both windows begin */
    nmi_on(&b);
    assert_false(window_stats_count(&a, 1000, false, a0));
    assert_true(window_stats_count(&b, 1200, false, b0));
    assert_int_equal(a.nmi_windows, 0);
    assert_int_equal(b.nmi_windows, 1);
    /* the next window of B, with no NMI of its own, stands */
    b0 = b.nmis;
    assert_false(window_stats_count(&b, 300, false, b0));
    assert_int_equal(b.nmi_windows, 1);
    assert_int_equal(b.windows, 2);
}

/* A window counts, keeps the longest, and counts a machine check that ended it. */
static void test_count(void **state)
{
    (void)state;
    struct window_stats s = {0};
    window_stats_count(&s, 500, false, 0);
    window_stats_count(&s, 900, true, 0);
    window_stats_count(&s, 700, false, 0);
    assert_int_equal(s.windows, 3);
    assert_int_equal(s.longest_ticks, 900);
    assert_int_equal(s.machine_checks, 1);
    assert_int_equal(s.nmi_windows, 0);
    /* two NMIs in one window: one window dropped, both NMIs counted */
    uint64_t n0 = s.nmis;
    nmi_on(&s);
    nmi_on(&s);
    assert_true(window_stats_count(&s, 100, false, n0));
    assert_int_equal(s.nmis, 2);
    assert_int_equal(s.nmi_windows, 1);
}

/* The report sums every processor's record: counts add, the longest is the longest of all. */
static void test_sum_over_processors(void **state)
{
    (void)state;
    struct window_stats cpu[3] = {
        {.windows = 10, .longest_ticks = 400, .nmis = 1, .nmi_windows = 1, .machine_checks = 0},
        {.windows = 5, .longest_ticks = 900, .nmis = 0, .nmi_windows = 0, .machine_checks = 1},
        {.windows = 7, .longest_ticks = 300, .nmis = 2, .nmi_windows = 1, .machine_checks = 0},
    };
    struct window_stats sum = {0};
    for (unsigned i = 0; i < 3; i++)
        window_stats_add(&sum, &cpu[i]);
    assert_int_equal(sum.windows, 22);
    assert_int_equal(sum.longest_ticks, 900);
    assert_int_equal(sum.nmis, 3);
    assert_int_equal(sum.nmi_windows, 2);
    assert_int_equal(sum.machine_checks, 1);
    /* the same records summed in another order give the same */
    struct window_stats back = {0};
    for (unsigned i = 3; i-- > 0;)
        window_stats_add(&back, &cpu[i]);
    assert_memory_equal(&back, &sum, sizeof(sum));
}

/* A report adds each processor's record to what it holds, by window_stats_add's rules. */
static void test_report_adds_records(void **state)
{
    (void)state;
    struct window_report r = {.windows = 4, .longest_ticks = 600, .nmis = 3, .lfence = "kept"};
    struct window_stats bsp = {.windows = 10, .longest_ticks = 400, .nmis = 1, .nmi_windows = 1};
    struct window_stats ap = {.windows = 5, .longest_ticks = 900, .machine_checks = 1};
    window_stats_report(&r, &bsp);
    assert_int_equal(r.windows, 14);
    assert_int_equal(r.longest_ticks, 600);
    window_stats_report(&r, &ap);
    assert_int_equal(r.windows, 19);
    assert_int_equal(r.longest_ticks, 900);
    assert_int_equal(r.nmis, 4);
    assert_int_equal(r.nmi_windows, 1);
    assert_int_equal(r.machine_checks, 1);
    assert_string_equal(r.lfence, "kept"); /* what is not a count stays as it was */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nmi_costs_its_own_processor_only),
        cmocka_unit_test(test_count),
        cmocka_unit_test(test_sum_over_processors),
        cmocka_unit_test(test_report_adds_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
