// SPDX-License-Identifier: MIT
// chase-sim's hierarchy: latencies, fills, inclusion, victim caches, TLBs and slice hashes.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim_hier.h"
#include "sim_spec.h"
#include "sim_hier_fixture.h"

#define LINE 64

/* Load line numbers (addresses line * 64) in turn; compare their latencies with want. */
static void loads(const uint64_t *lines, const unsigned *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned got = sim_hier_load(&hier, lines[i] * LINE);
        if (got != want[i])
            fail_msg("load %zu (line %llu): %u cycles, expected %u", i,
                     (unsigned long long)lines[i], got, want[i]);
    }
}

/* Non-inclusive: every level missed is filled; the L2 still has what L1 dropped. */
static void test_nine_fills(void **state)
{
    (void)state;
    build("L1:128:2w:4c:lru,L2:256:4w:12c:lru,DRAM:100c");
    static const uint64_t l[] = {1, 2, 3, 1, 2, 3, 4, 5, 1};
    static const unsigned w[] = {100, 100, 100, 12, 12, 12, 100, 100, 100};
    loads(l, w, 9);
    assert_int_equal(hier.dram_loads, 6);
    assert_int_equal(hier.loads, 9);
}

/*
 * Inclusive L2 (2 ways) over a 2-way L1: L1 hits do not refresh the L2, so when C comes
 * the L2 evicts A (its LRU line) and takes it out of the L1 too, though the L1 had just
 * used it. A non-inclusive L2 leaves the L1 alone.
 */
static void test_inclusive_back_invalidates(void **state)
{
    (void)state;
    static const uint64_t l[] = {1, 2, 1, 3, 1};
    static const unsigned incl[] = {100, 100, 4, 100, 100};
    static const unsigned nine[] = {100, 100, 4, 100, 4};
    build("L1:128:2w:4c:lru,L2:128:2w:12c:lru:incl,DRAM:100c");
    loads(l, incl, 5);
    sim_hier_free(&hier);
    build("L1:128:2w:4c:lru,L2:128:2w:12c:lru:nine,DRAM:100c");
    loads(l, nine, 5);
}

/*
 * An exclusive L2 is a victim cache: a miss fills the L1 only, the L1's victim moves to the
 * L2, an L2 hit moves the line back. One L1 line plus two L2 lines hold a 3-line loop;
 * a non-inclusive pair of the same sizes holds only two of them.
 */
static void test_exclusive_victim_cache(void **state)
{
    (void)state;
    static const uint64_t l[] = {1, 2, 3, 1, 2, 3, 1};
    static const unsigned excl[] = {100, 100, 100, 12, 12, 12, 12};
    static const unsigned nine[] = {100, 100, 100, 100, 100, 100, 100};
    build("L1:64:1w:4c:lru,L2:128:2w:12c:lru:excl,DRAM:100c");
    loads(l, excl, 7);
    sim_hier_free(&hier);
    build("L1:64:1w:4c:lru,L2:128:2w:12c:lru,DRAM:100c");
    loads(l, nine, 7);
}

/* A TLB miss adds its cost; a second-level TLB hit costs only the first's miss. */
static void test_tlb(void **state)
{
    (void)state;
    build("L1:32K:8w:4c:lru,DTLB:2:2w:7c,STLB:4:4w:20c,DRAM:100c");
    /* Pages 0, 1, 2 (4 KiB): the first sight of each misses both TLBs and the cache. */
    assert_int_equal(sim_hier_load(&hier, 0 * 4096), 100 + 27);
    assert_int_equal(sim_hier_load(&hier, 1 * 4096), 100 + 27);
    assert_int_equal(sim_hier_load(&hier, 0 * 4096 + 64), 100); /* DTLB hit */
    assert_int_equal(sim_hier_load(&hier, 2 * 4096), 100 + 27); /* DTLB drops page 1 */
    assert_int_equal(sim_hier_load(&hier, 1 * 4096), 4 + 7);    /* STLB hit, L1 hit */
    /* With 2 MiB pages the same addresses share one page: one walk, then hits. */
    sim_hier_set_page(&hier, 2ULL << 20);
    assert_int_equal(sim_hier_load(&hier, 0), 4 + 27);
    assert_int_equal(sim_hier_load(&hier, 2 * 4096), 4);
}

/* Intel's 4-slice hash: address bit 6 is in the first mask only, bit 7 in the second only. */
static void test_slice_intel(void **state)
{
    (void)state;
    build("L1:32K:8w:4c:lru,L3:6M:12w:40c:lru:slices=4:hash=intel,DRAM:200c");
    const struct sim_cache *c = &hier.level[1].cache;
    assert_int_equal(c->sets, 8192);
    assert_int_equal(sim_cache_slice(c, 0), 0);
    assert_int_equal(sim_cache_slice(c, 0x40 >> 6), 1);
    assert_int_equal(sim_cache_slice(c, 0x80 >> 6), 2);
    assert_int_equal(sim_cache_slice(c, 0xc0 >> 6), 3);
    assert_int_equal(sim_cache_set(c, 0xc0 >> 6), 3 * 2048 + 3);
}

/*
 * The XOR hash is the XOR of the line's slice_bits-wide fields above the set index (what
 * sim_cache_slice computes as one parity per slice bit), for 2 to 64 slices.
 */
static void test_slice_xor_folds_fields(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "L1:32K:8w:4c:lru,L3:512K:8w:40c:lru:slices=2:hash=xor,DRAM:200c",
        "L1:32K:8w:4c:lru,L3:6M:12w:40c:lru:slices=4:hash=xor,DRAM:200c",
        "L1:32K:8w:4c:lru,L3:3M:12w:40c:lru:slices=8:hash=xor,DRAM:200c",
        "L1:32K:8w:4c:lru,L3:32M:16w:40c:lru:slices=32:hash=xor,DRAM:200c",
        "L1:32K:8w:4c:lru,L3:64M:16w:40c:lru:slices=64:hash=xor,DRAM:200c",
    };
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (size_t s = 0; s < sizeof(specs) / sizeof(specs[0]); s++) {
        build(specs[s]);
        const struct sim_cache *c = &hier.level[1].cache;
        for (unsigned k = 0; k < 20000; k++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            uint64_t line = k < 64 ? 1ULL << k : x >> (k % 40), high = line >> c->set_bits;
            uint32_t want = 0;
            for (; high; high >>= c->slice_bits)
                want ^= (uint32_t)(high & (c->p.slices - 1));
            if (sim_cache_slice(c, line) != want)
                fail_msg("%s: line %#llx in slice %u, not %u", specs[s], (unsigned long long)line,
                         sim_cache_slice(c, line), want);
        }
        sim_hier_free(&hier);
    }
    build("L1:32K:8w:4c:lru,DRAM:200c");
}

/* Every hash spreads consecutive lines above the set bits evenly over the slices. */
static void test_slice_hashes_balance(void **state)
{
    (void)state;
    static const char *const specs[] = {
        "L1:768K:12w:40c:lru:slices=4:hash=xor,DRAM:200c",
        "L1:768K:12w:40c:lru:slices=4:hash=intel,DRAM:200c",
        "L1:1920K:12w:40c:lru:slices=10:hash=mix,DRAM:200c",
        "L1:1920K:12w:40c:lru:slices=10:hash=mod,DRAM:200c",
    };
    for (size_t s = 0; s < 4; s++) {
        build(specs[s]);
        const struct sim_cache *c = &hier.level[0].cache;
        unsigned count[64] = {0}, n = 100000;
        for (uint64_t line = 0; line < n; line++)
            count[sim_cache_slice(c, line * 7 + 3)]++;
        for (unsigned k = 0; k < c->p.slices; k++)
            if (count[k] < n / c->p.slices * 8 / 10 || count[k] > n / c->p.slices * 12 / 10)
                fail_msg("%s: slice %u got %u of %u lines", specs[s], k, count[k], n);
        sim_hier_free(&hier);
    }
    build("L1:32K:8w:4c:lru,DRAM:200c");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_nine_fills, teardown),
        cmocka_unit_test_teardown(test_inclusive_back_invalidates, teardown),
        cmocka_unit_test_teardown(test_exclusive_victim_cache, teardown),
        cmocka_unit_test_teardown(test_tlb, teardown),
        cmocka_unit_test_teardown(test_slice_intel, teardown),
        cmocka_unit_test_teardown(test_slice_xor_folds_fields, teardown),
        cmocka_unit_test_teardown(test_slice_hashes_balance, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
