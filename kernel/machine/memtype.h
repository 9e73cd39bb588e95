// SPDX-License-Identifier: MIT
// Effective memory types from the MTRRs, the PAT and CR0 (Intel SDM vol. 3A ch. 12, AMD APM
// vol. 2 ch. 7): the registers as read, and what type a load from a page really gets.
#ifndef CHASE_MEMTYPE_H
#define CHASE_MEMTYPE_H

#include <stdbool.h>
#include <stdint.h>

#define MEMTYPE_BIT(n) (1ULL << (n))

/* Memory type encodings shared by MTRRs and PAT entries (SDM table 12-8, 12-10). */
enum memtype {
    MT_UC = 0,
    MT_WC = 1,
    MT_WT = 4,
    MT_WP = 5,
    MT_WB = 6,
    MT_UC_MINUS = 7,  /* PAT only: UC that a WC MTRR can override */
    MT_MIXED = 0x100, /* a range or page spans more than one type */
    MT_UNDEFINED,     /* overlapping MTRRs whose combination the manuals leave undefined */
    MT_UNKNOWN        /* the registers could not be read */
};

/* MSRs (SDM vol. 4 table 2-2; APM vol. 2 7.7, 7.9). */
#define MSR_MTRRCAP 0xfe
#define MSR_MTRR_PHYSBASE0 0x200 /* PhysBase n at 0x200 + 2n, PhysMask n at 0x201 + 2n */
#define MSR_MTRR_FIX64K_00000 0x250
#define MSR_MTRR_FIX16K_80000 0x258
#define MSR_MTRR_FIX16K_A0000 0x259
#define MSR_MTRR_FIX4K_C0000 0x268 /* 0x268..0x26f: 4K ranges C0000..FFFFF */
#define MSR_PAT 0x277
#define MSR_MTRR_DEF_TYPE 0x2ff
#define MSR_AMD_SYSCFG 0xc0010010u
#define MSR_AMD_TOM2 0xc001001du

#define MTRRCAP_VCNT_MASK 0xffULL
#define MTRRCAP_FIX MEMTYPE_BIT(8)
#define MTRRCAP_WC MEMTYPE_BIT(10)
#define MTRR_DEF_TYPE_MASK 0xffULL
#define MTRR_DEF_FE MEMTYPE_BIT(10) /* fixed-range MTRRs enabled */
#define MTRR_DEF_E MEMTYPE_BIT(11)  /* MTRRs enabled */
#define MTRR_PHYSMASK_VALID MEMTYPE_BIT(11)
#define MTRR_PHYS_ADDR_MASK 0x000ffffffffff000ULL
#define MTRR_FIXED_MSRS 11
#define MTRR_FIXED_TOP (1ULL << 20) /* fixed ranges cover [0, 1 MiB) */
#define MTRR_VAR_MAX 32
#define AMD_SYSCFG_TOM2_EN MEMTYPE_BIT(21)
#define AMD_SYSCFG_TOM2_FORCE_WB MEMTYPE_BIT(22) /* 4 GiB..TOM2 defaults to WB */
#define CR0_NW MEMTYPE_BIT(29)
#define CR0_CD MEMTYPE_BIT(30)
#define PAT_RESET_VALUE 0x0007040600070406ULL /* WB, WT, UC-, UC, WB, WT, UC-, UC */
#define PHYS_BITS_DEFAULT 36                  /* SDM: when CPUID 0x80000008 is absent */

struct mtrr_var {
    uint64_t base; /* IA32_MTRR_PHYSBASEn: address bits and type in bits 7:0 */
    uint64_t mask; /* IA32_MTRR_PHYSMASKn: address bits and the valid bit */
};

/* Everything the effective type of a physical page depends on, as read from the CPU. */
struct memtype_regs {
    bool read; /* the registers were read (ring 0); otherwise every type is MT_UNKNOWN */
    bool amd;  /* SYSCFG and TOM2 apply */
    unsigned phys_bits;
    uint64_t mtrr_cap, mtrr_def_type;
    uint64_t fixed[MTRR_FIXED_MSRS]; /* 64K_00000, 16K_80000, 16K_A0000, 4K_C0000..4K_F8000 */
    unsigned nvar;                   /* MTRRcap.VCNT (at most MTRR_VAR_MAX kept) */
    struct mtrr_var var[MTRR_VAR_MAX];
    uint64_t pat;
    uint64_t cr0;
    uint64_t amd_syscfg, amd_tom2;
    /* Tests only (memtype_test key): a range treated as if an extra MTRR made it UC. */
    uint64_t test_uc_base, test_uc_bytes;
};

/* The MSR index of fixed-range MTRR i (0..10). */
uint32_t memtype_fixed_msr(unsigned i);

/* The type the MTRRs give the byte at phys (MT_UNDEFINED for undefined overlaps). */
unsigned memtype_mtrr_at(const struct memtype_regs *r, uint64_t phys);

/*
 * The first address above phys where the MTRR type may change (a range boundary of a fixed
 * or variable MTRR, TOM2, 4 GiB, or the test range); UINT64_MAX when none.
 */
uint64_t memtype_next_boundary(const struct memtype_regs *r, uint64_t phys);

/* The MTRR type of all of [base, base + bytes), or MT_MIXED when it is not one type. */
unsigned memtype_mtrr_range(const struct memtype_regs *r, uint64_t base, uint64_t bytes);

/* Combine an MTRR type and a PAT type as SDM table 12-7 does. */
unsigned memtype_combine(unsigned mtrr, unsigned pat);

/* The PAT index a leaf entry selects: PAT*4 + PCD*2 + PWT; pat_bit is bit 7 (4K) or 12. */
unsigned memtype_pat_index(uint64_t pte_flags, uint64_t page_bytes);

/* The type PAT entry index (0..7) holds. */
unsigned memtype_pat_entry(const struct memtype_regs *r, unsigned index);

/*
 * The effective type of loads from the page [base, base + page_bytes) mapped with the leaf
 * entry flags pte_flags: MTRR and PAT combined, UC while CR0.CD is set; MT_MIXED when the
 * MTRRs give the page more than one type (undefined for a large page, SDM 12.11.9);
 * MT_UNKNOWN when the registers were not read.
 */
unsigned memtype_page(const struct memtype_regs *r, uint64_t base, uint64_t page_bytes,
                      uint64_t pte_flags);

/* The effective type of [base, base + bytes) when mapped through PAT entry pat_index. */
unsigned memtype_range(const struct memtype_regs *r, uint64_t base, uint64_t bytes,
                       unsigned pat_index);

/* Name of a type: "UC", "WC", "WT", "WP", "WB", "UC-", "mixed", "undefined", "unknown". */
const char *memtype_name(unsigned t);

#endif
