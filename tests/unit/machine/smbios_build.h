// SPDX-License-Identifier: MIT
// Writing SMBIOS entry points and structure tables as DSP0134 3.x lays them out, for the tests.
#ifndef CHASE_TEST_SMBIOS_BUILD_H
#define CHASE_TEST_SMBIOS_BUILD_H

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

struct sb_table {
    uint8_t b[16384];
    size_t n;
    uint16_t next_handle;
};

static inline void sb_put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void sb_put32(uint8_t *p, uint32_t v)
{
    sb_put16(p, (uint16_t)v);
    sb_put16(p + 2, (uint16_t)(v >> 16));
}

/*
 * Append a structure of `type` with a formatted area of len bytes (zeroed, header filled) and
 * the strings that follow (NULL-terminated list; none: the empty set's double NUL). Returns
 * the formatted area to fill in.
 */
static inline uint8_t *sb_add(struct sb_table *t, uint8_t type, uint8_t len, ...)
{
    uint8_t *p = t->b + t->n;
    memset(p, 0, len);
    p[0] = type;
    p[1] = len;
    sb_put16(p + 2, t->next_handle++);
    t->n += len;
    va_list ap;
    va_start(ap, len);
    unsigned nstrings = 0;
    for (const char *s = va_arg(ap, const char *); s; s = va_arg(ap, const char *)) {
        memcpy(t->b + t->n, s, strlen(s) + 1);
        t->n += strlen(s) + 1;
        nstrings++;
    }
    va_end(ap);
    if (!nstrings)
        t->b[t->n++] = 0;
    t->b[t->n++] = 0;
    return p;
}

static inline void sb_end(struct sb_table *t)
{
    sb_add(t, 127, 4, (const char *)NULL);
}

static inline uint8_t sb_sum(const uint8_t *p, size_t n)
{
    uint8_t s = 0;
    while (n--)
        s = (uint8_t)(s + *p++);
    return s;
}

/* The 64-bit entry point (DSP0134 5.2.2) for a table of max_bytes at addr. */
static inline void sb_ep3(uint8_t ep[0x18], uint8_t major, uint8_t minor, uint32_t max_bytes,
                          uint64_t addr)
{
    memset(ep, 0, 0x18);
    memcpy(ep, "_SM3_", 5);
    ep[6] = 0x18;
    ep[7] = major;
    ep[8] = minor;
    ep[10] = 1; /* entry point revision: 3.0 */
    sb_put32(ep + 12, max_bytes);
    sb_put32(ep + 16, (uint32_t)addr);
    sb_put32(ep + 20, (uint32_t)(addr >> 32));
    ep[5] = (uint8_t)(0x100 - sb_sum(ep, 0x18));
}

/* The 32-bit entry point (DSP0134 5.2.1) for a table of len bytes and n structures. */
static inline void sb_ep2(uint8_t ep[0x1f], uint8_t major, uint8_t minor, uint16_t len,
                          uint32_t addr, uint16_t n)
{
    memset(ep, 0, 0x1f);
    memcpy(ep, "_SM_", 4);
    ep[5] = 0x1f;
    ep[6] = major;
    ep[7] = minor;
    sb_put16(ep + 8, 0x100); /* largest structure */
    memcpy(ep + 0x10, "_DMI_", 5);
    sb_put16(ep + 0x16, len);
    sb_put32(ep + 0x18, addr);
    sb_put16(ep + 0x1c, n);
    ep[0x1e] = (uint8_t)((major << 4) | minor);
    ep[0x15] = (uint8_t)(0x100 - sb_sum(ep + 0x10, 0x0f));
    ep[4] = (uint8_t)(0x100 - sb_sum(ep, 0x1f));
}

/* Type 17 (3.3 layout, 0x5C bytes) with its strings: locator, bank, maker, serial, asset, part. */
static inline uint8_t *sb_memdev(struct sb_table *t, const char *loc, const char *bank,
                                 const char *maker, const char *part, uint16_t size_word,
                                 uint8_t type, uint16_t speed, uint16_t configured)
{
    uint8_t *d = sb_add(t, 17, 0x5c, loc, bank, maker, "SER1", "ASSET1", part, (const char *)NULL);
    sb_put16(d + 0x04, 0x1000); /* physical memory array handle */
    sb_put16(d + 0x06, 0xfffe); /* no error information */
    sb_put16(d + 0x08, 72);     /* total width: 64 data + 8 ECC */
    sb_put16(d + 0x0a, 64);
    sb_put16(d + 0x0c, size_word);
    d[0x0e] = 0x09; /* DIMM */
    d[0x10] = 1;    /* device locator: string 1 */
    d[0x11] = 2;
    d[0x12] = type;
    sb_put16(d + 0x15, speed);
    d[0x17] = 3;
    d[0x18] = 4;
    d[0x19] = 5;
    d[0x1a] = 6;
    d[0x1b] = 2; /* rank 2 */
    sb_put16(d + 0x20, configured);
    return d;
}

#endif
