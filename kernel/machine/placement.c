// SPDX-License-Identifier: MIT
// Where chase's buffer and page tables go on a machine with memory nodes: inside one node's SRAT
// ranges, the node of the processor that runs chase first, then the nearest by SLIT.
#include "machine/placement.h"

#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/memtype.h"

unsigned place_node_order(const struct plat_numa *t, unsigned home, unsigned *order)
{
    unsigned k = 0;
    if (home < t->nnodes)
        order[k++] = home;
    for (unsigned i = 0; i < t->nnodes; i++)
        if (i != home)
            order[k++] = i;
    if (!t->slit || home >= t->nnodes)
        return k;
    for (unsigned i = 2; i < k; i++) /* insertion sort after home: stable, a handful of nodes */
        for (unsigned j = i; j > 1 && plat_numa_distance(t, home, order[j - 1]) >
                                          plat_numa_distance(t, home, order[j]);
             j--) {
            unsigned x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    return k;
}

unsigned place_node_map(const struct mem_region *r, unsigned n, const struct plat_node *nd,
                        bool asked, struct mem_region *out, unsigned cap)
{
    unsigned k = 0;
    for (unsigned i = 0; i < nd->nranges && k < cap; i++) {
        if (nd->range[i].hotplug && !asked)
            continue;
        k += memmap_clip(r, n, nd->range[i].base, nd->range[i].size_bytes, out + k, cap - k);
    }
    if (!asked)
        return k;
    unsigned m = 0; /* special memory counts as usable: join the neighbours that now touch */
    for (unsigned i = 0; i < k; i++) {
        if (out[i].type == MEM_SPECIAL)
            out[i].type = MEM_USABLE;
        if (m && out[m - 1].type == out[i].type && out[m - 1].base + out[m - 1].size == out[i].base)
            out[m - 1].size += out[i].size;
        else
            out[m++] = out[i];
    }
    return m;
}

/* The highest write-back place in r, with big pages write-back over it when possible. */
static bool place_wb(const struct mem_region *r, unsigned n, const struct place_request *q,
                     struct place_result *out)
{
    out->big_pages_wb = q->big_page != 0;
    if (q->big_page && memmap_place_wb(r, n, q->size, q->align, q->types, q->big_page, &out->addr))
        return true;
    out->big_pages_wb = false;
    return memmap_place_wb(r, n, q->size, q->align, q->types, 0, &out->addr);
}

/* Try node i; false when it has no room. *largest gets its largest free span. */
static bool try_node(const struct mem_region *r, unsigned n, const struct plat_numa *t, unsigned i,
                     const struct place_request *q, struct place_result *out, uint64_t *largest)
{
    unsigned cap = n + t->node[i].nranges; /* each range splits at most one region */
    struct mem_region *in = plat_alloc(cap * sizeof(*in));
    if (!in)
        return false;
    unsigned k = place_node_map(r, n, &t->node[i], q->node == (int)i, in, cap);
    bool placed = place_wb(in, k, q, out);
    *largest = memmap_largest_usable(in, k, q->align);
    plat_free(in);
    if (placed)
        out->node = (int)i;
    return placed;
}

/* Say that the home node had no room and which node took it instead. */
static void note_fallback(const struct plat_numa *t, const struct place_request *q,
                          uint64_t home_largest, struct place_result *out)
{
    char dist[24] = "no SLIT: next by number";
    if (t->slit)
        ksnprintf(dist, sizeof(dist), "SLIT distance %u",
                  plat_numa_distance(t, q->home, (unsigned)out->node));
    out->fallback = true;
    ksnprintf(out->note, sizeof(out->note),
              "node %u (the boot processor's) has no free write-back span of %llu bytes (its "
              "largest: %llu): placed in node %d, the nearest with room (%s)",
              q->home, (unsigned long long)q->size, (unsigned long long)home_largest, out->node,
              dist);
}

bool place_in_nodes(const struct mem_region *r, unsigned n, const struct plat_numa *t,
                    const struct place_request *q, struct place_result *out, char *why,
                    size_t why_cap)
{
    kmemset(out, 0, sizeof(*out));
    out->node = PLACE_NODE_NONE;
    if (!t || !t->nnodes) {
        if (q->node != PLACE_NODE_HOME) {
            ksnprintf(why, why_cap,
                      "node %d was asked for, but the firmware describes no memory "
                      "nodes (no ACPI SRAT)",
                      q->node);
            return false;
        }
        if (place_wb(r, n, q, out))
            return true;
        ksnprintf(why, why_cap, "no free write-back span of %llu bytes aligned to %llu",
                  (unsigned long long)q->size, (unsigned long long)q->align);
        return false;
    }
    uint64_t largest = 0, home_largest = 0;
    if (q->node != PLACE_NODE_HOME) {
        if ((unsigned)q->node >= t->nnodes) {
            ksnprintf(why, why_cap, "node %d was asked for; the SRAT lists %u node(s), 0 to %u",
                      q->node, t->nnodes, t->nnodes - 1);
            return false;
        }
        if (try_node(r, n, t, (unsigned)q->node, q, out, &largest))
            return true;
        ksnprintf(why, why_cap,
                  "node %d (asked for) has no free write-back span of %llu bytes aligned to "
                  "%llu; its largest is %llu bytes",
                  q->node, (unsigned long long)q->size, (unsigned long long)q->align,
                  (unsigned long long)largest);
        return false;
    }
    unsigned *order = plat_alloc(t->nnodes * sizeof(*order));
    unsigned k = order ? place_node_order(t, q->home, order) : 0;
    for (unsigned i = 0; i < k; i++) {
        if (try_node(r, n, t, order[i], q, out, &largest)) {
            if (order[i] != q->home)
                note_fallback(t, q, home_largest, out);
            plat_free(order);
            return true;
        }
        if (order[i] == q->home)
            home_largest = largest;
    }
    plat_free(order);
    ksnprintf(why, why_cap,
              "no memory node has a free write-back span of %llu bytes aligned to %llu outside "
              "special-purpose and hot-pluggable memory (the boot processor's node %u: at most "
              "%llu bytes)",
              (unsigned long long)q->size, (unsigned long long)q->align, q->home,
              (unsigned long long)home_largest);
    return false;
}

void place_node_space(const struct mem_region *r, unsigned n, struct plat_numa *t, uint64_t align)
{
    for (unsigned i = 0; i < t->nnodes; i++) {
        struct plat_node *nd = &t->node[i];
        unsigned cap = n + nd->nranges + 1;
        struct mem_region *in = plat_alloc(cap * sizeof(*in));
        nd->free_bytes = nd->special_bytes = 0;
        if (!in)
            continue;
        unsigned k = 0;
        for (unsigned g = 0; g < nd->nranges; g++)
            k += memmap_clip(r, n, nd->range[g].base, nd->range[g].size_bytes, in + k, cap - k);
        for (unsigned g = 0; g < k; g++)
            nd->special_bytes += in[g].type == MEM_SPECIAL ? in[g].size : 0;
        k = place_node_map(r, n, nd, true, in, cap);
        nd->free_bytes = memmap_largest_usable(in, k, align);
        plat_free(in);
    }
}

bool place_in_special(const struct mem_region *r, unsigned n, uint64_t addr, uint64_t size)
{
    for (unsigned i = 0; i < n; i++)
        if (r[i].type == MEM_SPECIAL && r[i].base < addr + size && addr < r[i].base + r[i].size)
            return true;
    return false;
}

int place_node_of(const struct plat_numa *t, uint64_t addr, uint64_t size)
{
    for (unsigned i = 0; t && i < t->nnodes; i++)
        for (unsigned k = 0; k < t->node[i].nranges; k++) {
            const struct plat_mem_range *m = &t->node[i].range[k];
            if (addr >= m->base && addr + size <= m->base + m->size_bytes)
                return (int)i;
        }
    return -1;
}
