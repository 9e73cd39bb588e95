// SPDX-License-Identifier: MIT
// chase-sim's stride prefetcher: training, random chains, thrashing, fills, its description.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim_hier.h"
#include "sim_prefetch.h"
#include "sim_spec.h"
#include "sim_hier_fixture.h"

#define LINE 64
#define REGION 4096
#define BASE (1ULL << 32)

static struct sim_prefetcher pf;
static void make_pf(unsigned streams, unsigned distance, unsigned degree)
{
    struct sim_pf_spec s = {streams, distance, degree, 0, REGION};
    sim_pf_init(&pf, &s, 6);
}

/* A stream is trained on its third access (the stride seen twice); it then asks for lines. */
static void test_stream_trains(void **state)
{
    (void)state;
    uint64_t out[SIM_PF_MAX_LINES];
    make_pf(4, 4, 2);
    assert_int_equal(sim_pf_observe(&pf, BASE, out), 0);
    assert_int_equal(sim_pf_observe(&pf, BASE + 128, out), 0);
    assert_false(sim_pf_trained(&pf, BASE));
    /* Just trained: every stride up to distance + degree - 1 = 5 ahead. */
    assert_int_equal(sim_pf_observe(&pf, BASE + 256, out), 5);
    assert_true(sim_pf_trained(&pf, BASE));
    for (unsigned i = 0; i < 5; i++)
        assert_int_equal(out[i], BASE + 256 + 128 * (i + 1));
    /* Then degree lines, distance strides ahead. */
    assert_int_equal(sim_pf_observe(&pf, BASE + 384, out), 2);
    assert_int_equal(out[0], BASE + 384 + 4 * 128);
    assert_int_equal(out[1], BASE + 384 + 5 * 128);
    /* A broken stride untrains the stream; it trains again on the new stride seen twice. */
    assert_int_equal(sim_pf_observe(&pf, BASE + 392, out), 0);
    assert_false(sim_pf_trained(&pf, BASE));
    assert_int_equal(sim_pf_observe(&pf, BASE + 400, out), 5);
    assert_int_equal(out[0], BASE + 448); /* a stride under a line steps a line */
    assert_int_equal(out[4], BASE + 704);
}

/* Nothing is asked for outside the stream's region; a backward stride works too. */
static void test_region_edge_and_backward(void **state)
{
    (void)state;
    uint64_t out[SIM_PF_MAX_LINES];
    make_pf(4, 2, 1);
    uint64_t top = BASE + REGION - LINE;
    sim_pf_observe(&pf, top, out);
    sim_pf_observe(&pf, top - 1024, out);
    assert_int_equal(sim_pf_observe(&pf, top - 2048, out), 1); /* -1024 x 1 only: -2 leaves */
    assert_int_equal(out[0], top - 3072);
    assert_int_equal(sim_pf_observe(&pf, top - 3072, out), 0);
}

/* A random chain (Sattolo's cycle over 64K lines) never trains a stream. */
static void test_random_chain_never_trains(void **state)
{
    (void)state;
    enum { LINES = 1 << 16 };
    static uint32_t next[LINES];
    uint64_t out[SIM_PF_MAX_LINES], x = 88172645463325252ULL;
    for (uint32_t i = 0; i < LINES; i++)
        next[i] = i;
    for (uint32_t i = LINES - 1; i > 0; i--) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint32_t j = (uint32_t)(x % i), t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
    make_pf(16, 4, 1);
    unsigned asked = 0;
    uint32_t at = 0;
    for (unsigned k = 0; k < 4 * LINES; k++, at = next[at])
        asked += sim_pf_observe(&pf, BASE + (uint64_t)at * LINE, out);
    assert_int_equal(pf.triggers, 0);
    assert_int_equal(asked, 0);
}

/* k interleaved streams, each in its own region, in lock-step: how many accesses trigger. */
static uint64_t interleaved_triggers(unsigned streams, unsigned k)
{
    uint64_t out[SIM_PF_MAX_LINES];
    make_pf(streams, 4, 1);
    for (unsigned step = 0; step < 32; step++)
        for (unsigned s = 0; s < k; s++)
            sim_pf_observe(&pf, BASE + (uint64_t)s * 16 * REGION + step * 128, out);
    return pf.triggers;
}

/* Up to the table's size every stream trains; one more and LRU thrashes them all. */
static void test_streams_beyond_table_thrash(void **state)
{
    (void)state;
    static const unsigned sizes[] = {1, 4, 8, 16, 32};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        unsigned n = sizes[i];
        assert_int_equal(interleaved_triggers(n, n), (uint64_t)n * 30);
        assert_int_equal(interleaved_triggers(n, n + 1), 0);
    }
}

/* A linear walk of n lines through the model, one load at a time; their cycles. */
static uint64_t walk_lines(uint64_t first, unsigned n, unsigned stride_bytes, unsigned *lat)
{
    uint64_t addr[256], total;
    assert_true(n <= 256);
    for (unsigned i = 0; i < n; i++)
        addr[i] = first + (uint64_t)i * stride_bytes;
    total = sim_hier_load_many(&hier, addr, n, lat);
    return total;
}

/* Prefetched lines are L1 hits for the loads; the fills are not loads, hits or misses. */
static void test_fills_into_l1(void **state)
{
    (void)state;
    unsigned lat[64];
    build("L1:32K:8w:4c:lru,L2:256K:8w:12c:lru,PF:8:distance=4:degree=1,DRAM:200c");
    walk_lines(BASE, 64, 64, lat); /* one 4K region */
    for (unsigned i = 0; i < 64; i++)
        assert_int_equal(lat[i], i < 3 ? 200 : 4);
    assert_int_equal(hier.loads, 64);
    assert_int_equal(hier.dram_loads, 3);
    assert_int_equal(hier.level[0].cache.hits + hier.level[0].cache.misses, 64);
    assert_int_equal(hier.pf_fills, 61); /* lines 3..63: the stream stops at the region's edge */
}

/* into=L2: the prefetched lines are L2 hits; the L1 keeps only what was loaded. */
static void test_fills_into_l2(void **state)
{
    (void)state;
    unsigned lat[64];
    build("L1:32K:8w:4c:lru,L2:256K:8w:12c:lru,PF:8:into=L2,DRAM:200c");
    walk_lines(BASE, 64, 64, lat);
    for (unsigned i = 0; i < 64; i++)
        assert_int_equal(lat[i], i < 3 ? 200 : 12);
    assert_int_equal(hier.level[1].cache.hits, 61);
}

/* Without a PF item there is no prefetcher: every line of the walk comes from DRAM. */
static void test_off_by_default(void **state)
{
    (void)state;
    unsigned lat[64];
    build("L1:32K:8w:4c:lru,L2:256K:8w:12c:lru,DRAM:200c");
    assert_int_equal(walk_lines(BASE, 64, 64, lat), 64 * 200);
    assert_int_equal(hier.pf_fills, 0);
}

static void parse_error(const char *text, const char *field, const char *why)
{
    struct sim_spec spec;
    struct sim_parse_error err;
    if (sim_spec_parse(text, &spec, &err))
        fail_msg("'%s' should not parse", text);
    size_t pos = (size_t)(strstr(text, field) - text);
    if (err.pos != pos || !strstr(err.msg, why))
        fail_msg("'%s': error at %zu '%s', expected at %zu saying '%s'", text, err.pos, err.msg,
                 pos, why);
}

/* The PF item: defaults, options, canonical form, and errors that point at the field. */
static void test_description(void **state)
{
    (void)state;
    struct sim_spec spec;
    struct sim_parse_error err;
    char a[1024];
    assert_true(sim_spec_parse("L1:32K:8w:4c:lru,L2:1M:8w:12c:lru,DRAM:200c", &spec, &err));
    assert_int_equal(spec.pf.streams, 0);
    assert_true(sim_spec_parse("L1:32K:8w:4c:lru,PF:16,L2:1M:8w:12c:lru,DRAM:200c", &spec, &err));
    assert_int_equal(spec.pf.streams, 16);
    assert_int_equal(spec.pf.distance, SIM_PF_DEFAULT_DISTANCE);
    assert_int_equal(spec.pf.degree, SIM_PF_DEFAULT_DEGREE);
    assert_int_equal(spec.pf.level, 0);
    assert_int_equal(spec.pf.region_bytes, SIM_PF_DEFAULT_REGION_BYTES);
    assert_true(sim_spec_parse("L1:32K:8w:4c:lru,L2:1M:8w:12c:lru,"
                               "PF:32:distance=8:degree=2:into=L2:region=16K,DRAM:200c",
                               &spec, &err));
    sim_spec_format(&spec, a, sizeof(a));
    assert_string_equal(a, "L1:32K:8w:4c:lru,L2:1M:8w:12c:lru:nine,"
                           "PF:32:distance=8:degree=2:into=L2:region=16K,DRAM:200c:mlp=10");
    assert_true(sim_spec_parse(a, &spec, &err));
    assert_int_equal(spec.pf.level, 1);
    parse_error("L1:32K:8w:4c:lru,PF:0,DRAM:200c", "0,", "streams it tracks");
    parse_error("L1:32K:8w:4c:lru,PF:8:degree=99,DRAM:200c", "99", "degree must be");
    parse_error("L1:32K:8w:4c:lru,PF:8:region=3K,DRAM:200c", "region=3K", "power of two");
    parse_error("L1:32K:8w:4c:lru,PF:8:lead=2,DRAM:200c", "lead=2", "unknown prefetcher option");
    parse_error("L1:32K:8w:4c:lru,L2:1M:8w:12c:lru,L3:8M:16w:40c:lru,PF:8:into=L3,DRAM:200c",
                "L3,DRAM", "first or second cache level (L1 or L2)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream_trains),
        cmocka_unit_test(test_region_edge_and_backward),
        cmocka_unit_test(test_random_chain_never_trains),
        cmocka_unit_test(test_streams_beyond_table_thrash),
        cmocka_unit_test_teardown(test_fills_into_l1, teardown),
        cmocka_unit_test_teardown(test_fills_into_l2, teardown),
        cmocka_unit_test_teardown(test_off_by_default, teardown),
        cmocka_unit_test(test_description),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
