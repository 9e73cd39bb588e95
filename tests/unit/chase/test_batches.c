// SPDX-License-Identifier: MIT
// Unit tests of batch_window_run: the batches and their stamps after an untimed walk, a window
// lost to an NMI taken again from the same start, and another exception given up on.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "chase/batches.h"
#include "stubs/stub_platform.h"

#define SLOTS 61 /* prime: slot i -> (i + STEP) mod SLOTS is one cycle over all of them */
#define STEP 17
#define BATCHES 50

static void *ring[SLOTS];
static uint64_t stamps[BATCHES + 1];

static void **after(uint64_t hops)
{
    return &ring[(hops % SLOTS) * STEP % SLOTS];
}

static struct batch_window window(uint64_t prewalk)
{
    for (unsigned i = 0; i < SLOTS; i++)
        ring[i] = &ring[(i + STEP) % SLOTS];
    return (struct batch_window){.p = (void **)&ring[0],
                                 .batches = BATCHES,
                                 .hops = 3,
                                 .prewalk_hops = prewalk,
                                 .stamps = stamps};
}

static void test_run(void **state)
{
    (void)state;
    struct batch_window w = window(10);
    unsigned before = stub_windows;
    assert_int_equal(batch_window_run(&w), 0);
    assert_int_equal(stub_windows, before + 1);
    assert_ptr_equal(w.p, after(10 + BATCHES * 3));
    for (unsigned i = 0; i < BATCHES; i++)
        assert_true(stamps[i + 1] > stamps[i]);
    assert_int_equal(w.dropped, 0);
}

static void test_nmi_taken_again(void **state)
{
    (void)state;
    struct batch_window w = window(0);
    stub_window_interruptions = 2;
    stub_window_interruption_vector = 2; /* NMI */
    assert_int_equal(batch_window_run(&w), 0);
    assert_int_equal(w.dropped, 2);
    assert_ptr_equal(w.p, after(BATCHES * 3)); /* from the same start each time */
}

static void test_other_fault(void **state)
{
    (void)state;
    struct batch_window w = window(0);
    stub_window_interruptions = 1;
    stub_window_interruption_vector = 14; /* a page fault is not an interruption */
    assert_int_equal(batch_window_run(&w), -1);
    assert_int_equal(w.fault.vector, 14);
    stub_window_interruptions = BATCHES_MAX_DROPPED + 1;
    stub_window_interruption_vector = 2;
    assert_int_equal(batch_window_run(&w), -1);
    assert_int_equal(w.dropped, BATCHES_MAX_DROPPED);
    stub_window_interruptions = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run),
        cmocka_unit_test(test_nmi_taken_again),
        cmocka_unit_test(test_other_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
