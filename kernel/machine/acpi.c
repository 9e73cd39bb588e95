// SPDX-License-Identifier: MIT
// Walking the ACPI tables: the PM timer and the HPET for TSC calibration, any table by name.
#include "machine/acpi.h"

#include "lib/kstring.h"

#define SDT_HEADER_BYTES 36
#define RSDP_V1_BYTES 20
#define RSDP_V2_BYTES 36
#define FADT_PM_TMR_BLK 76
#define FADT_FLAGS 112
#define FADT_X_PM_TMR_BLK 208
#define FADT_FLAG_TMR_VAL_EXT (1u << 8)
#define GAS_BYTES 12
#define GAS_SPACE_MEMORY 0
#define GAS_SPACE_IO 1
#define HPET_BASE_GAS 40
#define TABLE_MAX_BYTES (1u << 20) /* a sanity bound for lengths read from memory */

uint8_t acpi_checksum(const void *p, uint32_t len)
{
    const uint8_t *b = p;
    uint8_t sum = 0;
    for (uint32_t i = 0; i < len; i++)
        sum = (uint8_t)(sum + b[i]);
    return sum;
}

/* The table at address addr if its length and checksum hold, else NULL. */
static const uint8_t *valid_table(uint64_t addr)
{
    const uint8_t *t = (const uint8_t *)(uintptr_t)addr;
    if (!addr)
        return NULL;
    uint32_t len = acpi_rd32(t + 4);
    if (len < SDT_HEADER_BYTES || len > TABLE_MAX_BYTES || acpi_checksum(t, len) != 0)
        return NULL;
    return t;
}

static void read_fadt(const uint8_t *f, struct acpi_timers *out)
{
    uint32_t len = acpi_rd32(f + 4);
    if (len >= FADT_FLAGS + 4)
        out->pm_timer_32bit = (acpi_rd32(f + FADT_FLAGS) & FADT_FLAG_TMR_VAL_EXT) != 0;
    if (len >= FADT_X_PM_TMR_BLK + GAS_BYTES) {
        const uint8_t *gas = f + FADT_X_PM_TMR_BLK;
        uint64_t addr = acpi_rd64(gas + 4);
        if (addr && (gas[0] == GAS_SPACE_IO || gas[0] == GAS_SPACE_MEMORY)) {
            out->pm_timer = true;
            out->pm_timer_io = gas[0] == GAS_SPACE_IO;
            out->pm_timer_addr = addr;
            return;
        }
    }
    if (len >= FADT_PM_TMR_BLK + 4 && acpi_rd32(f + FADT_PM_TMR_BLK)) {
        out->pm_timer = true;
        out->pm_timer_io = true;
        out->pm_timer_addr = acpi_rd32(f + FADT_PM_TMR_BLK);
    }
}

static void read_hpet(const uint8_t *h, struct acpi_timers *out)
{
    if (acpi_rd32(h + 4) < HPET_BASE_GAS + GAS_BYTES || h[HPET_BASE_GAS] != GAS_SPACE_MEMORY)
        return;
    uint64_t base = acpi_rd64(h + HPET_BASE_GAS + 4);
    if (base) {
        out->hpet = true;
        out->hpet_base = base;
    }
}

/* The root table (XSDT, else RSDT) of a valid RSDP, its entry size in *entry_bytes. */
static const uint8_t *root_table(const uint8_t *r, unsigned *entry_bytes)
{
    bool xsdt = r[15] >= 2 && acpi_rd32(r + 20) >= RSDP_V2_BYTES &&
                acpi_checksum(r, RSDP_V2_BYTES) == 0 && acpi_rd64(r + 24);
    *entry_bytes = xsdt ? 8 : 4;
    return valid_table(xsdt ? acpi_rd64(r + 24) : acpi_rd32(r + 16));
}

static bool rsdp_valid(const uint8_t *r)
{
    return r && kmemcmp(r, "RSD PTR ", 8) == 0 && acpi_checksum(r, RSDP_V1_BYTES) == 0;
}

/* The i-th valid table the root lists (NULL for an invalid one). */
static const uint8_t *root_entry(const uint8_t *root, unsigned entry_bytes, uint32_t i)
{
    const uint8_t *e = root + SDT_HEADER_BYTES + i * entry_bytes;
    return valid_table(entry_bytes == 8 ? acpi_rd64(e) : acpi_rd32(e));
}

const void *acpi_find_table(const void *rsdp, const char *sig)
{
    unsigned entry_bytes;
    const uint8_t *root = rsdp_valid(rsdp) ? root_table(rsdp, &entry_bytes) : NULL;
    if (!root)
        return NULL;
    uint32_t entries = (acpi_rd32(root + 4) - SDT_HEADER_BYTES) / entry_bytes;
    for (uint32_t i = 0; i < entries; i++) {
        const uint8_t *t = root_entry(root, entry_bytes, i);
        if (t && kmemcmp(t, sig, 4) == 0)
            return t;
    }
    return NULL;
}

bool acpi_find_timers(const void *rsdp, struct acpi_timers *out)
{
    const uint8_t *r = rsdp;
    kmemset(out, 0, sizeof(*out));
    if (!rsdp_valid(r))
        return false;
    kmemcpy(out->oem, r + 9, 6);
    out->oem[6] = 0;
    unsigned entry_bytes;
    const uint8_t *root = root_table(r, &entry_bytes);
    if (!root)
        return true; /* an RSDP without usable tables: no timers */
    uint32_t entries = (acpi_rd32(root + 4) - SDT_HEADER_BYTES) / entry_bytes;
    for (uint32_t i = 0; i < entries; i++) {
        const uint8_t *t = root_entry(root, entry_bytes, i);
        if (!t)
            continue;
        if (kmemcmp(t, "FACP", 4) == 0)
            read_fadt(t, out);
        else if (kmemcmp(t, "HPET", 4) == 0)
            read_hpet(t, out);
    }
    return true;
}
