// SPDX-License-Identifier: MIT
// The ACPI tables' root from the EFI configuration table, for every architecture.
#include "efi_internal.h"
#include "lib/kstring.h"

static EFI_GUID acpi20_guid = ACPI_20_TABLE_GUID;
static EFI_GUID acpi10_guid = ACPI_TABLE_GUID;

const void *efi_find_rsdp(void)
{
    const void *v1 = NULL;
    for (UINTN i = 0; i < ST->NumberOfTableEntries; i++) {
        EFI_CONFIGURATION_TABLE *t = &ST->ConfigurationTable[i];
        if (kmemcmp(&t->VendorGuid, &acpi20_guid, sizeof(EFI_GUID)) == 0)
            return t->VendorTable;
        if (kmemcmp(&t->VendorGuid, &acpi10_guid, sizeof(EFI_GUID)) == 0)
            v1 = t->VendorTable;
    }
    return v1;
}
