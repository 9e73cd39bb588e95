// SPDX-License-Identifier: MIT
// chase-report's readers of ramlat tables (wtarreau/ramspeed) and whole sbc-bench logs: with and
// without sbc-bench's "Executing" lines, several tables, a cut table, a refusal, a log's tables.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "inputs/load.h"
#include "inputs/readers.h"
#include "inputs/source.h"

#define ERR_BYTES 2048

static int load(const char *name, const char *text, struct source *s, char *err)
{
    memset(s, 0, sizeof(*s));
    snprintf(s->path, sizeof(s->path), "%s", name);
    return source_load_text(s, text, strlen(text), err, ERR_BYTES);
}

/* The curve of s labelled label; fails the test when there is none. */
static const struct an_curve *curve(const struct source *s, const char *label)
{
    for (size_t i = 0; i < s->ncurves; i++)
        if (strcmp(s->curve[i].label, label) == 0)
            return &s->curve[i];
    fail_msg("no curve \"%s\"", label);
    return NULL;
}

/* ramlat -n as run by hand: the header, KiB rows, four significant digits, a blank at the end. */
#define HEADER "   size:  1x32  2x32  1x64  2x64 1xPTR 2xPTR 4xPTR 8xPTR\n"
#define ROWS_A53                                                                                   \
    "     4k: 2.840 2.833 2.123 2.123 2.123 2.123 2.919 5.927 \n"                                  \
    "    32k: 5.760 7.571 5.387 7.113 5.387 7.296 11.51 20.65 \n"                                  \
    "   512k: 43.66 50.60 54.76 49.38 41.86 49.27 76.52 140.3 \n"                                  \
    " 131072k: 163.7 167.4 163.5 166.4 1163 166.0 203.7 389.9 \n"

static void test_plain_table(void **state)
{
    (void)state;
    struct source s;
    char err[ERR_BYTES];
    assert_int_equal(load("ramlat.txt", "$ ./ramlat -n -s\n" HEADER ROWS_A53, &s, err), 0);
    assert_int_equal(s.format, FMT_RAMLAT);
    assert_non_null(strstr(s.name, "(ramlat)"));
    assert_int_equal(s.ncurves, 8);
    /* The single pointer chase first, as the levels curve; the others plotted only. */
    const struct an_curve *c = &s.curve[0];
    assert_string_equal(c->label, "ramlat 1xPTR");
    assert_int_equal(c->role, AN_ROLE_LEVELS);
    for (size_t i = 1; i < 8; i++)
        assert_int_equal(s.curve[i].role, AN_ROLE_EXTRA);
    assert_int_equal(c->n, 4);
    assert_true(c->size[0] == 4096 && c->size[1] == 32768 && c->size[3] == 128.0 * 1048576);
    assert_true(c->ns[0] == 2.123 && c->ns[2] == 41.86 && c->ns[3] == 1163);
    /* Whole latencies (not time added to L1), default pages: the page size is not known. */
    assert_false(c->relative);
    assert_true(c->page_bytes == 0);
    assert_true(curve(&s, "ramlat 8xPTR")->ns[3] == 389.9);
    assert_true(curve(&s, "ramlat 1x32")->ns[0] == 2.840);
    source_free(&s);
}

static const char big_little[] =
    "Executing ramlat on cpu0 (Cortex-A53), results in ns:\n\n" HEADER ROWS_A53
    "\nExecuting ramlat on cpu4 (Cortex-A72), results in ns:\n\n"
    "       size:  1x32  2x32  1x64  2x64 1xPTR 2xPTR 4xPTR\n"
    "         4k: 2.780 2.780 2.780 2.781 2.224 2.224 2.224 \n"
    "      1024k: 93.69 79.83 75.51 80.18 90.21 76.00 81.81 \n\n"
    "##########################################################################\n";

/* sbc-bench's lines name the cpu and core of each table; an older ramlat has no 8xPTR. */
static void test_executing_lines(void **state)
{
    (void)state;
    struct source s;
    char err[ERR_BYTES];
    assert_int_equal(load("clusters.txt", big_little, &s, err), 0);
    assert_int_equal(s.format, FMT_RAMLAT);
    assert_int_equal(s.ncurves, 15);
    const struct an_curve *a53 = curve(&s, "cpu0 (Cortex-A53) ramlat 1xPTR");
    const struct an_curve *a72 = curve(&s, "cpu4 (Cortex-A72) ramlat 1xPTR");
    assert_int_equal(a53->role, AN_ROLE_LEVELS);
    assert_int_equal(a72->role, AN_ROLE_LEVELS);
    assert_int_equal(a53->n, 4);
    assert_int_equal(a72->n, 2);
    assert_true(a72->size[1] == 1048576 && a72->ns[1] == 90.21);
    assert_true(curve(&s, "cpu4 (Cortex-A72) ramlat 4xPTR")->ns[1] == 81.81);
    source_free(&s);
    /* An older sbc-bench names no core; two tables without any line are told apart. */
    assert_int_equal(
        load("old.txt", "Executing ramlat on cpu1, results in ns:\n\n" HEADER ROWS_A53, &s, err),
        0);
    assert_non_null(curve(&s, "cpu1 ramlat 1xPTR"));
    source_free(&s);
    assert_int_equal(load("two.txt", HEADER ROWS_A53 "\n" HEADER ROWS_A53, &s, err), 0);
    assert_non_null(curve(&s, "ramlat 1xPTR"));
    assert_non_null(curve(&s, "table 2 ramlat 1xPTR"));
    source_free(&s);
}

/* A paste cut inside a row keeps the whole cells before the cut; the table ends at the cut. */
static void test_cut_table(void **state)
{
    (void)state;
    static const char cut[] = HEADER "     4k: 2.840 2.833 2.123 2.123 2.123 2.123 2.919 5.927 \n"
                                     "    32k: 5.760 7.571 5.387 7.113 5.38";
    struct source s;
    char err[ERR_BYTES];
    assert_int_equal(load("cut.txt", cut, &s, err), 0);
    const struct an_curve *ptr = curve(&s, "ramlat 1xPTR");
    assert_int_equal(ptr->n, 1); /* "5.38" is a cut "5.387": not taken */
    assert_int_equal(curve(&s, "ramlat 2x64")->n, 2);
    assert_true(curve(&s, "ramlat 2x64")->ns[1] == 7.113);
    source_free(&s);
    /* Every prefix of the two-cluster paste is read or refused, never a point out of range. */
    for (size_t n = 0; n <= strlen(big_little); n++) {
        memset(&s, 0, sizeof(s));
        snprintf(s.path, sizeof(s.path), "cut.txt");
        if (source_load_text(&s, big_little, n, err, sizeof(err)) == 0)
            for (size_t c = 0; c < s.ncurves; c++)
                for (size_t i = 0; i < s.curve[c].n; i++)
                    assert_true(s.curve[c].size[i] >= 4096 && s.curve[c].ns[i] > 0);
        else
            assert_true(err[0] != 0);
        source_free(&s);
    }
}

/* ramlat without -n prints loads per ms (integers): refused with the reason; ramlat's sizes are
 * KiB only, so an "M" row is no row; the old ramlat5 columns (4B, 8B) are not ramlat's. */
static void test_refusals(void **state)
{
    (void)state;
    struct source s;
    char err[ERR_BYTES];
    static const char rates[] = "   size:    1x32    2x32    1x64    2x64   1xPTR\n"
                                "     4k:  598444  598800  503778  503778  747943 \n";
    assert_int_equal(load("rates.txt", rates, &s, err), -1);
    assert_non_null(strstr(err, "rates.txt: ramlat output without a row in ns"));
    assert_non_null(strstr(err, "ramlat -n"));
    source_free(&s);
    static const char mib[] = HEADER "     1M: 2.840 2.833 2.123 2.123 2.123 2.123 2.919 5.927 \n";
    assert_int_equal(load("mib.txt", mib, &s, err), -1);
    source_free(&s);
    static const char old[] = "   size:     4B     8B    16B    32B    64B\n"
                              "     4k:   3272   3279   3278   1637    820 \n";
    assert_int_equal(load("ramlat5.txt", old, &s, err), -1);
    assert_non_null(strstr(err, "unrecognised input"));
    assert_non_null(strstr(err, "ramlat (no \"size:\" header of ramlat's columns"));
    assert_non_null(strstr(err, "sbc-bench (the first line is not \"sbc-bench v"));
    source_free(&s);
}

/* A whole sbc-bench log: the machine from its first line, the tinymembench tables of each cpu
 * (after "Executing benchmark on cpuN") and the ramlat tables, each labelled with its cpu. */
static void test_sbcbench_log(void **state)
{
    (void)state;
    static const char log[] =
        "sbc-bench v0.9.24 Radxa ROCK Pi 4B (Sat, 10 Dec 2022 14:27:09 +0100)\n\n"
        "Executing benchmark on cpu0 (Cortex-A53):\n\n"
        "block size : single random read / dual random read, [MADV_NOHUGEPAGE]\n"
        "      1024 :    0.0 ns          /     0.0 ns \n  65536 :    9.7 ns          /    15.3 ns "
        "\n"
        "\nExecuting benchmark on cpu4 (Cortex-A72):\n\n"
        "block size : single random read / dual random read, [MADV_HUGEPAGE]\n"
        "      1024 :    0.0 ns          /     0.0 ns \n  65536 :    5.0 ns          /     7.0 ns "
        "\n"
        "\nExecuting benchmark twice on cluster 0 (Cortex-A53)\n\n"
        "    Executing ramlat on cpu4 (Cortex-A72), results in ns:\n\n" HEADER ROWS_A53;
    struct source s;
    char err[ERR_BYTES];
    assert_int_equal(load("4ozG.txt", log, &s, err), 0);
    assert_int_equal(s.format, FMT_SBCBENCH);
    assert_string_equal(s.machine, "Radxa ROCK Pi 4B (sbc-bench v0.9.24)");
    assert_int_equal(s.ncurves, 12);
    const struct an_curve *t0 = curve(&s, "cpu0 (Cortex-A53) single random read, no huge pages");
    const struct an_curve *t4 = curve(&s, "cpu4 (Cortex-A72) single random read, huge pages");
    assert_true(t0->relative && t0->page_bytes == 4096 && t0->n == 2 && t0->ns[1] == 9.7);
    assert_true(t4->page_bytes == 2 << 20 && t4->ns[1] == 5.0);
    assert_int_equal(curve(&s, "cpu4 (Cortex-A72) dual random read, huge pages")->role,
                     AN_ROLE_EXTRA);
    const struct an_curve *r = curve(&s, "cpu4 (Cortex-A72) ramlat 1xPTR");
    assert_true(r->role == AN_ROLE_LEVELS && r->n == 4 && !r->relative);
    source_free(&s);
    /* Part of a log pasted without its first line, holding both kinds of table: still a log. */
    assert_int_equal(load("part.txt", strstr(log, "Executing benchmark on cpu4"), &s, err), 0);
    assert_int_equal(s.format, FMT_SBCBENCH);
    source_free(&s);
}

/* More tables than curves: every table keeps its levels curve; plotted-only ones are left out. */
static void test_many_tables(void **state)
{
    (void)state;
    static char text[8192];
    size_t k = 0;
    for (int cpu = 0; cpu < 6; cpu++)
        k += (size_t)snprintf(
            text + k, sizeof(text) - k,
            "Executing ramlat on cpu%d (Cortex-X925), results in ns:\n\n" HEADER ROWS_A53 "\n",
            cpu);
    struct source s;
    char err[ERR_BYTES];
    assert_int_equal(load("gb10.txt", text, &s, err), 0);
    assert_int_equal(s.ncurves, SOURCE_MAX_CURVES);
    size_t levels = 0;
    for (size_t i = 0; i < s.ncurves; i++)
        levels += s.curve[i].role == AN_ROLE_LEVELS;
    assert_int_equal(levels, 6);
    assert_non_null(curve(&s, "cpu5 (Cortex-X925) ramlat 1xPTR"));
    bool warned = false;
    for (size_t i = 0; i < s.nwarnings; i++)
        warned |= strstr(s.warning[i], "16 plotted-only curves left out") != NULL;
    assert_true(warned);
    source_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_table),  cmocka_unit_test(test_executing_lines),
        cmocka_unit_test(test_cut_table),    cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_sbcbench_log), cmocka_unit_test(test_many_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
