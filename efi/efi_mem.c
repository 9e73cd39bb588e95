// SPDX-License-Identifier: MIT
// Memory from the firmware: pool allocations, the memory map, and the chase buffer's pages.
#include "efi_internal.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/placement.h"
#include "platform.h"

#define EFI_PAGE_BYTES 4096ULL
#define PAGE_1G_BYTES (1ULL << 30)
/* Memory attributes (UEFI 2.10, 7.2 GetMemoryMap): memory chase claims only when asked. */
#define EFI_MEMORY_SP_BIT (1ULL << 18)            /* specific-purpose: CXL, HBM */
#define EFI_MEMORY_HOT_PLUGGABLE_BIT (1ULL << 20) /* may be unplugged at runtime */
#define PLACE_TRIES 3 /* the map read, placed and claimed again when a pool took the place */
/* Left to the firmware for its own pools (file writes, console) while chase runs. */
#define FIRMWARE_RESERVE_BYTES (16ULL << 20)

/* What chase holds from the firmware right now: every piece must be back when it returns. */
static unsigned long pools_held;
static uint64_t pages_held;
/* The machine described at start: its memory types decide where the buffer may go. */
static struct machine *machine_seen;

void *plat_alloc(size_t n)
{
    void *p = NULL;
    if (uefi_call_wrapper(BS->AllocatePool, 3, EfiLoaderData, n ? n : 1, &p) != EFI_SUCCESS)
        return NULL;
    pools_held++;
    kmemset(p, 0, n);
    return p;
}

void plat_free(void *p)
{
    if (p) {
        uefi_call_wrapper(BS->FreePool, 1, p);
        pools_held--;
    }
}

EFI_STATUS efi_pages_alloc(EFI_ALLOCATE_TYPE type, UINTN pages, EFI_PHYSICAL_ADDRESS *pa)
{
    EFI_STATUS st = uefi_call_wrapper(BS->AllocatePages, 4, type, EfiLoaderData, pages, pa);
    if (st == EFI_SUCCESS)
        pages_held += pages;
    return st;
}

int efi_pages_alloc_at(uint64_t addr, uint64_t size, char *why, size_t why_cap)
{
    EFI_PHYSICAL_ADDRESS pa = addr;
    EFI_STATUS st = efi_pages_alloc(AllocateAddress, size / EFI_PAGE_BYTES, &pa);
    if (st == EFI_SUCCESS)
        return 0;
    ksnprintf(why, why_cap, "AllocatePages at 0x%llx for %llu bytes failed (status 0x%llx)",
              (unsigned long long)addr, (unsigned long long)size, (unsigned long long)st);
    return -1;
}

void efi_pages_free(EFI_PHYSICAL_ADDRESS pa, UINTN pages)
{
    if (uefi_call_wrapper(BS->FreePages, 2, pa, pages) == EFI_SUCCESS)
        pages_held -= pages;
}

void efi_memory_held(unsigned long *pools, uint64_t *pages)
{
    *pools = pools_held;
    *pages = pages_held;
}

static enum mem_type region_type(UINT32 efi_type, UINT64 attributes)
{
    switch (efi_type) {
    case EfiConventionalMemory:
        return attributes & (EFI_MEMORY_SP_BIT | EFI_MEMORY_HOT_PLUGGABLE_BIT) ? MEM_SPECIAL
                                                                               : MEM_USABLE;
    case EfiLoaderCode:
    case EfiLoaderData:
    case EfiBootServicesCode:
    case EfiBootServicesData:
    case EfiRuntimeServicesCode:
    case EfiRuntimeServicesData:
        return MEM_FIRMWARE;
    case EfiMemoryMappedIO:
    case EfiMemoryMappedIOPortSpace:
        return MEM_MMIO;
    default:
        return MEM_RESERVED;
    }
}

struct mem_region *efi_memory_regions(unsigned *count)
{
    UINTN size = 0, key, desc_size;
    UINT32 desc_version;
    EFI_MEMORY_DESCRIPTOR *map = NULL;
    EFI_STATUS st;
    *count = 0;
    for (int tries = 0; tries < 4; tries++) {
        st = uefi_call_wrapper(BS->GetMemoryMap, 5, &size, map, &key, &desc_size, &desc_version);
        if (st != EFI_BUFFER_TOO_SMALL)
            break;
        plat_free(map);
        size += 8 * sizeof(EFI_MEMORY_DESCRIPTOR); /* room for the pool allocation itself */
        map = plat_alloc(size);
        if (!map)
            return NULL;
    }
    if (st != EFI_SUCCESS) {
        plat_free(map);
        return NULL;
    }
    unsigned n = (unsigned)(size / desc_size);
    struct mem_region *r = plat_alloc(3 * n * sizeof(*r) + sizeof(*r));
    if (r) {
        for (unsigned i = 0; i < n; i++) {
            EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)((UINT8 *)map + i * desc_size);
            r[i].base = d->PhysicalStart;
            r[i].size = d->NumberOfPages * EFI_PAGE_BYTES;
            r[i].type = region_type(d->Type, d->Attribute);
        }
        *count = memmap_normalize(r, n);
    }
    plat_free(map);
    return r;
}

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
