// SPDX-License-Identifier: MIT
// The kernel's own memory map: sorted, merged regions converted from the firmware's map.
#include "machine/memmap.h"

#include <stddef.h>

#include "machine/memtype.h"

static uint64_t end_of(const struct mem_region *r)
{
    uint64_t e = r->base + r->size;
    return e < r->base ? UINT64_MAX : e; /* clip a region that would wrap */
}

/* The first region boundary above cursor among the n input regions; UINT64_MAX if none. */
static uint64_t next_boundary(const struct mem_region *r, unsigned n, uint64_t cursor)
{
    uint64_t next = UINT64_MAX;
    for (unsigned i = 0; i < n; i++) {
        if (!r[i].size)
            continue;
        if (r[i].base > cursor && r[i].base < next)
            next = r[i].base;
        if (end_of(&r[i]) > cursor && end_of(&r[i]) < next)
            next = end_of(&r[i]);
    }
    return next;
}

/* The most restrictive type covering [at, ...), or -1 when no region covers at. */
static int covering_type(const struct mem_region *r, unsigned n, uint64_t at)
{
    int type = -1;
    for (unsigned i = 0; i < n; i++) {
        if (r[i].size && r[i].base <= at && at < end_of(&r[i]) && (int)r[i].type > type)
            type = (int)r[i].type;
    }
    return type;
}

unsigned memmap_normalize(struct mem_region *r, unsigned n)
{
    /* Sweep over every boundary: each elementary interval takes its most restrictive
     * covering type, and neighbours of one type join. Quadratic, for maps of ~100. */
    unsigned out = n;
    uint64_t cursor = UINT64_MAX;
    for (unsigned i = 0; i < n; i++) {
        if (r[i].size && r[i].base < cursor)
            cursor = r[i].base;
    }
    while (cursor != UINT64_MAX) {
        uint64_t next = next_boundary(r, n, cursor);
        if (next == UINT64_MAX)
            break;
        int type = covering_type(r, n, cursor);
        if (type >= 0) {
            struct mem_region *last = out > n ? &r[out - 1] : NULL;
            if (last && (int)last->type == type && end_of(last) == cursor) {
                last->size += next - cursor;
            } else {
                r[out].base = cursor;
                r[out].size = next - cursor;
                r[out].type = (enum mem_type)type;
                out++;
            }
        }
        cursor = next;
    }
    for (unsigned i = n; i < out; i++)
        r[i - n] = r[i];
    return out - n;
}

uint64_t memmap_ram_bytes(const struct mem_region *r, unsigned n)
{
    uint64_t total = 0;
    for (unsigned i = 0; i < n; i++) {
        if (r[i].type == MEM_USABLE || r[i].type == MEM_SPECIAL || r[i].type == MEM_FIRMWARE)
            total += r[i].size;
    }
    return total;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

uint64_t memmap_largest_usable(const struct mem_region *r, unsigned n, uint64_t align)
{
    uint64_t best = 0;
    for (unsigned i = 0; i < n; i++) {
        if (r[i].type != MEM_USABLE)
            continue;
        uint64_t start = align_up(r[i].base, align), end = end_of(&r[i]);
        if (end > start && end - start > best)
            best = end - start;
    }
    return best;
}

bool memmap_place(const struct mem_region *r, unsigned n, uint64_t size, uint64_t align,
                  uint64_t *addr)
{
    bool found = false;
    for (unsigned i = 0; i < n; i++) {
        if (r[i].type != MEM_USABLE || r[i].size < size)
            continue;
        uint64_t top = (end_of(&r[i]) - size) / align * align;
        if (top < r[i].base)
            continue;
        if (!found || top > *addr) {
            *addr = top;
            found = true;
        }
    }
    return found;
}

/* Is the buffer at addr write-back, and so is every page_bytes page over it? */
static bool place_is_wb(const struct memtype_regs *types, uint64_t addr, uint64_t size,
                        uint64_t page_bytes)
{
    if (memtype_range(types, addr, size, 0) != MT_WB)
        return false;
    if (!page_bytes)
        return true;
    uint64_t first = addr / page_bytes * page_bytes;
    uint64_t last = align_up(addr + size, page_bytes);
    return memtype_range(types, first, last - first, 0) == MT_WB;
}

bool memmap_place_wb(const struct mem_region *r, unsigned n, uint64_t size, uint64_t align,
                     const struct memtype_regs *types, uint64_t page_bytes, uint64_t *addr)
{
    if (!types || !types->read)
        return memmap_place(r, n, size, align, addr);
    bool found = false;
    for (unsigned i = 0; i < n; i++) {
        if (r[i].type != MEM_USABLE || r[i].size < size)
            continue;
        /* From the top of the region down: the first write-back place is its highest. */
        for (uint64_t at = (end_of(&r[i]) - size) / align * align; at >= r[i].base; at -= align) {
            if (found && at <= *addr)
                break;
            if (place_is_wb(types, at, size, page_bytes)) {
                *addr = at;
                found = true;
                break;
            }
            if (at < align)
                break;
        }
    }
    return found;
}

unsigned memmap_clip(const struct mem_region *r, unsigned n, uint64_t base, uint64_t size,
                     struct mem_region *out, unsigned cap)
{
    uint64_t end = base + size < base ? UINT64_MAX : base + size;
    unsigned k = 0;
    for (unsigned i = 0; i < n && k < cap; i++) {
        uint64_t lo = r[i].base > base ? r[i].base : base;
        uint64_t hi = end_of(&r[i]) < end ? end_of(&r[i]) : end;
        if (lo < hi)
            out[k++] = (struct mem_region){lo, hi - lo, r[i].type};
    }
    return k;
}

const char *memmap_type_name(enum mem_type t)
{
    switch (t) {
    case MEM_USABLE:
        return "usable";
    case MEM_SPECIAL:
        return "special";
    case MEM_FIRMWARE:
        return "firmware";
    case MEM_RESERVED:
        return "reserved";
    case MEM_MMIO:
        return "mmio";
    }
    return "unknown";
}
