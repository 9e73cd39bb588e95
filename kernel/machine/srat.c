// SPDX-License-Identifier: MIT
// Memory nodes from the ACPI SRAT (processor and memory affinity) and SLIT (distances).
#include "machine/srat.h"

#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/acpi.h"
#include "machine/arm_smp.h"
#include "machine/numa_table.h"

/* One enabled SRAT entry, as the two passes see it. */
struct srat_entry {
    unsigned type;
    uint32_t domain;
    uint32_t apic_id;    /* processors: APIC ID, or GICC's ACPI processor UID */
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
    if (e->type == SRAT_TYPE_GICC) {
        e->domain = acpi_rd32(s + 2);
        e->apic_id = acpi_rd32(s + 6);
        return (acpi_rd32(s + 10) & SRAT_ENABLED) != 0;
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
    return false; /* GIC ITS, generic initiators and ports: neither processors nor memory */
}

/* The bytes a known structure type needs (0: any length of at least 2). */
static unsigned needed_bytes(unsigned type)
{
    return type == SRAT_TYPE_LAPIC    ? SRAT_LAPIC_BYTES
           : type == SRAT_TYPE_MEMORY ? SRAT_MEMORY_BYTES
           : type == SRAT_TYPE_X2APIC ? SRAT_X2APIC_BYTES
           : type == SRAT_TYPE_GICC   ? SRAT_GICC_BYTES
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

/* Sort domains ascending (insertion sort: tens of domains, at most a few hundred). */
static void sort_domains(uint32_t *d, unsigned n)
{
    for (unsigned i = 1; i < n; i++)
        for (unsigned k = i; k > 0 && d[k - 1] > d[k]; k--) {
            uint32_t x = d[k];
            d[k] = d[k - 1];
            d[k - 1] = x;
        }
}

/*
 * Every domain an enabled structure names, ascending, into a fresh array (*n of them); the
 * count of enabled structures bounds it. NULL when memory is short.
 */
static uint32_t *collect_domains(const uint8_t *srat, uint32_t len, unsigned *n)
{
    unsigned cap = 0;
    struct srat_entry e;
    for (uint32_t at = SRAT_FIRST_STRUCT; at < len; at += srat[at + 1])
        cap += decode(srat + at, &e);
    uint32_t *seen = plat_alloc((cap ? cap : 1) * sizeof(*seen));
    *n = 0;
    for (uint32_t at = SRAT_FIRST_STRUCT; seen && at < len; at += srat[at + 1]) {
        if (!decode(srat + at, &e))
            continue;
        unsigned k = 0;
        while (k < *n && seen[k] != e.domain)
            k++;
        if (k == *n)
            seen[(*n)++] = e.domain;
    }
    if (seen)
        sort_domains(seen, *n);
    return seen;
}

/* The node index of domain in the sorted domains d (n of them), or -1. */
static int domain_index(const uint32_t *d, unsigned n, uint32_t domain)
{
    unsigned lo = 0, hi = n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (d[mid] < domain)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && d[lo] == domain ? (int)lo : -1;
}

/*
 * Size the table from the SRAT: the nodes of the n domains d, each with room for the processor
 * and memory structures naming it (a processor listed twice is counted twice, kept once).
 */
static bool size_table(const uint8_t *srat, uint32_t len, const uint32_t *d, unsigned n,
                       struct plat_numa *t)
{
    unsigned *counts = plat_alloc(2 * (n ? n : 1) * sizeof(unsigned));
    if (!counts)
        return false;
    struct srat_entry e;
    for (uint32_t at = SRAT_FIRST_STRUCT; at < len; at += srat[at + 1]) {
        int i = decode(srat + at, &e) ? domain_index(d, n, e.domain) : -1;
        if (i >= 0)
            counts[(e.type == SRAT_TYPE_MEMORY ? n : 0) + (unsigned)i]++;
    }
    bool ok = numa_table_alloc(t, n, counts, counts + n);
    plat_free(counts);
    for (unsigned i = 0; ok && i < n; i++)
        t->node[i].domain = d[i];
    return ok;
}

static void add_processor(struct plat_node *nd, uint32_t apic_id)
{
    for (unsigned i = 0; i < nd->ncpus; i++)
        if (nd->apic_id[i] == apic_id)
            return; /* listed twice (local APIC and x2APIC structures) */
    nd->apic_id[nd->ncpus] = apic_id;
    nd->cpu[nd->ncpus++] = -1;
}

static void add_memory(struct plat_node *nd, const struct srat_entry *e)
{
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
                kmemset(t->distance, 0, (size_t)t->nnodes * t->nnodes);
                return;
            }
            uint8_t d = slit[SLIT_MATRIX + (uint64_t)a * loc + b];
            if ((i == k && d != PLAT_DISTANCE_LOCAL) || (i != k && d < PLAT_DISTANCE_LOCAL)) {
                note(t, "SLIT's distances break the spec's rules (10 on the diagonal, 10 or "
                        "more elsewhere): distances unknown");
                kmemset(t->distance, 0, (size_t)t->nnodes * t->nnodes);
                return;
            }
            t->distance[i * t->nnodes + k] = d;
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
    unsigned n;
    uint32_t *domains = collect_domains(s, len, &n);
    bool sized = domains && size_table(s, len, domains, n, t);
    plat_free(domains);
    if (!sized) {
        ksnprintf(why, why_cap, "no memory for the SRAT's nodes (%u bytes of table)", len);
        return false;
    }
    struct srat_entry e;
    for (uint32_t at = SRAT_FIRST_STRUCT; at < len; at += s[at + 1]) {
        int node = decode(s + at, &e) ? srat_node_of_domain(t, e.domain) : -1;
        if (node < 0)
            continue;
        if (e.type == SRAT_TYPE_MEMORY)
            add_memory(&t->node[node], &e);
        else
            add_processor(&t->node[node], e.apic_id);
    }
    ksnprintf(t->source, sizeof(t->source), "ACPI SRAT%s", slit ? ", SLIT" : "");
    if (slit)
        read_slit(slit, t);
    else
        note(t, "no SLIT: distances unknown");
    return true;
}

void srat_gicc_to_mpidr(struct plat_numa *t, const void *madt)
{
    unsigned missing = 0;
    for (unsigned i = 0; i < t->nnodes; i++)
        for (unsigned k = 0; k < t->node[i].ncpus; k++) {
            uint64_t mpidr;
            if (madt && arm_madt_gicc_of_uid(madt, t->node[i].apic_id[k], &mpidr))
                t->node[i].apic_id[k] = arm_mpidr_id(mpidr);
            else {
                t->node[i].apic_id[k] = SRAT_ID_NONE;
                missing++;
            }
        }
    if (missing)
        note(t, "a GICC affinity names an ACPI processor UID that the MADT lacks: that "
                "processor's node unknown");
}
