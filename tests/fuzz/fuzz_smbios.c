// SPDX-License-Identifier: MIT
// libFuzzer target: the SMBIOS entry point and structure table reader and the memory summary.
// The input is one byte n, then an entry point of n bytes, then the structure table's bytes;
// the whole input is also read as a table that an entry point allows to be as long as it is.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "machine/smbios.h"

static struct smbios_info info;

static void summarize(const struct smbios_info *s)
{
    char text[256], tiny[8];
    smbios_memory_summary(s, text, sizeof(text));
    smbios_memory_summary(s, tiny, sizeof(tiny)); /* cut short: must stay terminated */
    if (strlen(text) >= sizeof(text) || strlen(tiny) >= sizeof(tiny))
        abort();
    for (unsigned i = 0; i < s->ndevices; i++)
        if (!smbios_memtype_name(s->device[i].type) ||
            !smbios_form_factor_name(s->device[i].form_factor))
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[160];
    if (size >= 1) {
        size_t n = data[0] < size - 1 ? data[0] : size - 1;
        /* copies, so reading one byte past either part is caught */
        uint8_t *ep = malloc(n ? n : 1), *table = malloc(size - 1 - n ? size - 1 - n : 1);
        memcpy(ep, data + 1, n);
        memcpy(table, data + 1 + n, size - 1 - n);
        if (smbios_read(ep, n, table, size - 1 - n, &info, why, sizeof(why)))
            summarize(&info);
        free(ep);
        free(table);
    }
    struct smbios_entry e = {.is64 = true, .major = 3, .table_bytes = (uint32_t)size};
    uint8_t *whole = malloc(size ? size : 1);
    memcpy(whole, data, size);
    smbios_table_parse(whole, size, &e, &info);
    summarize(&info);
    free(whole);
    return 0;
}
