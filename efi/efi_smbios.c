// SPDX-License-Identifier: MIT
// Finding the SMBIOS tables through the EFI configuration table (the SMBIOS 3 entry point
// first, the 2.x one where that is missing or not valid) and handing their bytes to the kernel.
#include "efi_internal.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/smbios.h"

static EFI_GUID smbios3_guid = SMBIOS3_TABLE_GUID;
static EFI_GUID smbios2_guid = SMBIOS_TABLE_GUID;

static const uint8_t *config_table(EFI_GUID *guid)
{
    for (UINTN i = 0; i < ST->NumberOfTableEntries; i++) {
        EFI_CONFIGURATION_TABLE *t = &ST->ConfigurationTable[i];
        if (kmemcmp(&t->VendorGuid, guid, sizeof(EFI_GUID)) == 0)
            return t->VendorTable;
    }
    return NULL;
}

/* Parse the entry point at p (whose length its own header gives) and the table it names. */
static bool read_tables(const uint8_t *p, size_t ep_bytes, struct smbios_info *s, char *why,
                        size_t cap)
{
    struct smbios_entry e;
    if (!smbios_entry_parse(p, ep_bytes, &e, why, cap))
        return false;
    if (!e.table_addr) {
        ksnprintf(why, cap, "the entry point gives no table address");
        return false;
    }
    /* firmware memory is identity-mapped; the walk stops at the end structure (type 127) */
    size_t len = e.table_bytes < SMBIOS_TABLE_MAX ? e.table_bytes : SMBIOS_TABLE_MAX;
    smbios_table_parse((const uint8_t *)(UINTN)e.table_addr, len, &e, s);
    return true;
}

void efi_describe_smbios(struct machine_identity *id)
{
    const uint8_t *ep3 = config_table(&smbios3_guid), *ep2 = config_table(&smbios2_guid);
    char why3[96] = "";
    if (!ep3 && !ep2) {
        kstrlcpy(id->smbios_why, "the firmware's configuration table holds no SMBIOS entry point",
                 sizeof(id->smbios_why));
        return;
    }
    struct smbios_info *s = plat_alloc(sizeof(*s));
    if (!s) {
        kstrlcpy(id->smbios_why, "out of memory", sizeof(id->smbios_why));
        return;
    }
    char why2[96] = "";
    if (ep3 && read_tables(ep3, SMBIOS_EP3_BYTES, s, why3, sizeof(why3))) {
        ksnprintf(id->smbios_source, sizeof(id->smbios_source),
                  "EFI configuration table: SMBIOS 3 entry point, table at 0x%llx",
                  (unsigned long long)s->entry.table_addr);
    } else if (ep2 && read_tables(ep2, SMBIOS_EP2_BYTES, s, why2, sizeof(why2))) {
        ksnprintf(id->smbios_source, sizeof(id->smbios_source),
                  "EFI configuration table: SMBIOS 2.x entry point, table at 0x%llx%s%s%s",
                  (unsigned long long)s->entry.table_addr, ep3 ? " (the SMBIOS 3 one: " : "", why3,
                  ep3 ? ")" : "");
    } else {
        ksnprintf(id->smbios_why, sizeof(id->smbios_why), "%s%s%s", why3, ep3 && ep2 ? "; " : "",
                  why2);
        plat_free(s);
        return;
    }
    id->smbios_why[0] = '\0';
    id->smbios = s;
}

void efi_smbios_release(struct machine_identity *id)
{
    plat_free((void *)id->smbios);
    id->smbios = NULL;
}
