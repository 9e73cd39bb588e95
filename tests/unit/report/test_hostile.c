// SPDX-License-Identifier: MIT
// chase-report on hostile numbers (issue 38): every numeric field of a run folder, one at a time,
// set to absurd values, read, analysed and printed as JSON under ASan and UBSan: the field is
// refused with a warning naming the file and the field, or read as the value it is, and nothing
// undefined happens on the way.
#include <math.h>
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
#include "fit/analysis.h"
#include "inputs/load.h"
#include "inputs/rbounds.h"
#include "inputs/source.h"
#include "outputs/output.h"

/* A run folder whose every number is a field "@N@" can replace. */
static const char *const run_json[] = {
    "{\"status\": \"complete\", \"cpu\": {\"brand\": \"T\", \"family\": ",
    "6",
    ", \"model\": ",
    "85",
    ", \"stepping\": ",
    "7",
    "}, \"caches\": [{\"level\": ",
    "1",
    ", \"type\": \"data\", \"size_bytes\": ",
    "32768",
    ", \"ways\": ",
    "8",
    ", \"line_bytes\": ",
    "64",
    ", \"sets\": ",
    "64",
    ", \"shared_by\": ",
    "1",
    "}, {\"level\": 2, \"size_bytes\": ",
    "1048576",
    "}], \"core_clock\": {\"core_hz\": ",
    "3e9",
    "}, \"tsc\": {\"hz\": ",
    "2.5e9",
    ", \"spread\": ",
    "0.001",
    "}, \"buffer\": {\"page_size_bytes\": ",
    "2097152",
    "}, \"memory_total_bytes\": ",
    "8589934592",
    "}",
};
#define JSON_PARTS (sizeof(run_json) / sizeof(run_json[0]))

static const char csv_head[] = "size_bytes,stride_bytes,reps,ns_min,ns_median,ns_p90,"
                               "core_cycles_median\n";
#define CSV_COLS 7
#define CSV_ROWS 12

/* The values every field gets in turn, as text each reader sees: far too large, negative, zero,
 * NaN where a number should be (a JSON string, a CSV word: no reader takes it as a number) and a
 * number too large for a double (1e999 is no JSON: run.json is then refused whole, with its
 * line). Each case is a whole analysis under the sanitizers (about half a second), so the list
 * holds the kinds, not every variation (test_kmath has -0, subnormals and DBL_MAX). */
static const char *const hostile[] = {"1e300", "-1", "0", "\"NaN\"", "1e999"};
#define HOSTILE (sizeof(hostile) / sizeof(hostile[0]))

/* run.json with its numeric part k (odd indices) replaced by v (k < 0: none). */
static void write_json(int k, const char *v)
{
    char text[2048] = "";
    for (size_t i = 0; i < JSON_PARTS; i++)
        strcat(text, (int)i == k ? v : run_json[i]);
    ft_put_text("run.json", text);
}

/* random.csv, a three-level curve, with cell (row, col) replaced by v (row < 0: none). */
static void write_csv(int row, int col, const char *v)
{
    static char text[4096];
    strcpy(text, csv_head);
    for (int r = 0; r < CSV_ROWS; r++) {
        double size = 4096.0 * (1 << r), ns = size <= 32768 ? 1.2 : size <= 1048576 ? 4 : 80;
        char cell[CSV_COLS][40];
        snprintf(cell[0], 40, "%.0f", size);
        snprintf(cell[1], 40, "64");
        snprintf(cell[2], 40, "5");
        snprintf(cell[3], 40, "%.3f", ns * 0.98);
        snprintf(cell[4], 40, "%.3f", ns);
        snprintf(cell[5], 40, "%.3f", ns * 1.03);
        snprintf(cell[6], 40, "%.3f", ns * 3);
        for (int c = 0; c < CSV_COLS; c++) {
            strcat(text, r == row && c == col ? v : cell[c]);
            strcat(text, c + 1 < CSV_COLS ? "," : "\n");
        }
    }
    ft_put_text("random.csv", text);
}

/* Whether a warning of s names both file and field. */
static bool warned(const struct source *s, const char *file, const char *field)
{
    for (size_t i = 0; i < s->nwarnings; i++)
        if (strstr(s->warning[i], file) && strstr(s->warning[i], field))
            return true;
    return false;
}

/* Read the folder, analyse it and print the JSON, as chase-report --json does. */
static void read_and_analyse(struct source *s)
{
    static struct source_result res;
    char err[600];
    memset(s, 0, sizeof(*s));
    assert_int_equal(source_load(ft_root, s, err, sizeof(err)), 0);
    analyse_all(&res, s, 1, &(struct analysis_opts){0});
    FILE *f = fopen("/dev/null", "w");
    assert_non_null(f);
    report_json_print(f, &res, 1);
    fclose(f);
    analyse_free(&res, 1);
}

/* The name of run.json's numeric part k: the member name just before it. */
static void member_before(int k, char *name, size_t cap)
{
    const char *p = run_json[k - 1], *end = strrchr(p, '"'), *start = end;
    while (start > p && start[-1] != '"')
        start--;
    snprintf(name, cap, "%.*s", (int)(end - start), start);
}

static void test_every_json_field(void **state)
{
    (void)state;
    write_csv(-1, 0, "");
    for (int k = 1; k < (int)JSON_PARTS; k += 2)
        for (size_t h = 0; h < HOSTILE; h++) {
            struct source s;
            char field[40];
            write_json(k, hostile[h]);
            read_and_analyse(&s);
            member_before(k, field, sizeof(field));
            double v = strtod(hostile[h], NULL);
            /* Not a double (1e999): refused whole, with the file named. A string where a
             * number should be reads as absent. Else an out-of-range value is named with its
             * field; an in-range one reads without a word on it. */
            if (hostile[h][0] == '"')
                assert_false(warned(&s, "run.json", field));
            else if (!isfinite(v))
                assert_true(warned(&s, "run.json", "not a JSON object"));
            else if (!rbound_holds(rbound_for(field), v))
                assert_true(warned(&s, "run.json", field));
            else
                assert_false(warned(&s, "run.json", field));
            source_free(&s);
        }
}

static void test_every_csv_cell(void **state)
{
    (void)state;
    static const char *const cols[CSV_COLS] = {
        "size_bytes", "stride_bytes",      "reps", "ns_min", "ns_median",
        "ns_p90",     "core_cycles_median"};
    write_json(-1, "");
    const int row = 8; /* 1M: the last point before the step to DRAM */
    for (int col = 0; col < CSV_COLS; col++)
        for (size_t h = 0; h < HOSTILE; h++) {
            struct source s;
            write_csv(row, col, hostile[h]);
            read_and_analyse(&s);
            double v;
            bool number = csv_parse_number(hostile[h], strlen(hostile[h]), &v);
            if (number && !rbound_holds(rbound_for(cols[col]), v))
                assert_true(warned(&s, "random.csv", cols[col]));
            else
                assert_false(warned(&s, "random.csv", cols[col]));
            source_free(&s);
        }
}

/* The finding of issue 38 (tests/fuzz/regressions/fuzz_report_run/): an 8.9e30 ns latency in
 * a random.csv once reached kfloor's undefined conversion; now it is left out, and said. */
static void test_finding(void **state)
{
    (void)state;
    struct source s;
    write_json(-1, "");
    write_csv(8, 4, "8888888888888888888888888888884.3");
    read_and_analyse(&s);
    assert_true(warned(&s, "random.csv", "ns_median"));
    assert_int_equal(s.ncurves, 1);
    assert_int_equal(s.curve[0].n, CSV_ROWS - 1);
    source_free(&s);
}

/* Foreign text: a tinymembench line with an absurd size or latency loses that point, said. */
static void test_foreign_points(void **state)
{
    (void)state;
    static const char tiny[] = "block size : single random read / dual random read\n"
                               "      1024 :    0.0 ns          /     0.0 ns \n"
                               "     65536 :    4.3 ns          /     6.6 ns \n"
                               " 1e30 :    5.3 ns          /     7.6 ns \n"
                               "   1048576 :   1e300 ns          /    12.0 ns \n"
                               "  67108864 :   95.9 ns          /   120.2 ns \n";
    struct source s;
    char err[600];
    memset(&s, 0, sizeof(s));
    snprintf(s.path, sizeof(s.path), "tiny.txt");
    assert_int_equal(source_load_text(&s, tiny, strlen(tiny), err, sizeof(err)), 0);
    bool said = false;
    for (size_t i = 0; i < s.nwarnings; i++)
        said |= strstr(s.warning[i], "tiny.txt") && strstr(s.warning[i], "out of range");
    assert_true(said);
    for (size_t c = 0; c < s.ncurves; c++)
        for (size_t i = 0; i < s.curve[c].n; i++)
            assert_true(s.curve[c].size[i] <= 0x1p52 && s.curve[c].ns[i] <= 1e9);
    source_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_json_field),
        cmocka_unit_test(test_every_csv_cell),
        cmocka_unit_test(test_finding),
        cmocka_unit_test(test_foreign_points),
    };
    return cmocka_run_group_tests(tests, ft_group_setup, ft_group_teardown);
}
