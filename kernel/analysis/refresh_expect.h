// SPDX-License-Identifier: MIT
// What the DIMMs' type implies for refresh (refresh_expect.c), and the summary's refresh line.
#ifndef CHASE_REFRESH_EXPECT_H
#define CHASE_REFRESH_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "point/refresh.h"

/* SMBIOS memory type codes (DSP0134 7.18.2) that have a JEDEC refresh interval here. */
#define REFRESH_SMBIOS_DDR3 0x18
#define REFRESH_SMBIOS_DDR4 0x1A
#define REFRESH_SMBIOS_DDR5 0x22
#define REFRESH_SMBIOS_LPDDR4 0x1E
#define REFRESH_SMBIOS_LPDDR5 0x23

/* What JEDEC sets for a memory type: the refresh interval in normal operation, the one in
 * fine-granularity or high-temperature mode (0: none), and tRFC (one all-bank refresh) for the
 * die density when known, else the range over the type's densities. */
struct refresh_expect {
    const char *type;    /* "DDR4" */
    double trefi_ns;     /* normal temperature */
    double trefi_alt_ns; /* fine granularity or above 85 C (0: none) */
    double trfc_lo_ns;   /* tRFC for the density, or the smallest density's */
    double trfc_hi_ns;   /* the same for a known density, else the largest density's */
};

/*
 * The expectation for SMBIOS memory type code `type` and die density density_gbit (0:
 * unknown; SMBIOS type 17 gives a module's size and ranks, not its chips' width, so the density
 * is seldom known). False for a type without a JEDEC interval here.
 */
bool refresh_expect_for(uint8_t type, unsigned density_gbit, struct refresh_expect *out);

/*
 * The summary's refresh line into buf (capacity cap): "DRAM refresh: every 3.9 us, about 350 ns"
 * with what the type implies in brackets when e is not NULL, or "DRAM refresh: no period stands
 * out" when r found none. us is the micro-second unit to write ("us" on the ASCII console,
 * "µs" in report.md). Returns the length the whole line would have.
 */
int refresh_summary_line(const struct refresh_result *r, const struct refresh_expect *e,
                         const char *us, char *buf, size_t cap);

/* The SMBIOS type code of a memory type named as smbios_memtype_name names it ("DDR5"), when
 * this table has its refresh figures; else 0. */
uint8_t refresh_smbios_type(const char *name);

/*
 * The refresh line as refresh_summary_line writes it, beside what the DIMMs' type dram_type
 * (the dram_type column: a type name, "none" when no SMBIOS table was read, "unknown" or
 * "mixed") implies, or saying why nothing is implied. NULL or "": the line alone. Returns the
 * length the whole line would have.
 */
int refresh_summary_for(const struct refresh_result *r, const char *dram_type, const char *us,
                        char *buf, size_t cap);

#endif
