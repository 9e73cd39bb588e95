// SPDX-License-Identifier: MIT
// Unit tests of an experiment's cpus key: all, p, e, a count or a list, as the configuration
// parses and writes it back, and the processors each chooses on a hybrid table of 8 P-cores
// with two threads each and 16 E-cores (core types as CPUID leaf 0x1A EAX[31:24] reads them
// on such a part: 0x40 Core, 0x20 Atom; SDM vol. 2A, CPUID).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "config/config_parse.h"
#include "machine/cpu_select.h"

#define P_CORES 8
#define E_CORES 16
#define TOTAL (2 * P_CORES + E_CORES)

static const struct key_desc key = {"cpus", KEY_CPUS, 0, 0, 64, NULL, "", "test"};
static struct plat_cpu cpus[TOTAL];

/* Processors 0..15: P-cores 0..7, threads 0 and 1 (APIC IDs 0..15); 16..31: E-cores in
   modules of four (APIC IDs from 32 up, as such parts number them), one thread each. */
static void hybrid(void)
{
    memset(cpus, 0, sizeof(cpus));
    for (unsigned i = 0; i < TOTAL; i++) {
        bool p = i < 2 * P_CORES;
        cpus[i] = (struct plat_cpu){.id = i,
                                    .apic_id = p ? i : 32 + 2 * (i - 2 * P_CORES),
                                    .core = p ? i / 2 : P_CORES + (i - 2 * P_CORES),
                                    .thread = p ? i % 2 : 0,
                                    .core_type = p ? CPU_TYPE_CORE : CPU_TYPE_ATOM};
    }
    cpus[0].bsp = true;
}

static enum value_error parse(const char *text, struct cpu_choice *c, char *back, size_t cap)
{
    memset(c, 0xa5, sizeof(*c)); /* an old value: a refused one must leave it as it was */
    struct cpu_choice before = *c;
    enum value_error e = cfg_apply_value(&key, c, text);
    if (e != VALUE_OK)
        assert_memory_equal(c, &before, sizeof(before));
    else
        cfg_format_value(back, cap, &key, c);
    return e;
}

static void test_parse_and_write_back(void **state)
{
    (void)state;
    struct cpu_choice c;
    char back[64];
    static const char *const same[][2] = {{"all", "all"}, {"P", "p"},           {"e", "e"},
                                          {"4", "4"},     {"0", "0"},           {"0-3,8", "0-3,8"},
                                          {"5-5", "5"},   {" 1 , 3-4", "1,3-4"}};
    for (unsigned i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
        assert_int_equal(parse(same[i][0], &c, back, sizeof(back)), VALUE_OK);
        assert_string_equal(back, same[i][1]);
    }
    assert_int_equal(parse("0-3,8", &c, back, sizeof(back)), VALUE_OK);
    assert_int_equal(c.kind, CPU_CHOICE_LIST);
    assert_int_equal(c.n, 2);
    assert_int_equal(c.lo[0], 0);
    assert_int_equal(c.hi[0], 3);
    assert_int_equal(c.lo[1], 8);
    assert_int_equal(c.hi[1], 8);
    assert_int_equal(parse("4", &c, back, sizeof(back)), VALUE_OK);
    assert_int_equal(c.kind, CPU_CHOICE_COUNT); /* a bare number is a count, as it always was */
    assert_int_equal(c.count, 4);
    static const char *const malformed[] = {"x",  "pe", "3-1",   "0-3,,4",  "1,2,3,4,5,6,7,8,9",
                                            "-3", "3-", "1-2-3", "0-65536", "0x10,2",
                                            ""};
    for (unsigned i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++)
        assert_int_equal(parse(malformed[i], &c, back, sizeof(back)), VALUE_MALFORMED);
    assert_int_equal(parse("65", &c, back, sizeof(back)), VALUE_OUT_OF_RANGE); /* a count */
    assert_int_equal(parse("65536", &c, back, sizeof(back)), VALUE_OUT_OF_RANGE);
    assert_int_equal(parse("65-70", &c, back, sizeof(back)), VALUE_OK); /* numbers: any held */
}

/* The processors a choice takes, as ids; returns how many. */
static unsigned choose(const char *text, unsigned cap, unsigned *ids)
{
    struct cpu_choice c;
    unsigned chosen[TOTAL];
    assert_int_equal(cfg_apply_value(&key, &c, text), VALUE_OK);
    unsigned n = cpu_select(cpus, TOTAL, &c, PLAT_CPUS_MAX, cap, chosen);
    for (unsigned i = 0; i < n; i++)
        ids[i] = cpus[chosen[i]].id;
    return n;
}

static void test_p_e_all_list(void **state)
{
    (void)state;
    hybrid();
    unsigned ids[TOTAL];
    assert_int_equal(choose("p", TOTAL, ids), 2 * P_CORES); /* both threads of every P-core */
    for (unsigned i = 0; i < 2 * P_CORES; i++)
        assert_int_equal(ids[i], i);
    assert_int_equal(choose("e", TOTAL, ids), E_CORES); /* the boot processor is not one */
    for (unsigned i = 0; i < E_CORES; i++)
        assert_int_equal(ids[i], 2 * P_CORES + i);
    assert_int_equal(choose("all", TOTAL, ids), TOTAL);
    assert_int_equal(choose("0-3,20,40-50", TOTAL, ids), 5); /* numbers not held: none */
    assert_int_equal(ids[4], 20);
    assert_int_equal(choose("all", 10, ids), 10); /* the caller's room bounds it */
    cpus[17].lost = true;
    assert_int_equal(choose("e", TOTAL, ids), E_CORES - 1); /* a lost one never */
    for (unsigned i = 0; i < E_CORES - 1; i++)
        assert_int_not_equal(ids[i], 17);
    memset(cpus, 0, sizeof(cpus)); /* no core types known (not hybrid): p and e name none */
    assert_int_equal(choose("p", TOTAL, ids), 0);
}

/* A count spreads over the core types, one thread per core first, the boot processor in. */
static void test_count_spreads_over_types(void **state)
{
    (void)state;
    hybrid();
    unsigned ids[TOTAL], p = 0, e = 0, second = 0;
    unsigned n = choose("8", TOTAL, ids);
    assert_int_equal(n, 8);
    assert_int_equal(ids[0], 0);
    for (unsigned i = 0; i < n; i++) {
        p += cpus[ids[i]].core_type == CPU_TYPE_CORE;
        e += cpus[ids[i]].core_type == CPU_TYPE_ATOM;
        second += cpus[ids[i]].thread;
    }
    assert_int_equal(p, 4);
    assert_int_equal(e, 4);
    assert_int_equal(second, 0);
    assert_int_equal(choose("0", TOTAL, ids), TOTAL); /* 0: as many as 64, here all 32 */
}

/* How many a choice may name before core types are known (bw_cores plans its buffer so). */
static void test_most_named(void **state)
{
    (void)state;
    struct cpu_choice c;
    assert_int_equal(cfg_apply_value(&key, &c, "0"), VALUE_OK);
    assert_int_equal(cpu_choice_most(&c, 96, PLAT_CPUS_MAX), 64);
    assert_int_equal(cpu_choice_most(&c, 8, PLAT_CPUS_MAX), 8);
    assert_int_equal(cfg_apply_value(&key, &c, "6"), VALUE_OK);
    assert_int_equal(cpu_choice_most(&c, 96, PLAT_CPUS_MAX), 6);
    assert_int_equal(cfg_apply_value(&key, &c, "all"), VALUE_OK);
    assert_int_equal(cpu_choice_most(&c, 96, PLAT_CPUS_MAX), 96);
    assert_int_equal(cfg_apply_value(&key, &c, "e"), VALUE_OK);
    assert_int_equal(cpu_choice_most(&c, 96, PLAT_CPUS_MAX), 96); /* types not known yet */
    assert_int_equal(cfg_apply_value(&key, &c, "90-100,3,0-1"), VALUE_OK);
    assert_int_equal(cpu_choice_most(&c, 96, PLAT_CPUS_MAX), 6 + 1 + 2); /* 90..95, 3, 0, 1 */
    assert_int_equal(cfg_apply_value(&key, &c, "200-300"), VALUE_OK);
    assert_int_equal(cpu_choice_most(&c, 96, PLAT_CPUS_MAX), 1); /* none: the boot processor */
    assert_int_equal(cpu_choice_most(&c, 0, PLAT_CPUS_MAX), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_and_write_back),
        cmocka_unit_test(test_p_e_all_list),
        cmocka_unit_test(test_count_spreads_over_types),
        cmocka_unit_test(test_most_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
