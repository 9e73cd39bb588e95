// SPDX-License-Identifier: MIT
// Unit tests of SMBIOS type 1's serial number and UUID (the fleet's machine name): the UUID's
// byte order before and from SMBIOS 2.6, and the all-zeros and all-ones "not present" values.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/smbios.h"

/* A table of one type 1 structure (with this UUID) and the end structure; returns its length. */
static size_t system_table(uint8_t *t, const uint8_t uuid[16])
{
    static const char strings[] = "Maker\0Board X\0v1\0SN 42\0";
    size_t n = 0;
    t[n++] = 1;    /* type: system information */
    t[n++] = 0x1b; /* length: through SKU and family (2.4) */
    t[n++] = 0x10; /* handle */
    t[n++] = 0;
    t[n++] = 1; /* manufacturer, product, version, serial: strings 1 to 4 */
    t[n++] = 2;
    t[n++] = 3;
    t[n++] = 4;
    memcpy(t + n, uuid, 16);
    n += 16;
    t[n++] = 6; /* wake-up type: power switch */
    t[n++] = 0; /* SKU, family: none */
    t[n++] = 0;
    memcpy(t + n, strings, sizeof(strings)); /* its final NUL ends the string set */
    n += sizeof(strings);
    static const uint8_t end[] = {127, 4, 0x11, 0, 0, 0};
    memcpy(t + n, end, sizeof(end));
    return n + sizeof(end);
}

static const uint8_t uuid_bytes[16] = {0x78, 0x56, 0x34, 0x12, 0x34, 0x12, 0x78, 0x56,
                                       0x9a, 0xbc, 0xde, 0xf0, 0x12, 0x34, 0x56, 0x78};

static void parse(const uint8_t uuid[16], uint8_t major, uint8_t minor, struct smbios_info *out)
{
    uint8_t t[128];
    size_t len = system_table(t, uuid);
    struct smbios_entry e = {.major = major, .minor = minor, .table_bytes = (uint32_t)len};
    smbios_table_parse(t, len, &e, out);
}

static void test_uuid_and_serial(void **state)
{
    (void)state;
    static struct smbios_info s;
    parse(uuid_bytes, 2, 8, &s); /* 2.6 and later: the first three fields little-endian */
    assert_string_equal(s.system_uuid, "12345678-1234-5678-9abc-def012345678");
    assert_string_equal(s.system_serial, "SN 42");
    assert_string_equal(s.system_product, "Board X");
    parse(uuid_bytes, 2, 4, &s); /* before 2.6: the bytes in order */
    assert_string_equal(s.system_uuid, "78563412-3412-7856-9abc-def012345678");
}

static void test_uuid_not_present(void **state)
{
    (void)state;
    static struct smbios_info s;
    uint8_t none[16];
    memset(none, 0, sizeof(none));
    parse(none, 3, 2, &s);
    assert_string_equal(s.system_uuid, "");
    memset(none, 0xff, sizeof(none)); /* "not present, but settable" */
    parse(none, 3, 2, &s);
    assert_string_equal(s.system_uuid, "");
    assert_string_equal(s.system_serial, "SN 42");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uuid_and_serial),
        cmocka_unit_test(test_uuid_not_present),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
