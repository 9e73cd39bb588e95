// SPDX-License-Identifier: MIT
// Unit tests of chase-collect's codecs and names: SHA-256 (FIPS 180-4's examples), CRC-32 and
// base64 (the serial framing), the name allow-list and the request-path parser.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "names.h"
#include "serial.h"
#include "sha256.h"

static void expect_digest(const void *data, size_t len, const char *want)
{
    uint8_t d[SHA256_DIGEST_BYTES];
    char hex[2 * SHA256_DIGEST_BYTES + 1];
    sha256(data, len, d);
    sha256_hex(d, hex);
    assert_string_equal(hex, want);
}

static void test_sha256_vectors(void **state)
{
    (void)state;
    expect_digest("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect_digest("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"; /* 56 bytes */
    expect_digest(two, strlen(two),
                  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    static char million[1000000];
    memset(million, 'a', sizeof(million));
    expect_digest(million, sizeof(million),
                  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Fed in pieces of every size from 1 to 130 bytes, the digest is the one-call digest. */
static void test_sha256_pieces(void **state)
{
    (void)state;
    uint8_t data[1000], whole[SHA256_DIGEST_BYTES], pieces[SHA256_DIGEST_BYTES];
    for (size_t i = 0; i < sizeof(data); i++)
        data[i] = (uint8_t)(i * 131 + 7);
    sha256(data, sizeof(data), whole);
    for (size_t step = 1; step <= 130; step++) {
        struct sha256_ctx c;
        sha256_init(&c);
        for (size_t at = 0; at < sizeof(data); at += step)
            sha256_update(&c, data + at, at + step > sizeof(data) ? sizeof(data) - at : step);
        sha256_final(&c, pieces);
        assert_memory_equal(whole, pieces, sizeof(whole));
    }
}

static void test_crc32(void **state)
{
    (void)state;
    assert_int_equal(serial_crc32("", 0), 0);
    assert_int_equal(serial_crc32("123456789", 9), 0xcbf43926u); /* the CRC-32 check value */
    assert_int_equal(serial_crc32("The quick brown fox jumps over the lazy dog", 43), 0x414fa339u);
}

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
        cmocka_unit_test(test_sha256_vectors), cmocka_unit_test(test_sha256_pieces),
        cmocka_unit_test(test_crc32),          cmocka_unit_test(test_base64),
        cmocka_unit_test(test_names),          cmocka_unit_test(test_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
