// SPDX-License-Identifier: MIT
// Where chase's buffer and page tables go on a machine with memory nodes: inside one node's SRAT
// ranges, the node of the processor that runs chase first, then the nearest by SLIT.
#ifndef CHASE_PLACEMENT_H
#define CHASE_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/memmap.h"
#include "platform.h"

#define PLACE_NODE_HOME (-1) /* no node asked for: the home node, else the nearest with room */
#define PLACE_NODE_NONE (-1) /* the place lies in no known node (no SRAT) */

struct memtype_regs;

/* What is to be placed, and where it may go. */
struct place_request {
    uint64_t size, align;             /* bytes; size a multiple of align */
    const struct memtype_regs *types; /* only write-back places (NULL or not read: any) */
    uint64_t big_page;                /* prefer places where every such page over it is WB (0) */
    int node;                         /* PLACE_NODE_HOME, or a node index: exactly that node */
    unsigned home;                    /* the node index of the processor that runs chase */
};

/* Where it went. */
struct place_result {
    uint64_t addr;
    int node;          /* node index it lies in, PLACE_NODE_NONE without nodes */
    bool big_pages_wb; /* every big_page page over it is write-back too */
    bool fallback;     /* not in the home node: the home node had no room */
    char note[200];    /* what the fallback was and why ("" when none) */
};

/*
 * The nodes in the order a placement tries them: home first, then the others by SLIT distance
 * from home, nearest first (ties and no SLIT: by index), into order (room for t->nnodes).
 * Returns how many (t->nnodes).
 */
unsigned place_node_order(const struct plat_numa *t, unsigned home, unsigned *order);

/*
 * Place q->size bytes in the normalized memory map r[0..n): with no nodes (t NULL or without
 * nodes), the highest write-back place in usable memory (memmap_place_wb); with nodes, only
 * inside a node's SRAT ranges, never in hot-pluggable ranges or special-purpose memory
 * (MEM_SPECIAL) unless q->node names that node. A node asked for gets it or nothing; else
 * home, then the nearest node that has room, said in out->note. Within a node the highest
 * place whose big pages are write-back too is preferred. Returns false with why.
 */
bool place_in_nodes(const struct mem_region *r, unsigned n, const struct plat_numa *t,
                    const struct place_request *q, struct place_result *out, char *why,
                    size_t why_cap);

/*
 * The memory map inside nd's ranges, into out (cap entries: n + nd->nranges is enough):
 * hot-pluggable ranges left out and special-purpose memory kept out of reach unless asked (then
 * both count as usable: a buffer asked for in that node, a tier target). Returns how many.
 */
unsigned place_node_map(const struct mem_region *r, unsigned n, const struct plat_node *nd,
                        bool asked, struct mem_region *out, unsigned cap);

/*
 * Each node's room for a tier buffer in the normalized memory map r[0..n): free_bytes the
 * largest span aligned to align inside its SRAT ranges, special-purpose memory (MEM_SPECIAL: the
 * memory map's specific-purpose or hot-pluggable attribute) and hot-pluggable ranges counted,
 * since a buffer asked for in a node may lie there; special_bytes the special-purpose memory inside
 * its ranges. The main buffer never goes there (place_in_nodes without a node asked for).
 */
void place_node_space(const struct mem_region *r, unsigned n, struct plat_numa *t, uint64_t align);

/* Whether [addr, addr + size) overlaps special-purpose memory (MEM_SPECIAL) in r[0..n). */
bool place_in_special(const struct mem_region *r, unsigned n, uint64_t addr, uint64_t size);

/* The node index whose (non-hot-pluggable or any) SRAT ranges hold [addr, addr+size), or -1. */
int place_node_of(const struct plat_numa *t, uint64_t addr, uint64_t size);

#endif
