// SPDX-License-Identifier: MIT
// chase's own AArch64 translation tables (4 KiB granule), built by the firmware front end: what
// they map (a plan) and the pool of pages they live in.
#ifndef CHASE_A64_TABLES_BUILD_H
#define CHASE_A64_TABLES_BUILD_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/arm_tables.h"

#define A64_RANGES_MAX 64 /* memory ranges one plan maps */

/* What chase's own tables map: RAM identity-mapped with the firmware's attributes, the buffer
   with pages of buffer_page and MAIR index wb_indx. */
struct a64_plan {
    uint64_t fw_ttbr, tcr; /* the firmware's TTBR0 and TCR (T0SZ and granule are kept) */
    a64_read_fn read;      /* reads the firmware's descriptors */
    void *ctx;
    unsigned nranges;
    uint64_t base[A64_RANGES_MAX], bytes[A64_RANGES_MAX]; /* RAM to map */
    uint64_t buffer_base, buffer_bytes, buffer_page;      /* buffer_page: 4K, 2M or 1G */
    unsigned wb_indx;                                     /* MAIR index of Normal WB */
};

/* chase's tables in a pool of 4 KiB pages (pool's address is the tables' physical one). */
struct a64_tables {
    uint64_t *pool;
    unsigned pages, used;
    uint64_t root;  /* physical address of the start level's table */
    unsigned start; /* the start level */
};

/*
 * Build tables for plan in t->pool (t->pages pages, zeroed here): each range mapped with the
 * largest block (1 GiB, 2 MiB, 4 KiB) that is aligned, inside the range, over which the firmware's
 * tables give one attribute set, and no larger than the firmware's leaves there (outside the
 * buffer) or than buffer_page (over it); what the firmware does not map stays unmapped. Returns 0;
 * -1 when the pool is too small (*need_more set) or the plan cannot be walked (why says why).
 */
int a64_tables_build(struct a64_tables *t, const struct a64_plan *plan, bool *need_more, char *why,
                     unsigned why_cap);

#endif
