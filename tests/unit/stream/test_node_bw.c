// SPDX-License-Identifier: MIT
// Unit tests of numa's read bandwidth matrix: how much of each node's buffer a cell reads,
// against the last caches of the processors that read it together.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "experiments/experiment.h"
#include "machine/numa_table.h"
#include "stream/node_bw.h"
#include "stubs/stub_platform.h"

#define KiB 1024ull
#define MiB (1ull << 20)

/* The kernels are not run here: node_bw_begin sizes, it does not measure. */
bw_kernel_fn bw_kernel_code(enum bw_kernel k, enum simd_width w)
{
    (void)k, (void)w;
    fail_msg("a kernel was asked for");
    return NULL;
}

/* cpus[0..n) with l3_group i % groups: processors in turn on that many L3 instances. */
static void spread(struct mp_cpu *cpus, unsigned n, unsigned groups)
{
    memset(cpus, 0, n * sizeof(*cpus));
    for (unsigned i = 0; i < n; i++)
        cpus[i].l3_group = i % groups;
}

/* A node of an AMD EPYC (one socket, NPS1) of 12 CCDs, each an L3 of 32M: the 32 processors
   mp_cpus takes of it lie on all 12, which hold 384M together; a cell reads twice that, beyond
   4 x one L3 (128M, what random's size gives), which those 12 L3s would hold. */
static void test_epyc_node(void **state)
{
    (void)state;
    struct mp_cpu cpus[32];
    uint64_t cache;
    spread(cpus, 32, 12);
    assert_int_equal(mp_l3_count(cpus, 32), 12);
    assert_int_equal(node_bw_read_bytes(cpus, 32, 32 * MiB, 128 * MiB, &cache), 768 * MiB);
    assert_int_equal(cache, 384 * MiB);
    spread(cpus, 5, 12); /* fewer processors: only the L3s they read through */
    assert_int_equal(node_bw_read_bytes(cpus, 5, 32 * MiB, 2 * MiB, &cache), 320 * MiB);
    assert_int_equal(cache, 160 * MiB);
}

/* A node of a 2-socket Xeon (a socket, one L3 of 38.5M): twice it, unless the chain is longer. */
static void test_xeon_node(void **state)
{
    (void)state;
    struct mp_cpu cpus[32];
    uint64_t cache;
    spread(cpus, 32, 1);
    assert_int_equal(mp_l3_count(cpus, 32), 1);
    assert_int_equal(node_bw_read_bytes(cpus, 32, 28 * 1408 * KiB, 256 * MiB, &cache), 256 * MiB);
    assert_int_equal(node_bw_read_bytes(cpus, 32, 28 * 1408 * KiB, 2 * MiB, &cache),
                     2 * 28 * 1408 * KiB);
    assert_int_equal(cache, 28 * 1408 * KiB);
}

/* No L3: each processor is its own group (mp.c's probe), so its L2 (the last cache) counts. */
static void test_no_l3(void **state)
{
    (void)state;
    struct mp_cpu cpus[4];
    uint64_t cache;
    spread(cpus, 4, 4);
    assert_int_equal(node_bw_read_bytes(cpus, 4, MiB, 0, &cache), 8 * MiB);
    assert_int_equal(mp_l3_count(cpus, 0), 0);
}

static struct machine machine;
static struct exp_ctx ctx;
static struct plat_numa numa;

/* Two nodes of two fake processors each (0, 1 and 2, 3), an 8M L3, all pinned to one CPU so
   that their probes see one L3; a context that measures on real processors. */
static void two_nodes(unsigned ncpus)
{
    memset(&machine, 0, sizeof(machine));
    machine.cpu.ncaches = 1;
    machine.cpu.caches[0] = (struct cache_info){
        .level = 3, .type = CACHE_UNIFIED, .size_bytes = 8 * MiB, .ways = 16, .line_bytes = 64};
    memset(&ctx, 0, sizeof(ctx));
    ctx.m = &machine;
    ctx.measure = measure_chase;
    static const unsigned room[2] = {2, 2}, ranges[2];
    node_table_free(&numa);
    assert_true(numa_table_alloc(&numa, 2, room, ranges));
    stub_ncpus = ncpus;
    for (unsigned i = 0; i < ncpus; i++) {
        stub_cpus[i] =
            (struct plat_cpu){.id = i, .core = i, .node = i / 2, .node_known = true, .bsp = i == 0};
        numa.node[i / 2].cpu[numa.node[i / 2].ncpus++] = (int)i;
    }
    stub_cpus_pin();
    stub_console_reset();
}

static int teardown(void **state)
{
    (void)state;
    stub_cpus_unpin();
    stub_ncpus = 0;
    node_table_free(&numa);
    return 0;
}

/* Before the buffers: each cell reads twice a row's last caches, beyond the chain's, said. */
static void test_begin_says(void **state)
{
    (void)state;
    static struct node_bw nb;
    two_nodes(4);
    assert_int_equal(node_bw_begin(&ctx, &numa, 2 * MiB, &nb), 16 * MiB);
    assert_string_equal(nb.skipped, "");
    assert_int_equal(nb.read_bytes, 16 * MiB);
    assert_non_null(strstr(stub_console, "read bandwidth: each cell reads 16M of its node's "
                                         "buffer, 2 times the 8M that the last caches of a "
                                         "node's processors hold (1 of 8M), beyond the chain's "
                                         "2M"));
    assert_int_equal(node_bw_at(&nb, 1, 0)->measured, false);
    node_bw_end(&nb);
    assert_int_equal(node_bw_begin(&ctx, &numa, 64 * MiB, &nb), 64 * MiB); /* the chain's */
    node_bw_end(&nb);
    assert_null(nb.cell);
}

/* One processor: no matrix, said; the buffers are the chain's. */
static void test_begin_one_processor(void **state)
{
    (void)state;
    static struct node_bw nb;
    two_nodes(0);
    assert_int_equal(node_bw_begin(&ctx, &numa, 2 * MiB, &nb), 2 * MiB);
    assert_non_null(strstr(nb.skipped, "needs two processors or more"));
    assert_string_equal(ctx.failure, "");
    node_bw_end(&nb);
}

#define T(f) cmocka_unit_test_teardown(f, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_epyc_node), cmocka_unit_test(test_xeon_node),
        cmocka_unit_test(test_no_l3),     T(test_begin_says),
        T(test_begin_one_processor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
