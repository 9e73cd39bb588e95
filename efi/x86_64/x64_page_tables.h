// SPDX-License-Identifier: MIT
// chase's own 4-level page tables: an identity map of memory, with a chosen page size over
// the chase buffer. Portable: built in any memory, walked like the MMU walks it.
#ifndef CHASE_X64_PAGE_TABLES_H
#define CHASE_X64_PAGE_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PAGING_BIT(n) (1ULL << (n))

#define PAGE_4K (1ULL << 12)
#define PAGE_2M (1ULL << 21)
#define PAGE_1G (1ULL << 30)
#define PAGE_512G (1ULL << 39) /* what one PML4 entry covers */

/* Bits of a page-table entry (Intel SDM vol. 3, 4.5). */
#define PTE_PRESENT PAGING_BIT(0)
#define PTE_WRITABLE PAGING_BIT(1)
#define PTE_USER PAGING_BIT(2)
#define PTE_PWT PAGING_BIT(3) /* write-through */
#define PTE_PCD PAGING_BIT(4) /* cache disable */
#define PTE_ACCESSED PAGING_BIT(5)
#define PTE_DIRTY PAGING_BIT(6)
#define PTE_HUGE PAGING_BIT(7) /* PS: a 2 MiB or 1 GiB page, not a table */
#define PTE_GLOBAL PAGING_BIT(8)
#define PTE_NX PAGING_BIT(63)
#define PTE_ADDR_MASK 0x000ffffffffff000ULL

/* Write-back: PWT, PCD and PAT clear select PAT entry 0 (WB after reset). */
#define PTE_FLAGS_WB (PTE_PRESENT | PTE_WRITABLE)

/* Tables under construction in a pool of 4 KiB pages (the pool's first page is the PML4). */
struct paging {
    uint64_t *pml4;
    uint8_t *pool; /* 4 KiB aligned */
    size_t pool_pages;
    size_t used_pages;
};

struct memtype_regs;

/*
 * What to map: [0, top) identity, default_page pages, buffer pages of buffer_page size.
 * With types, a page that would span two MTRR memory types is split into smaller pages
 * (a large page over two types is undefined, SDM vol. 3A 12.11.9).
 */
struct paging_plan {
    uint64_t top;          /* end of the identity map; rounded up to a 1 GiB multiple */
    uint64_t default_page; /* PAGE_1G or PAGE_2M */
    uint64_t buffer_base;  /* the chase buffer (4 KiB aligned) */
    uint64_t buffer_bytes;
    uint64_t buffer_page;             /* PAGE_4K, PAGE_2M or PAGE_1G (not above default_page) */
    const struct memtype_regs *types; /* NULL: memory types not known, no split */
};

/* Table pages (4 KiB each) that paging_build needs for plan; 0 when the plan is invalid. */
size_t paging_pages_needed(const struct paging_plan *plan);

/*
 * Build the tables for plan in pool (pool_pages 4 KiB pages, 4 KiB aligned). Table
 * addresses are the pool's addresses, as on an identity-mapped machine. Returns 0,
 * or -1 when the plan is invalid or the pool is too small.
 */
int paging_build(struct paging *pm, void *pool, size_t pool_pages, const struct paging_plan *plan);

/*
 * Walk the tables like the MMU: the physical address virt translates to, or
 * UINT64_MAX when it is not mapped. *page_bytes and *flags (of the leaf entry)
 * are filled when not NULL.
 */
uint64_t paging_translate(const struct paging *pm, uint64_t virt, uint64_t *page_bytes,
                          uint64_t *flags);

#endif
