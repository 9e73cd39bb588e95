// SPDX-License-Identifier: MIT
// Memory nodes on the firmware: ACPI SRAT and SLIT read once, processors matched by APIC ID
// (AArch64: MPIDR), each node's memory in the memory map.
#include "efi_internal.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/acpi.h"
#include "machine/numa_table.h"
#include "machine/srat.h"
#include "platform.h"

#define NODE_ALIGN_BYTES (2ULL << 20) /* what free_bytes is counted in */

/* The tables as read at the first question: firmware facts, like the timers. */
static struct {
    bool read;
    bool ok;
    char why[200];
    struct plat_numa t;
} numa;

static void read_tables(void)
{
    if (numa.read)
        return;
    numa.read = true;
    const void *rsdp = efi_find_rsdp();
    const void *srat = rsdp ? acpi_find_table(rsdp, "SRAT") : NULL;
    if (!rsdp) {
        ksnprintf(numa.why, sizeof(numa.why), "the firmware publishes no ACPI tables");
        return;
    }
    if (!srat) {
        ksnprintf(numa.why, sizeof(numa.why),
                  "the ACPI tables have no SRAT: the firmware describes no memory nodes");
        return;
    }
    numa.ok = srat_read(srat, acpi_find_table(rsdp, "SLIT"), &numa.t, numa.why, sizeof(numa.why));
    if (numa.ok)
        efi_arch_numa_ids(&numa.t, rsdp);
    if (numa.ok && numa.t.nnodes == 0) {
        ksnprintf(numa.why, sizeof(numa.why), "the SRAT lists no enabled processor or memory");
        numa.ok = false;
    }
}

int efi_numa_node_of_apic(uint32_t apic_id)
{
    read_tables();
    for (unsigned i = 0; numa.ok && i < numa.t.nnodes; i++)
        for (unsigned k = 0; k < numa.t.node[i].ncpus; k++)
            if (numa.t.node[i].apic_id[k] == apic_id)
                return (int)i;
    return -1;
}

const struct plat_numa *efi_numa_tables(void)
{
    read_tables();
    return numa.ok ? &numa.t : NULL;
}

unsigned efi_numa_home(void)
{
    int node = efi_numa_node_of_apic(efi_arch_processor_id());
    return node >= 0 ? (unsigned)node : 0;
}

unsigned efi_numa_node_regions(const struct plat_node *nd, struct mem_region **out)
{
    unsigned n, k = 0;
    struct mem_region *r = efi_memory_regions(&n);
    *out = NULL;
    if (!r)
        return 0;
    unsigned cap = n * nd->nranges + 1;
    struct mem_region *in = plat_alloc(cap * sizeof(*in));
    for (unsigned i = 0; in && i < nd->nranges; i++)
        if (!nd->range[i].hotplug)
            k += memmap_clip(r, n, nd->range[i].base, nd->range[i].size_bytes, in + k, cap - k);
    plat_free(r);
    *out = in;
    return k;
}

/* The processors' platform ids by APIC ID, and each node's largest free span. */
static void complete(struct plat_numa *t)
{
    char why[160];
    unsigned enabled, held, failed;
    plat_cpus_total(&enabled, &held, &failed);
    struct plat_cpu *cpus = plat_alloc((held ? held : 1) * sizeof(*cpus));
    unsigned n = cpus ? plat_cpus(cpus, held, why, sizeof(why)) : 0;
    for (unsigned i = 0; i < t->nnodes; i++) {
        struct plat_node *nd = &t->node[i];
        for (unsigned k = 0; k < nd->ncpus; k++)
            for (unsigned c = 0; c < n; c++)
                if (cpus[c].apic_id == nd->apic_id[k] && !cpus[c].lost)
                    nd->cpu[k] = (int)cpus[c].id;
        struct mem_region *r;
        unsigned k = efi_numa_node_regions(nd, &r);
        nd->free_bytes = memmap_largest_usable(r, k, NODE_ALIGN_BYTES);
        plat_free(r);
    }
    plat_free(cpus);
}

unsigned plat_numa(struct plat_numa *t, char *why, size_t why_cap)
{
    read_tables();
    if (!numa.ok) {
        ksnprintf(why, why_cap, "%s", numa.why);
        return 0;
    }
    if (!numa_table_copy(t, &numa.t)) {
        ksnprintf(why, why_cap, "no memory for a copy of the %u memory nodes", numa.t.nnodes);
        return 0;
    }
    complete(t);
    return t->nnodes;
}
