// SPDX-License-Identifier: MIT
// Unit tests of chase-sim's stalls in time: refresh= and smi= parsed and written back, a DRAM
// load waiting out a refresh, SMIs counted, and the refresh finder recovering the model's
// period and stall from a chase timed in batches (and claiming none with refresh off).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "point/refresh.h"
#include "point/tail_stats.h"
#include "lib/stats.h"
#include "sim_hier_fixture.h"

#define GHZ 3.0
#define HOPS_PER_BATCH 4
#define BATCHES 40000
#define LINES (1u << 16) /* 4 MiB of lines: far beyond the 32 KiB cache */

static void test_parse(void **state)
{
    (void)state;
    struct sim_stall st;
    const char *good = "3.9us/350ns";
    assert_true(sim_stall_parse(good, strlen(good), &st));
    assert_true(fabs(st.period_ns - 3900) < 1e-9 && fabs(st.stall_ns - 350) < 1e-9);
    const char *bad[] = {"3.9us",       "3.9us/",    "/350ns",   "3.9/350ns", "350ns/3.9us",
                         "1.2.3us/1ns", "7.8us/0ns", "7.8s/1ns", "-1us/1ns"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        assert_false(sim_stall_parse(bad[i], strlen(bad[i]), &st));
    struct sim_spec spec;
    struct sim_parse_error err;
    assert_false(sim_spec_parse("L1:32K:8w:4c:lru,DRAM:250c:refresh=1ms", &spec, &err));
    assert_false(sim_spec_parse("L1:32K:8w:4c:lru,DRAM:250c:fresh=1us/1ns", &spec, &err));
    assert_true(sim_spec_parse("L1:32K:8w:4c:lru,DRAM:250c:smi=1ms/100us:refresh=7.8us/280ns",
                               &spec, &err));
    char canon[512];
    sim_spec_format(&spec, canon, sizeof(canon));
    assert_non_null(strstr(canon, ":refresh=7800ns/280ns:smi=1000000ns/100000ns"));
}

/* A random order of LINES lines, one address a hop. */
static uint64_t order[LINES];

static void make_order(void)
{
    uint64_t x = 12345;
    for (uint32_t i = 0; i < LINES; i++)
        order[i] = i;
    for (uint32_t i = LINES - 1; i > 0; i--) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        uint32_t j = (uint32_t)((x >> 33) % (i + 1));
        uint64_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (uint32_t i = 0; i < LINES; i++)
        order[i] = (4ULL << 30) + order[i] * 64;
}

static uint64_t start[BATCHES], slow[BATCHES];
static double batch_ns[BATCHES], sorted[BATCHES], excess[BATCHES];

/* Chase through hier in batches, as the tail experiment does; the finder's verdict on the
 * slow batches (tail_slow_train), and their stalls beyond any memory's into stalls. */
static struct refresh_result chase_batches(struct tail_stalls *stalls)
{
    make_order();
    size_t k = 0;
    for (size_t b = 0; b < BATCHES; b++) {
        start[b] = (uint64_t)hier.clock.now_cycles;
        unsigned cycles = 0;
        for (int h = 0; h < HOPS_PER_BATCH; h++, k++)
            cycles += sim_hier_load(&hier, order[k % LINES]);
        batch_ns[b] = sorted[b] = cycles / GHZ;
    }
    stats_sort(sorted, BATCHES);
    double median = stats_quantile_sorted(sorted, BATCHES, 0.5);
    double mad = stats_mad_sorted(sorted, BATCHES, median), hop = median / HOPS_PER_BATCH;
    tail_stalls_find(start, batch_ns, BATCHES, GHZ * 1e9, median, stalls);
    size_t n = tail_slow_train(start, batch_ns, BATCHES, median, mad, hop, slow, excess);
    struct refresh_series s = {slow, excess, n, GHZ * 1e9, median, hop};
    struct refresh_result r;
    refresh_find(&s, &r);
    print_message("slow %zu: found %d period %.1f stall %.1f conf %.2f; stalls %zu\n", n, r.found,
                  r.period_ns, r.stall_ns, r.confidence, stalls->count);
    return r;
}

static void check_recovered(const char *text, double period_ns, double stall_ns)
{
    build(text);
    sim_hier_set_clock(&hier, GHZ);
    struct tail_stalls stalls;
    struct refresh_result r = chase_batches(&stalls);
    assert_true(r.found);
    assert_int_equal(stalls.count, 0); /* a refresh is memory's own stall */
    assert_true(fabs(r.period_ns - period_ns) <= 0.05 * period_ns);
    assert_true(fabs(r.stall_ns - stall_ns) <= 0.05 * stall_ns);
    assert_true(hier.clock.refreshes_met > 0);
}

static void test_refresh_3900(void **state)
{
    (void)state;
    check_recovered("L1:32K:8w:4c:lru,DRAM:250c:refresh=3.9us/350ns", 3900, 350);
}

static void test_refresh_7800(void **state)
{
    (void)state;
    check_recovered("L1:32K:8w:4c:lru,DRAM:250c:refresh=7.8us/280ns", 7800, 280);
}

static void test_refresh_off(void **state)
{
    (void)state;
    build("L1:32K:8w:4c:lru,DRAM:250c");
    sim_hier_set_clock(&hier, GHZ);
    struct tail_stalls stalls;
    assert_false(chase_batches(&stalls).found);
}

/* An SMI every 100 us costing 20 us: each crossing adds the stall once. */
static void test_smi(void **state)
{
    (void)state;
    build("L1:32K:8w:4c:lru,DRAM:250c:smi=100us/20us");
    sim_hier_set_clock(&hier, GHZ);
    unsigned long long extra = 0;
    for (uint32_t i = 0; i < 20000; i++)
        extra += sim_hier_load(&hier, (4ULL << 30) + (uint64_t)i * 4096) -
                 250u; /* a miss costs DRAM's cycles alone */
    assert_true(hier.clock.smis >= 1);
    assert_int_equal(extra, hier.clock.smis * 60000ULL); /* 20 us at 3 GHz */
    double expect = hier.clock.now_cycles / (100e3 * GHZ);
    assert_true(fabs((double)hier.clock.smis - expect) <= 1.0);
}

/* SMIs every 1 ms costing 50 us, seen in a chase timed in batches: stalls beyond any memory's,
 * counted at their rate (60000 a minute), each as long as the SMI; no refresh claimed. */
static void test_smi_batches(void **state)
{
    (void)state;
    build("L1:32K:8w:4c:lru,DRAM:250c:smi=1ms/50us");
    sim_hier_set_clock(&hier, GHZ);
    struct tail_stalls stalls;
    assert_false(chase_batches(&stalls).found);
    assert_int_equal(stalls.count, hier.clock.smis);
    assert_true(stalls.count >= 10);
    assert_true(fabs(stalls.longest_ns - 50000) < 1);
    assert_true(fabs(stalls.per_minute - 60000) < 0.1 * 60000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test_teardown(test_refresh_3900, teardown),
        cmocka_unit_test_teardown(test_refresh_7800, teardown),
        cmocka_unit_test_teardown(test_refresh_off, teardown),
        cmocka_unit_test_teardown(test_smi, teardown),
        cmocka_unit_test_teardown(test_smi_batches, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
