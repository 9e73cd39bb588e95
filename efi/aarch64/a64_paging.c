// SPDX-License-Identifier: MIT
// chase's own translation tables on AArch64 firmware: an identity map of everything the
// firmware maps, with its attributes, in the largest blocks that keep them, and the buffer in
// Normal write-back with the page size asked; loaded into TTBR0 only inside windows.
#include "aarch64/a64_internal.h"
#include "arch/aarch64/sysreg.h"
#include "efi_internal.h"
#include "lib/fmt.h"
#include "aarch64/a64_tables_build.h"
#include "platform.h"

#define EFI_PAGE_BYTES 4096ULL
#define POOL_FIRST_PAGES 64u  /* 256 KiB: a few GiB of RAM in 2 MiB blocks and a 4K buffer */
#define POOL_MAX_PAGES 16384u /* 64 MiB: beyond it chase gives up (a 64 GiB 4K buffer) */
#define TTBR_ASID_MASK 0xffff000000000000ULL /* TTBR0.ASID: kept as the firmware set it */
#define SIZE_2M (1ULL << 21)
#define SIZE_1G (1ULL << 30)

/* The tables windows use, and the attribute over the buffer. Hardware state, like TTBR0. */
static struct a64_tables tables;
static EFI_PHYSICAL_ADDRESS pool_pa;
static char buffer_attr[64];

void efi_paging_init(BOOLEAN has_1g_pages)
{
    (void)has_1g_pages; /* CPUID's word; on AArch64 1 GiB blocks follow from TCR.T0SZ */
}

static uint64_t read_phys(void *ctx, uint64_t pa)
{
    (void)ctx;
    return *(volatile const uint64_t *)(uintptr_t)pa;
}

static void free_tables(void)
{
    a64_window_set_ttbr0(0);
    if (tables.pages)
        efi_pages_free(pool_pa, tables.pages);
    tables.pages = 0;
}

/* The end of RAM in the memory map: the identity map covers [0, top). */
static uint64_t ram_top(void)
{
    unsigned n;
    uint64_t top = 0;
    struct mem_region *r = efi_memory_regions(&n);
    for (unsigned i = 0; r && i < n; i++)
        if (r[i].type != MEM_MMIO && r[i].base + r[i].size > top)
            top = r[i].base + r[i].size;
    plat_free(r);
    return top;
}

/* The MAIR index of Normal write-back the buffer gets (0xff preferred); -1 when none is. */
static int wb_index(uint64_t mair)
{
    int any = -1;
    for (unsigned i = 0; i < 8; i++) {
        if (a64_mair_attr(mair, i) == A64_MAIR_NORMAL_WB_RWA)
            return (int)i;
        if (any < 0 && a64_attr_is_normal_wb(a64_mair_attr(mair, i)))
            any = (int)i;
    }
    return any;
}

/* Build into a pool that grows until the tables fit. */
static int build_pool(const struct a64_plan *plan, char *why, size_t why_cap)
{
    for (unsigned pages = POOL_FIRST_PAGES; pages <= POOL_MAX_PAGES; pages *= 2) {
        EFI_PHYSICAL_ADDRESS pa;
        if (efi_pages_alloc(AllocateAnyPages, pages, &pa) != EFI_SUCCESS) {
            ksnprintf(why, why_cap, "no memory for %u pages of translation tables", pages);
            return -1;
        }
        struct a64_tables t = {(uint64_t *)(uintptr_t)pa, pages, 0, 0, 0};
        bool more;
        if (a64_tables_build(&t, plan, &more, why, (unsigned)why_cap) == 0) {
            free_tables();
            tables = t;
            pool_pa = pa;
            return 0;
        }
        efi_pages_free(pa, pages);
        if (!more)
            return -1;
    }
    ksnprintf(why, why_cap, "the translation tables need more than %u pages", POOL_MAX_PAGES);
    return -1;
}

/* What chase's tables map phys with: the leaf's size (0: not mapped), *indx its MAIR index. */
static uint64_t own_leaf(uint64_t phys, unsigned *indx)
{
    struct a64_leaf l;
    char why[120];
    if (!tables.pages ||
        !a64_walk(tables.root, a64_tcr(a64_el()), phys, read_phys, NULL, &l, why, sizeof(why)) ||
        !l.mapped || l.out != phys)
        return 0;
    if (indx)
        *indx = l.attr_indx;
    return l.bytes;
}

/* Refuse tables that leave the window's own code, stack or buffer unmapped. */
static int check_mapped(const struct plat_buffer *b, unsigned wb, char *why, size_t why_cap)
{
    uint64_t stack = (uint64_t)(uintptr_t)&why, code = (uint64_t)(uintptr_t)&efi_window_run;
    unsigned indx = 0;
    for (uint64_t a = b->phys; a < b->phys + b->size_bytes; a += own_leaf(a, NULL)) {
        if (!own_leaf(a, &indx) || indx != wb) {
            ksnprintf(why, why_cap, "the firmware does not map the buffer at 0x%llx as RAM",
                      (unsigned long long)a);
            return -1;
        }
    }
    if (!own_leaf(stack, NULL) || !own_leaf(code, NULL)) {
        ksnprintf(why, why_cap, "chase's tables would not map its own stack or code");
        return -1;
    }
    return 0;
}

/* Build tables with buffer_page blocks over the buffer; load them for windows. */
static int build_tables(struct plat_buffer *b, uint64_t buffer_page, bool exact, char *why,
                        size_t why_cap)
{
    unsigned el = a64_el();
    uint64_t mair = a64_mair(el);
    int wb = wb_index(mair);
    if (wb < 0) {
        ksnprintf(why, why_cap, "MAIR 0x%llx has no Normal write-back attribute for the buffer",
                  (unsigned long long)mair);
        return -1;
    }
    struct a64_plan plan = {
        .fw_ttbr = a64_ttbr0(el),
        .tcr = a64_tcr(el),
        .read = read_phys,
        .nranges = 1,
        .base = {0},
        .bytes = {ram_top()},
        .buffer_base = b->phys,
        .buffer_bytes = b->size_bytes,
        .buffer_page = buffer_page,
        .wb_indx = (unsigned)wb,
    };
    if (build_pool(&plan, why, why_cap) != 0 || check_mapped(b, (unsigned)wb, why, why_cap) != 0) {
        free_tables();
        return -1;
    }
    uint64_t page = own_leaf(b->phys, NULL);
    if (exact && page != buffer_page) {
        ksnprintf(why, why_cap,
                  "the firmware's attributes split the buffer: it got %llu-byte "
                  "blocks, not %llu",
                  (unsigned long long)page, (unsigned long long)buffer_page);
        free_tables();
        return -1;
    }
    a64_window_set_ttbr0(tables.root | (plan.fw_ttbr & TTBR_ASID_MASK));
    unsigned attr = a64_mair_attr(mair, (unsigned)wb);
    ksnprintf(buffer_attr, sizeof(buffer_attr), "%s, MAIR[%d] = 0x%02x", a64_attr_name(attr), wb,
              attr);
    b->mem_type = buffer_attr;
    b->page_bytes = page;
    b->table_pages = tables.used;
    b->identity_top = plan.bytes[0];
    b->page_source = exact ? "own translation tables, page key" : "own translation tables";
    return 0;
}

/* The largest block TCR allows: 1 GiB from a level 1 start, else 2 MiB. */
static uint64_t largest_block(void)
{
    unsigned va_bits = 64 - (unsigned)(a64_tcr(a64_el()) & A64_TCR_T0SZ_MASK);
    return a64_start_level(va_bits) <= 1 ? SIZE_1G : SIZE_2M;
}

int efi_paging_map_buffer(struct plat_buffer *b, char *why, size_t why_cap)
{
    return build_tables(b, largest_block(), false, why, why_cap);
}

int plat_buffer_set_pages(struct plat_buffer *b, uint64_t page_bytes, char *why, size_t why_cap)
{
    if (page_bytes != EFI_PAGE_BYTES && page_bytes != SIZE_2M && page_bytes != SIZE_1G) {
        ksnprintf(why, why_cap, "%llu bytes is not a block size (4K, 2M or 1G)",
                  (unsigned long long)page_bytes);
        return -1;
    }
    if (page_bytes > largest_block()) {
        ksnprintf(why, why_cap, "the firmware's TCR.T0SZ allows no 1 GiB blocks");
        return -1;
    }
    return build_tables(b, page_bytes, true, why, why_cap);
}

uint64_t efi_paging_page_at(uint64_t phys)
{
    return own_leaf(phys, NULL);
}

void efi_paging_release(void)
{
    free_tables();
}
