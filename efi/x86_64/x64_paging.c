// SPDX-License-Identifier: MIT
// chase's page tables on the firmware: pages for the tables from AllocatePages, the plan from
// the memory map, and the page size over the chase buffer.
#include "efi_internal.h"
#include "lib/fmt.h"
#include "machine/memtype.h"
#include "x86_64/x64_page_tables.h"
#include "platform.h"
#include "x86_64/x64_internal.h"

#define EFI_PAGE_BYTES 4096ULL
#define IDENTITY_MIN_TOP (4ULL << 30) /* always map the low 4 GiB (firmware, APIC, flash) */

/* The tables in use by windows. Hardware state, like CR3 itself. */
static struct paging tables;
static EFI_PHYSICAL_ADDRESS table_pool;
static UINTN table_pool_pages;
static BOOLEAN cpu_has_1g;

void efi_paging_init(BOOLEAN has_1g_pages)
{
    cpu_has_1g = has_1g_pages;
}

/* The end of the identity map: all RAM the firmware reports, and at least 4 GiB. */
static uint64_t identity_top(void)
{
    unsigned n;
    uint64_t top = IDENTITY_MIN_TOP;
    struct mem_region *r = efi_memory_regions(&n);
    for (unsigned i = 0; r && i < n; i++) {
        if (r[i].type != MEM_MMIO && r[i].base + r[i].size > top)
            top = r[i].base + r[i].size;
    }
    plat_free(r);
    return top;
}

static void free_tables(void)
{
    x64_window_set_cr3(0);
    if (table_pool_pages)
        efi_pages_free(table_pool, table_pool_pages);
    table_pool_pages = 0;
}

/*
 * The effective type of the pages that map [base, base + bytes) through the tables: their
 * common type, MT_MIXED when they differ, MT_UNKNOWN when the registers were not read.
 */
static unsigned mapped_type(const struct memtype_regs *t, uint64_t base, uint64_t bytes)
{
    unsigned type = MT_UNKNOWN;
    uint64_t page = PAGE_4K, flags = 0;
    for (uint64_t a = base / PAGE_4K * PAGE_4K; a < base + bytes; a = a / page * page + page) {
        if (paging_translate(&tables, a, &page, &flags) != a)
            return MT_UNDEFINED; /* not identity-mapped: cannot happen with chase's plan */
        unsigned pt = memtype_page(t, a / page * page, page, flags);
        if (a > base / PAGE_4K * PAGE_4K && pt != type)
            return MT_MIXED;
        type = pt;
    }
    return type;
}

/* Refuse a buffer, page tables or stack that are not write-back; record the buffer's type. */
static int check_types(struct plat_buffer *b, char *why, size_t why_cap)
{
    const struct memtype_regs *t = efi_memtypes();
    if (!t || !t->read) {
        b->mem_type = "unknown";
        return 0;
    }
    uint64_t stack_probe = (uint64_t)(uintptr_t)&t;
    unsigned buf = mapped_type(t, b->phys, b->size_bytes);
    unsigned tab = mapped_type(t, table_pool, table_pool_pages * EFI_PAGE_BYTES);
    unsigned stack = mapped_type(t, stack_probe, sizeof(stack_probe));
    b->mem_type = memtype_name(buf);
    if (buf == MT_WB && tab == MT_WB && stack == MT_WB)
        return 0;
    ksnprintf(why, why_cap,
              "memory types are not all write-back: the buffer %s, the page tables %s, the "
              "stack %s (chase measures only in write-back memory)",
              memtype_name(buf), memtype_name(tab), memtype_name(stack));
    return -1;
}

/* Build tables mapping all memory, the buffer with buffer_page pages; load them for windows. */
static int build_tables(struct plat_buffer *b, uint64_t buffer_page, bool exact, char *why,
                        size_t why_cap)
{
    struct paging_plan plan = {
        .top = identity_top(),
        .default_page = cpu_has_1g ? PAGE_1G : PAGE_2M,
        .buffer_base = b->phys,
        .buffer_bytes = b->size_bytes,
        .buffer_page = buffer_page,
        .types = efi_memtypes() && efi_memtypes()->read ? efi_memtypes() : NULL,
    };
    size_t pages = paging_pages_needed(&plan);
    if (!pages) {
        ksnprintf(why, why_cap, "no page-table plan maps a %llu-byte page over the buffer",
                  (unsigned long long)buffer_page);
        return -1;
    }
    EFI_PHYSICAL_ADDRESS pool = 0;
    int node = -1;
    if (efi_pages_alloc_home(pages * EFI_PAGE_BYTES, &pool, &node) != 0) {
        ksnprintf(why, why_cap, "no memory for %zu page-table pages", pages);
        return -1;
    }
    struct paging pm;
    if (paging_build(&pm, (void *)(uintptr_t)pool, pages, &plan) != 0) {
        efi_pages_free(pool, pages);
        ksnprintf(why, why_cap, "the page-table builder refused the plan");
        return -1;
    }
    free_tables();
    tables = pm;
    table_pool = pool;
    table_pool_pages = pages;
    x64_window_set_cr3((uint64_t)(uintptr_t)tables.pml4);
    uint64_t page = 0;
    if (paging_translate(&tables, b->phys, &page, NULL) != b->phys)
        page = 0; /* cannot happen: the plan maps the buffer */
    b->page_bytes = page;
    b->table_pages = pages;
    b->table_node_known = node >= 0;
    b->table_node = node >= 0 ? (unsigned)node : 0;
    b->identity_top = (plan.top + PAGE_1G - 1) / PAGE_1G * PAGE_1G;
    b->page_source = buffer_page == plan.default_page ? "own page tables, largest page"
                                                      : "own page tables, page key";
    if (exact && page != buffer_page) {
        free_tables();
        ksnprintf(why, why_cap,
                  "a %llu-byte page over the buffer would span two memory types (SDM vol. 3A "
                  "12.11.9); it got %llu-byte pages",
                  (unsigned long long)buffer_page, (unsigned long long)page);
        return -1;
    }
    if (check_types(b, why, why_cap) != 0) {
        free_tables();
        return -1;
    }
    return 0;
}

int efi_paging_map_buffer(struct plat_buffer *b, char *why, size_t why_cap)
{
    return build_tables(b, cpu_has_1g ? PAGE_1G : PAGE_2M, false, why, why_cap);
}

int plat_buffer_set_pages(struct plat_buffer *b, uint64_t page_bytes, char *why, size_t why_cap)
{
    if (page_bytes == PAGE_1G && !cpu_has_1g) {
        ksnprintf(why, why_cap, "this CPU has no 1 GiB pages (CPUID 0x80000001 EDX bit 26)");
        return -1;
    }
    if (page_bytes != PAGE_4K && page_bytes != PAGE_2M && page_bytes != PAGE_1G) {
        ksnprintf(why, why_cap, "%llu bytes is not a page size (4K, 2M or 1G)",
                  (unsigned long long)page_bytes);
        return -1;
    }
    return build_tables(b, page_bytes, true, why, why_cap);
}

uint64_t efi_paging_page_at(uint64_t phys)
{
    uint64_t page = 0;
    if (!table_pool_pages || paging_translate(&tables, phys, &page, NULL) != phys)
        return 0;
    return page;
}

void efi_paging_release(void)
{
    free_tables();
}
