// SPDX-License-Identifier: MIT
// The kernel's own memory map: sorted, merged regions converted from the firmware's map.
#ifndef CHASE_MEMMAP_H
#define CHASE_MEMMAP_H

#include <stdbool.h>
#include <stdint.h>

enum mem_type {
    MEM_USABLE,   /* free for chase to claim (conventional memory) */
    MEM_SPECIAL,  /* free RAM chase claims only when asked: the memory map's special-purpose
                     (SP attribute: CXL, HBM) or hot-pluggable attribute */
    MEM_FIRMWARE, /* in use by the firmware or chase itself, but RAM (boot services, loader) */
    MEM_RESERVED, /* RAM that nobody may touch (reserved, ACPI, unusable, persistent) */
    MEM_MMIO      /* device registers */
};

struct mem_region {
    uint64_t base;
    uint64_t size;
    enum mem_type type;
};

/*
 * Sort regions by base, drop empty ones and merge neighbours of the same type that
 * touch or overlap; where regions of different types overlap, the more restrictive
 * type (MMIO > reserved > firmware > special > usable) wins the overlap. Returns the new count
 * (at most 2n - 1). The array must have room for 3 * n entries: the result is built
 * behind the input, then moved to the front.
 */
unsigned memmap_normalize(struct mem_region *r, unsigned n);

/* Total bytes of RAM (usable, special and firmware types) in a normalized map. */
uint64_t memmap_ram_bytes(const struct mem_region *r, unsigned n);

/* Bytes of the largest usable region, after aligning its start to align bytes. */
uint64_t memmap_largest_usable(const struct mem_region *r, unsigned n, uint64_t align);

/*
 * Choose where to put a buffer of size bytes aligned to align: the highest aligned
 * address inside a usable region that fits it. Returns false when none does.
 */
bool memmap_place(const struct mem_region *r, unsigned n, uint64_t size, uint64_t align,
                  uint64_t *addr);

struct memtype_regs;

/*
 * Like memmap_place, but only where [addr, addr + size) is write-back through PAT entry 0
 * (how chase's tables map it) and, when page_bytes is not 0, where every page_bytes page
 * that covers the buffer lies wholly in write-back memory too (a large page over two
 * memory types is undefined, SDM vol. 3A 12.11.9). With types NULL or not read, this is
 * memmap_place. Returns false when no such place exists.
 */
bool memmap_place_wb(const struct mem_region *r, unsigned n, uint64_t size, uint64_t align,
                     const struct memtype_regs *types, uint64_t page_bytes, uint64_t *addr);

/*
 * The parts of the regions r[0..n) that lie inside [base, base + size), in order, into out
 * (at most cap): how a placement is limited to one memory node's ranges. Returns how many.
 */
unsigned memmap_clip(const struct mem_region *r, unsigned n, uint64_t base, uint64_t size,
                     struct mem_region *out, unsigned cap);

/* Name of a region type ("usable", ...). */
const char *memmap_type_name(enum mem_type t);

#endif
