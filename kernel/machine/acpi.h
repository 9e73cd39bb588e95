// SPDX-License-Identifier: MIT
// Finding the ACPI PM timer and the HPET from the ACPI tables, for TSC calibration.
#ifndef CHASE_ACPI_H
#define CHASE_ACPI_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/kstring.h"

/* A little-endian 32-bit field of an ACPI table (at any alignment). */
static inline uint32_t acpi_rd32(const uint8_t *p)
{
    uint32_t v;
    kmemcpy(&v, p, 4);
    return v;
}

/* A little-endian 64-bit field of an ACPI table (at any alignment). */
static inline uint64_t acpi_rd64(const uint8_t *p)
{
    uint64_t v;
    kmemcpy(&v, p, 8);
    return v;
}

#define ACPI_PM_TIMER_HZ 3579545ULL
#define HPET_REG_CAPABILITIES 0x00
#define HPET_REG_CONFIG 0x10
#define HPET_REG_COUNTER 0xf0
#define HPET_CAP_COUNT_64BIT (1ULL << 13)
#define HPET_CONFIG_ENABLE (1ULL << 0)

struct acpi_timers {
    bool pm_timer;    /* an ACPI PM timer was found */
    bool pm_timer_io; /* in I/O space (else memory) */
    uint64_t pm_timer_addr;
    bool pm_timer_32bit; /* FADT TMR_VAL_EXT: 32-bit counter, else 24-bit */
    bool hpet;           /* an HPET table was found */
    uint64_t hpet_base;  /* physical address of its registers */
    char oem[7];         /* the RSDP's OEM id, for run.json */
};

/*
 * Walk the tables from the RSDP at rsdp (identity-mapped memory): XSDT (or RSDT),
 * FADT for the PM timer, HPET. Signatures, lengths and checksums are checked; a bad
 * table is skipped. Returns false when the RSDP itself is not valid.
 */
bool acpi_find_timers(const void *rsdp, struct acpi_timers *out);

/*
 * The table with signature sig (4 characters, "SRAT") listed by the XSDT (or RSDT) of the
 * RSDP at rsdp, its length and checksum checked; NULL when there is none or it is not valid.
 */
const void *acpi_find_table(const void *rsdp, const char *sig);

/* Sum of len bytes modulo 256 (a valid ACPI table sums to 0). */
uint8_t acpi_checksum(const void *p, uint32_t len);

#endif
