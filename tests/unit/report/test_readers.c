// SPDX-License-Identifier: MIT
// chase-report's JSON, CSV and text readers: right on good input, safe on anything else.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/csv.h"
#include "inputs/rjson.h"
#include "inputs/rtext.h"

#define FUZZ_ROUNDS 3000

static const char run_json[] =
    "{\"tool\": \"chase\", \"version\": \"0.1.0\", \"simulated\": false,\n"
    " \"cpu\": {\"brand\": \"Test \\u00e9 CPU\\t\", \"family\": 6, \"model\": 167},\n"
    " \"caches\": [{\"level\": 1, \"type\": \"data\", \"size_bytes\": 49152},\n"
    "            {\"level\": 2, \"size_bytes\": 2.097152e6}],\n"
    " \"tsc\": {\"hz\": 2600000119, \"invariant\": true, \"spread\": -0.5E-3},\n"
    " \"end_time\": null, \"emoji\": \"\\ud83d\\ude00\", \"empty\": {}, \"list\": []}";

static const char random_csv[] = "size_bytes,stride_bytes,ns_median,core_cycles_median\n"
                                 "4096,64,1.374,4.936\r\n"
                                 "\n"
                                 "# a comment\n"
                                 "8192,64,1.375,\n"
                                 "bad,row\n"
                                 "16384, 64 ,\"1.38\",nan\n";

static void test_json_good(void **state)
{
    (void)state;
    char err[128];
    struct rjson *r = rjson_parse(run_json, strlen(run_json), err, sizeof(err));
    assert_non_null(r);
    double v;
    assert_true(rjson_number(rjson_path(r, "tsc.hz"), &v));
    assert_true(v == 2600000119.0);
    assert_true(rjson_number(rjson_path(r, "tsc.spread"), &v) && v == -0.5e-3);
    assert_true(rjson_true(rjson_path(r, "tsc.invariant")));
    assert_false(rjson_true(rjson_get(r, "simulated")));
    assert_string_equal(rjson_string(rjson_path(r, "cpu.brand")), "Test \xc3\xa9 CPU\t");
    assert_string_equal(rjson_string(rjson_get(r, "emoji")), "\xf0\x9f\x98\x80");
    assert_int_equal(rjson_count(rjson_get(r, "caches")), 2);
    assert_int_equal(rjson_count(rjson_get(r, "empty")), 0);
    assert_int_equal(rjson_get(r, "end_time")->type, RJSON_NULL);
    assert_null(rjson_path(r, "cpu.brand.deeper"));
    assert_null(rjson_path(r, "nothing"));
    assert_null(rjson_string(rjson_get(r, "tsc")));
    rjson_free(r);
}

static void expect_json_error(const char *text, const char *words)
{
    char err[128];
    struct rjson *r = rjson_parse(text, strlen(text), err, sizeof(err));
    if (r) {
        print_error("accepted: %s\n", text);
        rjson_free(r);
        fail();
    }
    if (!strstr(err, words)) {
        print_error("for %s: error \"%s\" lacks \"%s\"\n", text, err, words);
        fail();
    }
}

static void test_json_bad(void **state)
{
    (void)state;
    expect_json_error("", "end");
    expect_json_error("{", "member name");
    expect_json_error("{\"a\" 1}", "':'");
    expect_json_error("{\"a\": 1,}", "member name");
    expect_json_error("[1 2]", "','");
    expect_json_error("\"abc", "unterminated");
    expect_json_error("\"a\\qb\"", "escape");
    expect_json_error("\"a\\u12G4\"", "escape");
    expect_json_error("\"tab\there\"", "control");
    expect_json_error("1e999", "number");
    expect_json_error("-", "number");
    expect_json_error("01.2.3", "number");
    expect_json_error("nul", "unexpected");
    expect_json_error("{} []", "after");
    expect_json_error("{\"a\":\n\n@}", "line 3");
    /* Deep nesting is refused, not recursed into. */
    static char deep[20001];
    memset(deep, '[', 20000);
    expect_json_error(deep, "deeply");
}

static void test_csv_by_name(void **state)
{
    (void)state;
    struct csv t;
    char err[128];
    assert_int_equal(csv_parse(random_csv, strlen(random_csv), &t, err, sizeof(err)), 0);
    assert_int_equal(t.ncols, 4);
    assert_int_equal(t.nrows, 3);
    assert_int_equal(t.bad_rows, 1);
    int s = csv_col(&t, "size_bytes"), n = csv_col(&t, "ns_median"),
        c = csv_col(&t, "core_cycles_median");
    assert_int_equal(csv_col(&t, "missing"), -1);
    assert_true(csv_num(&t, 0, s) == 4096);
    assert_true(csv_num(&t, 2, n) == 1.38);
    assert_true(isnan(csv_num(&t, 1, c)));
    assert_true(isnan(csv_num(&t, 2, c)));
    assert_true(isnan(csv_num(&t, 0, -1)));
    assert_true(isnan(csv_num(&t, 99, s)));
    assert_string_equal(csv_text(&t, 2, csv_col(&t, "stride_bytes")), "64");
    assert_string_equal(csv_text(&t, 0, -1), "");
    csv_free(&t);
}

static void test_csv_bad(void **state)
{
    (void)state;
    struct csv t;
    char err[128];
    assert_int_equal(csv_parse("", 0, &t, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "no header"));
    assert_int_equal(csv_parse("a,,b\n1,2,3\n", 11, &t, err, sizeof(err)), -1);
    assert_int_equal(csv_parse("a,b,a\n", 6, &t, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "twice"));
    assert_int_equal(csv_parse("size_bytes\n", 11, &t, err, sizeof(err)), 0);
    assert_int_equal(t.nrows, 0);
    csv_free(&t);
}

static void test_text_numbers(void **state)
{
    (void)state;
    double d;
    uint64_t u;
    assert_true(rtext_parse_double(" 1.5e3 ", 7, &d) && d == 1500);
    assert_false(rtext_parse_double("nan", 3, &d));
    assert_false(rtext_parse_double("inf", 3, &d));
    assert_false(rtext_parse_double("0x10", 4, &d));
    assert_false(rtext_parse_double("1e999", 5, &d));
    assert_false(rtext_parse_double("12abc", 5, &d));
    assert_false(rtext_parse_double("", 0, &d));
    assert_false(rtext_parse_double("-", 1, &d));
    assert_true(rtext_parse_u64("18446744073709551615", 20, &u) && u == UINT64_MAX);
    assert_false(rtext_parse_u64("18446744073709551616", 20, &u));
    assert_false(rtext_parse_u64("-1", 2, &u));
    char buf[32];
    rtext_sanitize(buf, sizeof(buf), "a'b\"c\\d`e$f\n");
    assert_string_equal(buf, "a_b_c_d_e_f_");
    rtext_tag(buf, sizeof(buf), "../run 0003");
    assert_string_equal(buf, "---run-0003");
}

static void test_lines(void **state)
{
    (void)state;
    const char text[] = "a\r\nb\n\nc\rd";
    struct rline_iter it;
    const char *l;
    size_t n, count = 0;
    char seen[8][4];
    rline_init(&it, text, sizeof(text) - 1);
    while (rline_next(&it, &l, &n) && count < 8)
        rtext_copy(seen[count++], sizeof(seen[0]), l, n);
    assert_int_equal(count, 5);
    assert_string_equal(seen[0], "a");
    assert_string_equal(seen[2], "");
    assert_string_equal(seen[4], "d");
}

static uint64_t fuzz_state = 12345;

static unsigned fuzz_next(void)
{
    fuzz_state = fuzz_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(fuzz_state >> 33);
}

/* Mutate good documents at random (flip, cut, insert) and feed them to the readers: the
 * sanitizers in this build turn any overread or leak into a failure. */
static void test_fuzz_readers(void **state)
{
    (void)state;
    static char buf[4096];
    const char *seeds[2] = {run_json, random_csv};
    for (int round = 0; round < FUZZ_ROUNDS; round++) {
        const char *seed = seeds[round % 2];
        size_t n = strlen(seed);
        memcpy(buf, seed, n);
        for (int k = 0, edits = 1 + fuzz_next() % 8; k < edits && n > 0; k++) {
            size_t at = fuzz_next() % n;
            switch (fuzz_next() % 4) {
            case 0:
                buf[at] = (char)fuzz_next();
                break;
            case 1:
                n = at;
                break;
            case 2:
                buf[at] = "{}[]\",:\\0-e."[fuzz_next() % 13];
                break;
            default:
                if (n + 1 < sizeof(buf)) {
                    memmove(buf + at + 1, buf + at, n - at);
                    buf[at] = (char)(fuzz_next() % 128);
                    n++;
                }
            }
        }
        char err[128];
        rjson_free(rjson_parse(buf, n, err, sizeof(err)));
        struct csv t;
        if (csv_parse(buf, n, &t, err, sizeof(err)) == 0) {
            for (size_t r = 0; r < t.nrows; r++)
                for (size_t c = 0; c < t.ncols; c++)
                    (void)csv_num(&t, r, (int)c);
            csv_free(&t);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_good),    cmocka_unit_test(test_json_bad),
        cmocka_unit_test(test_csv_by_name),  cmocka_unit_test(test_csv_bad),
        cmocka_unit_test(test_text_numbers), cmocka_unit_test(test_lines),
        cmocka_unit_test(test_fuzz_readers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
