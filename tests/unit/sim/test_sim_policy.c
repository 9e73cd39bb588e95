// SPDX-License-Identifier: MIT
// chase-sim's replacement policies on short hand-worked sequences, through access(set, tag).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim_cache.h"
#include "sim_access.h"

enum { A = 1, B, C, D, E, F, G, H };

/* A cache of `sets` sets of `ways` ways (one slice, 64-byte lines) with one policy. */
static void make(struct sim_cache *c, enum sim_policy_kind policy, uint32_t sets, unsigned ways,
                 unsigned eps)
{
    struct sim_cache_params p = {.sets_per_slice = sets,
                                 .ways = ways,
                                 .slices = 1,
                                 .line_shift = 6,
                                 .policy = policy,
                                 .eps = eps,
                                 .leaders = 0,
                                 .psel_bits = 10,
                                 .seed = 7};
    assert_int_equal(sim_cache_init(c, &p), 0);
}

/* Access each tag of seq in set; compare hit (1) or miss (0) with want, a string. */
static void run_set(struct sim_cache *c, uint32_t set, const int *seq, const char *want)
{
    size_t n = strlen(want);
    for (size_t i = 0; i < n; i++) {
        bool hit = sim_cache_access(c, set, (uint64_t)seq[i]);
        if (hit != (want[i] == '1'))
            fail_msg("set %u access %zu (tag %d): %s, expected %s", set, i, seq[i],
                     hit ? "hit" : "miss", want[i] == '1' ? "hit" : "miss");
    }
}

static void run(struct sim_cache *c, const int *seq, const char *want)
{
    run_set(c, 0, seq, want);
}

static bool holds(const struct sim_cache *c, uint32_t set, uint64_t tag)
{
    return sim_cache_find(c, set, tag) >= 0;
}

/* LRU: E evicts B (A was touched), then B evicts C, C evicts D; A survives. */
static void test_lru(void **state)
{
    (void)state;
    struct sim_cache c;
    make(&c, SIM_LRU, 1, 4, 0);
    static const int seq[] = {A, B, C, D, A, E, B, C, A, D};
    run(&c, seq, "0000100010");
    sim_cache_free(&c);
}

/* FIFO: a hit changes nothing, so E evicts A, the first in, though A was just used. */
static void test_fifo(void **state)
{
    (void)state;
    struct sim_cache c;
    make(&c, SIM_FIFO, 1, 4, 0);
    static const int seq[] = {A, B, C, D, A, E, A, C, B};
    run(&c, seq, "000010010");
    assert_false(holds(&c, 0, C)); /* B's return evicted C, the oldest then */
    assert_true(holds(&c, 0, D));
    sim_cache_free(&c);
}

/*
 * Tree-PLRU, 4 ways: after A B C D (ways 0..3) the tree points at way 0, so E replaces A.
 * B's hit then points the root right, F replaces C (way 2) and G replaces E (way 0): unlike
 * LRU, which would have evicted D, PLRU keeps D and drops the recently inserted E.
 */
static void test_plru(void **state)
{
    (void)state;
    struct sim_cache c;
    make(&c, SIM_PLRU, 1, 4, 0);
    static const int seq[] = {A, B, C, D, E, B, F, G, D, E};
    run(&c, seq, "0000010010");
    sim_cache_free(&c);
}

/* Random: empty ways fill first; a fifth line then evicts exactly one of four. */
static void test_random(void **state)
{
    (void)state;
    struct sim_cache c, d;
    make(&c, SIM_RANDOM, 1, 4, 0);
    static const int seq[] = {A, B, C, D, E};
    run(&c, seq, "00000");
    unsigned kept = holds(&c, 0, A) + holds(&c, 0, B) + holds(&c, 0, C) + holds(&c, 0, D);
    assert_int_equal(kept, 3);
    assert_true(holds(&c, 0, E));
    sim_cache_free(&c);
    /* The same seed makes the same choices; a cyclic 5-line loop still hits sometimes. */
    make(&c, SIM_RANDOM, 1, 4, 0);
    make(&d, SIM_RANDOM, 1, 4, 0);
    unsigned hits = 0;
    for (int i = 0; i < 1000; i++) {
        bool hit = sim_cache_access(&c, 0, (uint64_t)(A + i % 5));
        assert_int_equal(hit, sim_cache_access(&d, 0, (uint64_t)(A + i % 5)));
        hits += hit;
    }
    assert_true(hits > 300 && hits < 900);
    sim_cache_free(&c);
    sim_cache_free(&d);
}

/*
 * NRU: one bit, new lines and hits mark "recent". E finds no old line: all age, way 0 (A)
 * goes. B's hit keeps B; F and G take the old C and D; H ages all again and replaces E.
 */
static void test_nru(void **state)
{
    (void)state;
    struct sim_cache c;
    make(&c, SIM_NRU, 1, 4, 0);
    static const int seq[] = {A, B, C, D, E, B, F, G, H, B, E};
    run(&c, seq, "00000100010");
    sim_cache_free(&c);
}

/*
 * SRRIP: new lines predicted "long" (2), hits "soon" (0). After A's hit, E F G H (a scan)
 * replace each other and B C D, while A, hit once, survives them all: LRU would lose it.
 */
static void test_srrip(void **state)
{
    (void)state;
    struct sim_cache c, l;
    make(&c, SIM_SRRIP, 1, 4, 0);
    static const int seq[] = {A, B, C, D, A, E, F, G, H, A};
    run(&c, seq, "0000100001");
    make(&l, SIM_LRU, 1, 4, 0);
    run(&l, seq, "0000100000");
    sim_cache_free(&c);
    sim_cache_free(&l);
}

/* BRRIP with eps=0: new lines are "distant" (3), so a scan churns through one way only. */
static void test_brrip(void **state)
{
    (void)state;
    struct sim_cache c;
    make(&c, SIM_BRRIP, 1, 4, 0);
    static const int seq[] = {A, B, C, D, A, E, F, C, D, E, F, A};
    run(&c, seq, "000010011001");
    sim_cache_free(&c);
}

/* BRRIP with eps=1 inserts "long" every time: exactly SRRIP. */
static void test_brrip_eps1_is_srrip(void **state)
{
    (void)state;
    struct sim_cache s, b;
    make(&s, SIM_SRRIP, 4, 4, 0);
    make(&b, SIM_BRRIP, 4, 4, 1);
    uint64_t x = 12345;
    for (int i = 0; i < 5000; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        uint64_t tag = (x >> 33) % 23;
        assert_int_equal(sim_cache_access(&s, (uint32_t)(tag % 4), tag),
                         sim_cache_access(&b, (uint32_t)(tag % 4), tag));
    }
    sim_cache_free(&s);
    sim_cache_free(&b);
}

/*
 * BIP with eps=0 (LIP): each new line goes in at the LRU position, so the next miss
 * replaces it: A B C stay; D, E, F take turns in the fourth way. A hit moves a line to MRU.
 */
static void test_bip_lip(void **state)
{
    (void)state;
    struct sim_cache c;
    make(&c, SIM_BIP, 1, 4, 0);
    static const int seq[] = {A, B, C, D, E, F, A, B, C, D, F};
    run(&c, seq, "00000011100");
    sim_cache_free(&c);
}

/* BIP with eps=1 inserts at MRU every time: exactly LRU. */
static void test_bip_eps1_is_lru(void **state)
{
    (void)state;
    struct sim_cache c;
    make(&c, SIM_BIP, 1, 4, 1);
    static const int seq[] = {A, B, C, D, A, E, B, C, A, D};
    run(&c, seq, "0000100010");
    sim_cache_free(&c);
}

/* BIP's bimodal throttle: about one fill in eps goes to MRU. */
static void test_bip_epsilon_rate(void **state)
{
    (void)state;
    struct sim_cache c;
    make(&c, SIM_BIP, 1, 2, 32);
    unsigned bimodal = 0, n = 64000;
    for (unsigned i = 0; i < n; i++)
        bimodal += sim_cache_bimodal(&c);
    assert_true(bimodal > n / 32 * 9 / 10 && bimodal < n / 32 * 11 / 10);
    sim_cache_free(&c);
}

/* 64 sets, 4 leaders per policy: constituencies of 16 sets, complement-selected leaders. */
static void make_dueling(struct sim_cache *c, enum sim_policy_kind policy)
{
    struct sim_cache_params p = {.sets_per_slice = 64,
                                 .ways = 4,
                                 .slices = 1,
                                 .line_shift = 6,
                                 .policy = policy,
                                 .eps = 0,
                                 .leaders = 4,
                                 .psel_bits = 2,
                                 .seed = 7};
    assert_int_equal(sim_cache_init(c, &p), 0);
}

static const int lru_seq[] = {A, B, C, D, A, E, B, C, A, D};
static const char lru_want[] = "0000100010";
static const int lip_seq[] = {A, B, C, D, E, F, A, B, C, D, F};
static const char lip_want[] = "00000011100";

static void test_duel_leaders(void **state)
{
    (void)state;
    struct sim_cache c;
    make_dueling(&c, SIM_DIP);
    static const uint32_t a_sets[] = {0, 17, 34, 51}, b_sets[] = {15, 30, 45, 60};
    unsigned followers = 0;
    for (int i = 0; i < 4; i++) {
        assert_int_equal(c.role[a_sets[i]], SIM_LEADER_A);
        assert_int_equal(c.role[b_sets[i]], SIM_LEADER_B);
    }
    for (uint32_t s = 0; s < 64; s++)
        followers += c.role[s] == SIM_FOLLOWER;
    assert_int_equal(followers, 56);
    sim_cache_free(&c);
}

/*
 * DIP with a 2-bit selector (0..3, followers use BIP above 1): followers start as LRU;
 * one miss in an LRU leader set flips them to BIP (LIP here, eps=0); one miss in a BIP
 * leader set flips them back. The selector saturates.
 */
static void test_dip_selector(void **state)
{
    (void)state;
    struct sim_cache c;
    make_dueling(&c, SIM_DIP);
    assert_int_equal(c.psel, 1);
    run_set(&c, 1, lru_seq, lru_want);
    assert_int_equal(c.psel, 1); /* followers do not vote */
    assert_false(sim_cache_access(&c, 0, A));
    assert_int_equal(c.psel, 2);
    run_set(&c, 2, lip_seq, lip_want);
    assert_false(sim_cache_access(&c, 15, A));
    assert_int_equal(c.psel, 1);
    run_set(&c, 3, lru_seq, lru_want);
    for (int i = 0; i < 10; i++)
        sim_cache_access(&c, 17, (uint64_t)(A + i));
    assert_int_equal(c.psel, 3);
    /* Leaders keep their own policy whatever the selector says. */
    run_set(&c, 34, lru_seq, lru_want);
    run_set(&c, 30, lip_seq, lip_want);
    sim_cache_free(&c);
}

static uint8_t rrpv_of(const struct sim_cache *c, uint32_t set, uint64_t tag)
{
    int way = sim_cache_find(c, set, tag);
    assert_true(way >= 0);
    return sim_cache_state(c, set)[way];
}

/* DRRIP: SRRIP leaders insert at 2, BRRIP leaders (eps=0) at 3, followers as PSEL says. */
static void test_drrip_selector(void **state)
{
    (void)state;
    struct sim_cache c;
    make_dueling(&c, SIM_DRRIP);
    sim_cache_access(&c, 1, A);
    assert_int_equal(rrpv_of(&c, 1, A), 2);
    sim_cache_access(&c, 15, A); /* a BRRIP leader miss: the selector goes to 0 */
    assert_int_equal(rrpv_of(&c, 15, A), 3);
    assert_int_equal(c.psel, 0);
    sim_cache_access(&c, 0, A);
    sim_cache_access(&c, 0, B);
    assert_int_equal(rrpv_of(&c, 0, B), 2);
    assert_int_equal(c.psel, 2);
    sim_cache_access(&c, 1, B);
    assert_int_equal(rrpv_of(&c, 1, B), 3);
    sim_cache_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lru),
        cmocka_unit_test(test_fifo),
        cmocka_unit_test(test_plru),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_nru),
        cmocka_unit_test(test_srrip),
        cmocka_unit_test(test_brrip),
        cmocka_unit_test(test_brrip_eps1_is_srrip),
        cmocka_unit_test(test_bip_lip),
        cmocka_unit_test(test_bip_eps1_is_lru),
        cmocka_unit_test(test_bip_epsilon_rate),
        cmocka_unit_test(test_duel_leaders),
        cmocka_unit_test(test_dip_selector),
        cmocka_unit_test(test_drrip_selector),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
