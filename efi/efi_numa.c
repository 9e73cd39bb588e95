// SPDX-License-Identifier: MIT
// Memory nodes on the firmware: ACPI SRAT and SLIT read once, processors matched by APIC ID
// (AArch64: MPIDR), each node's memory in the memory map.
#include "efi_internal.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/acpi.h"
#include "machine/hmat.h"
#include "machine/numa_table.h"
#include "machine/placement.h"
#include "machine/srat.h"
#include "platform.h"

#define NODE_ALIGN_BYTES (2ULL << 20) /* what free_bytes is counted in */

/* The tables as read at the first question: firmware facts, like the timers. */
static struct {
    bool read;
    bool ok;
    char why[200];
    struct plat_numa t;
    bool hmat_ok;
    char hmat_why[200];
    struct hmat hmat;
} numa;

/* The HMAT, when the tables have one: read with the SRAT, a firmware fact like it. */
static void read_hmat(const void *rsdp)
{
    const uint8_t *h = rsdp ? acpi_find_table(rsdp, "HMAT") : NULL;
    if (!h)
        ksnprintf(numa.hmat_why, sizeof(numa.hmat_why), "the ACPI tables have no HMAT");
    else
        numa.hmat_ok =
            hmat_read(h, acpi_rd32(h + 4), &numa.hmat, numa.hmat_why, sizeof(numa.hmat_why));
}

static void read_tables(void)
{
    if (numa.read)
        return;
    numa.read = true;
    const void *rsdp = efi_find_rsdp();
    const void *srat = rsdp ? acpi_find_table(rsdp, "SRAT") : NULL;
    read_hmat(rsdp);
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

const struct hmat *plat_hmat(char *why, size_t why_cap)
{
    read_tables();
    if (!numa.hmat_ok)
        ksnprintf(why, why_cap, "%s", numa.hmat_why);
    return numa.hmat_ok ? &numa.hmat : NULL;
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
    unsigned cap = n + nd->nranges + 1;
    struct mem_region *in = plat_alloc(cap * sizeof(*in));
    if (in) /* asked for by node: special-purpose and hot-pluggable memory count */
        k = place_node_map(r, n, nd, true, in, cap);
    plat_free(r);
    *out = in;
    return k;
}

/* The processors' platform ids by APIC ID, and each node's largest free span (for a buffer in
   that node: special-purpose and hot-pluggable memory included) and special-purpose memory. */
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
    }
    plat_free(cpus);
    unsigned nr;
    struct mem_region *r = efi_memory_regions(&nr);
    if (r) /* special-purpose memory counted: a tier target, never the main buffer */
        place_node_space(r, nr, t, NODE_ALIGN_BYTES);
    plat_free(r);
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
