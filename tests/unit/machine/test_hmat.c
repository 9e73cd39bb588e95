// SPDX-License-Identifier: MIT
// Unit tests of the HMAT reader over a table laid out byte by byte as ACPI 6.5 5.2.28 says
// (structure types 0, 1 and 2, two entry base units, a memory-side cache), and over malformed
// lengths and counts.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/acpi.h"
#include "machine/hmat.h"

#define MiB (1ULL << 20)

static uint8_t tab[8192];
static uint32_t len;
static struct hmat h;
static char why[200];

static void put16(uint8_t *p, uint16_t v)
{
    memcpy(p, &v, 2);
}

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

static void begin(void)
{
    memset(tab, 0, sizeof(tab));
    memcpy(tab, "HMAT", 4);
    tab[8] = 2; /* revision 2: ACPI 6.3 and later */
    len = HMAT_FIRST_STRUCT;
}

static void seal(void)
{
    put32(tab + 4, len);
    tab[9] = 0;
    tab[9] = (uint8_t)(0x100 - acpi_checksum(tab, len));
}

/* A structure head: type, reserved, length. Returns where it starts. */
static uint8_t *head(uint16_t type, uint32_t slen)
{
    uint8_t *s = tab + len;
    put16(s, type);
    put32(s + 4, slen);
    len += slen;
    return s;
}

/* Type 0, Table 5.143: flags at 8, attached initiator at 12, memory domain at 16. */
static void domain(uint32_t mem, bool valid, uint32_t initiator)
{
    uint8_t *s = head(0, 40);
    put16(s + 8, valid ? 1 : 0);
    put32(s + 12, initiator);
    put32(s + 16, mem);
}

/* Type 1, Table 5.144: flags (hierarchy) 8, data type 9, counts 12 and 16, base unit 24, the
   initiator list at 32, the target list after it, entries [initiator][target] after that. */
static void lb(unsigned hierarchy, unsigned type, uint64_t base, const uint32_t *inits, uint32_t ni,
               const uint32_t *targets, uint32_t nt, const uint16_t *entries)
{
    uint8_t *s = head(1, 32 + 4 * ni + 4 * nt + 2 * ni * nt);
    s[8] = (uint8_t)hierarchy;
    s[9] = (uint8_t)type;
    put32(s + 12, ni);
    put32(s + 16, nt);
    put64(s + 24, base);
    for (uint32_t i = 0; i < ni; i++)
        put32(s + 32 + 4 * i, inits[i]);
    for (uint32_t t = 0; t < nt; t++)
        put32(s + 32 + 4 * ni + 4 * t, targets[t]);
    for (uint32_t k = 0; k < ni * nt; k++)
        put16(s + 32 + 4 * ni + 4 * nt + 2 * k, entries[k]);
}

/* Type 2, Table 5.146: memory domain 8, size 16, attributes 24, address mode 28, handles 30. */
static void cache(uint32_t mem, uint64_t size, uint32_t attr, uint16_t mode, uint16_t handles)
{
    uint8_t *s = head(2, 32 + 2 * handles);
    put32(s + 8, mem);
    put64(s + 16, size);
    put32(s + 24, attr);
    put16(s + 28, mode);
    put16(s + 30, handles);
    for (uint16_t k = 0; k < handles; k++)
        put16(s + 32 + 2 * k, (uint16_t)(0x1100 + k));
}

static bool reread(void)
{
    seal();
    return hmat_read(tab, len, &h, why, sizeof(why));
}

/* Node 0 has processors and memory, node 1 memory only: the QEMU test's machine, by hand. */
static void two_tiers(void)
{
    static const uint32_t init[1] = {0}, targets[2] = {0, 1};
    begin();
    domain(0, true, 0);
    domain(1, true, 0);
    /* access latency, base unit 1000 ps: 90 and 250 ns */
    lb(0, HMAT_ACCESS_LATENCY, 1000, init, 1, targets, 2, (const uint16_t[]){90, 250});
    /* read latency, base unit 10 ps: 85.5 ns to node 0, none given (0) to node 1 */
    lb(0, HMAT_READ_LATENCY, 10, init, 1, targets, 2, (const uint16_t[]){8550, 0});
    /* access bandwidth, base unit 100 MB/s: 20 and 8 GB/s */
    lb(0, HMAT_ACCESS_BANDWIDTH, 100, init, 1, targets, 2, (const uint16_t[]){200, 80});
    /* write bandwidth: 0xffff (reserved) to node 0, 7000 MB/s to node 1 */
    lb(0, HMAT_WRITE_BANDWIDTH, 1, init, 1, targets, 2, (const uint16_t[]){0xffff, 7000});
    /* the memory-side cache's own latency, hierarchy 1 */
    lb(1, HMAT_ACCESS_LATENCY, 1000, init, 1, targets + 1, 1, (const uint16_t[]){120});
    /* a 64 MiB direct-mapped write-back cache with 64-byte lines in front of node 1: one level
       of one (bits 3:0 total, 7:4 level, 11:8 associativity, 15:12 policy, 31:16 line) */
    cache(1, 64 * MiB, 1 | 1 << 4 | 1 << 8 | 1 << 12 | 64u << 16, 1, 2);
}

static void test_two_tiers(void **state)
{
    (void)state;
    two_tiers();
    assert_true(reread());
    assert_true(h.present);
    assert_int_equal(h.revision, 2);
    assert_true(h.units_known);
    assert_int_equal(h.ndomains, 2);
    assert_int_equal(h.lb_structs, 5);
    assert_int_equal(h.ncaches, 1);
    assert_int_equal(h.unknown, 0);
    assert_int_equal(h.dropped, 0);
    uint32_t init = 99;
    assert_true(hmat_attached_initiator(&h, 1, &init));
    assert_int_equal(init, 0);
    assert_false(hmat_attached_initiator(&h, 7, &init));

    const struct hmat_pair *local = hmat_pair_of(&h, 0, 0), *far = hmat_pair_of(&h, 0, 1);
    assert_non_null(local);
    assert_non_null(far);
    assert_null(hmat_pair_of(&h, 1, 1)); /* node 1 is no initiator */
    assert_int_equal(local->value[HMAT_ACCESS_LATENCY], 90000);
    assert_int_equal(local->value[HMAT_READ_LATENCY], 85500);
    assert_int_equal(far->value[HMAT_ACCESS_LATENCY], 250000);
    assert_int_equal(far->value[HMAT_ACCESS_BANDWIDTH], 8000);
    assert_int_equal(far->value[HMAT_WRITE_BANDWIDTH], 7000);
    assert_false(far->have & 1u << HMAT_READ_LATENCY);      /* entry 0: unreachable */
    assert_false(local->have & 1u << HMAT_WRITE_BANDWIDTH); /* entry 0xffff: none */

    /* read latency where given, access latency else; bandwidth likewise */
    double ns;
    uint64_t mbs;
    const char *kind;
    assert_true(hmat_latency_ns(local, &ns, &kind));
    assert_float_equal(ns, 85.5, 1e-9);
    assert_string_equal(kind, "read");
    assert_true(hmat_latency_ns(far, &ns, &kind));
    assert_float_equal(ns, 250.0, 1e-9);
    assert_string_equal(kind, "access");
    assert_true(hmat_bandwidth_mbs(far, &mbs, &kind));
    assert_int_equal(mbs, 8000);
    assert_string_equal(kind, "access");
    assert_false(hmat_latency_ns(NULL, &ns, &kind));

    /* the cache level's figure is kept apart from the memory's */
    unsigned cached = 0;
    for (unsigned i = 0; i < h.npairs; i++)
        if (h.pair[i].hierarchy == 1 && h.pair[i].target == 1 &&
            h.pair[i].value[HMAT_ACCESS_LATENCY] == 120000)
            cached++;
    assert_int_equal(cached, 1);

    const struct hmat_cache *c = &h.cache[0];
    assert_int_equal(c->mem_domain, 1);
    assert_int_equal(c->size_bytes, 64 * MiB);
    assert_int_equal(c->total_levels, 1);
    assert_int_equal(c->level, 1);
    assert_string_equal(hmat_cache_associativity(c->associativity), "direct mapped");
    assert_string_equal(hmat_cache_policy(c->write_policy), "write-back");
    assert_int_equal(c->line_bytes, 64);
    assert_int_equal(c->address_mode, 1);
    assert_int_equal(c->smbios_handles, 2);
    assert_string_equal(hmat_data_name(HMAT_WRITE_BANDWIDTH), "write_bandwidth_mbs");
}

/* Structures of types the reader does not know are skipped whole, by their length. */
static void test_unknown_type_skipped(void **state)
{
    (void)state;
    begin();
    uint8_t *s = head(7, 24);
    memset(s + 8, 0xee, 16);
    domain(3, false, 0);
    assert_true(reread());
    assert_int_equal(h.unknown, 1);
    assert_int_equal(h.ndomains, 1);
    tab[8] = 1; /* ACPI 6.2's revision 1: read, its units not taken for 6.3's */
    assert_true(reread());
    assert_false(h.units_known);
    assert_int_equal(h.domain[0].mem_domain, 3);
    assert_false(h.domain[0].initiator_valid);
}

/* Lengths and counts a hostile firmware could write: each refused, the reason given. */
static void test_malformed(void **state)
{
    (void)state;
    static const uint32_t one[1] = {0};
    begin();
    head(0, 4); /* shorter than a structure's head */
    len += 36;
    assert_false(reread());
    assert_non_null(strstr(why, "has length 4"));

    begin();
    len += 6; /* 6 bytes left: not even a head */
    assert_false(reread());
    assert_non_null(strstr(why, "less than a structure's head"));

    begin();
    head(0, 24); /* type 0 is 40 bytes */
    assert_false(reread());
    assert_non_null(strstr(why, "need 40"));

    begin();
    lb(0, HMAT_ACCESS_LATENCY, 1000, one, 1, one, 1, (const uint16_t[]){10});
    put32(tab + HMAT_FIRST_STRUCT + 12, 0x40000000u); /* initiators: the lists overrun */
    assert_false(reread());
    assert_non_null(strstr(why, "lists need"));

    begin();
    lb(0, HMAT_ACCESS_LATENCY, 1000, one, 1, one, 1, (const uint16_t[]){10});
    put32(tab + HMAT_FIRST_STRUCT + 12, 0xffffffffu); /* both counts at most: 64-bit sums */
    put32(tab + HMAT_FIRST_STRUCT + 16, 0xffffffffu);
    assert_false(reread());

    begin();
    cache(0, MiB, 0, 0, 3);
    put16(tab + HMAT_FIRST_STRUCT + 30, 200); /* more SMBIOS handles than its length holds */
    assert_false(reread());

    begin();
    domain(0, true, 0);
    put32(tab + HMAT_FIRST_STRUCT + 4, 4000); /* runs past the table's end */
    assert_false(reread());
    assert_non_null(strstr(why, "end within"));

    begin();
    seal();
    assert_false(hmat_read(tab, 20, &h, why, sizeof(why))); /* less than the header */
    put32(tab + 4, 200);
    assert_false(hmat_read(tab, 100, &h, why, sizeof(why))); /* longer than what was given */
    memcpy(tab, "SRAT", 4);
    assert_false(hmat_read(tab, len, &h, why, sizeof(why)));
}

/* An entry times a huge base unit overflows: that figure is left out and said. */
static void test_overflow_and_caps(void **state)
{
    (void)state;
    static const uint32_t one[1] = {0};
    begin();
    lb(0, HMAT_ACCESS_LATENCY, UINT64_MAX / 2, one, 1, one, 1, (const uint16_t[]){3});
    assert_true(reread());
    assert_true(h.figure_overflow);
    assert_null(hmat_pair_of(&h, 0, 0));

    /* more pairs than kept: the first HMAT_PAIRS_MAX, the rest counted */
    static uint32_t targets[HMAT_PAIRS_MAX + 8];
    static uint16_t entries[HMAT_PAIRS_MAX + 8];
    for (unsigned t = 0; t < HMAT_PAIRS_MAX + 8; t++) {
        targets[t] = t;
        entries[t] = 1;
    }
    begin();
    lb(0, HMAT_ACCESS_BANDWIDTH, 1, one, 1, targets, HMAT_PAIRS_MAX + 8, entries);
    for (unsigned k = 0; k < HMAT_DOMAINS_MAX + 1; k++)
        domain(k, false, 0);
    assert_true(reread());
    assert_int_equal(h.npairs, HMAT_PAIRS_MAX);
    assert_int_equal(h.ndomains, HMAT_DOMAINS_MAX);
    assert_int_equal(h.dropped, 8 + 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_tiers),
        cmocka_unit_test(test_unknown_type_skipped),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_overflow_and_caps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
