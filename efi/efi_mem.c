// SPDX-License-Identifier: MIT
// Memory from the firmware: pool allocations, pages (counted, so chase can show it gave all
// back), and the memory map as the kernel's regions.
#include "efi_internal.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "mp_held.h"
#include "platform.h"

#define EFI_PAGE_BYTES 4096ULL
/* Memory attributes (UEFI 2.10, 7.2 GetMemoryMap): memory chase claims only when asked. */
#define EFI_MEMORY_SP_BIT (1ULL << 18)            /* specific-purpose: CXL, HBM */
#define EFI_MEMORY_HOT_PLUGGABLE_BIT (1ULL << 20) /* may be unplugged at runtime */

/* What chase holds from the firmware right now: every piece must be back when it returns. */
static unsigned long pools_held;
static uint64_t pages_held;
/* Given back after a processor was lost: kept instead (efi_memory_kept). */
static unsigned long pools_kept;
static uint64_t pages_kept;

/*
 * A lost processor may still write what chase allocated (the buffer, the jobs' records) and
 * walk chase's page tables: from then on nothing is given back to the firmware, which could
 * hand it to someone else. Such a run ends with a reset (efi_main), which takes it all back.
 */
static bool processor_lost(void)
{
    const struct mp_held *h = efi_mp_held();
    return h && mp_ctl_must_reset(&h->ctl);
}

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
    if (p && processor_lost()) {
        pools_kept++;
    } else if (p) {
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
    if (processor_lost())
        pages_kept += pages;
    else if (uefi_call_wrapper(BS->FreePages, 2, pa, pages) == EFI_SUCCESS)
        pages_held -= pages;
}

void efi_memory_held(unsigned long *pools, uint64_t *pages)
{
    *pools = pools_held;
    *pages = pages_held;
}

void efi_memory_kept(unsigned long *pools, uint64_t *pages)
{
    *pools = pools_kept;
    *pages = pages_kept;
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
