// SPDX-License-Identifier: MIT
// The memory-node table's storage (sized from the firmware's counts), its copies and questions.
#include "machine/numa_table.h"

#include "lib/kstring.h"

/* Each array starts on this boundary inside the one allocation (the widest member: 8 bytes). */
#define NUMA_TABLE_ALIGN 8

static size_t round_up(size_t n)
{
    return (n + NUMA_TABLE_ALIGN - 1) / NUMA_TABLE_ALIGN * NUMA_TABLE_ALIGN;
}

/* The bytes of the whole table: nodes, then per node ranges, APIC IDs and cpus, distances. */
static size_t table_bytes(unsigned nnodes, const unsigned *ncpus, const unsigned *nranges)
{
    size_t n = round_up(nnodes * sizeof(struct plat_node));
    for (unsigned i = 0; i < nnodes; i++)
        n += round_up(nranges[i] * sizeof(struct plat_mem_range)) +
             round_up(ncpus[i] * sizeof(uint32_t)) + round_up(ncpus[i] * sizeof(int));
    return n + round_up((size_t)nnodes * nnodes);
}

bool numa_table_alloc(struct plat_numa *t, unsigned nnodes, const unsigned *ncpus,
                      const unsigned *nranges)
{
    kmemset(t, 0, sizeof(*t));
    size_t bytes = table_bytes(nnodes, ncpus, nranges);
    uint8_t *at = plat_alloc(bytes ? bytes : 1);
    if (!at)
        return false;
    t->storage = at;
    t->node = (struct plat_node *)at;
    at += round_up(nnodes * sizeof(struct plat_node));
    for (unsigned i = 0; i < nnodes; i++) {
        struct plat_node *nd = &t->node[i];
        nd->range = (struct plat_mem_range *)at;
        at += round_up(nranges[i] * sizeof(struct plat_mem_range));
        nd->apic_id = (uint32_t *)at;
        at += round_up(ncpus[i] * sizeof(uint32_t));
        nd->cpu = (int *)at;
        at += round_up(ncpus[i] * sizeof(int));
        for (unsigned k = 0; k < ncpus[i]; k++)
            nd->cpu[k] = -1;
    }
    t->distance = at;
    t->nnodes = nnodes;
    return true;
}

bool numa_table_copy(struct plat_numa *dst, const struct plat_numa *src)
{
    unsigned n = src->nnodes, *counts = plat_alloc(2 * (n ? n : 1) * sizeof(unsigned));
    bool ok = counts != NULL;
    for (unsigned i = 0; ok && i < n; i++) {
        counts[i] = src->node[i].ncpus;
        counts[n + i] = src->node[i].nranges;
    }
    ok = ok && numa_table_alloc(dst, n, counts, counts + n);
    plat_free(counts);
    if (!ok) {
        kmemset(dst, 0, sizeof(*dst));
        return false;
    }
    for (unsigned i = 0; i < n; i++) {
        const struct plat_node *s = &src->node[i];
        struct plat_node *d = &dst->node[i];
        struct plat_node keep = *d; /* dst's own arrays */
        *d = *s;
        d->range = keep.range;
        d->apic_id = keep.apic_id;
        d->cpu = keep.cpu;
        kmemcpy(d->range, s->range, s->nranges * sizeof(*s->range));
        kmemcpy(d->apic_id, s->apic_id, s->ncpus * sizeof(*s->apic_id));
        kmemcpy(d->cpu, s->cpu, s->ncpus * sizeof(*s->cpu));
    }
    kmemcpy(dst->distance, src->distance, (size_t)n * n);
    dst->slit = src->slit;
    kmemcpy(dst->source, src->source, sizeof(dst->source));
    kmemcpy(dst->note, src->note, sizeof(dst->note));
    return true;
}

void node_table_free(struct plat_numa *t)
{
    plat_free(t->storage);
    kmemset(t, 0, sizeof(*t));
}

bool numa_node_has_cpu(const struct plat_numa *t, unsigned i)
{
    for (unsigned k = 0; i < t->nnodes && k < t->node[i].ncpus; k++)
        if (t->node[i].cpu[k] >= 0)
            return true;
    return false;
}

int node_nearest_cpu_node(const struct plat_numa *t, unsigned i)
{
    if (i < t->nnodes && numa_node_has_cpu(t, i))
        return (int)i;
    int best = -1;
    for (unsigned k = 0; k < t->nnodes; k++) {
        if (!numa_node_has_cpu(t, k))
            continue;
        if (best < 0 || (t->slit && i < t->nnodes &&
                         plat_numa_distance(t, i, k) < plat_numa_distance(t, i, (unsigned)best)))
            best = (int)k;
    }
    return best;
}
