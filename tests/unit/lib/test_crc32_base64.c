// SPDX-License-Identifier: MIT
// Unit tests of CRC-32 (the check value of "123456789", zlib's values) and base64 (RFC 4648's
// test vectors), the two encodings of the results = serial stream.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "lib/base64.h"
#include "lib/crc32.h"

static void test_crc32(void **state)
{
    (void)state;
    assert_int_equal(crc32_ieee("123456789", 9), 0xcbf43926u); /* the CRC catalogue's check */
    assert_int_equal(crc32_ieee("", 0), 0);
    /* zlib.crc32(b"The quick brown fox jumps over the lazy dog") */
    const char *fox = "The quick brown fox jumps over the lazy dog";
    assert_int_equal(crc32_ieee(fox, strlen(fox)), 0x414fa339u);
}

/* RFC 4648 section 10. */
static void test_base64_rfc(void **state)
{
    (void)state;
    static const char *in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *out[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    for (unsigned i = 0; i < 7; i++) {
        char b[16];
        assert_int_equal(base64_encode(in[i], strlen(in[i]), b, sizeof(b)), strlen(out[i]));
        assert_string_equal(b, out[i]);
        assert_int_equal(base64_len(strlen(in[i])), strlen(out[i]));
    }
}

/* Every byte value, and a buffer one short of the need refused with "". */
static void test_base64_bytes(void **state)
{
    (void)state;
    uint8_t all[3] = {0xff, 0x00, 0xfe};
    char b[8];
    assert_int_equal(base64_encode(all, 3, b, sizeof(b)), 4);
    assert_string_equal(b, "/wD+");
    assert_int_equal(base64_encode(all, 3, b, 4), 0);
    assert_string_equal(b, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32),
        cmocka_unit_test(test_base64_rfc),
        cmocka_unit_test(test_base64_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
