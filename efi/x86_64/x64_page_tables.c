// SPDX-License-Identifier: MIT
// chase's own 4-level page tables: an identity map of memory, with a chosen page size over
// the chase buffer. Portable: built in any memory, walked like the MMU walks it.
#include "x64_page_tables.h"

#include "lib/kstring.h"
#include "machine/memtype.h"

#define ENTRIES 512

static uint64_t round_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

static bool plan_valid(const struct paging_plan *p)
{
    if (p->default_page != PAGE_1G && p->default_page != PAGE_2M)
        return false;
    if (p->buffer_page != PAGE_4K && p->buffer_page != PAGE_2M && p->buffer_page != PAGE_1G)
        return false;
    if (p->buffer_page > p->default_page || p->buffer_base % PAGE_4K || !p->top)
        return false;
    return p->buffer_base + p->buffer_bytes <= round_up(p->top, PAGE_1G);
}

/* Does [base, base+size) overlap the buffer? */
static bool touches_buffer(const struct paging_plan *p, uint64_t base, uint64_t size)
{
    return p->buffer_bytes && base < p->buffer_base + p->buffer_bytes &&
           p->buffer_base < base + size;
}

/* The page size used for the `size`-sized block at base (size 1G or 2M). */
static uint64_t block_page(const struct paging_plan *p, uint64_t base, uint64_t size)
{
    uint64_t page = p->default_page;
    if (touches_buffer(p, base, size) && p->buffer_page < page)
        page = p->buffer_page;
    if (page >= size && p->types && memtype_mtrr_range(p->types, base, size) == MT_MIXED)
        page = size == PAGE_1G ? PAGE_2M : PAGE_4K; /* one block, two memory types: split */
    return page;
}

size_t paging_pages_needed(const struct paging_plan *p)
{
    if (!plan_valid(p))
        return 0;
    uint64_t top = round_up(p->top, PAGE_1G);
    size_t pages = 1 + (size_t)(round_up(top, PAGE_512G) / PAGE_512G); /* PML4, PDPTs */
    for (uint64_t g = 0; g < top; g += PAGE_1G) {
        if (block_page(p, g, PAGE_1G) == PAGE_1G)
            continue;
        pages++; /* a page directory */
        for (uint64_t m = g; m < g + PAGE_1G; m += PAGE_2M) {
            if (block_page(p, m, PAGE_2M) == PAGE_4K)
                pages++; /* a page table */
        }
    }
    return pages;
}

static uint64_t *new_table(struct paging *pm)
{
    if (pm->used_pages >= pm->pool_pages)
        return NULL;
    uint64_t *t = (uint64_t *)(pm->pool + pm->used_pages * PAGE_4K);
    pm->used_pages++;
    kmemset(t, 0, PAGE_4K);
    return t;
}

static uint64_t table_entry(const uint64_t *table)
{
    return ((uint64_t)(uintptr_t)table & PTE_ADDR_MASK) | PTE_PRESENT | PTE_WRITABLE;
}

static uint64_t *entry_table(uint64_t entry)
{
    return (uint64_t *)(uintptr_t)(entry & PTE_ADDR_MASK);
}

/* Map the 2 MiB block at base, with one 2 MiB page or 512 4 KiB pages. */
static int map_2m(struct paging *pm, const struct paging_plan *p, uint64_t *pde, uint64_t base)
{
    if (block_page(p, base, PAGE_2M) != PAGE_4K) {
        *pde = base | PTE_FLAGS_WB | PTE_HUGE;
        return 0;
    }
    uint64_t *pt = new_table(pm);
    if (!pt)
        return -1;
    for (unsigned i = 0; i < ENTRIES; i++)
        pt[i] = (base + i * PAGE_4K) | PTE_FLAGS_WB;
    *pde = table_entry(pt);
    return 0;
}

/* Map the 1 GiB block at base, with one 1 GiB page or a page directory below it. */
static int map_1g(struct paging *pm, const struct paging_plan *p, uint64_t *pdpte, uint64_t base)
{
    if (block_page(p, base, PAGE_1G) == PAGE_1G) {
        *pdpte = base | PTE_FLAGS_WB | PTE_HUGE;
        return 0;
    }
    uint64_t *pd = new_table(pm);
    if (!pd)
        return -1;
    for (unsigned i = 0; i < ENTRIES; i++) {
        if (map_2m(pm, p, &pd[i], base + i * PAGE_2M) != 0)
            return -1;
    }
    *pdpte = table_entry(pd);
    return 0;
}

int paging_build(struct paging *pm, void *pool, size_t pool_pages, const struct paging_plan *p)
{
    kmemset(pm, 0, sizeof(*pm));
    pm->pool = pool;
    pm->pool_pages = pool_pages;
    if (!plan_valid(p) || (uintptr_t)pool % PAGE_4K || pool_pages < paging_pages_needed(p))
        return -1;
    pm->pml4 = new_table(pm);
    uint64_t top = round_up(p->top, PAGE_1G);
    for (uint64_t g = 0; g < top; g += PAGE_1G) {
        uint64_t *pml4e = &pm->pml4[(g >> 39) & (ENTRIES - 1)];
        if (!(*pml4e & PTE_PRESENT)) {
            uint64_t *pdpt = new_table(pm);
            if (!pdpt)
                return -1;
            *pml4e = table_entry(pdpt);
        }
        uint64_t *pdpt = entry_table(*pml4e);
        if (map_1g(pm, p, &pdpt[(g >> 30) & (ENTRIES - 1)], g) != 0)
            return -1;
    }
    return 0;
}

uint64_t paging_translate(const struct paging *pm, uint64_t virt, uint64_t *page_bytes,
                          uint64_t *flags)
{
    static const unsigned shifts[4] = {39, 30, 21, 12};
    const uint64_t *table = pm->pml4;
    for (unsigned level = 0; level < 4; level++) {
        uint64_t e = table[(virt >> shifts[level]) & (ENTRIES - 1)];
        if (!(e & PTE_PRESENT))
            return UINT64_MAX;
        bool leaf = level == 3 || (level > 0 && (e & PTE_HUGE));
        if (leaf) {
            uint64_t size = 1ULL << shifts[level];
            if (page_bytes)
                *page_bytes = size;
            if (flags)
                *flags = e & ~PTE_ADDR_MASK;
            return (e & PTE_ADDR_MASK & ~(size - 1)) | (virt & (size - 1));
        }
        table = entry_table(e);
    }
    return UINT64_MAX;
}
