// SPDX-License-Identifier: MIT
// Unit tests of the kernel's memory map: sorting, merging, overlaps, placement.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "machine/memmap.h"

#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

static void test_sort_merge_and_drop_empty(void **state)
{
    (void)state;
    struct mem_region r[32] = {
        {2 * MiB, 2 * MiB, MEM_USABLE},
        {0, 1 * MiB, MEM_USABLE},
        {1 * MiB, 1 * MiB, MEM_USABLE}, /* adjacent: merges with both */
        {8 * MiB, 0, MEM_RESERVED},     /* zero length: dropped */
        {6 * MiB, 1 * MiB, MEM_FIRMWARE},
        {5 * MiB, 1 * MiB, MEM_FIRMWARE}, /* out of order, adjacent */
    };
    unsigned n = memmap_normalize(r, 6);
    assert_int_equal(n, 2);
    assert_int_equal(r[0].base, 0);
    assert_int_equal(r[0].size, 4 * MiB);
    assert_int_equal(r[0].type, MEM_USABLE);
    assert_int_equal(r[1].base, 5 * MiB);
    assert_int_equal(r[1].size, 2 * MiB);
    assert_int_equal(memmap_ram_bytes(r, n), 6 * MiB);
}

static void test_overlaps_restrictive_wins(void **state)
{
    (void)state;
    struct mem_region r[32] = {
        {0, 16 * MiB, MEM_USABLE},
        {4 * MiB, 2 * MiB, MEM_RESERVED}, /* inside: splits the usable region */
        {14 * MiB, 4 * MiB, MEM_MMIO},    /* straddles the end */
        {3 * MiB, 2 * MiB, MEM_USABLE},   /* same type overlap: merges */
    };
    unsigned n = memmap_normalize(r, 4);
    assert_int_equal(n, 4);
    assert_int_equal(r[0].base, 0);
    assert_int_equal(r[0].size, 4 * MiB);
    assert_int_equal(r[1].type, MEM_RESERVED);
    assert_int_equal(r[1].base, 4 * MiB);
    assert_int_equal(r[2].type, MEM_USABLE);
    assert_int_equal(r[2].base, 6 * MiB);
    assert_int_equal(r[2].size, 8 * MiB);
    assert_int_equal(r[3].type, MEM_MMIO);
    assert_int_equal(r[3].base, 14 * MiB);
    for (unsigned i = 1; i < n; i++)
        assert_true(r[i - 1].base + r[i - 1].size <= r[i].base);
}

static void test_across_4g_and_placement(void **state)
{
    (void)state;
    struct mem_region r[32] = {
        {0, 2 * GiB, MEM_USABLE},
        {2 * GiB, 2 * GiB, MEM_MMIO},
        {4 * GiB, 4 * GiB + 3 * MiB, MEM_USABLE},
        {3 * GiB + 512 * MiB, 1 * GiB, MEM_USABLE}, /* usable claimed inside MMIO: MMIO wins */
    };
    unsigned n = memmap_normalize(r, 4);
    assert_int_equal(n, 3);
    assert_int_equal(r[1].type, MEM_MMIO);
    assert_int_equal(r[1].size, 2 * GiB);
    assert_int_equal(r[2].base, 4 * GiB);
    assert_int_equal(memmap_ram_bytes(r, n), 6 * GiB + 3 * MiB);
    assert_int_equal(memmap_largest_usable(r, n, 2 * MiB), 4 * GiB + 3 * MiB);
    uint64_t at;
    /* the highest 2 MiB-aligned place that fits, above 4 GiB */
    assert_true(memmap_place(r, n, 64 * MiB, 2 * MiB, &at));
    assert_int_equal(at, 8 * GiB + 2 * MiB - 64 * MiB);
    assert_int_equal(at % (2 * MiB), 0);
    assert_true(memmap_place(r, n, 1 * GiB, 1 * GiB, &at));
    assert_int_equal(at, 7 * GiB);
    assert_false(memmap_place(r, n, 5 * GiB, 2 * MiB, &at));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sort_merge_and_drop_empty),
        cmocka_unit_test(test_overlaps_restrictive_wins),
        cmocka_unit_test(test_across_4g_and_placement),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
