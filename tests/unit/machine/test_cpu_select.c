// SPDX-License-Identifier: MIT
// Unit tests of the processor subset an experiment uses on a machine larger than it measures:
// a two-socket machine of 2 x 96 threads in the firmware's (APIC ID) order, socket 0 first.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/cpu_select.h"

#define THREADS_PER_PACKAGE 96
#define TOTAL (2 * THREADS_PER_PACKAGE)

static struct plat_cpu cpus[TOTAL];

/* Package p's cores 0..47, two threads each, in APIC ID order; node = package. */
static void two_by_96(void)
{
    memset(cpus, 0, sizeof(cpus));
    for (unsigned i = 0; i < TOTAL; i++) {
        unsigned in_pkg = i % THREADS_PER_PACKAGE;
        cpus[i] = (struct plat_cpu){.id = i,
                                    .apic_id = i,
                                    .package = i / THREADS_PER_PACKAGE,
                                    .core = in_pkg / 2,
                                    .thread = in_pkg % 2,
                                    .node = i / THREADS_PER_PACKAGE};
    }
    cpus[0].bsp = true;
}

static void test_spread_over_both_packages(void **state)
{
    (void)state;
    two_by_96();
    unsigned chosen[PLAT_CPUS_MAX];
    unsigned n = cpu_select_spread(cpus, TOTAL, PLAT_CPUS_MAX, chosen);
    assert_int_equal(n, PLAT_CPUS_MAX);
    unsigned per_package[2] = {0, 0}, second_threads = 0;
    bool core_seen[2][THREADS_PER_PACKAGE / 2] = {{false}};
    for (unsigned i = 0; i < n; i++) {
        const struct plat_cpu *c = &cpus[chosen[i]];
        per_package[c->package]++;
        second_threads += c->thread;
        assert_false(core_seen[c->package][c->core]); /* one thread per core */
        core_seen[c->package][c->core] = true;
        if (i)
            assert_true(chosen[i] > chosen[i - 1]); /* ascending */
    }
    assert_int_equal(chosen[0], 0); /* the boot processor is among them */
    assert_int_equal(per_package[0], 32);
    assert_int_equal(per_package[1], 32);
    assert_int_equal(second_threads, 0);
    /* c2c over them: pairs across the packages exist, 32 x 32 each way. */
    unsigned across = 0;
    for (unsigned a = 0; a < n; a++)
        for (unsigned b = 0; b < n; b++)
            across += cpus[chosen[a]].package != cpus[chosen[b]].package;
    assert_int_equal(across, 2 * 32 * 32);
}

static void test_small_requests_and_lost(void **state)
{
    (void)state;
    two_by_96();
    unsigned chosen[PLAT_CPUS_MAX];
    /* Two processors: the boot processor and one of the other package. */
    assert_int_equal(cpu_select_spread(cpus, TOTAL, 2, chosen), 2);
    assert_int_equal(chosen[0], 0);
    assert_int_equal(cpus[chosen[1]].package, 1);
    /* Lost ones are never chosen; a machine smaller than the request gives all it has. */
    cpus[THREADS_PER_PACKAGE].lost = true;
    assert_int_equal(cpu_select_spread(cpus, TOTAL, 2, chosen), 2);
    assert_int_equal(chosen[1], THREADS_PER_PACKAGE + 2);
    assert_int_equal(cpu_select_spread(cpus, 8, PLAT_CPUS_MAX, chosen), 8);
    /* Core types are groups of their own: a hybrid part gives both types early. */
    two_by_96();
    for (unsigned i = 0; i < THREADS_PER_PACKAGE; i++)
        cpus[i].core_type = i < 16 ? 0x40 : 0x20;
    assert_int_equal(cpu_select_spread(cpus, THREADS_PER_PACKAGE, 2, chosen), 2);
    assert_int_equal(cpus[chosen[1]].core_type, 0x20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spread_over_both_packages),
        cmocka_unit_test(test_small_requests_and_lost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
