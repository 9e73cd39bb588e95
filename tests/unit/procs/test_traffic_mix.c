// SPDX-License-Identifier: MIT
// Unit tests of loaded's read:write mixes: each mix's split of a block, the lines a generator
// then reads and stores (plain and non-temporal), and the bandwidth its counts give.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "procs/traffic.h"

/* One stream's quarter of the region holds TRAFFIC_DEADLINE_BLOCKS of its 256-byte shares:
   one window of one tick (TRAFFIC_DEADLINE_BLOCKS blocks) walks every line exactly once. */
#define REGION_BYTES ((uint64_t)TRAFFIC_DEADLINE_BLOCKS * TRAFFIC_BLOCK_BYTES)
#define WORDS (REGION_BYTES / 8)
#define PART_WORDS (WORDS / TRAFFIC_STREAMS)

/* Every mix splits a block into whole streams as its name says: read_pct of the bytes read,
   the rest stored; readwrite reads and writes back every byte; names are the key's choices. */
static void test_mix_splits(void **state)
{
    (void)state;
    for (unsigned i = 0; i < TRAFFIC_MIXES; i++) {
        const struct traffic_mix *m = &traffic_mixes[i];
        struct traffic_split s;
        assert_true(traffic_mix_split(m, &s));
        assert_string_equal(traffic_mix_names[i], m->name);
        for (unsigned k = 0; k < i; k++)
            assert_true(strcmp(traffic_mixes[k].name, m->name) != 0);
        if (m->rmw) {
            assert_int_equal(s.read_bytes, TRAFFIC_BLOCK_BYTES);
            assert_int_equal(s.written_bytes, TRAFFIC_BLOCK_BYTES);
            continue;
        }
        assert_int_equal(s.read_streams + s.write_streams, TRAFFIC_STREAMS);
        assert_int_equal(s.read_bytes + s.written_bytes, TRAFFIC_BLOCK_BYTES);
        assert_int_equal(s.read_bytes * 100, (uint64_t)m->read_pct * TRAFFIC_BLOCK_BYTES);
        /* the name is the split: "75:25" reads 75%, writes 25% */
        char want[16];
        snprintf(want, sizeof(want), "%u:%u%s", m->read_pct, 100 - m->read_pct, m->nt ? "nt" : "");
        assert_string_equal(m->name, want);
    }
    assert_null(traffic_mix_names[TRAFFIC_MIXES]);
    assert_string_equal(traffic_mixes[TRAFFIC_MIX_READ].name, "100:0");
    assert_true(traffic_mixes[TRAFFIC_MIX_READWRITE].rmw);
    /* a share that is not a whole number of streams, or more than all, has no split */
    struct traffic_split s;
    assert_false(traffic_mix_split(&(struct traffic_mix){"60:40", 60, false, false}, &s));
    assert_int_equal(s.read_streams + s.write_streams, 0);
    assert_false(traffic_mix_split(&(struct traffic_mix){"125:0", 125, false, false}, &s));
}

/*
 * One lap of each mix over a region of ones: the streams that read leave their quarter as it
 * was and sum every word of it; those that store leave no word of theirs at 1 (plain or
 * non-temporal stores alike); the counts are blocks times the split.
 */
static void test_mix_lap_reads_and_stores_its_lines(void **state)
{
    (void)state;
    static const volatile uint64_t never = 0;
    uint64_t *r = aligned_alloc(4096, REGION_BYTES);
    assert_non_null(r);
    for (unsigned i = 0; i < TRAFFIC_MIXES; i++) {
        const struct traffic_mix *m = &traffic_mixes[i];
        struct traffic_split sp;
        if (m->rmw)
            continue; /* test_traffic.c's readwrite test */
        traffic_mix_split(m, &sp);
        for (unsigned w = 0; w < WORDS; w++)
            r[w] = 1;
        struct traffic_gen g = {.stop = &never,
                                .base = (uint8_t *)r,
                                .bytes = REGION_BYTES,
                                .window_ticks = 1,
                                .mix = m};
        assert_true(traffic_generate(&g)); /* one window: TRAFFIC_DEADLINE_BLOCKS blocks */
        assert_int_equal(g.blocks, TRAFFIC_DEADLINE_BLOCKS);
        assert_int_equal(g.read_bytes, g.blocks * sp.read_bytes);
        assert_int_equal(g.written_bytes, g.blocks * sp.written_bytes);
        assert_int_equal(g.moved_bytes, g.blocks * TRAFFIC_BLOCK_BYTES);
        assert_int_equal(g.sink, g.read_bytes / 8); /* every word read once, each a 1 */
        for (unsigned w = 0; w < WORDS; w++) {
            bool stored = w / PART_WORDS >= sp.read_streams;
            if (stored)
                assert_true(r[w] != 1);
            else
                assert_int_equal(r[w], 1);
        }
    }
    free(r);
}

/* Generators side by side: their rates add, each its bytes over its own time; one that never
   ran adds nothing. */
static void test_rate_adds_generators(void **state)
{
    (void)state;
    struct traffic_rate r = {0};
    traffic_rate_add(&r, 1000000000ull, 0, 1e9);              /* 1 GB read in 1 s */
    traffic_rate_add(&r, 250000000ull, 500000000ull, 0.25e9); /* 1 + 2 GB/s in 0.25 s */
    traffic_rate_add(&r, 123, 456, 0);                        /* never ran */
    assert_true(r.read_gbps > 1.999 && r.read_gbps < 2.001);
    assert_true(r.write_gbps > 1.999 && r.write_gbps < 2.001);
    assert_true(r.gbps > 3.999 && r.gbps < 4.001);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mix_splits),
        cmocka_unit_test(test_mix_lap_reads_and_stores_its_lines),
        cmocka_unit_test(test_rate_adds_generators),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
