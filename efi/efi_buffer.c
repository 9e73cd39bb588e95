// SPDX-License-Identifier: MIT
// The chase buffers on the firmware: placed in the memory map by kernel/machine/placement.c
// (write-back memory, in the boot processor's node or the one asked for), claimed with
// AllocatePages and mapped by chase's page tables; the page tables' own pages placed alike.
#include "efi_internal.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/placement.h"
#include "platform.h"

#define EFI_PAGE_BYTES 4096ULL
#define PAGE_1G_BYTES (1ULL << 30)
#define PLACE_TRIES 3 /* the map read, placed and claimed again when a pool took the place */
/* Left to the firmware for its own pools (file writes, console) while chase runs. */
#define FIRMWARE_RESERVE_BYTES (16ULL << 20)

/* The machine described at start: its memory types decide where the buffer may go. */
static struct machine *machine_seen;

const struct memtype_regs *efi_memtypes(void)
{
    return machine_seen ? &machine_seen->memtype : NULL;
}

void efi_describe_memory(struct machine *m)
{
    unsigned n;
    machine_seen = m;
    struct mem_region *r = efi_memory_regions(&n);
    if (!r)
        return;
    m->memory_total_bytes = memmap_ram_bytes(r, n);
    uint64_t largest = memmap_largest_usable(r, n, 2ULL << 20);
    m->buffer_limit_bytes = largest > FIRMWARE_RESERVE_BYTES ? largest - FIRMWARE_RESERVE_BYTES : 0;
    plat_free(r);
}

/* Where the memtype_test key says the memory is UC (tests only). */
static void memtype_test_range(struct memtype_regs *t, uint64_t addr, uint64_t size)
{
    if (machine_seen->memtype_test == MEMTYPE_TEST_UC_ALL) {
        t->test_uc_base = 0;
        t->test_uc_bytes = UINT64_MAX;
    } else if (machine_seen->memtype_test == MEMTYPE_TEST_UC_FIRST && !t->test_uc_bytes) {
        t->test_uc_base = addr;
        t->test_uc_bytes = size;
    }
}

/* The memory nodes, or NULL: placement then ignores nodes. */
static const struct plat_numa *nodes(void)
{
    const struct plat_numa *t = efi_numa_tables();
    return t && t->nnodes ? t : NULL;
}

/* Place per q; with the memtype_test key, pretend the first place is UC and place again. */
static bool place_tested(const struct mem_region *r, unsigned n, const struct place_request *q,
                         struct place_result *res, char *why, size_t why_cap)
{
    struct memtype_regs *t = &machine_seen->memtype;
    if (t->read && machine_seen->memtype_test == MEMTYPE_TEST_UC_ALL)
        memtype_test_range(t, 0, 0);
    bool placed = place_in_nodes(r, n, nodes(), q, res, why, why_cap);
    if (placed && t->read && machine_seen->memtype_test == MEMTYPE_TEST_UC_FIRST &&
        !t->test_uc_bytes) {
        memtype_test_range(t, res->addr, q->size); /* pretend that place is UC: chase must move */
        placed = place_in_nodes(r, n, nodes(), q, res, why, why_cap);
    }
    return placed;
}

/* Say how the buffer's place was chosen, and in which node. */
static void describe_place(const struct place_result *res, struct plat_buffer *b)
{
    bool types = machine_seen->memtype.read;
    b->placement = !types              ? "highest free (memory types not read)"
                   : res->big_pages_wb ? "write-back, 1 GiB pages over it write-back"
                                       : "write-back; the 1 GiB pages around it are not, so "
                                         "smaller pages there";
    b->node_known = res->node >= 0;
    b->node = res->node >= 0 ? (unsigned)res->node : 0;
    kstrlcpy(b->node_note, res->note, sizeof(b->node_note));
}

/* Choose the buffer's place; false with the reason in why. */
static bool place_buffer(const struct mem_region *r, unsigned n, uint64_t size, uint64_t align,
                         uint64_t *addr, struct plat_buffer *b, char *why, size_t why_cap)
{
    struct memtype_regs *t = &machine_seen->memtype;
    if (!memmap_place(r, n, size, align, addr)) {
        ksnprintf(why, why_cap, "no free memory region holds %llu bytes aligned to %llu",
                  (unsigned long long)size, (unsigned long long)align);
        return false;
    }
    struct place_request q = {size,           align, t, PAGE_1G_BYTES, machine_seen->buffer_node,
                              efi_numa_home()};
    struct place_result res;
    char node_why[240];
    if (!place_tested(r, n, &q, &res, node_why, sizeof(node_why))) {
        if (!nodes() && q.node == PLACE_NODE_HOME)
            ksnprintf(node_why, sizeof(node_why),
                      "no free memory region holds %llu bytes aligned to %llu in write-back memory",
                      (unsigned long long)size, (unsigned long long)align);
        ksnprintf(why, why_cap,
                  "%s (MTRR default type %s%s); run.json's memory_types lists the MTRRs", node_why,
                  memtype_name((unsigned)(t->mtrr_def_type & MTRR_DEF_TYPE_MASK)),
                  t->test_uc_bytes ? ", and the memtype_test key made some of it UC" : "");
        return false;
    }
    *addr = res.addr;
    describe_place(&res, b);
    return true;
}

/* Read the map, place and claim the buffer (again when a pool took the place meanwhile). */
static int claim_buffer(uint64_t size, uint64_t align, struct plat_buffer *b, char *why,
                        size_t why_cap)
{
    for (unsigned tries = 0; tries < PLACE_TRIES; tries++) {
        unsigned n;
        struct mem_region *r = efi_memory_regions(&n);
        if (!r) {
            ksnprintf(why, why_cap, "the firmware memory map could not be read");
            return -1;
        }
        uint64_t addr = 0;
        bool placed = place_buffer(r, n, size, align, &addr, b, why, why_cap);
        plat_free(r);
        if (!placed)
            return -1;
        if (efi_pages_alloc_at(addr, size, why, why_cap) == 0) {
            b->phys = addr;
            return 0;
        }
    }
    return -1;
}

int plat_buffer_alloc(uint64_t size_bytes, uint64_t align_bytes, struct plat_buffer *b, char *why,
                      size_t why_cap)
{
    kmemset(b, 0, sizeof(*b));
    uint64_t size = (size_bytes + align_bytes - 1) / align_bytes * align_bytes;
    if (claim_buffer(size, align_bytes, b, why, why_cap) != 0)
        return -1;
    b->virt = (uint8_t *)(uintptr_t)b->phys; /* the firmware identity-maps memory */
    b->size_bytes = size;
    if (efi_paging_map_buffer(b, why, why_cap) != 0) {
        efi_pages_free(b->phys, size / EFI_PAGE_BYTES);
        b->virt = NULL;
        return -1;
    }
    return 0;
}

int efi_pages_alloc_home(uint64_t bytes, EFI_PHYSICAL_ADDRESS *pa, int *node)
{
    *node = -1;
    if (!nodes() || !machine_seen)
        return efi_pages_alloc(AllocateAnyPages, bytes / EFI_PAGE_BYTES, pa) == EFI_SUCCESS ? 0
                                                                                            : -1;
    struct place_request q = {bytes, EFI_PAGE_BYTES,  &machine_seen->memtype,
                              0,     PLACE_NODE_HOME, efi_numa_home()};
    for (unsigned tries = 0; tries < PLACE_TRIES; tries++) {
        unsigned n;
        struct place_result res;
        char why[240];
        struct mem_region *r = efi_memory_regions(&n);
        bool placed = r && place_in_nodes(r, n, nodes(), &q, &res, why, sizeof(why));
        plat_free(r);
        if (!placed)
            return -1;
        if (efi_pages_alloc_at(res.addr, bytes, why, sizeof(why)) == 0) {
            *pa = res.addr;
            *node = res.node;
            return 0;
        }
    }
    return -1;
}

void plat_buffer_free(struct plat_buffer *b)
{
    efi_paging_release();
    if (b->virt)
        efi_pages_free((EFI_PHYSICAL_ADDRESS)b->phys, b->size_bytes / EFI_PAGE_BYTES);
    b->virt = NULL;
}

/* Place size bytes in node's write-back memory; false with why. */
static bool place_in_node(unsigned node, uint64_t size, uint64_t align, uint64_t *addr, char *why,
                          size_t why_cap)
{
    const struct plat_node *nd = &efi_numa_tables()->node[node];
    struct mem_region *r;
    unsigned k = efi_numa_node_regions(nd, &r);
    const struct memtype_regs *types = efi_memtypes();
    bool placed = memmap_place_wb(r, k, size, align, types, 0, addr);
    if (!placed)
        ksnprintf(why, why_cap,
                  "node %u (domain %u) has no free write-back span of %llu bytes aligned to "
                  "%llu; its largest free span is %llu bytes",
                  node, nd->domain, (unsigned long long)size, (unsigned long long)align,
                  (unsigned long long)memmap_largest_usable(r, k, align));
    plat_free(r);
    return placed;
}

int plat_node_buffer_alloc(unsigned node, uint64_t size_bytes, uint64_t align_bytes,
                           struct plat_buffer *b, char *why, size_t why_cap)
{
    kmemset(b, 0, sizeof(*b));
    const struct plat_numa *t = efi_numa_tables();
    if (!t || node >= t->nnodes) {
        ksnprintf(why, why_cap, "no memory node %u (the SRAT lists %u)", node, t ? t->nnodes : 0);
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
    unsigned n;
    struct mem_region *r = efi_memory_regions(&n);
    if (r && place_in_special(r, n, pa, size))
        b->placement = "special-purpose memory (EFI_MEMORY_SP or hot-pluggable) inside the node's "
                       "SRAT ranges: a tier target, never the main buffer";
    plat_free(r);
    return 0;
}

void plat_node_buffer_free(struct plat_buffer *b)
{
    if (b->virt)
        efi_pages_free((EFI_PHYSICAL_ADDRESS)b->phys, b->size_bytes / EFI_PAGE_BYTES);
    b->virt = NULL;
}
