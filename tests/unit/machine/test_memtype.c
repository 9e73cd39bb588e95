// SPDX-License-Identifier: MIT
// Unit tests of effective memory types over MTRR/PAT register sets of an Intel and an AMD machine.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "machine/memtype.h"
#include "x86_64/x64_page_tables.h"

#define KiB (1ULL << 10)
#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

#define BIT_VALID MTRR_PHYSMASK_VALID

/* A variable MTRR pair for [base, base + size) of type t (size a power of two). */
static struct mtrr_var var(uint64_t base, uint64_t size, unsigned t, unsigned phys_bits)
{
    uint64_t width = (1ULL << phys_bits) - 1;
    struct mtrr_var v = {base | t, ((~(size - 1)) & width & MTRR_PHYS_ADDR_MASK) | BIT_VALID};
    return v;
}

/* Every byte of a fixed-range MSR of one type. */
static uint64_t fixed_all(unsigned t)
{
    return 0x0101010101010101ULL * t;
}

/*
 * An Intel client as firmware sets one up (SDM vol. 3A 12.11: MTRRcap VCNT 10, FIX, WC;
 * default type UC with write-back holes): 39 physical address bits, 17.375 GiB of RAM
 * with the PCI hole at 3..4 GiB, so RAM goes up to 18.375 GiB. Variable MTRRs:
 *   0: 0..16 GiB WB          2: 3..4 GiB UC (the hole, overlapping 0: UC wins)
 *   1: 16..18 GiB WB         3: 1 GiB..1.25 GiB WT (overlapping 0: WT with WB is WT)
 * and nothing covers 18..18.375 GiB: the top-of-RAM tail falls to the default, UC.
 * Fixed: 0..A0000 WB, A0000..C0000 UC (VGA), C0000..100000 WP (option ROMs, BIOS).
 */
static void intel_client(struct memtype_regs *r)
{
    memset(r, 0, sizeof(*r));
    r->read = true;
    r->phys_bits = 39;
    r->mtrr_cap = 10 | MTRRCAP_FIX | MTRRCAP_WC;
    r->mtrr_def_type = MTRR_DEF_E | MTRR_DEF_FE | MT_UC;
    r->fixed[0] = fixed_all(MT_WB);
    r->fixed[1] = fixed_all(MT_WB);
    r->fixed[2] = fixed_all(MT_UC);
    for (unsigned i = 3; i < MTRR_FIXED_MSRS; i++)
        r->fixed[i] = fixed_all(MT_WP);
    r->nvar = 10;
    r->var[0] = var(0, 16 * GiB, MT_WB, 39);
    r->var[1] = var(16 * GiB, 2 * GiB, MT_WB, 39);
    r->var[2] = var(3 * GiB, 1 * GiB, MT_UC, 39);
    r->var[3] = var(1 * GiB, 256 * MiB, MT_WT, 39);
    r->pat = PAT_RESET_VALUE;
    r->cr0 = 0x80050033; /* PG, WP, NE, ET, MP, PE: caches on */
}

/*
 * An AMD Zen machine (APM vol. 2 7.7 and 7.9): 48 physical address bits, MTRRs only
 * below 4 GiB (0..2 GiB WB, 2..3 GiB WB, default UC), and above 4 GiB SYSCFG's
 * Tom2ForceMemTypeWB making 4 GiB..TOM2 write-back. TOM2 = 17.25 GiB, not 1 GiB aligned.
 * Variable MTRR 2 marks 8..8.5 GiB UC above 4 GiB: a variable range beats TOM2's default.
 */
static void amd_zen(struct memtype_regs *r)
{
    memset(r, 0, sizeof(*r));
    r->read = true;
    r->amd = true;
    r->phys_bits = 48;
    r->mtrr_cap = 8 | MTRRCAP_FIX | MTRRCAP_WC;
    r->mtrr_def_type = MTRR_DEF_E | MTRR_DEF_FE | MT_UC;
    for (unsigned i = 0; i < MTRR_FIXED_MSRS; i++)
        r->fixed[i] = fixed_all(i == 2 ? MT_UC : MT_WB);
    r->nvar = 8;
    r->var[0] = var(0, 2 * GiB, MT_WB, 48);
    r->var[1] = var(2 * GiB, 1 * GiB, MT_WB, 48);
    r->var[2] = var(8 * GiB, 512 * MiB, MT_UC, 48);
    r->amd_syscfg = AMD_SYSCFG_TOM2_EN | AMD_SYSCFG_TOM2_FORCE_WB;
    r->amd_tom2 = 17 * GiB + 256 * MiB;
    r->pat = 0x0007010600070106ULL; /* as Linux programs it: WB, WC, UC-, UC, WB, WC, UC-, UC */
    r->cr0 = 0x80050033;
}

static void test_intel_fixed_ranges_below_1m(void **state)
{
    (void)state;
    struct memtype_regs r;
    intel_client(&r);
    assert_int_equal(memtype_mtrr_at(&r, 0x9f000), MT_WB);
    assert_int_equal(memtype_mtrr_at(&r, 0xa0000), MT_UC);
    assert_int_equal(memtype_mtrr_at(&r, 0xb8000), MT_UC);
    assert_int_equal(memtype_mtrr_at(&r, 0xc0000), MT_WP);
    assert_int_equal(memtype_mtrr_at(&r, 0xfffff), MT_WP);
    assert_int_equal(memtype_mtrr_at(&r, 1 * MiB), MT_WB); /* variable MTRR 0 from here */
    assert_int_equal(memtype_mtrr_range(&r, 0, 1 * MiB), MT_MIXED);
    assert_int_equal(memtype_mtrr_range(&r, 0, 0xa0000), MT_WB);
    /* One 4 KiB fixed range changed alone: byte 3 of 4K_F8000 covers 0xfb000. */
    r.fixed[10] = fixed_all(MT_WP) & ~(0xffULL << 24);
    assert_int_equal(memtype_mtrr_at(&r, 0xfb000), MT_UC);
    assert_int_equal(memtype_mtrr_at(&r, 0xfa000), MT_WP);
    assert_int_equal(memtype_mtrr_at(&r, 0xfc000), MT_WP);
    /* With FE clear the variable MTRRs cover the first MiB too. */
    r.mtrr_def_type &= ~MTRR_DEF_FE;
    assert_int_equal(memtype_mtrr_at(&r, 0xa0000), MT_WB);
}

static void test_intel_overlaps(void **state)
{
    (void)state;
    struct memtype_regs r;
    intel_client(&r);
    assert_int_equal(memtype_mtrr_at(&r, 3 * GiB), MT_UC); /* UC over WB */
    assert_int_equal(memtype_mtrr_at(&r, 3 * GiB - 4 * KiB), MT_WB);
    assert_int_equal(memtype_mtrr_at(&r, 1 * GiB), MT_WT); /* WT with WB: WT */
    assert_int_equal(memtype_mtrr_at(&r, 1 * GiB + 256 * MiB), MT_WB);
    /* WC over WB is not defined by the manuals: reported, never guessed. */
    r.var[4] = var(2 * GiB, 16 * MiB, MT_WC, 39);
    assert_int_equal(memtype_mtrr_at(&r, 2 * GiB), MT_UNDEFINED);
    /* Two identical types overlapping: that type. */
    r.var[4] = var(2 * GiB, 16 * MiB, MT_WB, 39);
    assert_int_equal(memtype_mtrr_at(&r, 2 * GiB), MT_WB);
}

static void test_intel_default_uc_with_wb_holes_and_tail(void **state)
{
    (void)state;
    struct memtype_regs r;
    intel_client(&r);
    uint64_t ram_top = 18 * GiB + 384 * MiB;
    assert_int_equal(memtype_mtrr_at(&r, 17 * GiB), MT_WB);
    assert_int_equal(memtype_mtrr_at(&r, 18 * GiB), MT_UC); /* the tail: no MTRR, default */
    assert_int_equal(memtype_mtrr_range(&r, 16 * GiB, 2 * GiB), MT_WB);
    assert_int_equal(memtype_mtrr_range(&r, 18 * GiB, ram_top - 18 * GiB), MT_UC);
    /* The highest 1 GiB page of RAM spans WB and UC: mixed, so never one page. */
    assert_int_equal(memtype_mtrr_range(&r, 17 * GiB + 512 * MiB, 1 * GiB), MT_MIXED);
    assert_int_equal(memtype_range(&r, 18 * GiB, 2 * MiB, 0), MT_UC);
    assert_int_equal(memtype_range(&r, 2 * GiB, 1 * GiB, 0), MT_WB);
    assert_int_equal(memtype_range(&r, 2 * GiB, 1 * GiB + 4 * KiB, 0), MT_MIXED);
    /* MTRRs disabled (E clear): everything UC. */
    r.mtrr_def_type &= ~MTRR_DEF_E;
    assert_int_equal(memtype_range(&r, 2 * GiB, 1 * GiB, 0), MT_UC);
}

static void test_intel_pat_and_cr0(void **state)
{
    (void)state;
    struct memtype_regs r;
    intel_client(&r);
    /* Reset PAT: 0 WB, 1 WT, 2 UC-, 3 UC; PCD and PWT pick them, bit 7 or 12 picks 4..7. */
    assert_int_equal(memtype_pat_index(0, 4 * KiB), 0);
    assert_int_equal(memtype_pat_index(PTE_PWT, 4 * KiB), 1);
    assert_int_equal(memtype_pat_index(PTE_PCD, 2 * MiB), 2);
    assert_int_equal(memtype_pat_index(MEMTYPE_BIT(7), 4 * KiB), 4);
    assert_int_equal(memtype_pat_index(MEMTYPE_BIT(7), 2 * MiB), 0); /* bit 7 is PS there */
    assert_int_equal(memtype_pat_index(MEMTYPE_BIT(12) | PTE_PWT, 1 * GiB), 5);
    assert_int_equal(memtype_page(&r, 2 * GiB, 4 * KiB, PTE_PRESENT), MT_WB);
    assert_int_equal(memtype_page(&r, 2 * GiB, 4 * KiB, PTE_PWT), MT_WT);
    assert_int_equal(memtype_page(&r, 2 * GiB, 2 * MiB, PTE_PCD), MT_UC); /* UC- over WB */
    assert_int_equal(memtype_page(&r, 2 * GiB, 2 * MiB, PTE_PCD | PTE_PWT), MT_UC);
    /* A firmware that leaves PAT entry 0 UC makes even WB MTRR memory uncached. */
    r.pat = (PAT_RESET_VALUE & ~0xffULL) | MT_UC;
    assert_int_equal(memtype_range(&r, 2 * GiB, 4 * KiB, 0), MT_UC);
    r.pat = PAT_RESET_VALUE;
    r.cr0 |= CR0_CD;
    assert_int_equal(memtype_range(&r, 2 * GiB, 4 * KiB, 0), MT_UC);
}

static void test_combine_table(void **state)
{
    (void)state;
    /* SDM vol. 3A table 12-7, row by row (MTRR type, PAT entry -> effective). */
    static const unsigned rows[][3] = {
        {MT_UC, MT_UC, MT_UC}, {MT_UC, MT_UC_MINUS, MT_UC}, {MT_UC, MT_WC, MT_WC},
        {MT_UC, MT_WT, MT_UC}, {MT_UC, MT_WB, MT_UC},       {MT_UC, MT_WP, MT_UC},
        {MT_WC, MT_UC, MT_UC}, {MT_WC, MT_UC_MINUS, MT_WC}, {MT_WC, MT_WC, MT_WC},
        {MT_WC, MT_WT, MT_UC}, {MT_WC, MT_WB, MT_WC},       {MT_WC, MT_WP, MT_UC},
        {MT_WT, MT_UC, MT_UC}, {MT_WT, MT_UC_MINUS, MT_UC}, {MT_WT, MT_WC, MT_WC},
        {MT_WT, MT_WT, MT_WT}, {MT_WT, MT_WB, MT_WT},       {MT_WT, MT_WP, MT_WP},
        {MT_WB, MT_UC, MT_UC}, {MT_WB, MT_UC_MINUS, MT_UC}, {MT_WB, MT_WC, MT_WC},
        {MT_WB, MT_WT, MT_WT}, {MT_WB, MT_WB, MT_WB},       {MT_WB, MT_WP, MT_WP},
        {MT_WP, MT_UC, MT_UC}, {MT_WP, MT_UC_MINUS, MT_WC}, {MT_WP, MT_WC, MT_WC},
        {MT_WP, MT_WT, MT_WT}, {MT_WP, MT_WB, MT_WP},       {MT_WP, MT_WP, MT_WP},
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        assert_int_equal(memtype_combine(rows[i][0], rows[i][1]), rows[i][2]);
    assert_int_equal(memtype_combine(2, MT_WB), MT_UNDEFINED); /* reserved encoding */
    assert_int_equal(memtype_combine(MT_MIXED, MT_WB), MT_MIXED);
}

static void test_amd_tom2_and_variable_over_it(void **state)
{
    (void)state;
    struct memtype_regs r;
    amd_zen(&r);
    assert_int_equal(memtype_mtrr_at(&r, 2 * GiB + 4 * KiB), MT_WB);
    assert_int_equal(memtype_mtrr_at(&r, 3 * GiB), MT_UC); /* MMIO below 4 GiB: default */
    assert_int_equal(memtype_mtrr_at(&r, 4 * GiB), MT_WB); /* TOM2 forces WB */
    assert_int_equal(memtype_mtrr_at(&r, 8 * GiB), MT_UC); /* a variable range beats it */
    assert_int_equal(memtype_mtrr_at(&r, 8 * GiB + 512 * MiB), MT_WB);
    assert_int_equal(memtype_mtrr_at(&r, 17 * GiB + 256 * MiB), MT_UC); /* past TOM2 */
    assert_int_equal(memtype_mtrr_range(&r, 16 * GiB, 1 * GiB), MT_WB);
    assert_int_equal(memtype_mtrr_range(&r, 17 * GiB, 1 * GiB), MT_MIXED);
    assert_int_equal(memtype_mtrr_range(&r, 3 * GiB, 2 * GiB), MT_MIXED);
    assert_int_equal(memtype_range(&r, 4 * GiB, 4 * GiB, 0), MT_WB);
    assert_int_equal(memtype_range(&r, 4 * GiB, 4 * GiB, 1), MT_WC); /* Linux's PAT 1 */
    /* Without Tom2ForceMemTypeWB, above 4 GiB is the default type. */
    r.amd_syscfg &= ~AMD_SYSCFG_TOM2_FORCE_WB;
    assert_int_equal(memtype_mtrr_at(&r, 4 * GiB), MT_UC);
    /* The same registers read as Intel's ignore SYSCFG. */
    r.amd_syscfg |= AMD_SYSCFG_TOM2_FORCE_WB;
    r.amd = false;
    assert_int_equal(memtype_mtrr_at(&r, 4 * GiB), MT_UC);
}

static void test_boundaries_and_noncontiguous_mask(void **state)
{
    (void)state;
    struct memtype_regs r;
    intel_client(&r);
    assert_int_equal(memtype_next_boundary(&r, 0), 0x10000);
    assert_int_equal(memtype_next_boundary(&r, 0xff000), 1 * MiB);
    assert_int_equal(memtype_next_boundary(&r, 2 * GiB), 3 * GiB);
    assert_int_equal(memtype_next_boundary(&r, 18 * GiB), UINT64_MAX);
    /* A mask with a hole (bit 13 clear) matches every other 8 KiB block: the SDM allows it. */
    memset(r.var, 0, sizeof(r.var));
    r.mtrr_def_type = MTRR_DEF_E | MT_WB;
    r.var[0].base = 0x100000000ULL | MT_UC;
    r.var[0].mask = (0x7ffffff000ULL & ~(1ULL << 13)) | MTRR_PHYSMASK_VALID;
    assert_int_equal(memtype_mtrr_at(&r, 4 * GiB), MT_UC);
    assert_int_equal(memtype_mtrr_at(&r, 4 * GiB + 8 * KiB), MT_UC);
    assert_int_equal(memtype_mtrr_at(&r, 4 * GiB + 4 * KiB), MT_WB);
    assert_int_equal(memtype_mtrr_range(&r, 4 * GiB, 16 * KiB), MT_MIXED);
}

static void test_unread_and_test_range(void **state)
{
    (void)state;
    struct memtype_regs r;
    memset(&r, 0, sizeof(r));
    assert_int_equal(memtype_range(&r, 0, 4 * KiB, 0), MT_UNKNOWN);
    assert_string_equal(memtype_name(MT_UNKNOWN), "unknown");
    intel_client(&r);
    r.test_uc_base = 2 * GiB;
    r.test_uc_bytes = 64 * MiB;
    assert_int_equal(memtype_range(&r, 2 * GiB, 64 * MiB, 0), MT_UC);
    assert_int_equal(memtype_range(&r, 2 * GiB + 64 * MiB, 64 * MiB, 0), MT_WB);
    assert_int_equal(memtype_range(&r, 2 * GiB - 64 * MiB, 128 * MiB, 0), MT_MIXED);
    assert_string_equal(memtype_name(MT_WB), "WB");
    assert_string_equal(memtype_name(MT_UC_MINUS), "UC-");
}

/* The identity map over the Intel machine: no large page spans two types. */
static void test_paging_splits_mixed_pages(void **state)
{
    (void)state;
    struct memtype_regs r;
    intel_client(&r);
    struct paging_plan plan = {.top = 18 * GiB + 384 * MiB,
                               .default_page = PAGE_1G,
                               .buffer_base = 16 * GiB,
                               .buffer_bytes = 1 * GiB,
                               .buffer_page = PAGE_1G,
                               .types = &r};
    size_t pages = paging_pages_needed(&plan);
    assert_true(pages > 0);
    void *pool = aligned_alloc(PAGE_4K, pages * PAGE_4K);
    struct paging pm;
    assert_int_equal(paging_build(&pm, pool, pages, &plan), 0);
    for (uint64_t a = 0; a < 19 * GiB;) {
        uint64_t page = 0, flags = 0;
        assert_int_equal(paging_translate(&pm, a, &page, &flags), a);
        unsigned t = memtype_page(&r, a, page, flags);
        assert_int_not_equal(t, MT_MIXED);
        a += page;
    }
    uint64_t page = 0;
    paging_translate(&pm, 16 * GiB, &page, NULL);
    assert_int_equal(page, PAGE_1G); /* the buffer's page is wholly WB */
    paging_translate(&pm, 3 * GiB - 2 * MiB, &page, NULL);
    assert_int_equal(page, PAGE_1G); /* 2..3 GiB is one type */
    paging_translate(&pm, 1 * GiB, &page, NULL);
    assert_int_equal(page, PAGE_2M); /* 1..2 GiB holds WT and WB */
    paging_translate(&pm, 0xa0000, &page, NULL);
    assert_int_equal(page, PAGE_4K); /* the fixed ranges */
    free(pool);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_intel_fixed_ranges_below_1m),
        cmocka_unit_test(test_intel_overlaps),
        cmocka_unit_test(test_intel_default_uc_with_wb_holes_and_tail),
        cmocka_unit_test(test_intel_pat_and_cr0),
        cmocka_unit_test(test_combine_table),
        cmocka_unit_test(test_amd_tom2_and_variable_over_it),
        cmocka_unit_test(test_boundaries_and_noncontiguous_mask),
        cmocka_unit_test(test_unread_and_test_range),
        cmocka_unit_test(test_paging_splits_mixed_pages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
