// SPDX-License-Identifier: MIT
// Unit tests of the kernel's memory map: sorting, merging, overlaps, placement.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/memmap.h"
#include "machine/memtype.h"

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

/* A variable MTRR for [base, base + size) of type t, 39 physical address bits. */
static struct mtrr_var var39(uint64_t base, uint64_t size, unsigned t)
{
    struct mtrr_var v = {base | t, (~(size - 1) & 0x7fffffffffULL & MTRR_PHYS_ADDR_MASK) |
                                       MTRR_PHYSMASK_VALID};
    return v;
}

/*
 * An Intel machine whose write-back MTRRs end at 17.5 GiB while RAM (the usable region
 * 4 GiB .. 18.375 GiB of the firmware map) goes on: default UC, WB 0..16 GiB, 16..17 GiB
 * and 17..17.5 GiB (firmware splitting an unaligned top into power-of-two MTRRs).
 */
static void machine_with_tail(struct memtype_regs *t, struct mem_region *r)
{
    memset(t, 0, sizeof(*t));
    t->read = true;
    t->phys_bits = 39;
    t->mtrr_cap = 10 | MTRRCAP_FIX;
    t->mtrr_def_type = MTRR_DEF_E | MT_UC;
    t->nvar = 3;
    t->var[0] = var39(0, 16 * GiB, MT_WB);
    t->var[1] = var39(16 * GiB, 1 * GiB, MT_WB);
    t->var[2] = var39(17 * GiB, 512 * MiB, MT_WB);
    t->pat = PAT_RESET_VALUE;
    r[0] = (struct mem_region){1 * MiB, 2 * GiB, MEM_USABLE};
    r[1] = (struct mem_region){4 * GiB, 14 * GiB + 384 * MiB, MEM_USABLE};
}

static void test_place_in_write_back_only(void **state)
{
    (void)state;
    struct memtype_regs t;
    struct mem_region r[2];
    machine_with_tail(&t, r);
    uint64_t addr = 0;
    /* Without types: the very top, in the UC tail. */
    assert_true(memmap_place(r, 2, 256 * MiB, 2 * MiB, &addr));
    assert_int_equal(addr, 18 * GiB + 128 * MiB);
    /* Write-back, 2 MiB pages (never wider than the buffer): just under the tail. */
    assert_true(memmap_place_wb(r, 2, 256 * MiB, 2 * MiB, &t, 2 * MiB, &addr));
    assert_int_equal(addr, 17 * GiB + 256 * MiB);
    assert_int_equal(memtype_range(&t, addr, 256 * MiB, 0), MT_WB);
    /* 1 GiB pages: the page over 17.25 GiB also holds the UC tail, so one page lower. */
    assert_true(memmap_place_wb(r, 2, 256 * MiB, 2 * MiB, &t, 1 * GiB, &addr));
    assert_int_equal(addr, 16 * GiB + 768 * MiB);
    /* Types not read: as memmap_place. */
    t.read = false;
    assert_true(memmap_place_wb(r, 2, 256 * MiB, 2 * MiB, &t, 1 * GiB, &addr));
    assert_int_equal(addr, 18 * GiB + 128 * MiB);
}

static void test_place_moves_or_refuses(void **state)
{
    (void)state;
    struct memtype_regs t;
    struct mem_region r[2];
    machine_with_tail(&t, r);
    uint64_t addr = 0, first = 0;
    assert_true(memmap_place_wb(r, 2, 1 * GiB, 2 * MiB, &t, 2 * MiB, &first));
    assert_int_equal(first, 16 * GiB + 512 * MiB);
    /* Where it would go is made UC (the memtype_test key does this): it moves below. */
    t.test_uc_base = first;
    t.test_uc_bytes = 1 * GiB;
    assert_true(memmap_place_wb(r, 2, 1 * GiB, 2 * MiB, &t, 2 * MiB, &addr));
    assert_true(addr + 1 * GiB <= first);
    assert_int_equal(memtype_range(&t, addr, 1 * GiB, 0), MT_WB);
    /* A buffer larger than any write-back span: refused, not placed in UC memory. */
    assert_false(memmap_place_wb(r, 2, 14 * GiB, 2 * MiB, &t, 2 * MiB, &addr));
    /* All memory UC (MTRRs disabled): refused. */
    t.mtrr_def_type &= ~MTRR_DEF_E;
    assert_false(memmap_place_wb(r, 2, 2 * MiB, 2 * MiB, &t, 2 * MiB, &addr));
    /* CR0.CD set: nothing is write-back either. */
    t.mtrr_def_type |= MTRR_DEF_E;
    t.test_uc_bytes = 0;
    t.cr0 = CR0_CD;
    assert_false(memmap_place_wb(r, 2, 2 * MiB, 2 * MiB, &t, 2 * MiB, &addr));
}

/* A node's range limits the placement: clipped regions, then the write-back rules as ever. */
static void test_place_inside_a_node(void **state)
{
    (void)state;
    struct memtype_regs t;
    struct mem_region r[2], in[4];
    machine_with_tail(&t, r);
    /* Node 0 holds [0, 8 GiB): the low region whole and 4..8 GiB of the high one. */
    unsigned k = memmap_clip(r, 2, 0, 8 * GiB, in, 4);
    assert_int_equal(k, 2);
    assert_int_equal(in[0].base, 1 * MiB);
    assert_int_equal(in[0].size, 2 * GiB);
    assert_int_equal(in[1].base, 4 * GiB);
    assert_int_equal(in[1].size, 4 * GiB);
    uint64_t addr = 0;
    assert_true(memmap_place_wb(in, k, 1 * GiB, 2 * MiB, &t, 0, &addr));
    assert_int_equal(addr, 7 * GiB);
    /* Node 1 holds [17 GiB, 19 GiB): only its write-back part can take a buffer. */
    k = memmap_clip(r, 2, 17 * GiB, 2 * GiB, in, 4);
    assert_int_equal(k, 1);
    assert_int_equal(in[0].size, 1 * GiB + 384 * MiB);
    assert_true(memmap_place_wb(in, k, 256 * MiB, 2 * MiB, &t, 0, &addr));
    assert_int_equal(addr, 17 * GiB + 256 * MiB);
    assert_false(memmap_place_wb(in, k, 1 * GiB, 2 * MiB, &t, 0, &addr));
    /* A range between the regions, and one capped by cap. */
    assert_int_equal(memmap_clip(r, 2, 3 * GiB, 1 * GiB, in, 4), 0);
    assert_int_equal(memmap_clip(r, 2, 0, UINT64_MAX, in, 1), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sort_merge_and_drop_empty),
        cmocka_unit_test(test_overlaps_restrictive_wins),
        cmocka_unit_test(test_across_4g_and_placement),
        cmocka_unit_test(test_place_in_write_back_only),
        cmocka_unit_test(test_place_moves_or_refuses),
        cmocka_unit_test(test_place_inside_a_node),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
