// SPDX-License-Identifier: MIT
// Unit tests of every experiment's chains, checked by walking them on small buffers.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "chase/chain.h"
#include "chase/chain_points.h"
#include "lib/rng.h"

#define FILL 0xA5
#define LINE 64
#define PAGE 4096

/* A test buffer filled with FILL, so writes outside the slots show. */
static uint8_t *fresh(size_t bytes)
{
    uint8_t *b = aligned_alloc(PAGE, (bytes + PAGE - 1) / PAGE * PAGE);
    assert_non_null(b);
    memset(b, FILL, bytes);
    return b;
}

/* Index of the slot at address p in layout l, failing when p is not one of its slots. */
static uint64_t slot_index(const struct chain_layout *l, void **p)
{
    uint64_t rel = (uint64_t)((uint8_t *)p - l->base) - l->offset_bytes;
    uint64_t i = rel / l->stride_bytes;
    assert_true(i < l->slots);
    assert_ptr_equal(chain_slot(l, i), p);
    return i;
}

/* Every slot of l visited exactly once in one lap from head, and back at head after it. */
static void assert_one_cycle(const struct chain_layout *l, void **head)
{
    uint8_t *seen = calloc(l->slots, 1);
    void **p = head;
    for (uint64_t n = 0; n < l->slots; n++) {
        uint64_t i = slot_index(l, p);
        assert_int_equal(seen[i], 0);
        seen[i] = 1;
        p = (void **)*p;
    }
    assert_ptr_equal(p, head);
    free(seen);
}

/* Bytes outside the layout's slots still hold FILL. */
static void assert_only_slots_written(const uint8_t *buf, size_t bytes,
                                      const struct chain_layout *l)
{
    uint8_t *mine = calloc(bytes, 1);
    for (uint64_t i = 0; i < l->slots; i++)
        memset(mine + ((uint8_t *)chain_slot(l, i) - buf), 1, sizeof(void *));
    for (size_t i = 0; i < bytes; i++) {
        if (!mine[i])
            assert_int_equal(buf[i], FILL);
    }
    free(mine);
}

/* The textbook Sattolo cycle on slot indices, one draw per swap, for comparison. */
static void reference_sattolo(uint64_t *next, uint64_t n, uint64_t seed)
{
    struct rng r;
    rng_seed(&r, seed);
    for (uint64_t i = 0; i < n; i++)
        next[i] = i;
    for (uint64_t i = n - 1; i > 0; i--) {
        uint64_t j = rng_below(&r, i), t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
}

/* The look-ahead builder draws the same numbers in the same order: Sattolo's own cycle. */
static void test_random_is_textbook_sattolo(void **state)
{
    (void)state;
    static const uint64_t sizes[] = {1, 2, 3, 31, 32, 33, 34, 100, 5000};
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        uint64_t n = sizes[s];
        uint8_t *buf = fresh(n * LINE + 8);
        uint64_t *want = calloc(n, sizeof(uint64_t));
        struct chain_layout l = {buf, 8, LINE, n, 0};
        chain_build_random(&l, 77 + s);
        reference_sattolo(want, n, 77 + s);
        for (uint64_t i = 0; i < n; i++)
            assert_ptr_equal(*chain_slot(&l, i), chain_slot(&l, want[i]));
        assert_only_slots_written(buf, n * LINE + 8, &l);
        free(want);
        free(buf);
    }
}

/* Locality groups: g consecutive slots visited together, groups one after another. */
static void check_local(uint64_t slots, uint64_t g, uint64_t stride)
{
    size_t bytes = slots * stride;
    uint8_t *buf = fresh(bytes);
    struct chain_layout l = {buf, 0, stride, slots, 0};
    void **head = chain_build_random_local(&l, g, 5);
    assert_ptr_equal(head, chain_slot(&l, 0));
    assert_one_cycle(&l, head);
    uint64_t groups = (slots + g - 1) / g;
    uint8_t *group_seen = calloc(groups, 1);
    void **p = head;
    for (uint64_t j = 0; j < groups; j++) {
        uint64_t group = slot_index(&l, p) / g;
        uint64_t members = slots - group * g < g ? slots - group * g : g;
        assert_int_equal(group_seen[group], 0);
        group_seen[group] = 1;
        for (uint64_t m = 0; m < members; m++) {
            assert_int_equal(slot_index(&l, p) / g, group);
            p = (void **)*p;
        }
    }
    assert_ptr_equal(p, head);
    assert_only_slots_written(buf, bytes, &l);
    free(group_seen);
    free(buf);
}

static void test_random_locality_groups(void **state)
{
    (void)state;
    check_local(64, 8, LINE);
    check_local(100, 8, LINE); /* the last group holds 4 */
    check_local(37, 1, 16);    /* groups of one slot: a plain random cycle */
    check_local(37, 64, 8);    /* one group */
    check_local(1, 4, LINE);
    check_local(512, 64, LINE); /* 4 KiB groups: multichase's TLB locality */
}

/* Locality does shuffle inside a group and across groups. */
static void test_random_locality_is_random(void **state)
{
    (void)state;
    uint8_t *buf = fresh(256 * LINE);
    struct chain_layout l = {buf, 0, LINE, 256, 0};
    void **p = chain_build_random_local(&l, 16, 9);
    unsigned in_order = 0, group_in_order = 0;
    for (unsigned n = 0; n < 256; n++) {
        void **next = (void **)*p;
        in_order += slot_index(&l, next) == slot_index(&l, p) + 1;
        if (n % 16 == 15)
            group_in_order += slot_index(&l, next) / 16 == slot_index(&l, p) / 16 + 1;
        p = next;
    }
    assert_true(in_order < 64);
    assert_true(group_in_order < 8);
    free(buf);
}

static void test_linear_steps_forward_and_wraps(void **state)
{
    (void)state;
    static const uint64_t strides[] = {8, 24, 64, 520};
    for (size_t s = 0; s < sizeof(strides) / sizeof(strides[0]); s++) {
        size_t bytes = 40 * strides[s] + 16;
        uint8_t *buf = fresh(bytes);
        struct chain_layout l = {buf, 16, strides[s], 40, 0};
        void **head = chain_build_linear(&l);
        assert_ptr_equal(head, chain_slot(&l, 0));
        for (uint64_t i = 0; i < 40; i++)
            assert_ptr_equal(*chain_slot(&l, i), chain_slot(&l, (i + 1) % 40));
        assert_one_cycle(&l, head);
        assert_only_slots_written(buf, bytes, &l);
        free(buf);
    }
}

static void test_ring_points_backward(void **state)
{
    (void)state;
    size_t bytes = 50 * 128;
    uint8_t *buf = fresh(bytes);
    struct chain_layout l = {buf, 0, 128, 50, 0};
    void **head = chain_build_backward(&l);
    assert_ptr_equal(head, chain_slot(&l, 49));
    for (uint64_t i = 1; i < 50; i++)
        assert_ptr_equal(*chain_slot(&l, i), chain_slot(&l, i - 1));
    assert_ptr_equal(*chain_slot(&l, 0), chain_slot(&l, 49));
    assert_one_cycle(&l, head);
    assert_only_slots_written(buf, bytes, &l);
    free(buf);
}

/* k linear chains in k disjoint equal parts; the point chases the first k in turn. */
static void test_fused_independent_streams(void **state)
{
    (void)state;
    size_t bytes = 64 * PAGE;
    uint8_t *buf = fresh(bytes);
    void **heads[CHASE_MAX_STREAMS];
    uint64_t slots = chain_build_streams(buf, bytes, 72, 5, heads);
    uint64_t part = bytes / 5 / PAGE * PAGE;
    assert_int_equal(slots, part / 72);
    for (unsigned j = 0; j < 5; j++) {
        struct chain_layout l = {buf, j * part, 72, slots, 0};
        assert_ptr_equal(heads[j], chain_slot(&l, 0));
        for (uint64_t i = 0; i < slots; i++)
            assert_ptr_equal(*chain_slot(&l, i), chain_slot(&l, (i + 1) % slots));
    }
    struct chase_point pt;
    point_streams(&pt, heads, 3, slots);
    assert_int_equal(pt.streams, 3);
    assert_false(pt.serialized);
    assert_int_equal(pt.lap_hops, slots);
    for (unsigned j = 0; j < 3; j++)
        assert_ptr_equal(pt.head[j], heads[j]);
    assert_int_equal(chain_build_streams(buf, 64, 72, 2, heads), 0); /* parts too small */
    free(buf);
}

/* The second pointer is exactly lag slots behind on the same cycle: every slot twice a lap. */
static void check_dual(uint64_t slots, uint64_t lag, uint64_t want_lag)
{
    uint8_t *buf = fresh(slots * LINE);
    struct chain_layout l = {buf, 0, LINE, slots, 0};
    struct chase_point pt;
    assert_int_equal(point_trailing(&pt, &l, lag, 3), want_lag);
    assert_int_equal(pt.streams, 2);
    assert_true(pt.serialized);
    assert_int_equal(pt.lap_hops, slots);
    assert_one_cycle(&l, pt.head[1]);
    assert_ptr_equal(chain_walk(pt.head[1], want_lag), pt.head[0]);
    void **trail_history[4096];
    unsigned *visits = calloc(slots, sizeof(unsigned));
    void **a = pt.head[0], **b = pt.head[1];
    for (uint64_t k = 0; k < slots; k++) {
        trail_history[k] = a;
        if (k >= want_lag)
            assert_ptr_equal(b, trail_history[k - want_lag]);
        visits[slot_index(&l, a)]++;
        visits[slot_index(&l, b)]++;
        a = (void **)*a;
        b = (void **)*b;
    }
    for (uint64_t i = 0; i < slots; i++)
        assert_int_equal(visits[i], 2);
    free(visits);
    free(buf);
}

static void test_dual_lag_behind(void **state)
{
    (void)state;
    check_dual(1000, 100, 100);
    check_dual(1000, 999, 999);
    check_dual(1000, 1000, 500); /* a lap or more: half a lap */
    check_dual(7, 1, 1);
}

/* Loads alternate: huge region, small region, huge, small ... each chain a single cycle. */
static void test_scan_alternates(void **state)
{
    (void)state;
    size_t small_bytes = 16 * LINE, huge_bytes = 512 * LINE;
    uint8_t *buf = fresh(small_bytes + huge_bytes);
    struct chain_layout small = {buf, 0, LINE, 16, 0};
    struct chain_layout huge = {buf, small_bytes, LINE, 512, 0};
    void **huge_head = chain_build_random(&huge, 11);
    struct chase_point pt;
    point_alternating(&pt, huge_head, huge.slots, &small, 12);
    assert_int_equal(pt.streams, 2);
    assert_true(pt.serialized);
    assert_int_equal(pt.lap_hops, 512);
    assert_one_cycle(&huge, pt.head[0]);
    assert_one_cycle(&small, pt.head[1]);
    void **p[2] = {pt.head[0], pt.head[1]};
    for (unsigned k = 0; k < 2 * 512; k++) {
        unsigned s = k % 2;
        uint8_t *at = (uint8_t *)p[s];
        if (s == 0)
            assert_true(at >= buf + small_bytes && at < buf + small_bytes + huge_bytes);
        else
            assert_true(at < buf + small_bytes);
        p[s] = (void **)*p[s];
    }
    free(buf);
}

/* n disjoint random cycles that together hold every slot of the region once. */
static void check_parallel(uint64_t slots, unsigned n)
{
    uint8_t *buf = fresh(slots * LINE);
    struct chain_layout l = {buf, 0, LINE, slots, 0};
    struct chase_point pt;
    point_disjoint(&pt, &l, n, 21);
    assert_int_equal(pt.streams, n);
    assert_false(pt.serialized);
    assert_int_equal(pt.lap_hops, (slots + n - 1) / n);
    uint8_t *owner = calloc(slots, 1);
    uint64_t total = 0;
    for (unsigned j = 0; j < n; j++) {
        void **p = pt.head[j];
        uint64_t len = chain_cycle_length(p, slots);
        assert_true(len > 0);
        for (uint64_t k = 0; k < len; k++) {
            uint64_t i = slot_index(&l, p);
            assert_int_equal(owner[i], 0);
            owner[i] = (uint8_t)(j + 1);
            assert_int_equal(i % n, j);
            p = (void **)*p;
        }
        total += len;
    }
    assert_int_equal(total, slots);
    assert_only_slots_written(buf, slots * LINE, &l);
    free(owner);
    free(buf);
}

static void test_parallel_disjoint_cycles(void **state)
{
    (void)state;
    check_parallel(1000, 1);
    check_parallel(1000, 3);
    check_parallel(1001, 10);
    check_parallel(64, 14);
}

/* All slots at one large power-of-two stride from the offset: one cache set. */
static void test_offset_one_set(void **state)
{
    (void)state;
    enum { STRIDE = 8192, SLOTS = 21, SETS = STRIDE / LINE };
    uint8_t *buf = fresh(SLOTS * STRIDE + 1024);
    for (uint64_t offset = 0; offset <= 1024; offset += 512) {
        struct chain_layout l = {buf, offset, STRIDE, SLOTS, 0};
        struct chase_point pt;
        point_cycle(&pt, &l, 0, 1);
        assert_one_cycle(&l, pt.head[0]);
        void **p = pt.head[0];
        for (unsigned k = 0; k < SLOTS; k++) {
            uintptr_t rel = (uintptr_t)((uint8_t *)p - buf);
            assert_int_equal(rel % STRIDE, offset);
            assert_int_equal(rel / LINE % SETS, offset / LINE);
            p = (void **)*p;
        }
    }
    free(buf);
}

/* One slot in each 4 KiB page, each in another line of its page. */
static void test_tlb_one_slot_per_page(void **state)
{
    (void)state;
    enum { PAGES = 200 };
    uint8_t *buf = fresh(PAGES * PAGE);
    struct chain_layout l = {buf, 0, PAGE, PAGES, LINE};
    assert_int_equal(chain_span_bytes(&l), PAGES * PAGE);
    struct chase_point pt;
    point_cycle(&pt, &l, 0, 4);
    assert_one_cycle(&l, pt.head[0]);
    uint8_t pages[PAGES] = {0};
    void **p = pt.head[0];
    for (unsigned k = 0; k < PAGES; k++) {
        uintptr_t rel = (uintptr_t)((uint8_t *)p - buf);
        unsigned page = (unsigned)(rel / PAGE);
        assert_int_equal(pages[page], 0);
        pages[page] = 1;
        assert_int_equal(rel % PAGE, (uint64_t)page * LINE % PAGE);
        p = (void **)*p;
    }
    assert_only_slots_written(buf, PAGES * PAGE, &l);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_is_textbook_sattolo),
        cmocka_unit_test(test_random_locality_groups),
        cmocka_unit_test(test_random_locality_is_random),
        cmocka_unit_test(test_linear_steps_forward_and_wraps),
        cmocka_unit_test(test_ring_points_backward),
        cmocka_unit_test(test_fused_independent_streams),
        cmocka_unit_test(test_dual_lag_behind),
        cmocka_unit_test(test_scan_alternates),
        cmocka_unit_test(test_parallel_disjoint_cycles),
        cmocka_unit_test(test_offset_one_set),
        cmocka_unit_test(test_tlb_one_slot_per_page),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
