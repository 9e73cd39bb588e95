// SPDX-License-Identifier: MIT
// Unit tests of the SRAT and SLIT readers over table bytes laid out as ACPI 6.5 5.2.16 and
// 5.2.17 say, malformed lengths included, and of finding them through the XSDT.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/acpi.h"
#include "machine/arm_cpu.h"
#include "machine/arm_smp.h"
#include "machine/numa_table.h"
#include "machine/srat.h"

#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

static uint8_t srat[16384], slit[1024];
static uint32_t srat_len;
static struct plat_numa t;
static char why[200];

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

static void seal(uint8_t *tab, uint32_t len)
{
    put32(tab + 4, len);
    tab[9] = 0;
    tab[9] = (uint8_t)(0x100 - acpi_checksum(tab, len));
}

static void srat_begin(void)
{
    memset(srat, 0, sizeof(srat));
    memcpy(srat, "SRAT", 4);
    srat[8] = 3;
    put32(srat + 36, 1); /* reserved, 1 for compatibility */
    srat_len = SRAT_FIRST_STRUCT;
}

/* srat_read over srat (and slit when not NULL) into t, the table read before given back. */
static bool reread(const void *with_slit)
{
    node_table_free(&t);
    return srat_read(srat, with_slit, &t, why, sizeof(why));
}

/* Processor Local APIC/SAPIC Affinity: domain split over bytes 2 and 9..11. */
static void srat_lapic(uint32_t domain, uint8_t apic, bool enabled)
{
    uint8_t *s = srat + srat_len;
    s[0] = SRAT_TYPE_LAPIC;
    s[1] = SRAT_LAPIC_BYTES;
    s[2] = (uint8_t)domain;
    s[3] = apic;
    put32(s + 4, enabled ? SRAT_ENABLED : 0);
    s[9] = (uint8_t)(domain >> 8);
    s[10] = (uint8_t)(domain >> 16);
    s[11] = (uint8_t)(domain >> 24);
    srat_len += SRAT_LAPIC_BYTES;
}

static void srat_x2apic(uint32_t domain, uint32_t apic, bool enabled)
{
    uint8_t *s = srat + srat_len;
    s[0] = SRAT_TYPE_X2APIC;
    s[1] = SRAT_X2APIC_BYTES;
    put32(s + 4, domain);
    put32(s + 8, apic);
    put32(s + 12, enabled ? SRAT_ENABLED : 0);
    srat_len += SRAT_X2APIC_BYTES;
}

static void srat_memory(uint32_t domain, uint64_t base, uint64_t size, uint32_t flags)
{
    uint8_t *s = srat + srat_len;
    s[0] = SRAT_TYPE_MEMORY;
    s[1] = SRAT_MEMORY_BYTES;
    put32(s + 2, domain);
    put32(s + 8, (uint32_t)base);
    put32(s + 12, (uint32_t)(base >> 32));
    put32(s + 16, (uint32_t)size);
    put32(s + 20, (uint32_t)(size >> 32));
    put32(s + 28, flags);
    srat_len += SRAT_MEMORY_BYTES;
}

/* GICC Affinity (ACPI 6.5, 5.2.16.4): domain at 2, ACPI processor UID at 6, flags at 10. */
static void srat_gicc(uint32_t domain, uint32_t uid, bool enabled)
{
    uint8_t *s = srat + srat_len;
    s[0] = SRAT_TYPE_GICC;
    s[1] = SRAT_GICC_BYTES;
    put32(s + 2, domain);
    put32(s + 6, uid);
    put32(s + 10, enabled ? SRAT_ENABLED : 0);
    srat_len += SRAT_GICC_BYTES;
}

/* A SLIT of n localities with distance d between different ones. */
static void slit_build(unsigned n, uint8_t d)
{
    memset(slit, 0, sizeof(slit));
    memcpy(slit, "SLIT", 4);
    put64(slit + SLIT_LOCALITIES, n);
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < n; k++)
            slit[SLIT_MATRIX + i * n + k] = i == k ? 10 : d;
    seal(slit, SLIT_MATRIX + n * n);
}

/* What QEMU publishes for -numa node,nodeid=0,cpus=0-1 -numa node,nodeid=1,cpus=2-3: two
 * nodes, the low 640K and 1M..256M in node 0, 256M..512M in node 1, a disabled entry, a
 * hot-pluggable range in node 1 (maxmem), and an x2APIC entry repeating APIC ID 3. */
static void two_nodes(void)
{
    srat_begin();
    srat_lapic(0, 0, true);
    srat_lapic(0, 1, true);
    srat_lapic(1, 2, true);
    srat_lapic(1, 3, true);
    srat_lapic(1, 9, false);
    srat_x2apic(1, 3, true);
    srat_memory(0, 0, 640 * 1024, SRAT_ENABLED);
    srat_memory(0, 1 * MiB, 255 * MiB, SRAT_ENABLED);
    srat_memory(1, 256 * MiB, 256 * MiB, SRAT_ENABLED);
    srat_memory(1, 4 * GiB, 1 * GiB, SRAT_ENABLED | SRAT_MEM_HOTPLUG);
    srat_memory(0, 8 * GiB, 1 * GiB, 0); /* not enabled: ignored */
    seal(srat, srat_len);
}

static void test_two_nodes(void **state)
{
    (void)state;
    two_nodes();
    slit_build(2, 21);
    assert_true(reread(slit));
    assert_int_equal(t.nnodes, 2);
    assert_int_equal(t.node[0].domain, 0);
    assert_int_equal(t.node[0].ncpus, 2);
    assert_int_equal(t.node[0].apic_id[1], 1);
    assert_int_equal(t.node[0].cpu[1], -1);
    assert_int_equal(t.node[1].ncpus, 2); /* APIC 9 disabled, APIC 3 listed twice */
    assert_int_equal(t.node[1].apic_id[0], 2);
    assert_int_equal(t.node[1].apic_id[1], 3);
    assert_int_equal(t.node[0].nranges, 2);
    assert_int_equal(t.node[0].mem_bytes, 640 * 1024 + 255 * MiB);
    assert_int_equal(t.node[1].nranges, 2);
    assert_true(t.node[1].range[1].hotplug);
    assert_int_equal(t.node[1].mem_bytes, 256 * MiB); /* the hot-pluggable range not counted */
    assert_int_equal(t.node[1].range[0].base, 256 * MiB);
    assert_true(t.slit);
    assert_int_equal(plat_numa_distance(&t, 0, 0), 10);
    assert_int_equal(plat_numa_distance(&t, 0, 1), 21);
    assert_int_equal(plat_numa_distance(&t, 1, 0), 21);
    assert_string_equal(t.source, "ACPI SRAT, SLIT");
    assert_string_equal(t.note, "");
}

/* Domains 7 and 2: nodes ascending by domain; SLIT indexed by domain, not by node. */
static void test_sparse_domains_follow_slit_localities(void **state)
{
    (void)state;
    srat_begin();
    srat_x2apic(7, 0x100, true);
    srat_memory(7, 0, 1 * GiB, SRAT_ENABLED);
    srat_x2apic(2, 0x10, true);
    srat_memory(2, 1 * GiB, 1 * GiB, SRAT_ENABLED | SRAT_MEM_NONVOLATILE);
    seal(srat, srat_len);
    slit_build(8, 30);
    slit[SLIT_MATRIX + 2 * 8 + 7] = 17;
    slit[SLIT_MATRIX + 7 * 8 + 2] = 28;
    seal(slit, SLIT_MATRIX + 64);
    assert_true(reread(slit));
    assert_int_equal(t.nnodes, 2);
    assert_int_equal(t.node[0].domain, 2);
    assert_int_equal(t.node[0].apic_id[0], 0x10);
    assert_true(t.node[0].range[0].nonvolatile);
    assert_int_equal(t.node[1].domain, 7);
    assert_int_equal(srat_node_of_domain(&t, 7), 1);
    assert_int_equal(srat_node_of_domain(&t, 3), -1);
    assert_true(t.slit);
    assert_int_equal(plat_numa_distance(&t, 0, 1), 17);
    assert_int_equal(plat_numa_distance(&t, 1, 0), 28);
}

static void test_malformed_structures(void **state)
{
    (void)state;
    two_nodes();
    srat[SRAT_FIRST_STRUCT + SRAT_LAPIC_BYTES + 1] = 0; /* a length of 0 would loop forever */
    seal(srat, srat_len);
    assert_false(reread(NULL));
    assert_non_null(strstr(why, "at byte 64 (type 0) has length 0"));

    srat_begin();
    srat_memory(0, 0, 1 * GiB, SRAT_ENABLED);
    srat[SRAT_FIRST_STRUCT + 1] = 30; /* shorter than a memory affinity structure */
    seal(srat, srat_len);
    assert_false(reread(NULL));
    assert_non_null(strstr(why, "length 30: it must be 40"));

    srat_begin();
    srat_x2apic(0, 1, true);
    seal(srat, srat_len - 4); /* the last structure runs past the table's end */
    assert_false(reread(NULL));
    assert_non_null(strstr(why, "end within the table's 68 bytes"));

    srat_begin();
    seal(srat, 40); /* shorter than the header */
    assert_false(reread(NULL));
    assert_non_null(strstr(why, "shorter than its 48-byte header"));
}

/* Unknown structure types (generic initiator) are skipped by their length. */
static void test_unknown_types_skipped(void **state)
{
    (void)state;
    srat_begin();
    srat[srat_len] = 5; /* Generic Initiator Affinity, 32 bytes */
    srat[srat_len + 1] = 32;
    srat_len += 32;
    srat_x2apic(0, 4, true);
    seal(srat, srat_len);
    assert_true(reread(NULL));
    assert_int_equal(t.nnodes, 1);
    assert_int_equal(t.node[0].apic_id[0], 4);
    assert_false(t.slit);
    assert_non_null(strstr(t.note, "no SLIT"));
}

static void test_bad_slits(void **state)
{
    (void)state;
    two_nodes();
    slit_build(2, 21);
    seal(slit, SLIT_MATRIX + 3); /* one byte short of the 2x2 matrix */
    assert_true(reread(slit));
    assert_false(t.slit);
    assert_non_null(strstr(t.note, "length does not hold"));

    slit_build(1, 21); /* one locality, two domains */
    assert_true(reread(slit));
    assert_false(t.slit);
    assert_non_null(strstr(t.note, "fewer localities"));

    slit_build(2, 21);
    slit[SLIT_MATRIX + 3] = 12; /* the diagonal must be 10 */
    seal(slit, SLIT_MATRIX + 4);
    assert_true(reread(slit));
    assert_false(t.slit);
    assert_int_equal(plat_numa_distance(&t, 0, 1), 0);

    slit_build(2, 9); /* values below 10 are reserved */
    assert_true(reread(slit));
    assert_false(t.slit);
    assert_non_null(strstr(t.note, "rules"));
}

/* SRAT and SLIT found through an RSDP and XSDT, like the timers' tables. */
static void test_found_through_xsdt(void **state)
{
    (void)state;
    static uint8_t rsdp[36], xsdt[36 + 2 * 8];
    two_nodes();
    slit_build(2, 21);
    memset(xsdt, 0, sizeof(xsdt));
    memcpy(xsdt, "XSDT", 4);
    put64(xsdt + 36, (uintptr_t)srat);
    put64(xsdt + 44, (uintptr_t)slit);
    seal(xsdt, sizeof(xsdt));
    memset(rsdp, 0, sizeof(rsdp));
    memcpy(rsdp, "RSD PTR ", 8);
    rsdp[15] = 2;
    put32(rsdp + 20, 36);
    put64(rsdp + 24, (uintptr_t)xsdt);
    rsdp[8] = (uint8_t)(0x100 - acpi_checksum(rsdp, 20));
    rsdp[32] = (uint8_t)(0x100 - acpi_checksum(rsdp, 36));
    assert_ptr_equal(acpi_find_table(rsdp, "SRAT"), srat);
    assert_ptr_equal(acpi_find_table(rsdp, "SLIT"), slit);
    assert_null(acpi_find_table(rsdp, "HMAT"));
    srat[20] ^= 1; /* a bad checksum: not found */
    assert_null(acpi_find_table(rsdp, "SRAT"));
    rsdp[0] = 'X';
    assert_null(acpi_find_table(rsdp, "SLIT"));
}

/*
 * A 2-socket EPYC 9004 in NPS1: 192 threads a socket, socket 1's x2APIC IDs from 256; the
 * firmware lists the IDs below 255 twice (local APIC and x2APIC structures). Every processor is
 * kept in its node, none in node 0 by default.
 */
static void test_more_than_64_in_a_node(void **state)
{
    (void)state;
    srat_begin();
    for (uint32_t i = 0; i < 192; i++)
        srat_x2apic(0, i, true);
    for (uint32_t i = 0; i < 192; i++)
        srat_x2apic(1, 256 + i, true);
    for (uint32_t i = 0; i < 192; i++)
        srat_lapic(0, (uint8_t)i, true); /* the same processors again, xAPIC form */
    srat_memory(0, 0, 64 * GiB, SRAT_ENABLED);
    srat_memory(1, 64 * GiB, 64 * GiB, SRAT_ENABLED);
    seal(srat, srat_len);
    slit_build(2, 32);
    assert_true(reread(slit));
    assert_int_equal(t.nnodes, 2);
    assert_int_equal(t.node[0].ncpus, 192);
    assert_int_equal(t.node[1].ncpus, 192);
    assert_int_equal(t.node[0].apic_id[191], 191);
    assert_int_equal(t.node[1].apic_id[0], 256);
    assert_int_equal(t.node[1].apic_id[191], 447);
    assert_int_equal(t.node[1].cpu[191], -1);
    assert_int_equal(t.node[1].mem_bytes, 64 * GiB);
    assert_string_equal(t.note, "");
}

/*
 * AMD's "L3 as NUMA node" on two sockets: 24 domains of 8 threads each, two more domains of
 * memory only (CXL), and a 26 x 26 SLIT (12 in a socket, 32 across, 50 to the CXL memory).
 * Every domain is a node, the highest included; distances follow the localities.
 */
static void test_more_than_8_domains(void **state)
{
    (void)state;
    enum { CPU_DOMAINS = 24, DOMAINS = 26 };
    srat_begin();
    for (uint32_t d = 0; d < CPU_DOMAINS; d++)
        for (uint32_t k = 0; k < 8; k++)
            srat_x2apic(d, d * 8 + k, true);
    for (uint32_t d = 0; d < DOMAINS; d++)
        srat_memory(d, (uint64_t)d * 4 * GiB, 4 * GiB, SRAT_ENABLED);
    seal(srat, srat_len);
    memset(slit, 0, sizeof(slit));
    memcpy(slit, "SLIT", 4);
    put64(slit + SLIT_LOCALITIES, DOMAINS);
    for (unsigned i = 0; i < DOMAINS; i++)
        for (unsigned k = 0; k < DOMAINS; k++)
            slit[SLIT_MATRIX + i * DOMAINS + k] = i == k                                 ? 10
                                                  : i >= CPU_DOMAINS || k >= CPU_DOMAINS ? 50
                                                  : i / 12 == k / 12                     ? 12
                                                                                         : 32;
    seal(slit, SLIT_MATRIX + DOMAINS * DOMAINS);
    assert_true(reread(slit));
    assert_int_equal(t.nnodes, DOMAINS);
    assert_string_equal(t.note, "");
    for (unsigned i = 0; i < DOMAINS; i++) {
        assert_int_equal(t.node[i].domain, i);
        assert_int_equal(t.node[i].ncpus, i < CPU_DOMAINS ? 8 : 0);
        assert_int_equal(t.node[i].mem_bytes, 4 * GiB);
    }
    assert_int_equal(t.node[23].apic_id[7], 191);
    assert_true(t.slit);
    assert_int_equal(plat_numa_distance(&t, 0, 11), 12);
    assert_int_equal(plat_numa_distance(&t, 0, 12), 32);
    assert_int_equal(plat_numa_distance(&t, 23, 12), 12);
    assert_int_equal(plat_numa_distance(&t, 25, 3), 50);
    /* a memory-only node's nearest node with a processor: none usable yet (cpu[] all -1) */
    assert_int_equal(node_nearest_cpu_node(&t, 24), -1);
    t.node[20].cpu[0] = 160;
    t.node[5].cpu[0] = 40;
    assert_int_equal(node_nearest_cpu_node(&t, 24), 5);  /* a tie at 50: the lowest index */
    assert_int_equal(node_nearest_cpu_node(&t, 13), 20); /* same socket (12) before 5 (32) */
    assert_int_equal(node_nearest_cpu_node(&t, 5), 5);
}

/* The table's copy has storage of its own: changing it leaves the original as it was. */
static void test_copy_is_separate(void **state)
{
    (void)state;
    two_nodes();
    slit_build(2, 21);
    assert_true(reread(slit));
    struct plat_numa c;
    assert_true(numa_table_copy(&c, &t));
    assert_int_equal(c.nnodes, 2);
    assert_int_equal(c.node[1].apic_id[1], 3);
    assert_int_equal(plat_numa_distance(&c, 1, 0), 21);
    assert_string_equal(c.source, t.source);
    c.node[1].cpu[1] = 7;
    c.node[1].range[0].base = 0;
    assert_int_equal(t.node[1].cpu[1], -1);
    assert_int_equal(t.node[1].range[0].base, 256 * MiB);
    node_table_free(&c);
    assert_null(c.storage);
    assert_int_equal(c.nnodes, 0);
}

/*
 * GICC affinity (Arm): processors named by ACPI processor UID, as QEMU virt lists them for
 * -numa node,cpus=0-3 and 4-7; a disabled entry is left out.
 */
static void test_gicc_affinity(void **state)
{
    (void)state;
    srat_begin();
    for (uint32_t uid = 0; uid < 8; uid++)
        srat_gicc(uid / 4, uid, true);
    srat_gicc(1, 9, false);
    srat_memory(0, 0x40000000, 1 * GiB, SRAT_ENABLED);
    srat_memory(1, 0x80000000, 1 * GiB, SRAT_ENABLED);
    seal(srat, srat_len);
    assert_true(reread(NULL));
    assert_int_equal(t.nnodes, 2);
    assert_int_equal(t.node[0].ncpus, 4);
    assert_int_equal(t.node[1].ncpus, 4);
    assert_int_equal(t.node[1].apic_id[0], 4);
    assert_int_equal(t.node[1].apic_id[3], 7);
    /* a GICC structure shorter than 18 bytes is malformed */
    srat[SRAT_FIRST_STRUCT + 1] = 16;
    seal(srat, srat_len);
    assert_false(reread(NULL));
    assert_non_null(strstr(why, "length 16: it must be 18"));
}

/*
 * GICC affinity through the MADT: the SRAT names ACPI processor UIDs (here 100 + i), the MADT's
 * GICC entries give each UID's MPIDR (Aff1 = i % 4, Aff2 = i / 4, as QEMU virt with 4-core
 * clusters); the nodes then list MPIDR IDs. A UID the MADT lacks is noted, its ID none.
 */
static void test_gicc_affinity_through_madt(void **state)
{
    (void)state;
    enum { GICC_BYTES = 80, N = 8 };
    static uint8_t madt[MADT_FIRST_ENTRY + N * GICC_BYTES];
    memset(madt, 0, sizeof(madt));
    memcpy(madt, "APIC", 4);
    put32(madt + 4, (uint32_t)sizeof(madt));
    uint8_t *e = madt + MADT_FIRST_ENTRY;
    for (unsigned i = 0; i < N; i++, e += GICC_BYTES) {
        e[0] = MADT_TYPE_GICC, e[1] = GICC_BYTES;
        put32(e + MADT_GICC_UID, 100 + i);
        put32(e + MADT_GICC_FLAGS, MADT_GICC_ENABLED);
        put64(e + MADT_GICC_MPIDR, 0x80000000ULL | (uint64_t)(i / 4) << 16 | (i % 4) << 8);
    }
    srat_begin();
    for (uint32_t i = 0; i < N; i++)
        srat_gicc(i / 4, 100 + i, true);
    srat_gicc(1, 200, true); /* no such UID in the MADT */
    seal(srat, srat_len);
    assert_true(reread(NULL));
    srat_gicc_to_mpidr(&t, madt);
    assert_int_equal(t.node[0].ncpus, 4);
    assert_int_equal(t.node[0].apic_id[1], 0x100);
    assert_int_equal(t.node[1].apic_id[0], 0x10000);
    assert_int_equal(t.node[1].apic_id[3], 0x10300);
    assert_int_equal(t.node[1].apic_id[4], SRAT_ID_NONE);
    assert_non_null(strstr(t.note, "UID that the MADT lacks"));
    srat_gicc_to_mpidr(&t, NULL); /* no MADT: no processor placed */
    assert_int_equal(t.node[0].apic_id[0], SRAT_ID_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_nodes),
        cmocka_unit_test(test_sparse_domains_follow_slit_localities),
        cmocka_unit_test(test_malformed_structures),
        cmocka_unit_test(test_unknown_types_skipped),
        cmocka_unit_test(test_bad_slits),
        cmocka_unit_test(test_found_through_xsdt),
        cmocka_unit_test(test_more_than_64_in_a_node),
        cmocka_unit_test(test_more_than_8_domains),
        cmocka_unit_test(test_copy_is_separate),
        cmocka_unit_test(test_gicc_affinity),
        cmocka_unit_test(test_gicc_affinity_through_madt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
