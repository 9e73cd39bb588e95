// SPDX-License-Identifier: MIT
// Unit tests of the AArch64 translation-table walker and chase's own tables built from the
// firmware's: block sizes, the buffer's pages and attribute, holes, a pool that is too small.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "aarch64/a64_tables_build.h"

#define SZ_4K (1ULL << 12)
#define SZ_2M (1ULL << 21)
#define SZ_1G (1ULL << 30)
#define TCR_39BIT 25ULL /* T0SZ 25: 39-bit inputs, the walk starts at level 1 */
#define AF (1ULL << 10) /* the access flag, part of the attributes kept */
#define SH_INNER (3ULL << 8)
#define ATTR(i) ((uint64_t)(i) << 2) /* AttrIndx */
#define FW_DEVICE 0                  /* the firmware's MAIR indices in these tests */
#define FW_NORMAL 1
#define AP_RO (1ULL << 7)
#define WB_INDEX 3

/* Host memory stands for physical memory: descriptors hold host addresses of tables. */
static uint64_t read_host(void *ctx, uint64_t pa)
{
    (void)ctx;
    return *(const uint64_t *)(uintptr_t)pa;
}

static uint64_t *new_table(void)
{
    uint64_t *t = aligned_alloc(SZ_4K, SZ_4K);
    assert_non_null(t);
    memset(t, 0, SZ_4K);
    return t;
}

static uint64_t table_desc(const uint64_t *t)
{
    return (uint64_t)(uintptr_t)t | A64_DESC_VALID | A64_DESC_TABLE;
}

/*
 * The firmware's tables (level 1 root): [1G, 2G) in 2 MiB blocks, Normal, except its first
 * 2 MiB in 4 KiB pages, one of them read-only; [2G, 3G) one 1 GiB block, Normal; [0, 1G) device
 * 2 MiB blocks at 0 only; [3G, 4G) not mapped; [4G, 5G) 2 MiB blocks, Normal, all alike.
 */
struct fw {
    uint64_t *l1, *l2_1g, *l2_0, *l3, *l2_4g;
};

static void fw_build(struct fw *f)
{
    f->l1 = new_table();
    f->l2_0 = new_table();
    f->l2_1g = new_table();
    f->l3 = new_table();
    f->l2_4g = new_table();
    uint64_t normal = AF | SH_INNER | ATTR(FW_NORMAL) | A64_DESC_VALID;
    f->l2_0[0] = 0 | AF | ATTR(FW_DEVICE) | A64_DESC_VALID;
    f->l1[0] = table_desc(f->l2_0);
    f->l1[1] = table_desc(f->l2_1g);
    f->l2_1g[0] = table_desc(f->l3);
    for (unsigned i = 0; i < 512; i++)
        f->l3[i] = (SZ_1G + i * SZ_4K) | normal | A64_DESC_TABLE | (i == 5 ? AP_RO : 0);
    for (unsigned i = 1; i < 512; i++)
        f->l2_1g[i] = (SZ_1G + i * SZ_2M) | normal;
    f->l1[2] = (2 * SZ_1G) | normal;
    f->l1[4] = table_desc(f->l2_4g);
    for (unsigned i = 0; i < 512; i++)
        f->l2_4g[i] = (4 * SZ_1G + i * SZ_2M) | normal;
}

static void fw_free(struct fw *f)
{
    free(f->l1);
    free(f->l2_0);
    free(f->l2_1g);
    free(f->l3);
    free(f->l2_4g);
}

static struct a64_leaf walk(uint64_t ttbr, uint64_t va)
{
    struct a64_leaf l;
    char why[120];
    assert_true(a64_walk(ttbr, TCR_39BIT, va, read_host, NULL, &l, why, sizeof(why)));
    return l;
}

static void test_start_levels(void **state)
{
    (void)state;
    assert_int_equal(a64_start_level(48), 0);
    assert_int_equal(a64_start_level(40), 0);
    assert_int_equal(a64_start_level(39), 1);
    assert_int_equal(a64_start_level(31), 1);
    assert_int_equal(a64_start_level(30), 2);
    assert_int_equal(a64_start_level(24), -1);
    assert_int_equal(a64_start_level(52), -1);
}

static void test_walk_firmware_tables(void **state)
{
    (void)state;
    struct fw f;
    fw_build(&f);
    uint64_t ttbr = (uint64_t)(uintptr_t)f.l1;
    struct a64_leaf l = walk(ttbr, SZ_1G + 5 * SZ_4K + 0x18);
    assert_true(l.mapped);
    assert_int_equal(l.level, 3);
    assert_int_equal(l.bytes, SZ_4K);
    assert_int_equal(l.out, SZ_1G + 5 * SZ_4K + 0x18);
    assert_true(l.desc & AP_RO);
    l = walk(ttbr, SZ_1G + 7 * SZ_2M + 123);
    assert_int_equal(l.level, 2);
    assert_int_equal(l.out, SZ_1G + 7 * SZ_2M + 123);
    assert_int_equal(l.attr_indx, FW_NORMAL);
    l = walk(ttbr, 2 * SZ_1G + 77 * SZ_2M);
    assert_int_equal(l.level, 1);
    assert_int_equal(l.bytes, SZ_1G);
    assert_false(walk(ttbr, 3 * SZ_1G).mapped);
    assert_false(walk(ttbr, SZ_2M).mapped);
    struct a64_leaf bad;
    char why[120];
    assert_false(a64_walk(ttbr, TCR_39BIT | (1ULL << A64_TCR_TG0_SHIFT), 0, read_host, NULL, &bad,
                          why, sizeof(why)));
    assert_false(a64_walk(ttbr, TCR_39BIT, 1ULL << 40, read_host, NULL, &bad, why, sizeof(why)));
    fw_free(&f);
}

/* chase's tables over [1G, 5G) with the buffer at [1G + 8M, + 4M). */
static int build(const struct fw *f, uint64_t buffer_page, unsigned pages, struct a64_tables *t,
                 bool *more)
{
    struct a64_plan p = {
        .fw_ttbr = (uint64_t)(uintptr_t)f->l1,
        .tcr = TCR_39BIT,
        .read = read_host,
        .nranges = 1,
        .base = {SZ_1G},
        .bytes = {4 * SZ_1G},
        .buffer_base = SZ_1G + 4 * SZ_2M,
        .buffer_bytes = 2 * SZ_2M,
        .buffer_page = buffer_page,
        .wb_indx = WB_INDEX,
    };
    t->pool = aligned_alloc(SZ_4K, pages * SZ_4K);
    t->pages = pages;
    char why[120];
    return a64_tables_build(t, &p, more, why, sizeof(why));
}

static void test_own_tables(void **state)
{
    (void)state;
    struct fw f;
    fw_build(&f);
    struct a64_tables t;
    bool more;
    assert_int_equal(build(&f, SZ_4K, 16, &t, &more), 0);
    assert_int_equal(t.start, 1);
    /* the firmware's 4 KiB pages stay 4 KiB, the read-only one read-only */
    struct a64_leaf l = walk(t.root, SZ_1G + 5 * SZ_4K);
    assert_int_equal(l.bytes, SZ_4K);
    assert_true(l.desc & AP_RO);
    assert_false(walk(t.root, SZ_1G + 6 * SZ_4K).desc & AP_RO);
    /* outside the buffer: 2 MiB blocks with the firmware's attribute */
    l = walk(t.root, SZ_1G + 2 * SZ_2M);
    assert_int_equal(l.bytes, SZ_2M);
    assert_int_equal(l.attr_indx, FW_NORMAL);
    /* the buffer: 4 KiB pages, the write-back index, identity */
    l = walk(t.root, SZ_1G + 4 * SZ_2M + 3 * SZ_4K + 8);
    assert_int_equal(l.bytes, SZ_4K);
    assert_int_equal(l.attr_indx, WB_INDEX);
    assert_int_equal(l.out, SZ_1G + 4 * SZ_2M + 3 * SZ_4K + 8);
    /* a 1 GiB block where the firmware has one, nothing where it has nothing */
    assert_int_equal(walk(t.root, 2 * SZ_1G + 5).bytes, SZ_1G);
    assert_false(walk(t.root, 3 * SZ_1G + SZ_2M).mapped);
    assert_false(walk(t.root, SZ_2M).mapped); /* not in the plan's ranges */
    /* never a larger leaf than the firmware's outside the buffer: 2 MiB there, not 1 GiB */
    l = walk(t.root, 4 * SZ_1G + 3 * SZ_2M + 64);
    assert_int_equal(l.bytes, SZ_2M);
    assert_int_equal(l.out, 4 * SZ_1G + 3 * SZ_2M + 64);
    free(t.pool);
    /* 2 MiB pages over the buffer when asked */
    assert_int_equal(build(&f, SZ_2M, 16, &t, &more), 0);
    l = walk(t.root, SZ_1G + 5 * SZ_2M);
    assert_int_equal(l.bytes, SZ_2M);
    assert_int_equal(l.attr_indx, WB_INDEX);
    free(t.pool);
    fw_free(&f);
}

static void test_pool_too_small(void **state)
{
    (void)state;
    struct fw f;
    fw_build(&f);
    struct a64_tables t;
    bool more;
    assert_int_equal(build(&f, SZ_4K, 2, &t, &more), -1);
    assert_true(more);
    free(t.pool);
    fw_free(&f);
}

static void test_mair_attributes(void **state)
{
    (void)state;
    assert_true(a64_attr_is_normal_wb(0xff));
    assert_true(a64_attr_is_normal_wb(0x77)); /* write-back transient, RW-allocate */
    assert_false(a64_attr_is_normal_wb(0x44));
    assert_false(a64_attr_is_normal_wb(0x00));
    assert_false(a64_attr_is_normal_wb(0xbb)); /* write-through */
    assert_string_equal(a64_attr_name(0xff), "Normal WB");
    assert_string_equal(a64_attr_name(0x44), "Normal NC");
    assert_string_equal(a64_attr_name(0x04), "Device-nGnRE");
    assert_string_equal(a64_attr_name(0x00), "Device-nGnRnE");
    assert_int_equal(a64_mair_attr(0x000000000044ff04ULL, 1), 0xff);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_levels),    cmocka_unit_test(test_walk_firmware_tables),
        cmocka_unit_test(test_own_tables),      cmocka_unit_test(test_pool_too_small),
        cmocka_unit_test(test_mair_attributes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
