// SPDX-License-Identifier: MIT
// The buffer's mapping on AArch64 firmware: windows run on the firmware's translation tables,
// and the buffer is used only where they map it identically with a Normal write-back attribute.
#include "arch/aarch64/sysreg.h"
#include "aarch64/a64_internal.h"
#include "efi_internal.h"
#include "lib/fmt.h"
#include "machine/arm_tables.h"
#include "platform.h"

/* The attribute found over the buffer, named for run.json ("Normal WB, MAIR[1] = 0xff"). */
static char buffer_attr[64];

void efi_paging_init(BOOLEAN has_1g_pages)
{
    (void)has_1g_pages; /* the firmware's tables decide the page sizes on AArch64 */
}

static uint64_t read_phys(void *ctx, uint64_t pa)
{
    (void)ctx;
    return *(volatile const uint64_t *)(uintptr_t)pa;
}

/* Walk the firmware's tables over [base, base + bytes): every leaf identity-mapped with one
   attribute index. Returns the smallest leaf, or 0 with why. */
static uint64_t firmware_leaves(uint64_t base, uint64_t bytes, unsigned *attr_indx, char *why,
                                size_t why_cap)
{
    unsigned el = a64_el();
    uint64_t ttbr = a64_ttbr0(el), tcr = a64_tcr(el), smallest = 0;
    for (uint64_t a = base; a < base + bytes;) {
        struct a64_leaf leaf;
        if (!a64_walk(ttbr, tcr, a, read_phys, NULL, &leaf, why, (unsigned)why_cap))
            return 0;
        if (!leaf.mapped || leaf.out != a) {
            ksnprintf(why, why_cap, "the firmware's tables do not identity-map 0x%llx",
                      (unsigned long long)a);
            return 0;
        }
        if (a != base && leaf.attr_indx != *attr_indx) {
            ksnprintf(why, why_cap,
                      "the firmware maps the buffer with two attributes (MAIR "
                      "indices %u and %u)",
                      *attr_indx, leaf.attr_indx);
            return 0;
        }
        *attr_indx = leaf.attr_indx;
        if (!smallest || leaf.bytes < smallest)
            smallest = leaf.bytes;
        a = (a & ~(leaf.bytes - 1)) + leaf.bytes;
    }
    return smallest;
}

int efi_paging_map_buffer(struct plat_buffer *b, char *why, size_t why_cap)
{
    unsigned indx = 0;
    uint64_t page = firmware_leaves(b->phys, b->size_bytes, &indx, why, why_cap);
    if (!page)
        return -1;
    unsigned attr = a64_mair_attr(a64_mair(a64_el()), indx);
    ksnprintf(buffer_attr, sizeof(buffer_attr), "%s, MAIR[%u] = 0x%02x", a64_attr_name(attr), indx,
              attr);
    b->mem_type = buffer_attr;
    if (!a64_attr_is_normal_wb(attr)) {
        ksnprintf(why, why_cap,
                  "the buffer's memory attribute is %s, not Normal write-back (chase measures "
                  "only in write-back memory)",
                  buffer_attr);
        return -1;
    }
    b->page_bytes = page;
    b->page_source = "the firmware's translation tables (chase builds none on AArch64 yet)";
    b->table_pages = 0;
    b->identity_top = 0;
    return 0;
}

int plat_buffer_set_pages(struct plat_buffer *b, uint64_t page_bytes, char *why, size_t why_cap)
{
    if (page_bytes == b->page_bytes)
        return 0;
    ksnprintf(why, why_cap,
              "chase builds no translation tables of its own on AArch64 yet: the firmware maps "
              "the buffer with %llu-byte pages",
              (unsigned long long)b->page_bytes);
    return -1;
}

uint64_t efi_paging_page_at(uint64_t phys)
{
    unsigned indx = 0;
    char why[120];
    return firmware_leaves(phys, 1, &indx, why, sizeof(why));
}

void efi_paging_release(void)
{
    a64_window_set_ttbr0(0);
}
