// SPDX-License-Identifier: MIT
// Unit tests of the random chain builder: one cycle through every slot, exactly where asked.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "chase/chain.h"

#define FILL 0xA5

/* Build a chain in a fresh buffer and check every property the experiments rely on. */
static void check_random_chain(uint64_t slots, uint64_t stride, uint64_t offset, uint64_t seed)
{
    struct chain_layout probe = {
        .base = NULL, .offset_bytes = offset, .stride_bytes = stride, .slots = slots};
    size_t span = (size_t)chain_span_bytes(&probe) + 64;
    uint8_t *buf = aligned_alloc(64, (span + 63) / 64 * 64);
    assert_non_null(buf);
    memset(buf, FILL, span);
    struct chain_layout l = {
        .base = buf, .offset_bytes = offset, .stride_bytes = stride, .slots = slots};
    void **head = chain_build_random(&l, seed);
    assert_ptr_equal(head, chain_slot(&l, 0));

    /* One cycle: back at the head after exactly `slots` hops, every slot seen once. */
    assert_int_equal(chain_cycle_length(head, slots), slots);
    uint8_t *seen = calloc(slots, 1);
    void **p = head;
    for (uint64_t n = 0; n < slots; n++) {
        uint8_t *a = (uint8_t *)p;
        assert_true(a >= buf + offset);
        uint64_t rel = (uint64_t)(a - buf) - offset;
        assert_int_equal(rel % stride, 0);
        uint64_t idx = rel / stride;
        assert_true(idx < slots);
        assert_int_equal(seen[idx], 0);
        seen[idx] = 1;
        p = (void **)*p;
    }
    /* Nothing outside the slots was written. */
    for (size_t i = 0; i < span; i++) {
        if (i >= offset && (i - offset) % stride < sizeof(void *) && (i - offset) / stride < slots)
            continue;
        assert_int_equal(buf[i], FILL);
    }
    free(seen);
    free(buf);
}

static void test_single_cycle_many_shapes(void **state)
{
    (void)state;
    static const uint64_t slots[] = {1, 2, 3, 7, 16, 100, 1000, 4099};
    static const uint64_t strides[] = {8, 16, 64, 72, 4096};
    static const uint64_t offsets[] = {0, 8, 56, 4000};
    for (size_t a = 0; a < sizeof(slots) / sizeof(slots[0]); a++)
        for (size_t b = 0; b < sizeof(strides) / sizeof(strides[0]); b++)
            for (size_t c = 0; c < sizeof(offsets) / sizeof(offsets[0]); c++) {
                if (slots[a] * strides[b] > (1u << 22))
                    continue;
                check_random_chain(slots[a], strides[b], offsets[c], a * 100 + b * 10 + c);
            }
}

static void test_large_chain(void **state)
{
    (void)state;
    check_random_chain(1u << 18, 64, 0, 42);
}

static uint64_t order_of(uint64_t slots, uint64_t seed)
{
    uint64_t *buf = calloc(slots, sizeof(uint64_t));
    struct chain_layout l = {
        .base = (uint8_t *)buf, .offset_bytes = 0, .stride_bytes = 8, .slots = slots};
    chain_build_random(&l, seed);
    uint64_t h = chain_order_checksum(&l, slots);
    free(buf);
    return h;
}

static void test_seed_reproducible(void **state)
{
    (void)state;
    assert_int_equal(order_of(5000, 7), order_of(5000, 7));
    assert_int_not_equal(order_of(5000, 7), order_of(5000, 8));
}

static void test_checksum_independent_of_placement(void **state)
{
    (void)state;
    uint8_t *a = calloc(1, 8192 + 64), *b = calloc(1, 8192 + 512);
    struct chain_layout la = {.base = a, .offset_bytes = 0, .stride_bytes = 64, .slots = 128},
                        lb = {.base = b, .offset_bytes = 448, .stride_bytes = 64, .slots = 128};
    chain_build_random(&la, 3);
    chain_build_random(&lb, 3);
    assert_int_equal(chain_order_checksum(&la, 128), chain_order_checksum(&lb, 128));
    free(a);
    free(b);
}

/* The link checksum a build computes as it writes equals the one read back from the slots. */
static uint64_t built_sum(uint8_t *buf, uint64_t offset, uint64_t stride, uint64_t stagger,
                          uint64_t slots, uint64_t group, uint64_t seed)
{
    struct chain_layout l = {buf, offset, stride, slots, stagger};
    uint64_t sum;
    if (group)
        chain_build_random_local_sum(&l, group, seed, &sum);
    else
        chain_build_random_sum(&l, seed, &sum);
    assert_int_equal(sum, chain_link_sum(&l));
    assert_int_equal(chain_cycle_length(chain_slot(&l, 0), slots), slots);
    return sum;
}

static void test_link_sum(void **state)
{
    (void)state;
    uint8_t *a = calloc(1, 1 << 20), *b = calloc(1, (1 << 20) + 8192);
    static const uint64_t groups[] = {0, 1, 3, 16, 1000};
    for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
        /* the same chain wherever it lies: another buffer, offset and stagger */
        uint64_t here = built_sum(a, 0, 64, 0, 1001, groups[g], 5);
        assert_int_equal(here, built_sum(b, 4096 + 8, 64, 0, 1001, groups[g], 5));
        assert_int_equal(here, built_sum(b, 0, 64, 24, 1001, groups[g], 5));
        assert_int_not_equal(here, built_sum(a, 0, 64, 0, 1001, groups[g], 6));
        built_sum(a, 8, 8, 0, 4099, groups[g], 7);
        built_sum(a, 0, 4096, 64 * 3, 200, groups[g], 8);
    }
    /* one slot, and a one-slot group: a slot pointing to itself */
    built_sum(a, 0, 64, 0, 1, 0, 1);
    built_sum(a, 0, 64, 0, 1, 1, 1);
    free(a);
    free(b);
}

/* Sattolo's algorithm gives each of the (n-1)! cycles on n slots with equal probability. */
static void test_cycles_uniform(void **state)
{
    (void)state;
    enum { N = 4, CYCLES = 6, TRIALS = 60000 };
    uint64_t buf[N];
    unsigned count[256] = {0};
    for (unsigned t = 0; t < TRIALS; t++) {
        struct chain_layout l = {
            .base = (uint8_t *)buf, .offset_bytes = 0, .stride_bytes = 8, .slots = N};
        chain_build_random(&l, t);
        /* Encode the cycle as the successor indices of slots 0..N-1. */
        unsigned code = 0;
        for (unsigned i = 0; i < N; i++)
            code = code * N + (unsigned)(((uint64_t *)buf[i] - buf));
        count[code % 256]++;
    }
    unsigned distinct = 0;
    for (unsigned i = 0; i < 256; i++) {
        if (!count[i])
            continue;
        distinct++;
        /* 10000 expected each; 5 sigma is about 450. */
        assert_true(count[i] > TRIALS / CYCLES - 500 && count[i] < TRIALS / CYCLES + 500);
    }
    assert_int_equal(distinct, CYCLES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_cycle_many_shapes),
        cmocka_unit_test(test_large_chain),
        cmocka_unit_test(test_seed_reproducible),
        cmocka_unit_test(test_checksum_independent_of_placement),
        cmocka_unit_test(test_cycles_uniform),
        cmocka_unit_test(test_link_sum),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
