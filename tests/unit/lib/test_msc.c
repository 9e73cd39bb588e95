// SPDX-License-Identifier: MIT
// Unit tests of the memory-side cache sweep's arithmetic: the span of sizes that crosses a cache
// (its size, the node's free memory, the profile's cap) and the step found in a sweep's latencies.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/msc.h"

#define MIB (1ULL << 20)
#define GIB (1ULL << 30)
#define ALIGN (2 * MIB)

/* QEMU's 16M cache in front of a 96M node (about 90M free): the span stops at half the free
   memory's power of two, 32M, and still crosses the cache. */
static void test_span_free_memory_caps(void **state)
{
    (void)state;
    uint64_t lo, hi;
    char why[200] = "";
    assert_true(
        msc_span(16 * MIB, 90 * MIB, MSC_QUICK_MAX_BYTES, ALIGN, &lo, &hi, why, sizeof(why)));
    assert_int_equal(lo, 2 * MIB);
    assert_int_equal(hi, 32 * MIB);
}

/* Room everywhere: cache / 8 to cache x 8. */
static void test_span_whole(void **state)
{
    (void)state;
    uint64_t lo, hi;
    char why[200];
    assert_true(msc_span(1 * GIB, 64 * GIB, MSC_FULL_MAX_BYTES, ALIGN, &lo, &hi, why, sizeof(why)));
    assert_int_equal(lo, 128 * MIB);
    assert_int_equal(hi, 8 * GIB);
}

/* The profile's cap: Xeon Max's 16 GiB HBM cache per SNC4 node, 256 GiB free: 64 GiB (4x). */
static void test_span_profile_cap(void **state)
{
    (void)state;
    uint64_t lo, hi;
    char why[200];
    assert_true(
        msc_span(16 * GIB, 256 * GIB, MSC_FULL_MAX_BYTES, ALIGN, &lo, &hi, why, sizeof(why)));
    assert_int_equal(lo, 2 * GIB);
    assert_int_equal(hi, 64 * GIB);
}

/* Not crossed: the quick cap (256M) under twice a 256M cache, or too little free memory. */
static void test_span_cannot_cross(void **state)
{
    (void)state;
    uint64_t lo, hi;
    char why[200] = "";
    assert_false(
        msc_span(256 * MIB, 64 * GIB, MSC_QUICK_MAX_BYTES, ALIGN, &lo, &hi, why, sizeof(why)));
    assert_non_null(strstr(why, "cannot cross it"));
    why[0] = 0;
    assert_false(
        msc_span(16 * MIB, 60 * MIB, MSC_QUICK_MAX_BYTES, ALIGN, &lo, &hi, why, sizeof(why)));
    assert_non_null(strstr(why, "under twice the cache (16M)"));
    assert_false(msc_span(0, 60 * MIB, MSC_QUICK_MAX_BYTES, ALIGN, &lo, &hi, why, sizeof(why)));
    assert_non_null(strstr(why, "unknown"));
}

/* A tiny cache: the low end is one alignment unit, not 0. */
static void test_span_small_cache(void **state)
{
    (void)state;
    uint64_t lo, hi;
    char why[200];
    assert_true(msc_span(4 * MIB, 1 * GIB, MSC_QUICK_MAX_BYTES, ALIGN, &lo, &hi, why, sizeof(why)));
    assert_int_equal(lo, ALIGN);
    assert_int_equal(hi, 32 * MIB);
}

/* A 1G cache behind a 32M last cache: 100 ns up to it, 200 ns beyond, rising at 1G -> 2G. */
static void test_step_seen(void **state)
{
    (void)state;
    uint64_t size[] = {128 * MIB, 256 * MIB, 512 * MIB, 1 * GIB, 2 * GIB, 4 * GIB, 8 * GIB};
    double ns[] = {98, 100, 101, 120, 190, 200, 202};
    struct msc_step s;
    char text[200];
    msc_step_find(size, ns, 7, 1 * GIB, 32 * MIB, &s);
    assert_true(s.known && s.seen);
    assert_true(s.below_ns == 100.0 && s.beyond_ns == 200.0 && s.ratio == 2.0);
    assert_int_equal(s.from_bytes, 1 * GIB);
    assert_int_equal(s.to_bytes, 2 * GIB);
    msc_step_text(&s, 1 * GIB, text, sizeof(text));
    assert_string_equal(text, "step between 1G and 2G: 100.0 -> 200.0 ns (x2.00), HMAT's cache 1G");
}

/* Flat (QEMU's table-only cache, or a cache that does not help): no step, said with the ratio. */
static void test_step_flat(void **state)
{
    (void)state;
    uint64_t size[] = {128 * MIB, 256 * MIB, 512 * MIB, 1 * GIB, 2 * GIB, 4 * GIB, 8 * GIB};
    double ns[] = {100, 101, 100, 102, 104, 105, 103};
    struct msc_step s;
    char text[200];
    msc_step_find(size, ns, 7, 1 * GIB, 32 * MIB, &s);
    assert_true(s.known && !s.seen);
    assert_int_equal(s.from_bytes, 0);
    msc_step_text(&s, 1 * GIB, text, sizeof(text));
    assert_non_null(strstr(text, "no step: 100.0 ns below, 104.0 ns beyond (x1.04, under x1.15)"));
}

/* The processor's caches hold the low points: their step is not the memory-side cache's, and
   with no point between twice the last cache and half the cache the step is unknown. */
static void test_step_cpu_cache_left_out(void **state)
{
    (void)state;
    uint64_t size[] = {2 * MIB, 4 * MIB, 8 * MIB, 16 * MIB, 32 * MIB};
    double ns[] = {10, 20, 100, 100, 101};
    struct msc_step s;
    char text[300];
    msc_step_find(size, ns, 5, 16 * MIB, 4 * MIB, &s); /* below: 8M only */
    assert_true(s.known && !s.seen);
    msc_step_find(size, ns, 5, 16 * MIB, 16 * MIB, &s); /* below: nothing */
    assert_false(s.known);
    msc_step_text(&s, 16 * MIB, text, sizeof(text));
    assert_non_null(strstr(text, "step unknown"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_span_free_memory_caps),
        cmocka_unit_test(test_span_whole),
        cmocka_unit_test(test_span_profile_cap),
        cmocka_unit_test(test_span_cannot_cross),
        cmocka_unit_test(test_span_small_cache),
        cmocka_unit_test(test_step_seen),
        cmocka_unit_test(test_step_flat),
        cmocka_unit_test(test_step_cpu_cache_left_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
