// SPDX-License-Identifier: MIT
// Unit tests of SHA-256 on the FIPS 180-4 / NIST example vectors, whole and fed in pieces.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "lib/sha256.h"

/* NIST's "SHA256.pdf" examples: one block, two blocks, and the empty message. */
static void test_nist_examples(void **state)
{
    (void)state;
    char hex[SHA256_HEX_CHARS + 1];
    sha256_hex("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256_hex(two, strlen(two), hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    sha256_hex("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

/* FIPS 180-2 appendix B.3: one million 'a', fed in uneven pieces (the padding crosses blocks). */
static void test_million_a(void **state)
{
    (void)state;
    static char a[1000];
    memset(a, 'a', sizeof(a));
    struct sha256 s;
    uint8_t d[SHA256_DIGEST_BYTES];
    sha256_init(&s);
    size_t done = 0, piece = 1;
    while (done < 1000000) {
        size_t n = 1000000 - done < piece ? 1000000 - done : piece;
        sha256_update(&s, a, n);
        done += n;
        piece = piece % 977 + 13; /* 13 to 989 bytes: never past a[] */
    }
    sha256_final(&s, d);
    static const uint8_t want[SHA256_DIGEST_BYTES] = {
        0xcd, 0xc7, 0x6e, 0x5c, 0x99, 0x14, 0xfb, 0x92, 0x81, 0xa1, 0xc7,
        0xe2, 0x84, 0xd7, 0x3e, 0x67, 0xf1, 0x80, 0x9a, 0x48, 0xa4, 0x97,
        0x20, 0x0e, 0x04, 0x6d, 0x39, 0xcc, 0xc7, 0x11, 0x2c, 0xd0};
    assert_memory_equal(d, want, sizeof(want));
}

/* Lengths around the padding's edges (55, 56, 63, 64 bytes) agree fed whole and byte by byte. */
static void test_pieces_agree(void **state)
{
    (void)state;
    uint8_t msg[130];
    for (unsigned i = 0; i < sizeof(msg); i++)
        msg[i] = (uint8_t)(i * 7 + 1);
    for (size_t len = 0; len <= sizeof(msg); len++) {
        uint8_t whole[SHA256_DIGEST_BYTES], bytes[SHA256_DIGEST_BYTES];
        struct sha256 s;
        sha256_init(&s);
        sha256_update(&s, msg, len);
        sha256_final(&s, whole);
        sha256_init(&s);
        for (size_t i = 0; i < len; i++)
            sha256_update(&s, msg + i, 1);
        sha256_final(&s, bytes);
        assert_memory_equal(whole, bytes, sizeof(whole));
    }
    /* 56 bytes of 'a' needs a second block for the length: a known value */
    char hex[SHA256_HEX_CHARS + 1];
    sha256_hex("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 56, hex);
    assert_string_equal(hex, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nist_examples),
        cmocka_unit_test(test_million_a),
        cmocka_unit_test(test_pieces_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
