// SPDX-License-Identifier: MIT
// Unit tests of the window cutter: where a window ends, which end comes first, what fits.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "procs/win_slice.h"

#define HZ 2000000000ULL /* a 2 GHz TSC */

/* window_max_ms in ticks; no rate or no cap: 0 (no cap). */
static void test_ticks_of(void **state)
{
    (void)state;
    assert_int_equal(win_ticks_of(10, HZ), 20000000ULL);
    assert_int_equal(win_ticks_of(1, 3000000000ULL), 3000000ULL);
    assert_int_equal(win_ticks_of(0, HZ), 0);
    assert_int_equal(win_ticks_of(10, 0), 0);
}

/* A window ends window_ticks after its start: go on up to that tick, past it the window ends. */
static void test_window_end(void **state)
{
    (void)state;
    struct win_slice w;
    win_begin(&w, 1000, 500);
    assert_int_equal(w.window_end_tsc, 1500);
    assert_int_equal(win_check(&w, 1000, 0), WIN_GO_ON);
    assert_int_equal(win_check(&w, 1500, 0), WIN_GO_ON);
    assert_int_equal(win_check(&w, 1501, 0), WIN_WINDOW_END);
    /* no cap: never ends by itself, even near the counter's top */
    win_begin(&w, 1000, 0);
    assert_int_equal(win_check(&w, UINT64_MAX, 0), WIN_GO_ON);
    win_begin(&w, UINT64_MAX - 10, 500);
    assert_int_equal(w.window_end_tsc, UINT64_MAX);
}

/* The deadline wins over the window: work past both ends, it does not wait for a new window. */
static void test_deadline_first(void **state)
{
    (void)state;
    struct win_slice w;
    win_begin(&w, 1000, 500);
    assert_int_equal(win_check(&w, 1200, 1100), WIN_DEADLINE);
    assert_int_equal(win_check(&w, 1600, 1550), WIN_DEADLINE);
    assert_int_equal(win_check(&w, 1600, 1700), WIN_WINDOW_END);
    assert_int_equal(win_check(&w, 1600, 0), WIN_WINDOW_END); /* 0: no deadline */
}

/* A wait spins until the earlier of the window's end and its deadline. */
static void test_wait_until(void **state)
{
    (void)state;
    struct win_slice w;
    win_begin(&w, 1000, 500);
    assert_int_equal(win_wait_until(&w, 1200), 1200);
    assert_int_equal(win_wait_until(&w, 9000), 1500);
    assert_int_equal(win_wait_until(&w, 0), 1500);
    win_begin(&w, 1000, 0);
    assert_int_equal(win_wait_until(&w, 0), UINT64_MAX);
    assert_int_equal(win_wait_until(&w, 4000), 4000);
}

/*
 * A piece that must not be cut starts where the window has room for it; one longer than half
 * a window starts at once (it is cut anyway), so a fresh window always takes the next piece.
 */
static void test_fits(void **state)
{
    (void)state;
    struct win_slice w;
    win_begin(&w, 1000, 1000);
    assert_true(win_fits(&w, 1000, 400));
    assert_true(win_fits(&w, 1600, 400));  /* 400 left */
    assert_false(win_fits(&w, 1601, 400)); /* 399 left: in the next window */
    assert_false(win_fits(&w, 2100, 10));  /* the window is over */
    assert_true(win_fits(&w, 1900, 501));  /* over half a window: starts now, is cut */
    assert_true(win_fits(&w, 1000, 0));
    /* a fresh window (started a little before the look) holds any piece of half a window */
    for (uint64_t late = 0; late <= 500; late += 50) {
        win_begin(&w, 5000, 1000);
        assert_true(win_fits(&w, 5000 + late, 500));
    }
    win_begin(&w, 1000, 0); /* no cap: everything fits */
    assert_true(win_fits(&w, UINT64_MAX - 1, UINT64_MAX));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ticks_of),       cmocka_unit_test(test_window_end),
        cmocka_unit_test(test_deadline_first), cmocka_unit_test(test_wait_until),
        cmocka_unit_test(test_fits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
