// SPDX-License-Identifier: MIT
// The probes' (probe.efi, probeaa64.efi) count of free memory: the pages of every
// EfiConventionalMemory descriptor in the firmware's memory map, 0 when the map cannot be read.
#ifndef CHASE_EFI_PROBE_PAGES_H
#define CHASE_EFI_PROBE_PAGES_H

#include <efi.h>
#include <efilib.h>

static UINT64 free_pages(void)
{
    UINTN size = 0, key, desc_size;
    UINT32 version;
    EFI_MEMORY_DESCRIPTOR *map = NULL;
    UINT64 pages = 0;
    uefi_call_wrapper(BS->GetMemoryMap, 5, &size, map, &key, &desc_size, &version);
    size += 16 * sizeof(EFI_MEMORY_DESCRIPTOR);
    if (uefi_call_wrapper(BS->AllocatePool, 3, EfiLoaderData, size, (void **)&map) != EFI_SUCCESS)
        return 0;
    if (uefi_call_wrapper(BS->GetMemoryMap, 5, &size, map, &key, &desc_size, &version) ==
        EFI_SUCCESS) {
        for (UINTN off = 0; off < size; off += desc_size) {
            EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)((UINT8 *)map + off);
            if (d->Type == EfiConventionalMemory)
                pages += d->NumberOfPages;
        }
    }
    uefi_call_wrapper(BS->FreePool, 1, map);
    return pages;
}

#endif
