// SPDX-License-Identifier: MIT
// Unit tests of chase-host's processor table over sysfs trees written here (2 x 96 threads).
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_tree.h"
#include "host_cpus.h"
#include "machine/cpu_select.h"

/* Two packages of 48 cores, 2 threads each, as Linux numbers them: first threads 0-95
   (package 0: 0-47), second threads 96-191; each package its own memory node. */
#define PACKAGES 2
#define CORES 48
#define THREADS 2
#define NCPU (PACKAGES * CORES * THREADS)

/* CPU c of the machine above: its folder with topology and node link (offline: no topology). */
static void cpu(unsigned c, bool online)
{
    unsigned thread = c / (PACKAGES * CORES), pkg = c % (PACKAGES * CORES) / CORES;
    unsigned core = c % CORES, sibling = thread ? c - PACKAGES * CORES : c + PACKAGES * CORES;
    char rel[128], text[64];
    snprintf(rel, sizeof(rel), "cpu%u", c);
    ft_dir(rel);
    snprintf(rel, sizeof(rel), "cpu%u/node%u", c, pkg);
    ft_dir(rel); /* a folder stands for sysfs's link */
    if (!online)
        return;
    snprintf(rel, sizeof(rel), "cpu%u/topology", c);
    ft_dir(rel);
    snprintf(text, sizeof(text), "%u\n", pkg);
    snprintf(rel, sizeof(rel), "cpu%u/topology/physical_package_id", c);
    ft_put_text(rel, text);
    snprintf(text, sizeof(text), "%u\n", core);
    snprintf(rel, sizeof(rel), "cpu%u/topology/core_id", c);
    ft_put_text(rel, text);
    snprintf(text, sizeof(text), "%u,%u\n", c < sibling ? c : sibling, c < sibling ? sibling : c);
    snprintf(rel, sizeof(rel), "cpu%u/topology/thread_siblings_list", c);
    ft_put_text(rel, text);
}

/* The machine's tree: every CPU online but offline_cpu (NCPU: none). */
static int tree(unsigned offline_cpu)
{
    ft_make("/tmp/chase-cpus-XXXXXX");
    ft_put_text("possible", "0-191\n");
    ft_put_text("present", "0-191\n");
    ft_put_text("online", offline_cpu == NCPU ? "0-191\n" : "0-4,6-191\n");
    for (unsigned c = 0; c < NCPU; c++)
        cpu(c, c != offline_cpu);
    return 0;
}

/* Every one of the 192 held (beyond the 64 of a fixed table), placed as sysfs says. */
static void test_every_cpu_held(void **state)
{
    (void)state;
    struct host_cpus t;
    char why[200];
    tree(NCPU);
    assert_int_equal(host_cpus_read(ft_root, NULL, 0, 7, &t, why, sizeof(why)), NCPU);
    assert_int_equal(t.present, NCPU);
    assert_int_equal(t.online, NCPU);
    for (unsigned i = 0; i < NCPU; i++) {
        const struct plat_cpu *p = &t.cpu[i];
        assert_int_equal(p->id, i);
        assert_int_equal(p->package, i % 96 / 48);
        assert_int_equal(p->node, p->package);
        assert_int_equal(p->core, i % 48);
        assert_int_equal(p->thread, i / 96);
        assert_int_equal(p->bsp, i == 7);
    }
    host_cpus_free(&t);
    ft_remove();
}

/* An offline CPU and CPUs outside the affinity mask are not held; the counts say so. */
static void test_offline_and_affinity(void **state)
{
    (void)state;
    struct host_cpus t;
    char why[200];
    tree(5);
    size_t bytes = CPU_ALLOC_SIZE(HOST_CPU_NUMBERS_MAX);
    cpu_set_t *allow = CPU_ALLOC(HOST_CPU_NUMBERS_MAX);
    assert_non_null(allow);
    CPU_ZERO_S(bytes, allow);
    for (unsigned c = 0; c < NCPU; c += 2)
        CPU_SET_S(c, bytes, allow); /* the even CPUs only */
    CPU_SET_S(5, bytes, allow);     /* offline: still not held */
    assert_int_equal(host_cpus_read(ft_root, allow, bytes, 0, &t, why, sizeof(why)), NCPU / 2);
    assert_int_equal(t.present, NCPU);
    assert_int_equal(t.online, NCPU - 1);
    for (unsigned i = 0; i < t.n; i++)
        assert_int_equal(t.cpu[i].id % 2, 0);
    CPU_FREE(allow);
    host_cpus_free(&t);
    ft_remove();
}

/* An experiment that may use 64 chooses them over both packages, first threads first. */
static void test_select_spreads_over_packages(void **state)
{
    (void)state;
    struct host_cpus t;
    char why[200];
    unsigned pick[PLAT_CPUS_MAX], per_package[PACKAGES] = {0};
    tree(NCPU);
    assert_int_equal(host_cpus_read(ft_root, NULL, 0, 0, &t, why, sizeof(why)), NCPU);
    unsigned k = cpu_select_spread(t.cpu, t.n, PLAT_CPUS_MAX, pick);
    assert_int_equal(k, PLAT_CPUS_MAX);
    for (unsigned i = 0; i < k; i++) {
        per_package[t.cpu[pick[i]].package]++;
        assert_int_equal(t.cpu[pick[i]].thread, 0); /* 96 cores: no second thread needed */
    }
    assert_int_equal(per_package[0], PLAT_CPUS_MAX / 2);
    assert_int_equal(per_package[1], PLAT_CPUS_MAX / 2);
    host_cpus_free(&t);
    ft_remove();
}

/* CPU lists: one past the highest number and how many it lists; malformed ones give 0. */
static void test_cpulist_top(void **state)
{
    (void)state;
    unsigned n;
    assert_int_equal(host_cpulist_top("0-191\n", &n), 192);
    assert_int_equal(n, 192);
    assert_int_equal(host_cpulist_top("0-4,6-191", &n), 192);
    assert_int_equal(n, 191);
    assert_int_equal(host_cpulist_top("0,8,3", &n), 9);
    assert_int_equal(n, 3);
    assert_int_equal(host_cpulist_top("", &n), 0);
    assert_int_equal(host_cpulist_top("7-3", &n), 0);
    assert_int_equal(host_cpulist_top("x", &n), 0);
    assert_int_equal(host_cpulist_top("0-3;", &n), 0);
    assert_int_equal(host_cpulist_top("0-99999999", &n), HOST_CPU_NUMBERS_MAX);
}

/* No tree at all: nothing held, said why, nothing to free but what was allocated. */
static void test_no_tree(void **state)
{
    (void)state;
    struct host_cpus t;
    char why[200] = "";
    unsigned n = host_cpus_read("/nonexistent/chase", NULL, 0, 0, &t, why, sizeof(why));
    assert_int_equal(n, 0);
    assert_true(why[0] != 0);
    host_cpus_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_cpu_held),
        cmocka_unit_test(test_offline_and_affinity),
        cmocka_unit_test(test_select_spreads_over_packages),
        cmocka_unit_test(test_cpulist_top),
        cmocka_unit_test(test_no_tree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
