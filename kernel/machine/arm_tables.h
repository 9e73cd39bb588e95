// SPDX-License-Identifier: MIT
// AArch64 stage 1 translation tables with the 4 KiB granule: a walker over the firmware's
// tables (what maps an address, with which attribute) and the MAIR attributes decoded.
#ifndef CHASE_ARM_TABLES_H
#define CHASE_ARM_TABLES_H

#include <stdbool.h>
#include <stdint.h>

/* Descriptor fields (Arm ARM D8.3, VMSAv8-64 translation table format, 4 KiB granule). */
#define A64_DESC_VALID (1ULL << 0)
#define A64_DESC_TABLE (1ULL << 1) /* levels 0..2: next-level table; level 3: a page */
#define A64_DESC_ATTRINDX_SHIFT 2
#define A64_DESC_ATTRINDX_MASK 0x7ULL
#define A64_DESC_OA_MASK 0x0000fffffffff000ULL /* output address [47:12] */
#define A64_TTBR_BADDR_MASK 0x0000fffffffffffeULL
#define A64_GRANULE_BYTES 4096ULL
#define A64_ENTRIES 512u

/* TCR fields shared by TCR_EL1 (TTBR0's half) and TCR_EL2. */
#define A64_TCR_T0SZ_MASK 0x3fULL
#define A64_TCR_TG0_SHIFT 14
#define A64_TCR_TG0_MASK 0x3ULL
#define A64_TCR_TG0_4K 0ULL

#define A64_MAIR_NORMAL_WB_RWA 0xffu /* Normal, inner and outer write-back, read/write-allocate */

/* Reads the 64-bit descriptor at physical address pa (identity-mapped on the firmware). */
typedef uint64_t (*a64_read_fn)(void *ctx, uint64_t pa);

/* What the tables map an address to. */
struct a64_leaf {
    bool mapped;        /* false: a fault (invalid descriptor on the way) */
    unsigned level;     /* 1, 2 (blocks) or 3 (pages); unmapped: where the walk stopped */
    uint64_t bytes;     /* the leaf's size: 1 GiB, 2 MiB or 4 KiB; unmapped: the hole's */
    uint64_t out;       /* the output address the input address maps to */
    uint64_t desc;      /* the leaf descriptor as found */
    unsigned attr_indx; /* its AttrIndx: which byte of MAIR gives its memory attribute */
};

/*
 * The level a 4 KiB-granule walk starts at for an input range of va_bits (64 - T0SZ): 0 above
 * 39 bits, 1 above 30, else 2. Returns -1 when va_bits is outside 25..48.
 */
int a64_start_level(unsigned va_bits);

/*
 * Walk the tables rooted at ttbr (TTBR0's value) with tcr's T0SZ and granule for va, reading
 * descriptors with read. Returns false with the reason in why when the walk cannot be done
 * here (not the 4 KiB granule, a T0SZ out of range, va beyond the range); a fault on the way is
 * not an error: leaf->mapped is false then.
 */
bool a64_walk(uint64_t ttbr, uint64_t tcr, uint64_t va, a64_read_fn read, void *ctx,
              struct a64_leaf *leaf, char *why, unsigned why_cap);

/* What a leaf keeps of the firmware's descriptor: lower attributes [11:2] (AttrIndx, NS, AP,
   SH, AF, nG) and upper [63:50] without the Contiguous hint [52]. */
#define A64_DESC_LOWER_ATTRS 0xffcULL
#define A64_DESC_UPPER_ATTRS (0xfffcULL << 48 & ~(1ULL << 52))
#define A64_DESC_ATTRS (A64_DESC_LOWER_ATTRS | A64_DESC_UPPER_ATTRS)

/* MAIR's attribute at index i (0..7). */
static inline unsigned a64_mair_attr(uint64_t mair, unsigned i)
{
    return (unsigned)(mair >> (8 * (i & 7))) & 0xff;
}

/* True when a MAIR attribute is Normal memory, write-back in both inner and outer domains. */
bool a64_attr_is_normal_wb(unsigned attr);
/* A name for a MAIR attribute: "Normal WB", "Normal NC", "Normal WT", "Device-nGnRnE" ... */
const char *a64_attr_name(unsigned attr);

#endif
