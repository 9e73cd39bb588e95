// SPDX-License-Identifier: MIT
// Unit test of chase_batches (the tail's timed batches) on this CPU: it ends where its hops
// lead, and its stamps are one before and one after each batch, in order, none skipped.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/chase_loop.h"

#define SLOTS 61 /* prime: slot i -> (i + STEP) mod SLOTS is one cycle over all of them */
#define STEP 17
#define BATCHES 100

static void *ring[SLOTS];

static void **after(uint64_t hops)
{
    return &ring[(hops % SLOTS) * STEP % SLOTS];
}

static void test_batches(void **state)
{
    (void)state;
    for (unsigned i = 0; i < SLOTS; i++)
        ring[i] = &ring[(i + STEP) % SLOTS];
    static uint64_t stamps[BATCHES + 2];
    for (uint64_t hops = 1; hops <= 9; hops += 4) {
        memset(stamps, 0, sizeof(stamps));
        stamps[BATCHES + 1] = 0x5a5a5a5a; /* one past the last stamp: left alone */
        void **end = chase_batches((void **)&ring[0], BATCHES, hops, stamps);
        assert_ptr_equal(end, after(BATCHES * hops));
        for (unsigned i = 0; i < BATCHES; i++)
            assert_true(stamps[i + 1] > stamps[i]); /* the TSC moves in every batch */
        assert_int_equal(stamps[BATCHES + 1], 0x5a5a5a5a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
