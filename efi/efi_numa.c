// SPDX-License-Identifier: MIT
// Memory nodes on the firmware: ACPI SRAT and SLIT read once, processors matched by APIC ID,
// and chase buffers placed in write-back memory inside one node's SRAT ranges.
#include "arch/cpu.h"
#include "efi_internal.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/acpi.h"
#include "machine/srat.h"
#include "platform.h"

#define EFI_PAGE_BYTES 4096ULL
#define NODE_ALIGN_BYTES (2ULL << 20) /* what free_bytes is counted in */
#define CPUID_LEAF_FEATURES 1
#define CPUID_LEAF_X2APIC 0xb       /* EDX: this processor's x2APIC ID (SDM vol. 2A, CPUID) */
#define CPUID_INITIAL_APIC_SHIFT 24 /* leaf 1 EBX[31:24]: the initial xAPIC ID */

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
    if (numa.ok && numa.t.nnodes == 0) {
        ksnprintf(numa.why, sizeof(numa.why), "the SRAT lists no enabled processor or memory");
        numa.ok = false;
    }
}

unsigned efi_numa_node_of_apic(uint32_t apic_id)
{
    read_tables();
    for (unsigned i = 0; numa.ok && i < numa.t.nnodes; i++)
        for (unsigned k = 0; k < numa.t.node[i].ncpus; k++)
            if (numa.t.node[i].apic_id[k] == apic_id)
                return i;
    return 0;
}

/* The APIC ID of the processor this runs on (the boot processor's, when chase asks). */
static uint32_t apic_id_here(void)
{
    uint32_t r[4];
    arch_cpuid(0, 0, r);
    uint32_t max = r[0];
    if (max >= CPUID_LEAF_X2APIC) {
        arch_cpuid(CPUID_LEAF_X2APIC, 0, r);
        if (r[1]) /* EBX 0: the leaf is not implemented */
            return r[3];
    }
    arch_cpuid(CPUID_LEAF_FEATURES, 0, r);
    return r[1] >> CPUID_INITIAL_APIC_SHIFT;
}

const struct plat_numa *efi_numa_tables(void)
{
    read_tables();
    return numa.ok ? &numa.t : NULL;
}

unsigned efi_numa_home(void)
{
    return efi_numa_node_of_apic(apic_id_here());
}

/* The usable memory map inside node's ranges that may take a buffer (not hot-pluggable). */
static unsigned node_regions(const struct plat_node *nd, struct mem_region **out)
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
        unsigned k = node_regions(nd, &r);
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
    *t = numa.t;
    complete(t);
    return t->nnodes;
}

/* Place size bytes in node's write-back memory; false with why. */
static bool place_in_node(unsigned node, uint64_t size, uint64_t align, uint64_t *addr, char *why,
                          size_t why_cap)
{
    struct mem_region *r;
    unsigned k = node_regions(&numa.t.node[node], &r);
    const struct memtype_regs *types = efi_memtypes();
    bool placed = memmap_place_wb(r, k, size, align, types, 0, addr);
    if (!placed)
        ksnprintf(why, why_cap,
                  "node %u (domain %u) has no free write-back span of %llu bytes aligned to "
                  "%llu; its largest free span is %llu bytes",
                  node, numa.t.node[node].domain, (unsigned long long)size,
                  (unsigned long long)align,
                  (unsigned long long)memmap_largest_usable(r, k, align));
    plat_free(r);
    return placed;
}

int plat_node_buffer_alloc(unsigned node, uint64_t size_bytes, uint64_t align_bytes,
                           struct plat_buffer *b, char *why, size_t why_cap)
{
    kmemset(b, 0, sizeof(*b));
    read_tables();
    if (!numa.ok || node >= numa.t.nnodes) {
        ksnprintf(why, why_cap, "no memory node %u (the SRAT lists %u)", node,
                  numa.ok ? numa.t.nnodes : 0);
        return -1;
    }
    uint64_t size = (size_bytes + align_bytes - 1) / align_bytes * align_bytes, addr = 0;
    if (!place_in_node(node, size, align_bytes, &addr, why, why_cap))
        return -1;
    EFI_PHYSICAL_ADDRESS pa = addr;
    if (efi_pages_alloc_at(addr, size, why, why_cap) != 0)
        return -1;
    const struct memtype_regs *types = efi_memtypes();
    b->virt = (uint8_t *)(uintptr_t)pa; /* identity-mapped, by the firmware and by chase */
    b->phys = pa;
    b->size_bytes = size;
    b->align_bytes = align_bytes;
    b->page_bytes = efi_paging_page_at(pa);
    b->page_source = "own page tables, largest page (identity map)";
    b->mem_type = types && types->read ? memtype_name(memtype_range(types, pa, size, 0)) : NULL;
    b->placement = "write-back span inside the node's SRAT ranges";
    return 0;
}

void plat_node_buffer_free(struct plat_buffer *b)
{
    if (b->virt)
        efi_pages_free((EFI_PHYSICAL_ADDRESS)b->phys, b->size_bytes / EFI_PAGE_BYTES);
    b->virt = NULL;
}
