// SPDX-License-Identifier: MIT
// Unit tests of the pairs c2c measures: every ordered pair up to the count, beyond it a sample
// in which every package (and node, die, core type) is represented, every processor times and
// answers, nothing twice, the same for the same seed.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "procs/pairs.h"

#define PER_PACKAGE 48
#define N (2 * PER_PACKAGE)

static struct mp_cpu cpus[N];

/* Two packages of 48 cores, one thread each, each its own L2, one L3 per package. */
static void two_by_48(void)
{
    memset(cpus, 0, sizeof(cpus));
    for (unsigned i = 0; i < N; i++) {
        cpus[i].p = (struct plat_cpu){.id = i, .package = i / PER_PACKAGE, .core = i % PER_PACKAGE};
        cpus[i].l2_group = i;
        cpus[i].l3_group = i / PER_PACKAGE;
    }
    cpus[0].p.bsp = true;
}

static void test_all_pairs_up_to_the_count(void **state)
{
    (void)state;
    two_by_48();
    struct pair out[56];
    struct pairs_counts c;
    assert_int_equal(pairs_plan(cpus, 8, 56, 1, out, &c), 56);
    assert_true(c.all);
    size_t k = 0;
    for (unsigned a = 0; a < 8; a++) /* timer by timer, as c2c always went */
        for (unsigned b = 0; b < 8; b++)
            if (a != b) {
                assert_int_equal(out[k].a, a);
                assert_int_equal(out[k].b, b);
                k++;
            }
}

/* One plan's checks: no pair twice, none with itself; every processor times and answers. */
static void check_sample(const struct pair *out, size_t n, unsigned procs)
{
    static uint8_t seen[N][N];
    unsigned timed[N] = {0}, answered[N] = {0};
    memset(seen, 0, sizeof(seen));
    for (size_t k = 0; k < n; k++) {
        assert_true(out[k].a < procs && out[k].b < procs);
        assert_int_not_equal(out[k].a, out[k].b);
        assert_int_equal(seen[out[k].a][out[k].b]++, 0);
        timed[out[k].a]++;
        answered[out[k].b]++;
    }
    for (unsigned i = 0; i < procs; i++)
        assert_true(cpus[i].p.lost || (timed[i] && answered[i]));
}

static void test_sample_beyond_the_count(void **state)
{
    (void)state;
    two_by_48();
    static struct pair out[300], again[300];
    struct pairs_counts c;
    size_t n = pairs_plan(cpus, N, 300, 7, out, &c);
    assert_int_equal(n, 300);
    assert_false(c.all);
    assert_int_equal(c.places, 2);
    assert_int_equal(c.between, 2);  /* 0 -> 48 and 48 -> 0 */
    assert_int_equal(c.within, 4);   /* each first with a core sharing nothing, both ways */
    assert_int_equal(c.ring, N - 2); /* 0 -> 1 and 48 -> 49 came in already, within */
    assert_int_equal(c.between + c.within + c.ring + c.random, n);
    check_sample(out, n, N);
    unsigned across = 0, high = 0;
    for (size_t k = 0; k < n; k++) {
        across += cpus[out[k].a].p.package != cpus[out[k].b].p.package;
        high += out[k].a > 63 || out[k].b > 63;
    }
    assert_true(across >= 2);
    assert_true(high >= 32); /* processors above 63 are measured */
    for (size_t k = 1; k < c.between + c.within + c.ring; k++) /* the fixed part timer by timer */
        assert_true(out[k - 1].a <= out[k].a);
    assert_int_equal(pairs_plan(cpus, N, 300, 7, again, NULL), n); /* the same seed, the same */
    assert_memory_equal(out, again, n * sizeof(*out));
}

/* A hybrid package's two core types are two places; a lost processor is in no pair. */
static void test_core_types_and_lost(void **state)
{
    (void)state;
    two_by_48();
    for (unsigned i = 0; i < N; i++)
        cpus[i].p.core_type = i % PER_PACKAGE < 16 ? 0x40 : 0x20;
    cpus[5].p.lost = true;
    static struct pair out[400];
    struct pairs_counts c;
    size_t n = pairs_plan(cpus, N, 400, 3, out, &c);
    assert_int_equal(c.places, 4);
    assert_int_equal(c.between, 12); /* every ordered pair of the four places */
    check_sample(out, n, N);
    for (size_t k = 0; k < n; k++)
        assert_true(out[k].a != 5 && out[k].b != 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_pairs_up_to_the_count),
        cmocka_unit_test(test_sample_beyond_the_count),
        cmocka_unit_test(test_core_types_and_lost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
