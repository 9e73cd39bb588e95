// SPDX-License-Identifier: MIT
// chase-sim's backend on the kernel's own chains: plateaus, scan resistance, dual, set dueling.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "chase/chain.h"
#include "sim_buffer.h"
#include "sim_measure.h"
#include "sim_spec.h"

#define BUFFER_BYTES (16ULL << 20)
#define LINE 64

static struct plat_buffer buffer;
static struct sim_hier hier;
static struct sim_backend backend;

static int setup(void **state)
{
    (void)state;
    buffer.virt = aligned_alloc(2ULL << 20, BUFFER_BYTES);
    buffer.size_bytes = BUFFER_BYTES;
    buffer.phys = SIM_PHYS_BASE;
    buffer.page_bytes = 4096;
    return buffer.virt ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    free(buffer.virt);
    return 0;
}

static void model(const char *text)
{
    struct sim_spec spec;
    struct sim_parse_error err;
    if (!sim_spec_parse(text, &spec, &err))
        fail_msg("%s: %s", text, err.msg);
    assert_int_equal(sim_hier_init(&hier, &spec, 4096, 1), 0);
    sim_backend_bind(&backend, &hier, &buffer);
}

static void model_free(void)
{
    sim_backend_release(&backend);
    sim_hier_free(&hier);
}

/* Cycles per load (median of 3 repetitions) of pt with min_hops hops and warm_hops warm-up. */
static double measure(const struct chase_point *pt, uint64_t min_hops, uint64_t warm_hops)
{
    struct measure_plan plan = {
        .reps = 3, .min_hops = min_hops, .max_hops = 1ULL << 30, .warm_hops = warm_hops};
    struct point_result r;
    assert_int_equal(sim_measure(pt, &plan, NULL, &r), 0);
    assert_int_equal(r.reps, 3);
    assert_true(r.hops >= min_hops);
    double median = r.tsc.median;
    assert_true(r.core_per_tick == 1.0);
    free(r.ticks);
    free(r.tsc_per_access);
    return median;
}

/* A random cycle over size bytes (one slot a line) from offset, as the random experiment. */
static double random_chase(uint64_t offset, uint64_t size, uint64_t stride)
{
    struct chain_layout l = {.base = buffer.virt,
                             .offset_bytes = offset,
                             .stride_bytes = stride,
                             .slots = size / stride};
    struct chase_point pt = {.streams = 1, .lap_hops = l.slots};
    pt.head[0] = chain_build_random(&l, 7);
    return measure(&pt, 1024, 0);
}

static void assert_near(double got, double want, double tolerance)
{
    if (got < want - tolerance || got > want + tolerance)
        fail_msg("%.2f cycles, expected %.2f +- %.2f", got, want, tolerance);
}

/*
 * With LRU, a random cycle that fits a level hits it every time, and one line per set
 * more than the ways misses it every time: plateaus at each latency, sharp steps at
 * each size.
 */
static void test_random_plateaus_lru(void **state)
{
    (void)state;
    model("L1:4K:4w:4c:lru,L2:32K:8w:12c:lru,L3:256K:16w:40c:lru,DRAM:200c");
    assert_near(random_chase(0, 2048, LINE), 4, 0.001);
    assert_near(random_chase(0, 4096, LINE), 4, 0.001);
    assert_near(random_chase(0, 5120, LINE), 12, 0.001);
    assert_near(random_chase(0, 32 << 10, LINE), 12, 0.001);
    assert_near(random_chase(0, 40 << 10, LINE), 40, 0.001);
    assert_near(random_chase(0, 256 << 10, LINE), 40, 0.001);
    assert_near(random_chase(0, 320 << 10, LINE), 200, 0.001);
    assert_near(random_chase(0, 2 << 20, LINE), 200, 0.001);
    model_free();
}

/* Random replacement keeps part of a chain a little larger than the level: a gradual step. */
static void test_random_policy_is_gradual(void **state)
{
    (void)state;
    model("L1:4K:4w:4c:random,L2:32K:8w:12c:random,DRAM:200c");
    double just_over = random_chase(0, 5120, LINE);
    assert_true(just_over > 5 && just_over < 11);
    model_free();
}

/*
 * The scan experiment's point: a chain over a huge region and one over a small region,
 * loads alternating, serialized. Returns cycles per load.
 */
static double scan_point(uint64_t small_bytes, uint64_t huge_bytes)
{
    struct chain_layout huge = {
        .base = buffer.virt, .stride_bytes = LINE, .slots = huge_bytes / LINE};
    struct chain_layout small = {.base = buffer.virt,
                                 .offset_bytes = huge_bytes,
                                 .stride_bytes = LINE,
                                 .slots = small_bytes / LINE};
    struct chase_point pt = {.streams = 2, .serialized = true, .lap_hops = small.slots};
    pt.head[0] = chain_build_random(&huge, 3);
    pt.head[1] = chain_build_random(&small, 4);
    return measure(&pt, small.slots, 64 * small.slots);
}

/*
 * Under LRU the huge chain's lines push the small array out once both together exceed the
 * LLC: the small array's latency doubles near half the LLC. BRRIP inserts the huge lines
 * at "distant" and keeps the small array close to the full LLC.
 */
static void test_scan_lru_vs_brrip(void **state)
{
    (void)state;
    const uint64_t huge = 4 << 20;
    model("L1:4K:4w:4c:lru,LLC:256K:16w:40c:lru,DRAM:200c");
    double lru_quarter = scan_point(64 << 10, huge);
    double lru_five_eighths = scan_point(160 << 10, huge);
    model_free();
    model("L1:4K:4w:4c:lru,LLC:256K:16w:40c:brrip,DRAM:200c");
    double brrip_five_eighths = scan_point(160 << 10, huge);
    double brrip_seven_eighths = scan_point(224 << 10, huge);
    model_free();
    assert_near(lru_quarter, 120, 5);    /* (DRAM + LLC) / 2 */
    assert_true(lru_five_eighths > 185); /* small array gone: nearly DRAM for both */
    assert_near(brrip_five_eighths, 120, 10);
    assert_true(brrip_seven_eighths < 140);
}

/* Two pointers on one random cycle, the second lag slots behind (the dual experiment). */
static double dual_point(uint64_t size, uint64_t lag)
{
    struct chain_layout l = {.base = buffer.virt, .stride_bytes = LINE, .slots = size / LINE};
    struct chase_point pt = {.streams = 2, .lap_hops = l.slots};
    void **head = chain_build_random(&l, 9);
    pt.head[1] = head;
    pt.head[0] = head;
    for (uint64_t i = 0; i < lag; i++)
        pt.head[0] = (void **)*pt.head[0];
    return measure(&pt, l.slots, 4 * l.slots);
}

static double random_warm(uint64_t size)
{
    struct chain_layout l = {.base = buffer.virt, .stride_bytes = LINE, .slots = size / LINE};
    struct chase_point pt = {.streams = 1, .lap_hops = l.slots};
    pt.head[0] = chain_build_random(&l, 9);
    return measure(&pt, l.slots, 8 * l.slots);
}

/*
 * Beyond the LLC a random chase thrashes LRU while DIP (going BIP) keeps part of the chain.
 * With two pointers each line is touched a second time lag loads later, after it left the
 * L2 (lag: twice the L2's lines) but while LRU still holds it in the LLC; BIP, inserting
 * at the LRU position, loses most second touches (lag / sets = 4 misses reach the set in
 * between), so DIP's leader sets vote for LRU and DIP behaves like LRU again.
 */
static void test_dual_makes_dip_lru(void **state)
{
    (void)state;
    const uint64_t size = 1 << 20, lag = 2 * (32 << 10) / LINE;
    const char *const specs[] = {
        "L1:4K:4w:4c:lru,L2:32K:8w:12c:lru,LLC:256K:16w:40c:lru,DRAM:200c",
        "L1:4K:4w:4c:lru,L2:32K:8w:12c:lru,LLC:256K:16w:40c:dip:leaders=8,DRAM:200c",
    };
    double single[2], dual[2];
    uint32_t psel_single = 0, psel_dual = 0, half = 0;
    for (int i = 0; i < 2; i++) {
        model(specs[i]);
        const struct sim_cache *llc = &hier.level[2].cache;
        single[i] = random_warm(size);
        psel_single = llc->psel;
        dual[i] = dual_point(size, lag);
        psel_dual = llc->psel;
        half = llc->psel_max / 2;
        model_free();
    }
    assert_true(psel_single > half);          /* alone: followers use BIP */
    assert_true(single[1] < 0.9 * single[0]); /* and resist the thrash */
    assert_true(psel_dual <= half);           /* two pointers: followers use LRU */
    assert_near(dual[1], dual[0], 0.02 * dual[0]);
}

/* 20 lines in one set of a 16-way LLC with 256 sets: the offset experiment's chain. */
static double one_set_point(unsigned set)
{
    struct chain_layout l = {.base = buffer.virt,
                             .offset_bytes = (uint64_t)set * LINE,
                             .stride_bytes = 256 * LINE,
                             .slots = 20};
    struct chase_point pt = {.streams = 1, .lap_hops = l.slots};
    pt.head[0] = chain_build_random(&l, set);
    return measure(&pt, 1024, 0);
}

/*
 * DIP's leader sets (8 per policy, constituencies of 32 sets): LRU leaders at 33 i + ...,
 * BIP leaders mirrored. Followers start with LRU and thrash; a chain on an LRU leader set
 * pushes the selector to BIP and the next follower set hits; a chain on a BIP leader set
 * pushes it back.
 */
static void test_dip_selector_flips_on_leader_set(void **state)
{
    (void)state;
    model("L1:4K:4w:4c:lru,LLC:256K:16w:40c:dip:leaders=8:eps=32,DRAM:200c");
    const struct sim_cache *llc = &hier.level[1].cache;
    assert_int_equal(llc->role[32], SIM_FOLLOWER);
    assert_int_equal(llc->role[33], SIM_LEADER_A);
    assert_int_equal(llc->role[62], SIM_LEADER_B);
    double before = one_set_point(32);
    assert_int_equal(llc->psel, llc->psel_max / 2);
    assert_true(before > 190);
    one_set_point(33);
    assert_int_equal(llc->psel, llc->psel_max);
    double after = one_set_point(34);
    assert_true(after < 100);
    one_set_point(62);
    assert_true(llc->psel <= llc->psel_max / 2);
    assert_true(one_set_point(64) > 190);
    model_free();
}

/* Independent chains overlap their misses (up to mlp); serialized ones add up. */
static void test_parallel_streams_overlap(void **state)
{
    (void)state;
    model("L1:4K:4w:4c:lru,DRAM:200c:mlp=10");
    struct chase_point pt = {.streams = 4, .lap_hops = 4096};
    for (unsigned j = 0; j < 4; j++) {
        struct chain_layout l = {.base = buffer.virt,
                                 .offset_bytes = j * (1ULL << 20),
                                 .stride_bytes = LINE,
                                 .slots = 4096};
        pt.head[j] = chain_build_random(&l, j);
    }
    assert_near(measure(&pt, 4096, 0), 50, 0.001);
    pt.serialized = true;
    assert_near(measure(&pt, 4096, 0), 200, 0.001);
    model_free();
}

/* The TLB sees the buffer's page size, which the tlb experiment changes between points. */
static void test_page_size_follows_buffer(void **state)
{
    (void)state;
    model("L1:4K:4w:4c:lru,DTLB:16:4w:30c,DRAM:100c");
    double small_pages = random_chase(0, 1 << 20, 4096);
    buffer.page_bytes = 2ULL << 20;
    double huge_pages = random_chase(0, 1 << 20, 4096);
    buffer.page_bytes = 4096;
    assert_near(small_pages, 130, 0.001);
    assert_near(huge_pages, 100, 0.001);
    model_free();
}

/* A chain that leaves the buffer cannot be simulated; the run gets an error, not a crash. */
static void test_outside_buffer(void **state)
{
    (void)state;
    static void *elsewhere[2];
    elsewhere[0] = &elsewhere[0];
    model("L1:4K:4w:4c:lru,DRAM:100c");
    struct chase_point pt = {.head = {elsewhere}, .streams = 1, .lap_hops = 1};
    struct measure_plan plan = {.reps = 1, .min_hops = 16, .max_hops = 1 << 20};
    struct point_result r;
    assert_int_equal(sim_measure(&pt, &plan, NULL, &r), -1);
    model_free();
}

/* sim_batches: a random chain in DRAM timed in batches on the model's clock: every batch of a
 * model without stalls costs its loads exactly; with refresh, some batches pay more, and the
 * clock stays the model's own; a chain that leaves the buffer gives NULL. */
static void test_batches(void **state)
{
    (void)state;
    static uint64_t stamps[1001];
    struct chain_layout l = {buffer.virt, 0, LINE, (1 << 20) / LINE, 0};
    void **head = chain_build_random(&l, 5);
    model("L1:4K:4w:4c:lru,DRAM:100c");
    assert_non_null(sim_batches(head, 1000, 4, stamps));
    assert_int_equal(stamps[0], 0);
    for (unsigned i = 0; i < 1000; i++)
        assert_true(stamps[i + 1] - stamps[i] >= 4 * 4 && stamps[i + 1] - stamps[i] <= 4 * 100);
    model_free();
    model("L1:4K:4w:4c:lru,DRAM:100c:refresh=2us/500ns");
    sim_hier_set_clock(&hier, 1.0);
    void **end = sim_batches(head, 1000, 4, stamps);
    assert_non_null(end);
    unsigned slow = 0;
    for (unsigned i = 0; i < 1000; i++)
        slow += stamps[i + 1] - stamps[i] > 4 * 100;
    assert_true(slow > 0 && hier.clock.refreshes_met == slow);
    assert_true(stamps[1000] == (uint64_t)hier.clock.now_cycles); /* whole cycles a load */
    static void *elsewhere[2];
    elsewhere[0] = &elsewhere[0];
    assert_null(sim_batches(elsewhere, 1, 1, stamps));
    model_free();
    assert_null(sim_batches(head, 1, 1, stamps));
}

/* sim_levels.csv: a header naming the levels, then one row per point. */
static void test_stats_rows(void **state)
{
    (void)state;
    model("L1:4K:4w:4c:lru,L2:32K:8w:12c:lru,DTLB:64:4w:9c,DRAM:200c");
    random_chase(0, 2048, LINE);
    random_chase(0, 1 << 20, LINE);
    assert_int_equal(backend.points, 2);
    const char *csv = strbuf_str(&backend.stats);
    assert_non_null(strstr(csv, "point,streams,serialized,lap_hops,hops,reps,loads,"
                                "cycles_per_load,L1_hit_rate,L2_hit_rate,dram_share,"
                                "DTLB_miss_rate,page_bytes\n"));
    assert_non_null(strstr(csv, "\n0,1,0,32,1024,3,3072,4.0000,1.000000,0.000000,0.000000,"));
    model_free();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_plateaus_lru),
        cmocka_unit_test(test_random_policy_is_gradual),
        cmocka_unit_test(test_scan_lru_vs_brrip),
        cmocka_unit_test(test_dual_makes_dip_lru),
        cmocka_unit_test(test_dip_selector_flips_on_leader_set),
        cmocka_unit_test(test_parallel_streams_overlap),
        cmocka_unit_test(test_page_size_follows_buffer),
        cmocka_unit_test(test_outside_buffer),
        cmocka_unit_test(test_stats_rows),
        cmocka_unit_test(test_batches),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
