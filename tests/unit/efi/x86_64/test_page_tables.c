// SPDX-License-Identifier: MIT
// Unit tests of chase's page-table builder: build in host memory, walk like the MMU.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "x86_64/x64_page_tables.h"

/* The page size the plan promises at address a. */
static uint64_t expected_page(const struct paging_plan *p, uint64_t a)
{
    uint64_t end = p->buffer_base + p->buffer_bytes;
    uint64_t block2m = a & ~(PAGE_2M - 1), block1g = a & ~(PAGE_1G - 1);
    bool in2m = p->buffer_bytes && block2m < end && p->buffer_base < block2m + PAGE_2M;
    bool in1g = p->buffer_bytes && block1g < end && p->buffer_base < block1g + PAGE_1G;
    if (p->buffer_page == PAGE_4K && in2m)
        return PAGE_4K;
    if (p->buffer_page < PAGE_1G && p->default_page == PAGE_1G && in1g)
        return PAGE_2M;
    return p->default_page;
}

static void check_address(const struct paging *pm, const struct paging_plan *p, uint64_t a)
{
    uint64_t page = 0, flags = 0;
    uint64_t phys = paging_translate(pm, a, &page, &flags);
    if (a >= (p->top + PAGE_1G - 1) / PAGE_1G * PAGE_1G) { /* the map ends on a 1 GiB line */
        assert_int_equal(phys, UINT64_MAX);
        return;
    }
    assert_int_equal(phys, a); /* identity */
    assert_int_equal(page, expected_page(p, a));
    assert_true(flags & PTE_PRESENT);
    assert_true(flags & PTE_WRITABLE);
    assert_false(flags & (PTE_PCD | PTE_PWT | PTE_USER | PTE_NX)); /* write-back, ring 0 */
    assert_int_equal(!!(flags & PTE_HUGE), page != PAGE_4K);
}

static void build_and_walk(struct paging_plan p)
{
    size_t need = paging_pages_needed(&p);
    assert_true(need > 0);
    void *pool = aligned_alloc(PAGE_4K, need * PAGE_4K);
    struct paging pm;
    assert_int_equal(paging_build(&pm, pool, need, &p), 0);
    assert_int_equal(pm.used_pages, need);
    uint64_t end = p.buffer_base + p.buffer_bytes;
    uint64_t edges[] = {0,
                        4095,
                        4096,
                        PAGE_2M - 1,
                        PAGE_2M,
                        p.buffer_base - 1,
                        p.buffer_base,
                        p.buffer_base + 4096,
                        end - 8,
                        end - 1,
                        end,
                        end + 4095,
                        end + PAGE_2M,
                        p.top - 1,
                        p.top,
                        p.top + PAGE_1G,
                        1ULL << 32,
                        (1ULL << 32) - 1};
    for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
        check_address(&pm, &p, edges[i]);
    uint64_t x = 99;
    for (int i = 0; i < 20000; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        check_address(&pm, &p, (x >> 16) % (p.top + PAGE_1G));
        check_address(&pm, &p, p.buffer_base + (x >> 20) % (p.buffer_bytes + 1));
    }
    /* a pool one page short is refused, not overrun */
    assert_int_equal(paging_build(&pm, pool, need - 1, &p), -1);
    free(pool);
}

static void test_1g_default(void **state)
{
    (void)state;
    build_and_walk((struct paging_plan){8ULL << 30, PAGE_1G, 0x1c0000000, 64 << 20, PAGE_1G, NULL});
}

static void test_2m_default(void **state)
{
    (void)state;
    build_and_walk((struct paging_plan){6ULL << 30, PAGE_2M, 0x140200000, 96 << 20, PAGE_2M, NULL});
}

static void test_4k_buffer_under_1g(void **state)
{
    (void)state;
    /* a buffer across the 4 GiB line, not 2 MiB aligned at its end */
    build_and_walk(
        (struct paging_plan){6ULL << 30, PAGE_1G, 0xffe00000, (4 << 20) + 4096, PAGE_4K, NULL});
}

static void test_4k_buffer_under_2m(void **state)
{
    (void)state;
    build_and_walk((struct paging_plan){256ULL << 20, PAGE_2M, 0xa000000, 8 << 20, PAGE_4K, NULL});
}

static void test_2m_buffer_under_1g(void **state)
{
    (void)state;
    build_and_walk((struct paging_plan){4ULL << 30, PAGE_1G, 0x40000000, 32 << 20, PAGE_2M, NULL});
}

static void test_beyond_512g(void **state)
{
    (void)state;
    /* two PML4 entries */
    build_and_walk(
        (struct paging_plan){600ULL << 30, PAGE_1G, 0x8000000000, 2 << 20, PAGE_4K, NULL});
}

static void test_invalid_plans(void **state)
{
    (void)state;
    struct paging_plan bad[] = {
        {4ULL << 30, PAGE_4K, 0, 4096, PAGE_4K, NULL},             /* 4K default */
        {4ULL << 30, PAGE_2M, 0x1000000, 4096, PAGE_1G, NULL},     /* buffer page above default */
        {4ULL << 30, PAGE_2M, 0x1000010, 4096, PAGE_4K, NULL},     /* misaligned buffer */
        {1ULL << 30, PAGE_2M, 0x3ff00000, 2 << 20, PAGE_2M, NULL}, /* buffer past the top */
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct paging pm;
        static uint8_t pool[16 * 4096] __attribute__((aligned(4096)));
        assert_int_equal(paging_pages_needed(&bad[i]), 0);
        assert_int_equal(paging_build(&pm, pool, 16, &bad[i]), -1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_1g_default),         cmocka_unit_test(test_2m_default),
        cmocka_unit_test(test_4k_buffer_under_1g), cmocka_unit_test(test_4k_buffer_under_2m),
        cmocka_unit_test(test_2m_buffer_under_1g), cmocka_unit_test(test_beyond_512g),
        cmocka_unit_test(test_invalid_plans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
