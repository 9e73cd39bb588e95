// SPDX-License-Identifier: MIT
// Unit tests of chase-host's node discovery over sysfs trees written here: two nodes with
// processors, a memory-only node, sparse node numbers, a short distance row, no nodes at all.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_tree.h"
#include "host_numa.h"
#include "machine/numa_table.h"

static struct plat_numa t;
static char why[200];

#define NODES "devices/system/node/" /* where sysfs lists the memory nodes */

/* A node folder with its three files (distance NULL: none). */
static void node(unsigned n, const char *cpulist, unsigned long long total_kib,
                 unsigned long long free_kib, const char *distance)
{
    char rel[256], text[256];
    snprintf(rel, sizeof(rel), NODES "node%u/cpulist", n);
    ft_put_text(rel, cpulist);
    snprintf(rel, sizeof(rel), NODES "node%u/meminfo", n);
    snprintf(text, sizeof(text),
             "Node %u MemTotal:       %llu kB\nNode %u MemFree:        %llu kB\n"
             "Node %u MemUsed:        %llu kB\n",
             n, total_kib, n, free_kib, n, total_kib - free_kib);
    ft_put_text(rel, text);
    if (distance) {
        snprintf(rel, sizeof(rel), NODES "node%u/distance", n);
        ft_put_text(rel, distance);
    }
}

static int make_tree(void **state)
{
    (void)state;
    ft_make("/tmp/chase-sysfs-XXXXXX");
    ft_put_text(NODES "online", "0-1,3\n"); /* files beside the node folders are not nodes */
    return 0;
}

static int remove_tree(void **state)
{
    (void)state;
    ft_remove();
    return 0;
}

/* node0 and node1 with processors, node3 memory only (CXL-like), listed out of order. */
static void test_three_nodes(void **state)
{
    (void)state;
    node(3, "\n", 8388608, 8000000, "30 30 10\n"); /* written first: sorted by number */
    node(0, "0-3,8\n", 16777216, 1048576, "10 21 30\n");
    node(1, "4-7\n", 16777216, 2097152, "21 10 30\n");
    assert_int_equal(host_numa_read(ft_root, &t, why, sizeof(why)), 3);
    assert_int_equal(t.node[0].domain, 0);
    assert_int_equal(t.node[1].domain, 1);
    assert_int_equal(t.node[2].domain, 3);
    assert_int_equal(t.node[0].ncpus, 5);
    assert_int_equal(t.node[0].cpu[4], 8);
    assert_int_equal(t.node[1].cpu[0], 4);
    assert_int_equal(t.node[2].ncpus, 0);
    assert_int_equal(t.node[0].mem_bytes, 16ULL << 30);
    assert_int_equal(t.node[1].free_bytes, 2ULL << 30);
    assert_true(t.slit);
    assert_int_equal(plat_numa_distance(&t, 0, 1), 21);
    assert_int_equal(plat_numa_distance(&t, 1, 2), 30);
    assert_int_equal(plat_numa_distance(&t, 2, 0), 30);
    assert_int_equal(plat_numa_distance(&t, 2, 2), 10);
    assert_string_equal(t.source, "/sys/devices/system/node");
}

/* A distance row shorter than the nodes: no distances, and a note saying why. */
static void test_short_distance_row(void **state)
{
    (void)state;
    ft_put_text(NODES "node1/distance", "21\n");
    node_table_free(&t);
    assert_int_equal(host_numa_read(ft_root, &t, why, sizeof(why)), 3);
    assert_false(t.slit);
    assert_int_equal(plat_numa_distance(&t, 0, 1), 0);
    assert_non_null(strstr(t.note, "distance row"));
}

/* Ten nodes, the first with 200 processors: every node and processor kept. */
static void test_many_nodes_and_processors(void **state)
{
    (void)state;
    char dist[64];
    for (unsigned n = 0; n < 10; n++) {
        size_t at = 0;
        for (unsigned k = 0; k < 10; k++)
            at += (size_t)snprintf(dist + at, sizeof(dist) - at, "%u ", n == k ? 10 : 20 + k);
        char cpus[32];
        snprintf(cpus, sizeof(cpus), n ? "%u\n" : "0-199\n", 199 + n);
        node(n, n < 8 ? cpus : "\n", 1048576, 1024, dist);
    }
    node_table_free(&t);
    assert_int_equal(host_numa_read(ft_root, &t, why, sizeof(why)), 10);
    assert_int_equal(t.node[0].ncpus, 200);
    assert_int_equal(t.node[0].cpu[199], 199);
    assert_int_equal(t.node[7].cpu[0], 206);
    assert_int_equal(t.node[9].domain, 9);
    assert_int_equal(t.node[9].ncpus, 0);
    assert_true(t.slit);
    assert_int_equal(plat_numa_distance(&t, 9, 3), 23);
    node_table_free(&t);
}

static void test_cpulists(void **state)
{
    (void)state;
    int cpus[16];
    assert_int_equal(host_parse_cpulist("0-2,5,7-8\n", cpus, 16), 6);
    assert_int_equal(cpus[3], 5);
    assert_int_equal(cpus[5], 8);
    assert_int_equal(host_parse_cpulist("\n", cpus, 16), 0);
    assert_int_equal(host_parse_cpulist("3-1", cpus, 16), -1);
    assert_int_equal(host_parse_cpulist("0,,x", cpus, 16), -1);
    assert_int_equal(host_parse_cpulist("0-63", cpus, 16), 16); /* capped */
}

/* A kernel without NUMA: no node folders, the reason names the folder. */
static void test_no_nodes(void **state)
{
    (void)state;
    node_table_free(&t);
    assert_int_equal(host_numa_read("/nonexistent-sysfs", &t, why, sizeof(why)), 0);
    assert_non_null(strstr(why, "/nonexistent-sysfs/devices/system/node lists no nodeN"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_nodes),
        cmocka_unit_test(test_short_distance_row),
        cmocka_unit_test(test_many_nodes_and_processors),
        cmocka_unit_test(test_cpulists),
        cmocka_unit_test(test_no_nodes),
    };
    return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
