// SPDX-License-Identifier: MIT
// Laying out a PPTT as ACPI 6.5 5.2.30 says, for the tests of its readers: one table the test
// file fills with pb_begin, pb_cache and pb_node, then closes with pb_seal.
#ifndef CHASE_TEST_PPTT_BUILD_H
#define CHASE_TEST_PPTT_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "machine/arm_pptt.h"

#define PB_TABLE_BYTES 1024 /* room for the largest table a test lays out */
#define PB_LINE_BYTES 64    /* every cache's line size */

static uint8_t pb_tab[PB_TABLE_BYTES];
static uint32_t pb_len; /* bytes laid out so far */

static inline void pb_put16(uint8_t *at, uint16_t v)
{
    memcpy(at, &v, 2);
}

static inline void pb_put32(uint8_t *at, uint32_t v)
{
    memcpy(at, &v, 4);
}

/* An empty table of this revision: the header's signature, its structures to follow. */
static inline void pb_begin(uint8_t revision)
{
    memset(pb_tab, 0, sizeof(pb_tab));
    memcpy(pb_tab, "PPTT", 4);
    pb_tab[8] = revision;
    pb_len = PPTT_FIRST_STRUCT;
}

/* The header's length: what was laid out. */
static inline void pb_seal(void)
{
    pb_put32(pb_tab + 4, pb_len);
}

/*
 * A cache type structure (ACPI 6.5 table 5.161) with every field valid, of the table's
 * revision (from 3 it carries id); returns its offset.
 */
static inline uint32_t pb_cache(uint32_t size, uint32_t sets, uint8_t ways, uint8_t attr,
                                uint32_t next, uint32_t id)
{
    uint32_t at = pb_len;
    uint8_t *s = pb_tab + at;
    bool rev3 = pb_tab[8] >= PPTT_REVISION_CACHE_ID;
    s[0] = PPTT_TYPE_CACHE;
    s[1] = rev3 ? PPTT_CACHE_BYTES_REV3 : PPTT_CACHE_BYTES;
    pb_put32(s + 4, 0x7f | (rev3 ? PPTT_CACHE_ID_VALID : 0)); /* every field valid */
    pb_put32(s + 8, next);
    pb_put32(s + 12, size);
    pb_put32(s + 16, sets);
    s[20] = ways;
    s[21] = attr;
    pb_put16(s + 22, PB_LINE_BYTES);
    if (rev3)
        pb_put32(s + 24, id);
    pb_len += s[1];
    return at;
}

/* A processor hierarchy node (ACPI 6.5 table 5.158) with n private resources; its offset. */
static inline uint32_t pb_node(uint32_t flags, uint32_t parent, uint32_t acpi_id, unsigned n,
                               const uint32_t *res)
{
    uint32_t at = pb_len;
    uint8_t *s = pb_tab + at;
    s[0] = PPTT_TYPE_PROCESSOR;
    s[1] = (uint8_t)(PPTT_PROCESSOR_BYTES + 4 * n);
    pb_put32(s + 4, flags);
    pb_put32(s + 8, parent);
    pb_put32(s + 12, acpi_id);
    pb_put32(s + 16, n);
    for (unsigned i = 0; i < n; i++)
        pb_put32(s + PPTT_PROCESSOR_BYTES + 4 * i, res[i]);
    pb_len += s[1];
    return at;
}

#endif
