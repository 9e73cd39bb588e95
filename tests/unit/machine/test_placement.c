// SPDX-License-Identifier: MIT
// Unit tests of the buffer's placement over memory maps and memory nodes: the boot processor's
// node rather than the highest address, the nearest node by SLIT when it has no room, never
// special-purpose or hot-pluggable memory unless a node is asked for, and write-back only;
// special-purpose memory (EFI_MEMORY_SP) and CPU-less nodes as the tier measurement's targets.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/hmat.h"
#include "machine/memtype.h"
#include "machine/numa_table.h"
#include "machine/placement.h"
#include "machine/tiers.h"

#define MiB (1ULL << 20)
#define GiB (1ULL << 30)

static struct plat_numa t;
static char why[240];

#define TEST_NODES 4  /* the most nodes a test here lays out */
#define TEST_RANGES 4 /* ... and ranges a node */

/* A fresh table with room for TEST_NODES nodes of TEST_RANGES ranges, none laid out yet. */
static void table_begin(void)
{
    static const unsigned cpus[TEST_NODES],
        ranges[TEST_NODES] = {TEST_RANGES, TEST_RANGES, TEST_RANGES, TEST_RANGES};
    node_table_free(&t);
    assert_true(numa_table_alloc(&t, TEST_NODES, cpus, ranges));
    t.nnodes = 0; /* set_distances says how many are laid out */
}

static void add_range(unsigned node, uint64_t base, uint64_t size, bool hotplug)
{
    struct plat_node *nd = &t.node[node];
    assert_true(node < TEST_NODES && nd->nranges < TEST_RANGES);
    nd->range[nd->nranges++] = (struct plat_mem_range){base, size, hotplug, false};
}

/* The distances of the first n nodes, row by row (the table then holds n nodes). */
static void set_distances(unsigned n, const uint8_t *d)
{
    t.nnodes = n;
    memcpy(t.distance, d, (size_t)n * n);
}

/*
 * A two-socket machine as firmware lays it out: node 0 holds [1 MiB, 2 GiB) and [4 GiB, 8 GiB),
 * node 1 holds [8 GiB, 16 GiB), the highest addresses. SLIT 10/21.
 */
static unsigned two_sockets(struct mem_region *r)
{
    static const uint8_t d[2][2] = {{10, 21}, {21, 10}};
    table_begin();
    add_range(0, 0, 2 * GiB, false);
    add_range(0, 4 * GiB, 4 * GiB, false);
    add_range(1, 8 * GiB, 8 * GiB, false);
    t.slit = true;
    set_distances(2, &d[0][0]);
    r[0] = (struct mem_region){1 * MiB, 2 * GiB - 1 * MiB, MEM_USABLE};
    r[1] = (struct mem_region){4 * GiB, 12 * GiB, MEM_USABLE};
    return 2;
}

static struct place_request req(uint64_t size, int node, unsigned home)
{
    return (struct place_request){size, 2 * MiB, NULL, 1 * GiB, node, home};
}

static void test_home_node_not_highest(void **state)
{
    (void)state;
    struct mem_region r[4];
    unsigned n = two_sockets(r);
    struct place_result res;
    struct place_request q = req(512 * MiB, PLACE_NODE_HOME, 0);
    /* Without nodes the highest address wins: node 1's memory, remote to the boot processor. */
    assert_true(place_in_nodes(r, n, NULL, &q, &res, why, sizeof(why)));
    assert_int_equal(res.addr, 16 * GiB - 512 * MiB);
    assert_int_equal(res.node, PLACE_NODE_NONE);
    /* With nodes: the top of node 0, inside its SRAT range, no fallback said. */
    assert_true(place_in_nodes(r, n, &t, &q, &res, why, sizeof(why)));
    assert_int_equal(res.node, 0);
    assert_int_equal(res.addr, 8 * GiB - 512 * MiB);
    assert_int_equal(place_node_of(&t, res.addr, q.size), 0);
    assert_false(res.fallback);
    assert_string_equal(res.note, "");
    /* The boot processor in node 1: node 1. */
    q.home = 1;
    assert_true(place_in_nodes(r, n, &t, &q, &res, why, sizeof(why)));
    assert_int_equal(res.node, 1);
    assert_int_equal(place_node_of(&t, res.addr, q.size), 1);
}

static void test_asked_node(void **state)
{
    (void)state;
    struct mem_region r[4];
    unsigned n = two_sockets(r);
    struct place_result res;
    struct place_request q = req(512 * MiB, 1, 0);
    assert_true(place_in_nodes(r, n, &t, &q, &res, why, sizeof(why)));
    assert_int_equal(res.node, 1);
    assert_int_equal(res.addr, 16 * GiB - 512 * MiB);
    /* A node the SRAT does not list, or too small, is an error that says so: no fallback. */
    q.node = 2;
    assert_false(place_in_nodes(r, n, &t, &q, &res, why, sizeof(why)));
    assert_non_null(strstr(why, "node 2 was asked for; the SRAT lists 2 node(s)"));
    q = req(9 * GiB, 1, 0);
    assert_false(place_in_nodes(r, n, &t, &q, &res, why, sizeof(why)));
    assert_non_null(strstr(why, "node 1 (asked for) has no free write-back span"));
    q.node = 0;
    assert_false(place_in_nodes(r, n, NULL, &q, &res, why, sizeof(why)));
    assert_non_null(strstr(why, "no ACPI SRAT"));
}

static void test_nearest_by_slit(void **state)
{
    (void)state;
    struct mem_region r[4];
    unsigned n = two_sockets(r);
    /* Four nodes: node 0 has only 2 GiB free now; node 3 is nearer than 1 and 2 (SLIT). */
    add_range(2, 16 * GiB, 4 * GiB, false);
    add_range(3, 20 * GiB, 4 * GiB, false);
    r[1].size = 2 * GiB; /* [4 GiB, 6 GiB) free in node 0 */
    r[2] = (struct mem_region){8 * GiB, 16 * GiB, MEM_USABLE};
    n = 3;
    static const uint8_t d[4][4] = {
        {10, 32, 32, 12}, {32, 10, 12, 32}, {32, 12, 10, 32}, {12, 32, 32, 10}};
    set_distances(4, &d[0][0]);
    unsigned order[TEST_NODES];
    assert_int_equal(place_node_order(&t, 0, order), 4);
    assert_int_equal(order[0], 0);
    assert_int_equal(order[1], 3);
    assert_int_equal(order[2], 1);
    assert_int_equal(order[3], 2);
    struct place_result res;
    struct place_request q = req(3 * GiB, PLACE_NODE_HOME, 0);
    assert_true(place_in_nodes(r, n, &t, &q, &res, why, sizeof(why)));
    assert_int_equal(res.node, 3);
    assert_true(res.fallback);
    assert_non_null(strstr(res.note, "node 0 (the boot processor's) has no free write-back span"));
    assert_non_null(strstr(res.note, "placed in node 3, the nearest with room (SLIT distance 12)"));
    /* Without SLIT: the next node by number. */
    t.slit = false;
    assert_true(place_in_nodes(r, n, &t, &q, &res, why, sizeof(why)));
    assert_int_equal(res.node, 1);
    assert_non_null(strstr(res.note, "no SLIT: next by number"));
    /* Nothing fits anywhere: the reason names the home node's largest span. */
    q.size = 9 * GiB;
    assert_false(place_in_nodes(r, n, &t, &q, &res, why, sizeof(why)));
    assert_non_null(strstr(why, "boot processor's node 0: at most 2147483648 bytes"));
}

static void test_special_and_hotplug(void **state)
{
    (void)state;
    struct mem_region r[4];
    /* Node 0's upper range is hot-pluggable; [1 MiB, 1 GiB) is special-purpose (EFI_MEMORY_SP). */
    two_sockets(r);
    t.node[0].range[1].hotplug = true;
    struct mem_region m[3] = {{1 * MiB, 1 * GiB - 1 * MiB, MEM_SPECIAL},
                              {1 * GiB, 1 * GiB, MEM_USABLE},
                              {4 * GiB, 12 * GiB, MEM_USABLE}};
    struct place_result res;
    struct place_request q = req(512 * MiB, PLACE_NODE_HOME, 0);
    assert_true(place_in_nodes(m, 3, &t, &q, &res, why, sizeof(why)));
    assert_int_equal(res.node, 0);
    assert_int_equal(res.addr, 2 * GiB - 512 * MiB); /* not the hot-pluggable [4, 8) GiB */
    q.size = 1 * GiB + 512 * MiB; /* fits only with the special memory: node 1 instead */
    assert_true(place_in_nodes(m, 3, &t, &q, &res, why, sizeof(why)));
    assert_int_equal(res.node, 1);
    q.node = 0; /* asked for: special-purpose and hot-pluggable memory allowed */
    assert_true(place_in_nodes(m, 3, &t, &q, &res, why, sizeof(why)));
    assert_int_equal(res.node, 0);
    assert_int_equal(res.addr, 8 * GiB - q.size);
    /* Special memory is never taken without nodes either. */
    struct mem_region only_sp[1] = {{1 * MiB, 4 * GiB, MEM_SPECIAL}};
    q = req(512 * MiB, PLACE_NODE_HOME, 0);
    assert_false(place_in_nodes(only_sp, 1, NULL, &q, &res, why, sizeof(why)));
}

/*
 * A memory map with EFI_MEMORY_SP ranges (efi_memory_regions makes them MEM_SPECIAL): node 0,
 * with the processor, holds [0, 4 GiB), its top GiB special-purpose (HBM in flat mode); node 1,
 * CPU-less, holds [4, 8) GiB, all special-purpose (a CXL expander). SLIT 10/20.
 */
static void test_special_purpose_tiers(void **state)
{
    (void)state;
    static const unsigned cpus[2] = {1, 0}, ranges[2] = {1, 1};
    static const uint8_t d[2][2] = {{10, 20}, {20, 10}};
    static struct hmat h;
    struct plat_numa u;
    assert_true(numa_table_alloc(&u, 2, cpus, ranges));
    u.node[0].ncpus = 1;
    u.node[0].cpu[0] = 0;
    u.node[0].range[u.node[0].nranges++] = (struct plat_mem_range){0, 4 * GiB, false, false};
    u.node[1].domain = 1;
    u.node[1].range[u.node[1].nranges++] = (struct plat_mem_range){4 * GiB, 4 * GiB, false, false};
    u.slit = true;
    memcpy(u.distance, d, sizeof(d));
    struct mem_region m[3] = {{1 * MiB, 3 * GiB - 1 * MiB, MEM_USABLE},
                              {3 * GiB, 1 * GiB, MEM_SPECIAL},
                              {4 * GiB, 4 * GiB, MEM_SPECIAL}};
    /* Listed as tier targets: each node's room counts its special-purpose memory. */
    place_node_space(m, 3, &u, 2 * MiB);
    assert_int_equal(u.node[0].special_bytes, 1 * GiB);
    assert_int_equal(u.node[1].special_bytes, 4 * GiB);
    assert_int_equal(u.node[0].free_bytes, 4 * GiB - 2 * MiB); /* [2 MiB, 4 GiB), joined */
    assert_int_equal(u.node[1].free_bytes, 4 * GiB);
    unsigned targets[2];
    assert_int_equal(tiers_targets(&u, targets), 2);
    assert_int_equal(targets[0], 0);
    assert_int_equal(targets[1], 1);
    /* The CPU-less node is measured from node 0: by SLIT, or by HMAT's attached initiator. */
    const char *by;
    assert_int_equal(tiers_measured_from(&u, NULL, 1, &by), 0);
    assert_string_equal(by, "SLIT");
    h.ndomains = 1;
    h.domain[0] = (struct hmat_domain){1, true, 0};
    assert_int_equal(tiers_measured_from(&u, &h, 1, &by), 0);
    assert_string_equal(by, "HMAT");
    assert_int_equal(tiers_measured_from(&u, &h, 0, &by), 0);
    assert_string_equal(by, "own");

    /* The main buffer never lies in special-purpose memory, however large it is asked to be. */
    struct place_result res;
    struct place_request q = req(1 * GiB, PLACE_NODE_HOME, 0);
    assert_true(place_in_nodes(m, 3, &u, &q, &res, why, sizeof(why)));
    assert_int_equal(res.node, 0);
    assert_true(res.addr + q.size <= 3 * GiB);
    assert_false(place_in_special(m, 3, res.addr, q.size));
    q.size = 3 * GiB;
    assert_false(place_in_nodes(m, 3, &u, &q, &res, why, sizeof(why)));
    assert_non_null(strstr(why, "outside special-purpose and hot-pluggable memory"));
    /* A tier buffer asked for in node 1 lies in its special-purpose memory. */
    q = req(2 * GiB, 1, 0);
    assert_true(place_in_nodes(m, 3, &u, &q, &res, why, sizeof(why)));
    assert_int_equal(res.node, 1);
    assert_true(res.addr >= 4 * GiB && res.addr + q.size <= 8 * GiB);
    assert_true(place_in_special(m, 3, res.addr, q.size));
    node_table_free(&u);
}

/* A machine whose MTRRs make node 0's top 256 MiB UC (default WB): placed just below it. */
static void test_write_back_in_node(void **state)
{
    (void)state;
    struct mem_region r[4];
    unsigned n = two_sockets(r);
    struct memtype_regs mt;
    memset(&mt, 0, sizeof(mt));
    mt.read = true;
    mt.phys_bits = 39;
    mt.mtrr_cap = 10 | MTRRCAP_FIX;
    mt.mtrr_def_type = MTRR_DEF_E | MT_WB;
    mt.nvar = 1;
    uint64_t base = 8 * GiB - 256 * MiB;
    mt.var[0] =
        (struct mtrr_var){base | MT_UC, (~(256 * MiB - 1) & 0x7fffffffffULL & MTRR_PHYS_ADDR_MASK) |
                                            MTRR_PHYSMASK_VALID};
    mt.pat = PAT_RESET_VALUE;
    struct place_result res;
    struct place_request q = req(512 * MiB, PLACE_NODE_HOME, 0);
    q.types = &mt;
    assert_true(place_in_nodes(r, n, &t, &q, &res, why, sizeof(why)));
    assert_int_equal(res.node, 0);
    /* 1 GiB pages over it must be WB too: the page [7, 8) GiB holds the UC part. */
    assert_int_equal(res.addr, 7 * GiB - 512 * MiB);
    assert_true(res.big_pages_wb);
    assert_int_equal(memtype_range(&mt, res.addr, q.size, 0), MT_WB);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_home_node_not_highest), cmocka_unit_test(test_asked_node),
        cmocka_unit_test(test_nearest_by_slit),       cmocka_unit_test(test_special_and_hotplug),
        cmocka_unit_test(test_write_back_in_node),    cmocka_unit_test(test_special_purpose_tiers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
