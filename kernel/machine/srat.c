// SPDX-License-Identifier: MIT
// Memory nodes from the ACPI SRAT (processor and memory affinity) and SLIT (distances).
#include "machine/srat.h"

#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/acpi.h"

#define SRAT_DOMAINS_SEEN 64 /* distinct domains noticed before the node limit is applied */

/* One enabled SRAT entry, as the two passes see it. */
struct srat_entry {
    unsigned type;
    uint32_t domain;
    uint32_t apic_id;    /* processors */
    uint64_t base, size; /* memory */
    bool hotplug, nonvolatile;
};

/* Decode the structure at s (len bytes); false when it is not enabled or not known. */
static bool decode(const uint8_t *s, struct srat_entry *e)
{
    kmemset(e, 0, sizeof(*e));
    e->type = s[0];
    if (e->type == SRAT_TYPE_LAPIC) {
        e->domain = s[2] | (uint32_t)s[9] << 8 | (uint32_t)s[10] << 16 | (uint32_t)s[11] << 24;
        e->apic_id = s[3];
        return (acpi_rd32(s + 4) & SRAT_ENABLED) != 0;
    }
    if (e->type == SRAT_TYPE_X2APIC) {
        e->domain = acpi_rd32(s + 4);
        e->apic_id = acpi_rd32(s + 8);
        return (acpi_rd32(s + 12) & SRAT_ENABLED) != 0;
    }
    if (e->type == SRAT_TYPE_MEMORY) {
        uint32_t flags = acpi_rd32(s + 28);
        e->domain = acpi_rd32(s + 2);
        e->base = acpi_rd64(s + 8);
        e->size = acpi_rd64(s + 16);
        e->hotplug = (flags & SRAT_MEM_HOTPLUG) != 0;
        e->nonvolatile = (flags & SRAT_MEM_NONVOLATILE) != 0;
        return (flags & SRAT_ENABLED) && e->size;
    }
    return false; /* GICC, GIC ITS, generic initiators and ports: not x86 processors or memory */
}

/* The bytes a known structure type needs (0: any length of at least 2). */
static unsigned needed_bytes(unsigned type)
{
    return type == SRAT_TYPE_LAPIC    ? SRAT_LAPIC_BYTES
           : type == SRAT_TYPE_MEMORY ? SRAT_MEMORY_BYTES
           : type == SRAT_TYPE_X2APIC ? SRAT_X2APIC_BYTES
                                      : 0;
}

/* Check every structure's length; false with why at the first malformed one. */
static bool check_lengths(const uint8_t *srat, uint32_t len, char *why, size_t why_cap)
{
    if (len < SRAT_FIRST_STRUCT) {
        ksnprintf(why, why_cap, "SRAT is %u bytes, shorter than its %u-byte header", len,
                  SRAT_FIRST_STRUCT);
        return false;
    }
    for (uint32_t at = SRAT_FIRST_STRUCT; at < len;) {
        unsigned type = srat[at], slen = at + 1 < len ? srat[at + 1] : 0;
        unsigned need = needed_bytes(type);
        if (slen < 2 || at + slen > len || (need && slen < need)) {
            ksnprintf(why, why_cap,
                      "SRAT structure at byte %u (type %u) has length %u: it must be %s%u and "
                      "end within the table's %u bytes",
                      at, type, slen, need ? "" : "at least ", need ? need : 2, len);
            return false;
        }
        at += slen;
    }
    return true;
}

/* Add what to t's note (once: later notes of the same kind are dropped). */
static void note(struct plat_numa *t, const char *what)
{
    size_t used = kstrlen(t->note);
    if (used + 2 < sizeof(t->note))
        ksnprintf(t->note + used, sizeof(t->note) - used, "%s%s", used ? "; " : "", what);
}

int srat_node_of_domain(const struct plat_numa *t, uint32_t domain)
{
    for (unsigned i = 0; i < t->nnodes; i++)
        if (t->node[i].domain == domain)
            return (int)i;
    return -1;
}

/* Make a node for every domain an enabled structure names, ascending, at most the limit. */
static void collect_domains(const uint8_t *srat, uint32_t len, struct plat_numa *t)
{
    uint32_t seen[SRAT_DOMAINS_SEEN];
    unsigned n = 0;
    struct srat_entry e;
    for (uint32_t at = SRAT_FIRST_STRUCT; at < len; at += srat[at + 1]) {
        if (!decode(srat + at, &e))
            continue;
        unsigned k = 0;
        while (k < n && seen[k] != e.domain)
            k++;
        if (k == n && n < SRAT_DOMAINS_SEEN)
            seen[n++] = e.domain;
    }
    for (unsigned i = 1; i < n; i++) /* insertion sort: a handful of domains */
        for (unsigned k = i; k > 0 && seen[k - 1] > seen[k]; k--) {
            uint32_t x = seen[k];
            seen[k] = seen[k - 1];
            seen[k - 1] = x;
        }
    if (n > PLAT_NODES_MAX) {
        note(t, "more proximity domains than chase measures: the highest left out");
        n = PLAT_NODES_MAX;
    }
    for (unsigned i = 0; i < n; i++)
        t->node[i].domain = seen[i];
    t->nnodes = n;
}

static void add_processor(struct plat_numa *t, struct plat_node *nd, uint32_t apic_id)
{
    for (unsigned i = 0; i < nd->ncpus; i++)
        if (nd->apic_id[i] == apic_id)
            return; /* listed twice (local APIC and x2APIC structures) */
    if (nd->ncpus == PLAT_CPUS_MAX) {
        note(t, "a node lists more processors than chase uses");
        return;
    }
    nd->apic_id[nd->ncpus] = apic_id;
    nd->cpu[nd->ncpus++] = -1;
}

static void add_memory(struct plat_numa *t, struct plat_node *nd, const struct srat_entry *e)
{
    if (nd->nranges == PLAT_NODE_RANGES_MAX) {
        note(t, "a node lists more memory ranges than chase keeps");
        return;
    }
    nd->range[nd->nranges++] =
        (struct plat_mem_range){e->base, e->size, e->hotplug, e->nonvolatile};
    if (!e->hotplug)
        nd->mem_bytes += e->size;
}

/* SLIT's matrix over the nodes' domains, when it is whole and its values are valid. */
static void read_slit(const uint8_t *slit, struct plat_numa *t)
{
    uint32_t len = acpi_rd32(slit + 4);
    uint64_t loc = len >= SLIT_MATRIX ? acpi_rd64(slit + SLIT_LOCALITIES) : 0;
    if (len < SLIT_MATRIX || loc == 0 || loc > 0xffff || SLIT_MATRIX + loc * loc > len) {
        note(t, "SLIT's length does not hold its localities' matrix: distances unknown");
        return;
    }
    for (unsigned i = 0; i < t->nnodes; i++) {
        for (unsigned k = 0; k < t->nnodes; k++) {
            uint32_t a = t->node[i].domain, b = t->node[k].domain;
            if (a >= loc || b >= loc) {
                note(t, "SLIT has fewer localities than SRAT's domains: distances unknown");
                kmemset(t->distance, 0, sizeof(t->distance));
                return;
            }
            uint8_t d = slit[SLIT_MATRIX + a * loc + b];
            if ((i == k && d != PLAT_DISTANCE_LOCAL) || (i != k && d < PLAT_DISTANCE_LOCAL)) {
                note(t, "SLIT's distances break the spec's rules (10 on the diagonal, 10 or "
                        "more elsewhere): distances unknown");
                kmemset(t->distance, 0, sizeof(t->distance));
                return;
            }
            t->distance[i][k] = d;
        }
    }
    t->slit = true;
}

bool srat_read(const void *srat, const void *slit, struct plat_numa *t, char *why, size_t why_cap)
{
    const uint8_t *s = srat;
    kmemset(t, 0, sizeof(*t));
    uint32_t len = acpi_rd32(s + 4);
    if (!check_lengths(s, len, why, why_cap))
        return false;
    collect_domains(s, len, t);
    struct srat_entry e;
    for (uint32_t at = SRAT_FIRST_STRUCT; at < len; at += s[at + 1]) {
        int node = decode(s + at, &e) ? srat_node_of_domain(t, e.domain) : -1;
        if (node < 0)
            continue;
        if (e.type == SRAT_TYPE_MEMORY)
            add_memory(t, &t->node[node], &e);
        else
            add_processor(t, &t->node[node], e.apic_id);
    }
    ksnprintf(t->source, sizeof(t->source), "ACPI SRAT%s", slit ? ", SLIT" : "");
    if (slit)
        read_slit(slit, t);
    else
        note(t, "no SLIT: distances unknown");
    return true;
}
