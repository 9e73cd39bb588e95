// SPDX-License-Identifier: MIT
// Unit tests of the PPTT reader over tables laid out by hand as ACPI 6.5 5.2.30 says: a
// two-cluster Neoverse N1 system, revision 2 and 3 cache structures, and malformed tables.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/arm_pptt.h"
#include "pptt_build.h"

#define KiB 1024u
#define MiB (1024u * KiB)

static struct pptt p;
static char why[200];

#define ATTR_DATA (0x3 | 0 << 2)        /* read and write allocate, data, write-back */
#define ATTR_INSTRUCTION (0x0 | 1 << 2) /* read allocate, instruction */
#define ATTR_UNIFIED (0x3 | 2 << 2)     /* read and write allocate, unified, write-back */

/*
 * A two-cluster Neoverse N1 package (as Neoverse N1 TRM chapter 2 describes the core: 64 KiB
 * 4-way L1I and L1D, a private 1 MiB 8-way L2; a 32 MiB system-level cache for the package):
 * package -> 2 clusters -> 2 cores each, ACPI IDs 0..3. Returns the L3's offset.
 */
static uint32_t n1_system(uint8_t revision)
{
    pb_begin(revision);
    uint32_t l3 = pb_cache(32 * MiB, 32768, 16, ATTR_UNIFIED, 0, 100);
    uint32_t pkg = pb_node(PPTT_PHYSICAL_PACKAGE, 0, 0, 1, &l3);
    for (uint32_t cl = 0; cl < 2; cl++) {
        uint32_t cluster = pb_node(0, pkg, cl, 0, NULL);
        for (uint32_t core = 0; core < 2; core++) {
            uint32_t id = cl * 2 + core;
            uint32_t l2 = pb_cache(1 * MiB, 2048, 8, ATTR_UNIFIED, 0, 20 + id);
            uint32_t l1[2] = {pb_cache(64 * KiB, 256, 4, ATTR_DATA, l2, 10 + id),
                              pb_cache(64 * KiB, 256, 4, ATTR_INSTRUCTION, l2, 30 + id)};
            pb_node(PPTT_IS_LEAF | PPTT_ACPI_ID_VALID, cluster, id, 2, l1);
        }
    }
    pb_seal();
    return l3;
}

static void test_n1_two_clusters(void **state)
{
    (void)state;
    uint32_t l3 = n1_system(3);
    assert_true(pptt_parse(pb_tab, sizeof(pb_tab), &p, why, sizeof(why)));
    assert_int_equal(p.n_nodes, 1 + 2 + 4);
    assert_int_equal(p.n_caches, 1 + 4 * 3);
    struct pptt_cpu_cache c[PPTT_CPU_CACHES_MAX];
    for (uint32_t cpu = 0; cpu < 4; cpu++) {
        assert_int_equal(pptt_cpu_caches(&p, cpu, c, PPTT_CPU_CACHES_MAX), 4);
        assert_int_equal(c[0].level, 1); /* L1D, then its L2, then L1I (L2 not twice) */
        assert_int_equal(pptt_cache_type_of(c[0].cache), PPTT_CACHE_DATA);
        assert_int_equal(c[0].cache->size_bytes, 64 * KiB);
        assert_int_equal(c[0].cache->cache_id, 10 + cpu);
        assert_int_equal(c[1].level, 2);
        assert_int_equal(c[1].cache->size_bytes, 1 * MiB);
        assert_int_equal(c[1].cache->ways, 8);
        assert_int_equal(c[1].cache->sets, 2048);
        assert_int_equal(c[1].cache->line_bytes, 64);
        assert_int_equal(pptt_cache_sharers(&p, c[1].cache->offset), 1);
        assert_int_equal(c[2].level, 1);
        assert_int_equal(pptt_cache_type_of(c[2].cache), PPTT_CACHE_INSTRUCTION);
        assert_int_equal(c[3].level, 3);
        assert_int_equal(c[3].cache->offset, l3);
        assert_true(c[3].cache->flags & PPTT_CACHE_ID_VALID);
    }
    assert_int_equal(pptt_cache_sharers(&p, l3), 4);
    assert_int_equal(pptt_cpu_caches(&p, 4, c, PPTT_CPU_CACHES_MAX), -1);
    /* A short output list keeps the nearest caches. */
    assert_int_equal(pptt_cpu_caches(&p, 1, c, 2), 2);
    assert_int_equal(c[1].level, 2);
}

static void test_revision2_has_no_cache_id(void **state)
{
    (void)state;
    n1_system(2);
    assert_true(pptt_parse(pb_tab, sizeof(pb_tab), &p, why, sizeof(why)));
    assert_int_equal(p.revision, 2);
    for (unsigned i = 0; i < p.n_caches; i++) {
        assert_false(p.caches[i].flags & PPTT_CACHE_ID_VALID);
        assert_int_equal(p.caches[i].cache_id, 0);
    }
}

static void test_cluster_cache_shared_by_its_cores(void **state)
{
    (void)state;
    /* A DynamIQ cluster: private L1 and L2 per core, the L3 a private resource of the cluster. */
    pb_begin(3);
    uint32_t l3 = pb_cache(2 * MiB, 2048, 16, ATTR_UNIFIED, 0, 1);
    uint32_t cluster = pb_node(PPTT_PHYSICAL_PACKAGE, 0, 0, 1, &l3);
    for (uint32_t id = 0; id < 3; id++) {
        uint32_t l2 = pb_cache(512 * KiB, 1024, 8, ATTR_UNIFIED, 0, 0);
        uint32_t l1 = pb_cache(64 * KiB, 256, 4, ATTR_DATA, l2, 0);
        pb_node(PPTT_IS_LEAF | PPTT_ACPI_ID_VALID, cluster, id, 1, &l1);
    }
    pb_seal();
    assert_true(pptt_parse(pb_tab, pb_len, &p, why, sizeof(why)));
    struct pptt_cpu_cache c[PPTT_CPU_CACHES_MAX];
    assert_int_equal(pptt_cpu_caches(&p, 2, c, PPTT_CPU_CACHES_MAX), 3);
    assert_int_equal(c[2].level, 3);
    assert_int_equal(pptt_cache_sharers(&p, l3), 3);
}

/*
 * Cache groups from the hierarchy: on the N1 package each core's L2 is its own (a group each),
 * the L3 the package's (one group); on a Cortex-A72-style cluster whose L2 the cluster owns, the
 * cluster's cores share the L2 group. A processor the table lacks: false.
 */
static void test_cache_groups(void **state)
{
    (void)state;
    uint32_t l3 = n1_system(3), l2[4], g3;
    assert_true(pptt_parse(pb_tab, sizeof(pb_tab), &p, why, sizeof(why)));
    for (uint32_t cpu = 0; cpu < 4; cpu++) {
        assert_true(pptt_cache_groups(&p, cpu, &l2[cpu], &g3));
        assert_int_equal(g3, l3);
        for (uint32_t k = 0; k < cpu; k++)
            assert_int_not_equal(l2[k], l2[cpu]); /* Neoverse N1: private L2 */
    }
    uint32_t a, b;
    assert_false(pptt_cache_groups(&p, 9, &a, &b));
    /* Two clusters of two cores, the L2 each cluster's own, no L3 */
    pb_begin(3);
    uint32_t pkg = pb_node(PPTT_PHYSICAL_PACKAGE, 0, 0, 0, NULL), l2c[2];
    for (uint32_t cl = 0; cl < 2; cl++) {
        l2c[cl] = pb_cache(1 * MiB, 1024, 16, ATTR_UNIFIED, 0, 0);
        uint32_t cluster = pb_node(0, pkg, cl, 1, &l2c[cl]);
        for (uint32_t core = 0; core < 2; core++) {
            uint32_t l1 = pb_cache(32 * KiB, 256, 2, ATTR_DATA, 0, 0);
            pb_node(PPTT_IS_LEAF | PPTT_ACPI_ID_VALID, cluster, cl * 2 + core, 1, &l1);
        }
    }
    pb_seal();
    assert_true(pptt_parse(pb_tab, pb_len, &p, why, sizeof(why)));
    assert_true(pptt_cache_groups(&p, 1, &a, &b));
    assert_int_equal(a, l2c[0]);
    assert_int_equal(b, 0); /* no L3 listed */
    assert_true(pptt_cache_groups(&p, 3, &a, &b));
    assert_int_equal(a, l2c[1]);
}

/* Parsing fails and the reason names what is wrong. */
static void expect_malformed(size_t buf_len, const char *says)
{
    assert_false(pptt_parse(pb_tab, buf_len, &p, why, sizeof(why)));
    assert_non_null(strstr(why, says));
}

static void test_malformed_tables(void **state)
{
    (void)state;
    n1_system(3);
    expect_malformed(20, "shorter than");
    expect_malformed(pb_len - 1, "not a PPTT"); /* the header claims more than the buffer */
    pb_tab[0] = 'X';
    expect_malformed(sizeof(pb_tab), "not a PPTT");
    uint32_t first = n1_system(3); /* the L3, first structure */
    pb_tab[first + 1] = 1;         /* a length under 2 */
    expect_malformed(sizeof(pb_tab), "has length 1");
    n1_system(3);
    pb_tab[first + 1] = PPTT_CACHE_BYTES; /* a revision 2 length in a revision 3 table */
    expect_malformed(sizeof(pb_tab), "at least 28");
    n1_system(3);
    pb_put32(pb_tab + 4, pb_len - 4); /* the last structure runs past the end */
    expect_malformed(sizeof(pb_tab), "end within");
    n1_system(3);
    pb_put32(pb_tab + first + 8, 7); /* a next level inside the header */
    expect_malformed(sizeof(pb_tab), "next level 7");
}

static void test_malformed_nodes(void **state)
{
    (void)state;
    pb_begin(3);
    uint32_t l1 = pb_cache(64 * KiB, 256, 4, ATTR_DATA, 0, 0);
    uint32_t leaf = pb_node(PPTT_IS_LEAF | PPTT_ACPI_ID_VALID, 0, 0, 1, &l1);
    pb_seal();
    assert_true(pptt_parse(pb_tab, pb_len, &p, why, sizeof(why)));
    pb_put32(pb_tab + leaf + 16, 2); /* two private resources claimed, room for one */
    expect_malformed(pb_len, "2 private resources");
    pb_put32(pb_tab + leaf + 16, 1);
    pb_put32(pb_tab + leaf + 8, l1); /* the parent is a cache */
    expect_malformed(pb_len, "not a processor node");
    pb_put32(pb_tab + leaf + 8, 0);
    pb_put32(pb_tab + leaf + PPTT_PROCESSOR_BYTES, 3); /* a private resource in the header */
    expect_malformed(pb_len, "private resource 3");
}

static void test_loops_end(void **state)
{
    (void)state;
    /* A next-level loop (L1 -> L2 -> L1) and a parent loop still give a bounded answer. */
    pb_begin(3);
    uint32_t l1 = pb_cache(64 * KiB, 256, 4, ATTR_DATA, 0, 0);
    uint32_t l2 = pb_cache(1 * MiB, 2048, 8, ATTR_UNIFIED, l1, 0);
    pb_put32(pb_tab + l1 + 8, l2);
    uint32_t a = pb_node(0, 0, 0, 0, NULL);
    uint32_t b = pb_node(0, a, 0, 0, NULL);
    pb_put32(pb_tab + a + 8, b);
    pb_node(PPTT_IS_LEAF | PPTT_ACPI_ID_VALID, a, 9, 1, &l1);
    pb_seal();
    assert_true(pptt_parse(pb_tab, pb_len, &p, why, sizeof(why)));
    struct pptt_cpu_cache c[PPTT_CPU_CACHES_MAX];
    assert_int_equal(pptt_cpu_caches(&p, 9, c, PPTT_CPU_CACHES_MAX), 2);
    assert_int_equal(c[1].level, 2);
}

static void test_unknown_types_skipped(void **state)
{
    (void)state;
    pb_begin(3);
    uint8_t *id = pb_tab + pb_len; /* type 2, the deprecated ID structure (30 bytes) */
    id[0] = 2;
    id[1] = 30;
    pb_len += 30;
    uint32_t l1 = pb_cache(32 * KiB, 128, 4, ATTR_DATA, 0, 0);
    pb_node(PPTT_IS_LEAF | PPTT_ACPI_ID_VALID, 0, 0, 1, &l1);
    pb_seal();
    assert_true(pptt_parse(pb_tab, pb_len, &p, why, sizeof(why)));
    assert_int_equal(p.n_caches, 1);
    assert_int_equal(p.n_nodes, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_n1_two_clusters),
        cmocka_unit_test(test_revision2_has_no_cache_id),
        cmocka_unit_test(test_cluster_cache_shared_by_its_cores),
        cmocka_unit_test(test_cache_groups),
        cmocka_unit_test(test_malformed_tables),
        cmocka_unit_test(test_malformed_nodes),
        cmocka_unit_test(test_loops_end),
        cmocka_unit_test(test_unknown_types_skipped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
