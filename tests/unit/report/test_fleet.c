// SPDX-License-Identifier: MIT
// Unit tests of the fleet report's judgement (tools/report/fleet/fleet_judge.c): grouping by
// configuration, the median and MAD envelope with its resolution floor, small groups held
// against the largest of their CPU or left unjudged, and the identity differences named.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fleet/fleet.h"

static struct fleet *fleet_new(void)
{
    struct fleet *f = calloc(1, sizeof(*f));
    f->machine = calloc(FLEET_MACHINES, sizeof(*f->machine));
    f->group = calloc(FLEET_GROUPS, sizeof(*f->group));
    return f;
}

static void fleet_del(struct fleet *f)
{
    free(f->machine);
    free(f->group);
    free(f);
}

/* A machine of CPU cpu with dimms DIMMs of part P at 4800 MT/s, firmware fw and one figure. */
static struct fleet_machine *add(struct fleet *f, const char *name, const char *cpu, int dimms,
                                 const char *fw, const char *fig, double v)
{
    struct fleet_machine *m = &f->machine[f->nmachines++];
    snprintf(m->name, sizeof(m->name), "%s", name);
    snprintf(m->id.cpu_model, sizeof(m->id.cpu_model), "%s", cpu);
    snprintf(m->id.firmware, sizeof(m->id.firmware), "%s", fw);
    snprintf(m->id.microcode, sizeof(m->id.microcode), "0x10");
    snprintf(m->id.dimm_part, sizeof(m->id.dimm_part), "P");
    m->id.smbios = dimms >= 0;
    m->id.dimm_count = dimms;
    m->id.dimm_speed = dimms >= 0 ? 4800 : 0;
    snprintf(m->fig[0].name, sizeof(m->fig[0].name), "%s", fig);
    snprintf(m->fig[0].unit, sizeof(m->fig[0].unit), "GB/s");
    m->fig[0].better = FLEET_BETTER_HIGHER;
    m->fig[0].value = v;
    m->fig[0].resolution = 0.005;
    m->nfig = 1;
    return m;
}

/* Five machines, one at half the others' bandwidth and on other firmware: it alone is flagged,
 * by the MAD envelope (median 40, MAD 1: 40 +- 3 x 1.4826), and the firmware is named. */
static void test_outlier_flagged_with_identity(void **state)
{
    (void)state;
    struct fleet *f = fleet_new();
    static const double v[] = {40, 41, 39, 40.5};
    char name[16];
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof(name), "m%d", i);
        add(f, name, "cpu A", 8, "FW1", "DRAM_read_gbs", v[i]);
    }
    add(f, "bad", "cpu A", 8, "FW2", "DRAM_read_gbs", 20);
    fleet_judge(f);
    assert_int_equal(f->ngroups, 1);
    const struct fleet_stat *st = &f->group[0].stat[0];
    assert_float_equal(st->median, 40, 1e-9);
    assert_float_equal(st->spread, 1.4826, 1e-9);
    assert_float_equal(st->lo, 40 - 3 * 1.4826, 1e-9);
    assert_int_equal(f->nflags, 1);
    assert_string_equal(f->machine[f->flag[0].machine].name, "bad");
    assert_string_equal(f->flag[0].direction, "worse");
    assert_string_equal(f->flag[0].against, "group 1");
    assert_non_null(strstr(f->flag[0].explain, "other firmware: FW2, the group's FW1"));
    fleet_del(f);
}

/* Identical machines (MAD 0): the runs' resolution (0.5%) floors the spread, so 0.4% apart is
 * inside and 3% apart outside. */
static void test_resolution_floor(void **state)
{
    (void)state;
    struct fleet *f = fleet_new();
    add(f, "a", "cpu A", 4, "FW1", "L1_read_gbs", 100);
    add(f, "b", "cpu A", 4, "FW1", "L1_read_gbs", 100);
    add(f, "c", "cpu A", 4, "FW1", "L1_read_gbs", 100);
    add(f, "d", "cpu A", 4, "FW1", "L1_read_gbs", 100.4);
    fleet_judge(f);
    assert_float_equal(f->group[0].stat[0].spread, 0.5, 1e-9);
    assert_int_equal(f->nflags, 0);
    f->machine[3].fig[0].value = 103;
    fleet_judge(f);
    assert_int_equal(f->nflags, 0 + 1);
    assert_string_equal(f->flag[0].direction, "better");
    assert_non_null(strstr(f->flag[0].explain, "no difference in the recorded identity"));
    fleet_del(f);
}

/* A machine with half the DIMMs is a group of one, held against the 4-DIMM group of its CPU;
 * two machines of another CPU are not judged at all. */
static void test_small_groups(void **state)
{
    (void)state;
    struct fleet *f = fleet_new();
    add(f, "a", "cpu A", 4, "FW1", "DRAM_read_gbs", 40);
    add(f, "b", "cpu A", 4, "FW1", "DRAM_read_gbs", 41);
    add(f, "c", "cpu A", 4, "FW1", "DRAM_read_gbs", 39);
    add(f, "half", "cpu A", 2, "FW1", "DRAM_read_gbs", 20);
    add(f, "x", "cpu B", -1, "FW1", "DRAM_read_gbs", 10);
    add(f, "y", "cpu B", -1, "FW1", "DRAM_read_gbs", 90);
    fleet_judge(f);
    assert_int_equal(f->ngroups, 3);
    int g_half = f->machine[3].group, g_four = f->machine[0].group, g_b = f->machine[4].group;
    assert_int_equal(f->group[g_four].against, g_four);
    assert_int_equal(f->group[g_half].against, g_four);
    assert_int_equal(f->group[g_b].against, -1);
    assert_string_equal(f->group[g_b].dimms, "unknown (no SMBIOS in the run)");
    assert_string_equal(f->group[g_half].dimms, "2 x P at 4800 MT/s");
    assert_int_equal(f->nflags, 1);
    assert_string_equal(f->machine[f->flag[0].machine].name, "half");
    assert_string_equal(f->flag[0].explain, "fewer DIMMs: 2 where the group has 4");
    fleet_del(f);
}

/* A group's figures are listed by rank (the detection's, then each experiment's), whichever
 * machine lists them first. */
static void test_figure_order(void **state)
{
    (void)state;
    struct fleet *f = fleet_new();
    add(f, "a", "cpu A", 4, "FW1", "late", 1)->fig[0].rank = 30;
    struct fleet_machine *b = add(f, "b", "cpu A", 4, "FW1", "early", 2);
    b->fig[0].rank = 10;
    b->fig[1] = b->fig[0];
    snprintf(b->fig[1].name, sizeof(b->fig[1].name), "middle");
    b->fig[1].rank = 20;
    b->nfig = 2;
    fleet_judge(f);
    assert_int_equal(f->group[0].nstat, 3);
    assert_string_equal(f->group[0].stat[0].name, "early");
    assert_string_equal(f->group[0].stat[1].name, "middle");
    assert_string_equal(f->group[0].stat[2].name, "late");
    fleet_del(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_outlier_flagged_with_identity),
        cmocka_unit_test(test_resolution_floor),
        cmocka_unit_test(test_small_groups),
        cmocka_unit_test(test_figure_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
