// SPDX-License-Identifier: MIT
// The kernel's own memory map: sorted, merged regions converted from the firmware's map.
#include "memmap.h"

static void sort_by_base(struct mem_region *r, unsigned n)
{
    for (unsigned i = 1; i < n; i++) {
        struct mem_region x = r[i];
        unsigned j = i;
        while (j > 0 && (r[j - 1].base > x.base ||
                         (r[j - 1].base == x.base && r[j - 1].type < x.type))) {
            r[j] = r[j - 1];
            j--;
        }
        r[j] = x;
    }
}

static uint64_t end_of(const struct mem_region *r)
{
    return r->base + r->size;
}

unsigned memmap_normalize(struct mem_region *r, unsigned n)
{
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) {
        if (r[i].size)
            r[k++] = r[i];
    }
    n = k;
    /* Resolve overlaps: cut the less restrictive region around the more restrictive one. */
    bool changed = true;
    while (changed) {
        changed = false;
        sort_by_base(r, n);
        for (unsigned i = 0; i + 1 < n && !changed; i++) {
            struct mem_region *a = &r[i], *b = &r[i + 1];
            if (b->base >= end_of(a) || a->type == b->type)
                continue;
            uint64_t a_end = end_of(a), b_end = end_of(b);
            if (a->type > b->type) {
                /* a wins: b keeps only what lies past a. */
                if (b_end <= a_end) {
                    b->size = 0;
                } else {
                    b->size = b_end - a_end;
                    b->base = a_end;
                }
            } else {
                /* b wins: a keeps what lies before b, and after b if a runs past it. */
                a->size = b->base - a->base;
                if (a_end > b_end) {
                    r[n].base = b_end;
                    r[n].size = a_end - b_end;
                    r[n].type = a->type;
                    n++;
                }
            }
            k = 0;
            for (unsigned j = 0; j < n; j++) {
                if (r[j].size)
                    r[k++] = r[j];
            }
            n = k;
            changed = true;
        }
    }
    /* Merge neighbours of one type that touch or overlap. */
    k = 0;
    for (unsigned i = 0; i < n; i++) {
        if (k && r[k - 1].type == r[i].type && r[i].base <= end_of(&r[k - 1])) {
            uint64_t e = end_of(&r[i]);
            if (e > end_of(&r[k - 1]))
                r[k - 1].size = e - r[k - 1].base;
        } else {
            r[k++] = r[i];
        }
    }
    return k;
}

uint64_t memmap_ram_bytes(const struct mem_region *r, unsigned n)
{
    uint64_t total = 0;
    for (unsigned i = 0; i < n; i++) {
        if (r[i].type == MEM_USABLE || r[i].type == MEM_FIRMWARE)
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

const char *memmap_type_name(enum mem_type t)
{
    switch (t) {
    case MEM_USABLE:
        return "usable";
    case MEM_FIRMWARE:
        return "firmware";
    case MEM_RESERVED:
        return "reserved";
    case MEM_MMIO:
        return "mmio";
    }
    return "unknown";
}
