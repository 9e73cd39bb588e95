// SPDX-License-Identifier: MIT
// Unit tests of loaded's traffic generator: what it reads and writes, its counts, delay, windows.
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "arch/cpu.h"
#include "procs/traffic.h"

#define REGION_BYTES (64u * TRAFFIC_BLOCK_BYTES)
#define WORDS (REGION_BYTES / 8)
#define WORDS_PER_CHUNK (TRAFFIC_CHUNK_BYTES / 8)

static volatile uint64_t stop;

static void *generate(void *g)
{
    while (traffic_generate(g)) /* window after window, as a processor runs it */
        ;
    return NULL;
}

/* Run g on a thread for about ms milliseconds. */
static void run_for(struct traffic_gen *g, unsigned ms)
{
    pthread_t t;
    struct timespec pause = {0, (long)ms * 1000000L};
    stop = 0;
    g->stop = &stop;
    assert_int_equal(pthread_create(&t, NULL, generate, g), 0);
    nanosleep(&pause, NULL);
    __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
    assert_int_equal(pthread_join(t, NULL), 0);
}

static uint64_t *region_of_ones(void)
{
    uint64_t *r = aligned_alloc(4096, REGION_BYTES);
    assert_non_null(r);
    for (unsigned i = 0; i < WORDS; i++)
        r[i] = 1;
    return r;
}

/* Read mode: whole blocks counted, nothing written, every word it read summed. */
static void test_read_counts_blocks_and_writes_nothing(void **state)
{
    (void)state;
    uint64_t *r = region_of_ones();
    struct traffic_gen g = {.base = (uint8_t *)r, .bytes = REGION_BYTES};
    run_for(&g, 20);
    assert_true(g.blocks > 0);
    assert_true(g.ticks > 0);
    assert_int_equal(g.moved_bytes, g.blocks * TRAFFIC_BLOCK_BYTES);
    assert_int_equal(g.read_bytes, g.moved_bytes);
    assert_int_equal(g.written_bytes, 0);
    /* every word is 1: the sum is the number of words loaded, every word of every chunk */
    assert_int_equal(g.sink, g.blocks * TRAFFIC_BLOCK_BYTES / 8);
    for (unsigned i = 0; i < WORDS; i++)
        assert_int_equal(r[i], 1);
    free(r);
}

/* Read+write mode: every chunk of the region written (one word each), bytes counted twice. */
static void test_readwrite_dirties_every_chunk(void **state)
{
    (void)state;
    uint64_t *r = region_of_ones();
    struct traffic_gen g = {
        .base = (uint8_t *)r, .bytes = REGION_BYTES, .mix = &traffic_mixes[TRAFFIC_MIX_READWRITE]};
    run_for(&g, 20);
    assert_true(g.blocks >= REGION_BYTES / TRAFFIC_BLOCK_BYTES); /* a whole lap at least */
    assert_int_equal(g.read_bytes, g.blocks * TRAFFIC_BLOCK_BYTES);
    assert_int_equal(g.written_bytes, g.blocks * TRAFFIC_BLOCK_BYTES);
    assert_int_equal(g.moved_bytes, 2 * g.blocks * TRAFFIC_BLOCK_BYTES);
    for (unsigned i = 0; i < WORDS; i++) {
        if (i % WORDS_PER_CHUNK == 0)
            assert_true(r[i] != 1); /* a running sum of ones, past 1 from the first chunk */
        else
            assert_int_equal(r[i], 1);
    }
    free(r);
}

/* A delay of D ticks after each block: never more blocks than the time allows. */
static void test_delay_paces_blocks(void **state)
{
    (void)state;
    uint64_t *r = region_of_ones();
    const uint64_t delay = 200000; /* ticks: 50-100 us on a 2-4 GHz TSC */
    struct traffic_gen g = {.base = (uint8_t *)r, .bytes = REGION_BYTES, .delay_ticks = delay};
    run_for(&g, 20);
    assert_true(g.blocks >= 1);
    assert_true(g.blocks <= g.ticks / delay + 1);
    free(r);
}

/* Slices: whole blocks, one at least. */
/* A generator whose boot processor never says stop ends at its own deadline (one in the past
 * here, so the test never waits on a clock): no processor runs on past it. */
static void test_deadline_without_stop(void **state)
{
    (void)state;
    uint64_t *r = region_of_ones();
    static const volatile uint64_t never = 0;
    struct traffic_gen g = {
        .stop = &never, .base = (uint8_t *)r, .bytes = REGION_BYTES, .deadline_tsc = 1};
    traffic_generate(&g); /* returns: the flag never rises */
    assert_true(g.deadline_hit);
    assert_int_equal(g.blocks, 0);
    struct traffic_gen h = {.base = (uint8_t *)r, .bytes = REGION_BYTES, .deadline_tsc = 0};
    run_for(&h, 5); /* no deadline: the flag stops it */
    assert_false(h.deadline_hit);
    assert_true(h.blocks > 0);
    free(r);
}

/*
 * A window of one tick ends at the first look at the clock: flat out after
 * TRAFFIC_DEADLINE_BLOCKS blocks, with a delay after one; the next call goes on where the last
 * stopped (the same words summed as in one long window) and the counts add up.
 */
static void test_windows_cut_and_resume(void **state)
{
    (void)state;
    uint64_t *r = region_of_ones();
    static const volatile uint64_t never = 0;
    struct traffic_gen g = {
        .stop = &never, .base = (uint8_t *)r, .bytes = REGION_BYTES, .window_ticks = 1};
    for (unsigned call = 1; call <= 3; call++) {
        assert_true(traffic_generate(&g)); /* only the window ended */
        assert_false(g.deadline_hit);
        assert_int_equal(g.windows, call);
        assert_int_equal(g.blocks, call * TRAFFIC_DEADLINE_BLOCKS);
        assert_int_equal(g.moved_bytes, g.blocks * TRAFFIC_BLOCK_BYTES);
        assert_int_equal(g.sink, g.blocks * TRAFFIC_BLOCK_BYTES / 8);
    }
    /* 3 x 64 blocks of a 64-block region: three whole laps, each chunk read three times */
    struct traffic_gen d = {.stop = &never,
                            .base = (uint8_t *)r,
                            .bytes = REGION_BYTES,
                            .window_ticks = 1,
                            .delay_ticks = 1};
    assert_true(traffic_generate(&d));
    assert_true(traffic_generate(&d));
    assert_int_equal(d.blocks, 2); /* with a delay the clock is read after every block */
    /* its deadline passed: the next window ends it at once, said so, nothing more moved */
    g.deadline_tsc = 1;
    assert_false(traffic_generate(&g));
    assert_true(g.deadline_hit);
    assert_int_equal(g.blocks, 3 * TRAFFIC_DEADLINE_BLOCKS);
    assert_int_equal(g.windows, 4);
    free(r);
}

/* Without a cap (window_ticks 0) one window runs until the flag: one call, never "more". */
static void test_no_cap_one_window(void **state)
{
    (void)state;
    uint64_t *r = region_of_ones();
    struct traffic_gen g = {.base = (uint8_t *)r, .bytes = REGION_BYTES};
    run_for(&g, 5);
    assert_int_equal(g.windows, 1);
    free(r);
}

static void test_slices(void **state)
{
    (void)state;
    assert_int_equal(traffic_slice_bytes(1u << 20, 1), 1u << 20);
    assert_int_equal(traffic_slice_bytes(1u << 20, 3), 349184); /* 341 blocks of 1 KiB */
    assert_int_equal(traffic_slice_bytes(1024, 5), TRAFFIC_BLOCK_BYTES);
    assert_int_equal(traffic_slice_bytes(1u << 20, 0), 1u << 20);
    assert_int_equal(TRAFFIC_BLOCK_BYTES, 1024);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_counts_blocks_and_writes_nothing),
        cmocka_unit_test(test_readwrite_dirties_every_chunk),
        cmocka_unit_test(test_delay_paces_blocks),
        cmocka_unit_test(test_deadline_without_stop),
        cmocka_unit_test(test_windows_cut_and_resume),
        cmocka_unit_test(test_no_cap_one_window),
        cmocka_unit_test(test_slices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
