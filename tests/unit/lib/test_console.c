// SPDX-License-Identifier: MIT
// Unit tests of the console's progress line: percent, time left, erased before kept text.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/console.h"
#include "stubs/stub_platform.h"

#define HZ 1000000000ULL /* ticks per second in these tests */

static int setup(void **state)
{
    (void)state;
    stub_console_reset();
    con_log_reset();
    return 0;
}

/* Nothing shows during the first seconds; then percent of the work and the time left. */
static void test_progress_after_a_few_seconds(void **state)
{
    (void)state;
    struct con_progress p;
    con_progress_begin(&p, 4, 100.0, 0, HZ);
    con_progress_step(&p, 10.0, 1 * HZ);
    assert_int_equal(stub_console_len, 0);
    con_progress_step(&p, 40.0, 6 * HZ); /* half the work in 6 s: 6 s left */
    assert_non_null(strstr(stub_console, "[ 50%] 2 of 4 points, about 6s left"));
    size_t shown = stub_console_len;
    con_progress_step(&p, 1.0, 6 * HZ + HZ / 10); /* redrawn at most twice a second */
    assert_int_equal(stub_console_len, shown);
    con_progress_step(&p, 49.0, 12 * HZ); /* the last point: no line, the table goes on */
    assert_int_equal(stub_console_len, shown);
    con_progress_end(&p);
    assert_int_equal(stub_console[stub_console_len - 1], '\r');
}

/* A long experiment's steps named as it counts them (the tail's windows). */
static void test_progress_unit(void **state)
{
    (void)state;
    struct con_progress p;
    con_progress_begin(&p, 80, 80.0, 0, HZ);
    p.unit = "windows";
    con_progress_step(&p, 20.0, 4 * HZ);
    assert_non_null(strstr(stub_console, "[ 25%] 1 of 80 windows, about 12s left"));
    con_progress_end(&p);
}

/* Kept text erases the progress line first and never carries it into console.txt. */
static void test_kept_text_erases_progress(void **state)
{
    (void)state;
    struct con_progress p;
    con_progress_begin(&p, 3, 3.0, 0, HZ);
    con_progress_step(&p, 1.0, 200 * HZ);
    assert_non_null(strstr(stub_console, "left"));
    con_printf("row\n");
    const char *row = strstr(stub_console, "row\n");
    assert_non_null(row);
    assert_int_equal(row[-1], '\r');
    assert_string_equal(strbuf_str(con_log()), "row\n");
}

static void test_durations(void **state)
{
    (void)state;
    char b[24];
    con_format_duration(b, sizeof(b), 42.4);
    assert_string_equal(b, "42s");
    con_format_duration(b, sizeof(b), 187);
    assert_string_equal(b, "3m07s");
    con_format_duration(b, sizeof(b), 3720);
    assert_string_equal(b, "1h02m");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_progress_after_a_few_seconds, setup),
        cmocka_unit_test_setup(test_progress_unit, setup),
        cmocka_unit_test_setup(test_kept_text_erases_progress, setup),
        cmocka_unit_test_setup(test_durations, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
