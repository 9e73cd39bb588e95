// SPDX-License-Identifier: MIT
// Effective memory types from the MTRRs, the PAT and CR0 (Intel SDM vol. 3A ch. 12, AMD APM
// vol. 2 ch. 7): the registers as read, and what type a load from a page really gets.
#include "machine/memtype.h"

#define FIXED_64K_TOP 0x80000ULL
#define FIXED_16K_TOP 0xc0000ULL
#define FIXED_A0000 0xa0000ULL
#define TYPE_BYTE_MASK 0xffULL
#define FOUR_GIB (1ULL << 32)
#define PAGE_4K_BYTES 4096ULL
#define PTE_PWT MEMTYPE_BIT(3)
#define PTE_PCD MEMTYPE_BIT(4)
#define PTE_PAT_4K MEMTYPE_BIT(7)     /* the PAT bit of a 4 KiB page's entry */
#define PTE_PAT_LARGE MEMTYPE_BIT(12) /* ... and of a 2 MiB or 1 GiB page's entry */

uint32_t memtype_fixed_msr(unsigned i)
{
    if (i == 0)
        return MSR_MTRR_FIX64K_00000;
    if (i == 1)
        return MSR_MTRR_FIX16K_80000;
    if (i == 2)
        return MSR_MTRR_FIX16K_A0000;
    return MSR_MTRR_FIX4K_C0000 + (i - 3);
}

/* The fixed-range type of phys (below 1 MiB): which MSR, which of its eight bytes. */
static unsigned fixed_type(const struct memtype_regs *r, uint64_t phys)
{
    unsigned msr, sub;
    if (phys < FIXED_64K_TOP) {
        msr = 0;
        sub = (unsigned)(phys >> 16);
    } else if (phys < FIXED_16K_TOP) {
        msr = phys < FIXED_A0000 ? 1 : 2;
        sub = (unsigned)(((phys - FIXED_64K_TOP) >> 14) & 7);
    } else {
        msr = 3 + (unsigned)((phys - FIXED_16K_TOP) >> 15);
        sub = (unsigned)((phys >> 12) & 7);
    }
    return (unsigned)((r->fixed[msr] >> (8 * sub)) & TYPE_BYTE_MASK);
}

static uint64_t phys_limit_mask(const struct memtype_regs *r)
{
    unsigned bits = r->phys_bits ? r->phys_bits : PHYS_BITS_DEFAULT;
    return bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
}

/* The address bits a variable MTRR compares (its mask, within the physical width). */
static uint64_t var_addr_mask(const struct memtype_regs *r, const struct mtrr_var *v)
{
    return v->mask & MTRR_PHYS_ADDR_MASK & phys_limit_mask(r);
}

static bool var_matches(const struct memtype_regs *r, const struct mtrr_var *v, uint64_t phys)
{
    uint64_t m = var_addr_mask(r, v);
    return (v->mask & MTRR_PHYSMASK_VALID) && (phys & m) == (v->base & m);
}

static bool in_test_range(const struct memtype_regs *r, uint64_t phys)
{
    return r->test_uc_bytes && phys >= r->test_uc_base && phys - r->test_uc_base < r->test_uc_bytes;
}

/* Overlapping variable ranges (SDM 12.11.4.1): one type, UC wins, WT with WB is WT. */
static unsigned var_overlap(unsigned a, unsigned b)
{
    if (a == b)
        return a;
    if (a == MT_UC || b == MT_UC)
        return MT_UC;
    if ((a == MT_WT && b == MT_WB) || (a == MT_WB && b == MT_WT))
        return MT_WT;
    return MT_UNDEFINED;
}

unsigned memtype_mtrr_at(const struct memtype_regs *r, uint64_t phys)
{
    if (!r->read)
        return MT_UNKNOWN;
    if (in_test_range(r, phys) || !(r->mtrr_def_type & MTRR_DEF_E))
        return MT_UC;
    if (phys < MTRR_FIXED_TOP && (r->mtrr_def_type & MTRR_DEF_FE) && (r->mtrr_cap & MTRRCAP_FIX))
        return fixed_type(r, phys);
    unsigned type = MT_UNKNOWN;
    for (unsigned i = 0; i < r->nvar; i++) {
        if (!var_matches(r, &r->var[i], phys))
            continue;
        unsigned t = (unsigned)(r->var[i].base & TYPE_BYTE_MASK);
        type = type == MT_UNKNOWN ? t : var_overlap(type, t);
    }
    if (type != MT_UNKNOWN)
        return type;
    /* AMD: with Tom2ForceMemTypeWB, 4 GiB..TOM2 defaults to WB instead (APM 7.9.1). */
    uint64_t tom2_force = AMD_SYSCFG_TOM2_EN | AMD_SYSCFG_TOM2_FORCE_WB;
    if (r->amd && (r->amd_syscfg & tom2_force) == tom2_force && phys >= FOUR_GIB &&
        phys < (r->amd_tom2 & MTRR_PHYS_ADDR_MASK))
        return MT_WB;
    return (unsigned)(r->mtrr_def_type & MTRR_DEF_TYPE_MASK);
}

static uint64_t next_multiple(uint64_t phys, uint64_t granule)
{
    uint64_t n = (phys / granule + 1) * granule;
    return n < phys ? UINT64_MAX : n;
}

static uint64_t min_above(uint64_t best, uint64_t candidate, uint64_t phys)
{
    return candidate > phys && candidate < best ? candidate : best;
}

/* The next boundary of variable MTRR v above phys. */
static uint64_t var_boundary(const struct memtype_regs *r, const struct mtrr_var *v, uint64_t phys)
{
    uint64_t m = var_addr_mask(r, v), low = ~m & phys_limit_mask(r);
    if (!m)
        return UINT64_MAX; /* matches everything */
    if (((low + 1) & low) == 0) {
        uint64_t start = v->base & m, best = UINT64_MAX;
        best = min_above(best, start, phys);
        return min_above(best, start + low + 1, phys);
    }
    /* A non-contiguous mask matches a periodic pattern: constant on its lowest bit's blocks. */
    return next_multiple(phys, m & (~m + 1));
}

uint64_t memtype_next_boundary(const struct memtype_regs *r, uint64_t phys)
{
    uint64_t best = UINT64_MAX;
    if (phys < MTRR_FIXED_TOP) {
        uint64_t granule = phys < FIXED_64K_TOP ? 0x10000 : phys < FIXED_16K_TOP ? 0x4000 : 0x1000;
        best = min_above(best, next_multiple(phys, granule), phys);
    }
    for (unsigned i = 0; i < r->nvar; i++) {
        if (r->var[i].mask & MTRR_PHYSMASK_VALID)
            best = min_above(best, var_boundary(r, &r->var[i], phys), phys);
    }
    if (r->amd) {
        best = min_above(best, FOUR_GIB, phys);
        best = min_above(best, r->amd_tom2 & MTRR_PHYS_ADDR_MASK, phys);
    }
    if (r->test_uc_bytes) {
        best = min_above(best, r->test_uc_base, phys);
        best = min_above(best, r->test_uc_base + r->test_uc_bytes, phys);
    }
    return best;
}

unsigned memtype_mtrr_range(const struct memtype_regs *r, uint64_t base, uint64_t bytes)
{
    if (!r->read)
        return MT_UNKNOWN;
    uint64_t end = base + bytes < base ? UINT64_MAX : base + bytes;
    unsigned type = memtype_mtrr_at(r, base);
    for (uint64_t at = memtype_next_boundary(r, base); at < end;
         at = memtype_next_boundary(r, at)) {
        if (memtype_mtrr_at(r, at) != type)
            return MT_MIXED;
    }
    return type;
}

static bool type_valid(unsigned t)
{
    return t == MT_UC || t == MT_WC || t == MT_WT || t == MT_WP || t == MT_WB || t == MT_UC_MINUS;
}

unsigned memtype_combine(unsigned mtrr, unsigned pat)
{
    if (mtrr >= MT_MIXED)
        return mtrr;
    if (!type_valid(mtrr) || !type_valid(pat))
        return MT_UNDEFINED; /* reserved encodings */
    if (pat == MT_UC || mtrr == MT_UC)
        return pat == MT_WC && mtrr == MT_UC ? MT_WC : MT_UC;
    if (pat == MT_WC)
        return MT_WC;
    if (pat == MT_UC_MINUS)
        return mtrr == MT_WC || mtrr == MT_WP ? MT_WC : MT_UC;
    if (mtrr == MT_WC)
        return pat == MT_WB ? MT_WC : MT_UC; /* PAT WT or WP over WC MTRR: UC */
    if (pat == MT_WB)
        return mtrr; /* WT, WP or WB: the MTRR's type */
    if (pat == MT_WT)
        return MT_WT; /* over WT, WB, WP */
    return MT_WP;     /* PAT WP over WT, WB, WP */
}

unsigned memtype_pat_index(uint64_t pte_flags, uint64_t page_bytes)
{
    uint64_t pat_bit = page_bytes > PAGE_4K_BYTES ? PTE_PAT_LARGE : PTE_PAT_4K;
    return ((pte_flags & pat_bit) ? 4u : 0u) | ((pte_flags & PTE_PCD) ? 2u : 0u) |
           ((pte_flags & PTE_PWT) ? 1u : 0u);
}

unsigned memtype_pat_entry(const struct memtype_regs *r, unsigned index)
{
    return (unsigned)((r->pat >> (8 * (index & 7))) & 7);
}

unsigned memtype_range(const struct memtype_regs *r, uint64_t base, uint64_t bytes,
                       unsigned pat_index)
{
    if (!r->read)
        return MT_UNKNOWN;
    unsigned mtrr = memtype_mtrr_range(r, base, bytes);
    if (mtrr >= MT_MIXED)
        return mtrr;
    if (r->cr0 & CR0_CD)
        return MT_UC; /* no-fill mode: nothing new is cached (SDM table 12-5) */
    return memtype_combine(mtrr, memtype_pat_entry(r, pat_index));
}

unsigned memtype_page(const struct memtype_regs *r, uint64_t base, uint64_t page_bytes,
                      uint64_t pte_flags)
{
    return memtype_range(r, base, page_bytes, memtype_pat_index(pte_flags, page_bytes));
}

const char *memtype_name(unsigned t)
{
    switch (t) {
    case MT_UC:
        return "UC";
    case MT_WC:
        return "WC";
    case MT_WT:
        return "WT";
    case MT_WP:
        return "WP";
    case MT_WB:
        return "WB";
    case MT_UC_MINUS:
        return "UC-";
    case MT_MIXED:
        return "mixed";
    case MT_UNKNOWN:
        return "unknown";
    default:
        return "undefined";
    }
}
