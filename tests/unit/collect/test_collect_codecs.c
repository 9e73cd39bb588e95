// SPDX-License-Identifier: MIT
// Unit tests of chase-collect's base64 decoding (the serial framing's data lines), the name
// allow-list and the request-path parser.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "names.h"
#include "serial.h"

static void test_base64(void **state)
{
    (void)state;
    uint8_t out[16];
    size_t n = 99;
    assert_true(serial_base64("", 0, out, sizeof(out), &n));
    assert_int_equal(n, 0);
    assert_true(serial_base64("Zm9vYmFy", 8, out, sizeof(out), &n));
    assert_int_equal(n, 6);
    assert_memory_equal(out, "foobar", 6);
    assert_true(serial_base64("Zm9vYg==", 8, out, sizeof(out), &n));
    assert_int_equal(n, 4);
    assert_memory_equal(out, "foob", 4);
    assert_true(serial_base64("Zm9vYmE=", 8, out, sizeof(out), &n));
    assert_int_equal(n, 5);
    assert_false(serial_base64("Zm9vYmE", 7, out, sizeof(out), &n));  /* not whole quads */
    assert_false(serial_base64("Zm9v!mFy", 8, out, sizeof(out), &n)); /* not the alphabet */
    assert_false(serial_base64("Zm9vYmFy", 8, out, 5, &n));           /* more than the room */
}

static void test_names(void **state)
{
    (void)state;
    const char *good[] = {"run.json",
                          "EXP.samples.csv",
                          "4c4c4544-0042-3510-8052-b4c04f4b4d32",
                          "20261128214220-deadbeef-00001234",
                          "aa-bb-cc-dd-ee-ff",
                          "A_b.c-9"};
    const char *bad[] = {"",     ".",   "..",   "a..b",        ".hidden", "a/b",
                         "a\\b", "a b", "a%00", "caf\xc3\xa9", "a+b",     "a:b"};
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
        assert_true(collect_name_ok(good[i], strlen(good[i])));
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        assert_false(collect_name_ok(bad[i], strlen(bad[i])));
    char longest[COLLECT_NAME_MAX + 2];
    memset(longest, 'a', sizeof(longest));
    assert_true(collect_name_ok(longest, COLLECT_NAME_MAX));
    assert_false(collect_name_ok(longest, COLLECT_NAME_MAX + 1));
    assert_false(collect_name_ok("a\0b", 3));
}

static void test_paths(void **state)
{
    (void)state;
    struct collect_target t;
    const char *p = "/SER1/20261128-00000001-00000002/run.json";
    assert_true(collect_path_parse(p, strlen(p), "", &t));
    assert_string_equal(t.machine, "SER1");
    assert_string_equal(t.run_id, "20261128-00000001-00000002");
    assert_string_equal(t.file, "run.json");
    p = "/up/load/M/R/f.csv";
    assert_true(collect_path_parse(p, strlen(p), "/up/load", &t));
    assert_string_equal(t.machine, "M");
    assert_false(collect_path_parse(p, strlen(p), "", &t)); /* five parts without the prefix */
    const char *bad[] = {"/M/R",    "/M/R/f/", "/M/R/f/g", "M/R/f",    "//R/f",
                         "/M/../f", "/M/R/..", "/M/R/.f",  "/up/M/R/f"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        assert_false(collect_path_parse(bad[i], strlen(bad[i]), "", &t));
    assert_false(collect_path_parse("/M/R/a\0b", 8, "", &t)); /* a NUL inside */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_base64),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
