// SPDX-License-Identifier: MIT
// chase-sim's batched loads (sets found ahead, moves deferred, both builds) against single loads.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim_hier.h"
#include "sim_spec.h"

#define STREAM_LOADS 60000
#define PHASES 4

/*
 * Hierarchies that take every path of the hot loop: 1 to 5 levels (5: the loop that is not
 * unrolled), each policy family and kind, inclusive and exclusive levels (deferred victim
 * moves and immediate ones), slices with every hash, mixed line sizes, TLBs, many ways.
 */
static const char *const specs[] = {
    "L1:32K:8w:4c:lru,L2:1M:8w:14c:lru,L3:32M:16w:50c:lru,DRAM:200c",
    "ivybridge",
    "epyc-zen4",
    "neoverse-n1",
    "cortex-a72",
    "L1:4K:2w:4c:plru,DRAM:100c",
    "DTLB:16:4w:7c:lru,STLB:64:8w:20c:random,L1:8K:4w:4c:fifo,L2:64K:8w:12c:nru:excl,"
    "L3:512K:16w:30c:bip:incl:slices=4:hash=xor:eps=4,DRAM:200c",
    "L1:2K:2w:3c:srrip,L2:16K:4w:9c:brrip:excl:eps=3,L3:96K:12w:20c:dip:excl:slices=2:hash=mix,"
    "L4:1M:32w:40c:drrip:incl:slices=4:hash=intel:leaders=4,DRAM:150c",
    /*
     * 3 levels of the straight-line kinds, no victim cache: the loops specialized for their
     * kinds and relation (with the ones above: every kind at every level, no inclusive
     * level and the outermost one inclusive, a TLB), and one with two inclusive levels
     */
    "L1:32K:8w:4c:lru,L2:256K:8w:12c:plru,L3:6M:12w:40c:drrip:slices=4,DRAM:200c",
    "DTLB:16:4w:7c:lru,L1:4K:8w:4c:plru,L2:32K:16w:12c:srrip,L3:256K:16w:30c:lru:incl:slices=2,"
    "DRAM:200c",
    "L1:4K:8w:4c:plru,L2:32K:16w:12c:srrip:incl,L3:256K:16w:30c:lru:incl:slices=2,DRAM:200c",
    "L1:4K:4w:4c:nru,L2:32K:8w:12c:lru,L3:256K:8w:30c:plru:incl:slices=4:hash=intel,"
    "DRAM:200c",
    /*
     * outermost levels small enough to fill up, so that their victims are chosen too: each
     * straight-line kind, dueling, bimodal with eps a power of two and not, NRU, inclusive
     */
    "L1:2K:4w:4c:lru,L2:16K:8w:12c:lru,L3:128K:16w:30c:lru,DRAM:200c",
    "L1:2K:4w:4c:lru,L2:16K:8w:12c:plru,L3:128K:16w:30c:drrip:slices=4:leaders=4,DRAM:200c",
    "L1:2K:4w:4c:plru,L2:16K:4w:12c:plru,L3:128K:16w:30c:drrip:incl:slices=4:hash=intel:"
    "leaders=8:eps=16,DRAM:200c",
    "L1:2K:4w:4c:plru,L2:16K:8w:12c:plru,L3:96K:12w:30c:brrip:incl:slices=2:eps=3,DRAM:200c",
    "L1:2K:4w:4c:plru,L2:16K:8w:12c:plru,L3:64K:8w:30c:nru:incl,DRAM:200c",
    "L1:1K:1w:2c:lru:line=32,L2:10K:20w:6c:random,L3:30K:24w:12c:lru:slices=5:hash=mod,"
    "L4:256K:64w:25c:fifo:line=128,L5:2M:8w:40c:drrip:incl:line=128,DRAM:300c",
};

static uint64_t rng_state;

static uint64_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A stream mixing random loads over a region of 2^12..2^24 bytes, strides and a hot part. */
static void make_stream(uint64_t *addr, size_t n)
{
    uint64_t span = 1ULL << (12 + next_random() % 13), pos = 0;
    uint64_t stride = 8ULL << (next_random() % 8);
    for (size_t k = 0; k < n; k++) {
        uint64_t r = next_random();
        if (k % 3000 == 0)
            span = 1ULL << (12 + r % 13);
        switch (r >> 60 & 3) {
        case 0:
            pos = (pos + stride) % span;
            addr[k] = pos;
            break;
        case 1:
            addr[k] = (r >> 8) % (span / 16 + 64);
            break;
        default:
            addr[k] = (r >> 8) % span;
            break;
        }
        addr[k] = (4ULL << 30) + addr[k] / 8 * 8;
    }
}

static void build(struct sim_hier *h, const char *text, uint64_t page)
{
    struct sim_spec spec;
    struct sim_parse_error err;
    const struct sim_preset *preset = sim_preset_find(text);
    if (!sim_spec_parse(preset ? preset->spec : text, &spec, &err))
        fail_msg("%s: %s", text, err.msg);
    assert_int_equal(sim_hier_init(h, &spec, page, 3), 0);
}

/* Every counter and selector of a and b agree. */
static void same_state(const struct sim_hier *a, const struct sim_hier *b, const char *text)
{
    assert_int_equal(a->loads, b->loads);
    assert_int_equal(a->dram_loads, b->dram_loads);
    for (unsigned i = 0; i < a->nlevels; i++) {
        const struct sim_cache *x = &a->level[i].cache, *y = &b->level[i].cache;
        if (x->hits != y->hits || x->misses != y->misses || x->psel != y->psel ||
            x->empty_ways != y->empty_ways || x->rng != y->rng)
            fail_msg("%s: level %u differs", text, i);
        if (memcmp(x->rows, y->rows, x->sets * x->row_bytes) != 0)
            fail_msg("%s: level %u's rows differ", text, i);
    }
    for (unsigned i = 0; i < a->ntlbs; i++)
        assert_int_equal(a->tlb[i].cache.misses, b->tlb[i].cache.misses);
}

/* The loads of addr one at a time, and in uneven batches (build v3 or portable). */
static void compare(const char *text, const uint64_t *addr, size_t n, bool v3)
{
    static unsigned single[STREAM_LOADS], batch[STREAM_LOADS];
    struct sim_hier a, b;
    build(&a, text, 4096);
    build(&b, text, 4096);
    b.use_v3 = b.use_v3 && v3;
    for (unsigned phase = 0; phase < PHASES; phase++) {
        uint64_t page = phase == 2 ? 2ULL << 20 : 4096, total = 0, sum = 0;
        sim_hier_set_page(&a, page);
        sim_hier_set_page(&b, page);
        for (size_t k = 0; k < n; k++)
            single[k] = sim_hier_load(&a, addr[k]);
        for (size_t k = 0, chunk; k < n; k += chunk) {
            chunk = 1 + next_random() % 700;
            chunk = chunk < n - k ? chunk : n - k;
            total += sim_hier_load_many(&b, addr + k, chunk, batch + k);
        }
        for (size_t k = 0; k < n; k++) {
            sum += batch[k];
            if (single[k] != batch[k])
                fail_msg("%s, phase %u, load %zu: %u cycles alone, %u in a batch", text, phase, k,
                         single[k], batch[k]);
        }
        assert_int_equal(sum, total);
        same_state(&a, &b, text);
    }
    sim_hier_free(&a);
    sim_hier_free(&b);
}

static void test_batches_match_single_loads(void **state)
{
    (void)state;
    static uint64_t addr[STREAM_LOADS];
    rng_state = 0x9E3779B97F4A7C15ULL;
    for (size_t s = 0; s < sizeof(specs) / sizeof(specs[0]); s++) {
        make_stream(addr, STREAM_LOADS);
        compare(specs[s], addr, STREAM_LOADS, true);
        compare(specs[s], addr, STREAM_LOADS, false);
    }
}

/* A NULL latency array is allowed, and an empty batch costs nothing. */
static void test_batch_edges(void **state)
{
    (void)state;
    static const uint64_t addr[] = {4ULL << 30, (4ULL << 30) + 64, 4ULL << 30};
    struct sim_hier h;
    build(&h, "L1:1K:2w:4c:lru,DRAM:100c", 4096);
    assert_int_equal(sim_hier_load_many(&h, addr, 0, NULL), 0);
    assert_int_equal(sim_hier_load_many(&h, addr, 3, NULL), 100 + 100 + 4);
    assert_int_equal(h.loads, 3);
    sim_hier_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batches_match_single_loads),
        cmocka_unit_test(test_batch_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
