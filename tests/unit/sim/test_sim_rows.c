// SPDX-License-Identifier: MIT
// chase-sim's compact policy state (ranks, RRPV bytes, PLRU table) against plain reference models.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sim_access.h"
#include "sim_cache.h"

#define REF_WAYS 64
#define EMPTY UINT32_MAX
#define ACCESSES 20000

/*
 * One set as the papers define the policies, with a time stamp per line (LRU, FIFO, LIP)
 * or a 2-bit RRPV (SRRIP), the way chase-sim kept them before its rows: empty ways fill
 * first, lowest way first; the victim is the lowest stamp, or the first way at the
 * highest RRPV after aging.
 */
struct ref_set {
    enum sim_policy_kind policy;
    unsigned ways;
    uint32_t tag[REF_WAYS];
    uint64_t stamp[REF_WAYS];
    uint64_t clock;
};

static int ref_find(const struct ref_set *r, uint32_t tag)
{
    for (unsigned w = 0; w < r->ways; w++)
        if (r->tag[w] == tag)
            return (int)w;
    return -1;
}

static unsigned ref_victim(struct ref_set *r)
{
    unsigned best = 0;
    for (unsigned w = 0; w < r->ways; w++) {
        if (r->tag[w] == EMPTY)
            return w;
        bool better =
            r->policy == SIM_SRRIP ? r->stamp[w] > r->stamp[best] : r->stamp[w] < r->stamp[best];
        best = better ? w : best;
    }
    if (r->policy == SIM_SRRIP) /* age every line until the first one is distant */
        for (uint64_t age = 3 - r->stamp[best], w = 0; w < r->ways; w++)
            r->stamp[w] += age;
    return best;
}

/* The stamp a newly filled line gets: newest, or below every other line (LIP). */
static uint64_t ref_fill_stamp(struct ref_set *r, unsigned way)
{
    if (r->policy == SIM_SRRIP)
        return 2;
    if (r->policy != SIM_BIP)
        return ++r->clock;
    uint64_t low = UINT64_MAX;
    for (unsigned w = 0; w < r->ways; w++)
        if (w != way && r->tag[w] != EMPTY && r->stamp[w] < low)
            low = r->stamp[w];
    return low == UINT64_MAX ? r->clock : low - 1;
}

static bool ref_access(struct ref_set *r, uint32_t tag)
{
    int way = ref_find(r, tag);
    if (way >= 0) {
        if (r->policy == SIM_SRRIP)
            r->stamp[way] = 0;
        else if (r->policy != SIM_FIFO)
            r->stamp[way] = ++r->clock;
        return true;
    }
    unsigned v = ref_victim(r);
    r->tag[v] = tag;
    r->stamp[v] = ref_fill_stamp(r, v);
    return false;
}

/* Random accesses to few more tags than ways, with lines leaving now and then. */
static void check_policy(enum sim_policy_kind policy, unsigned ways)
{
    struct sim_cache c;
    struct sim_cache_params p = {.sets_per_slice = 1,
                                 .ways = ways,
                                 .slices = 1,
                                 .line_shift = 6,
                                 .policy = policy,
                                 .psel_bits = 10,
                                 .seed = 1};
    struct ref_set r = {.policy = policy, .ways = ways, .clock = 1ULL << 62};
    assert_int_equal(sim_cache_init(&c, &p), 0);
    for (unsigned w = 0; w < REF_WAYS; w++)
        r.tag[w] = EMPTY;
    uint64_t x = 88172645463325252ULL;
    for (unsigned i = 0; i < ACCESSES; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint32_t tag = (uint32_t)(x % (ways + ways / 2 + 2));
        if (x >> 60 == 0) { /* a back-invalidation */
            int way = ref_find(&r, tag);
            assert_int_equal(sim_cache_invalidate(&c, 0, tag), way >= 0);
            if (way >= 0)
                r.tag[way] = EMPTY;
            continue;
        }
        if (sim_cache_access(&c, 0, tag) != ref_access(&r, tag))
            fail_msg("%s, %u ways: access %u (tag %u) differs", sim_policy_name(policy), ways, i,
                     tag);
    }
    for (unsigned w = 0; w < ways; w++) /* the same lines in the same ways */
        assert_int_equal(sim_cache_row(&c, 0)[w], r.tag[w]);
    sim_cache_free(&c);
}

static void test_ranks_match_stamps(void **state)
{
    (void)state;
    static const unsigned ways[] = {1, 2, 3, 4, 8, 12, 16, 17, 20, 32, 64};
    for (size_t i = 0; i < sizeof(ways) / sizeof(ways[0]); i++) {
        check_policy(SIM_LRU, ways[i]);
        check_policy(SIM_FIFO, ways[i]);
        check_policy(SIM_BIP, ways[i]); /* eps 0: LIP */
    }
}

static void test_rrpv_bytes_match_definition(void **state)
{
    (void)state;
    static const unsigned ways[] = {1, 2, 4, 7, 12, 16, 20, 48, 64};
    for (size_t i = 0; i < sizeof(ways) / sizeof(ways[0]); i++)
        check_policy(SIM_SRRIP, ways[i]);
}

/* The tree-PLRU victim table (up to 8 ways) is the walk down the tree for every tree. */
static void test_plru_table_is_the_walk(void **state)
{
    (void)state;
    for (unsigned ways = 1; ways <= 8; ways *= 2) {
        struct sim_cache c;
        struct sim_cache_params p = {.sets_per_slice = 1,
                                     .ways = ways,
                                     .slices = 1,
                                     .line_shift = 6,
                                     .policy = SIM_PLRU,
                                     .seed = 1};
        assert_int_equal(sim_cache_init(&c, &p), 0);
        for (uint64_t bits = 0; bits < 256; bits += 2) {
            unsigned node = 1;
            for (unsigned level = 0; level < c.tree_depth; level++)
                node = 2 * node + (unsigned)((bits >> node) & 1);
            memcpy(sim_cache_state(&c, 0), &bits, sizeof(bits));
            assert_int_equal(plru_victim(&c, sim_cache_state(&c, 0)), node - ways);
        }
        sim_cache_free(&c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranks_match_stamps),
        cmocka_unit_test(test_rrpv_bytes_match_definition),
        cmocka_unit_test(test_plru_table_is_the_walk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
