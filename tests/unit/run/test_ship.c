// SPDX-License-Identifier: MIT
// Unit tests of the run's fleet identity and shipping: <machine> from serial, UUID or MAC,
// the run id, manifest.json, and a results = serial stream decoded back byte for byte.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/crc32.h"
#include "lib/sha256.h"
#include "run/ship.h"
#include "stubs/stub_platform.h"

static const uint8_t mac[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
static const char *uuid = "12345678-1234-5678-9abc-def012345678";

static void test_machine_name(void **state)
{
    (void)state;
    char n[SHIP_NAME_MAX];
    const char *from;
    ship_machine_name(n, sizeof(n), "SN A/1", uuid, mac, &from);
    assert_string_equal(n, "SN_A_1"); /* outside [A-Za-z0-9._-]: '_' */
    assert_string_equal(from, "serial");
    static const char *placeholders[] = {"To Be Filled By O.E.M.",
                                         "default string",
                                         "System Serial Number",
                                         "Not Specified",
                                         "0000000",
                                         "   ",
                                         ""};
    for (unsigned i = 0; i < 7; i++) {
        assert_true(ship_serial_placeholder(placeholders[i]));
        ship_machine_name(n, sizeof(n), placeholders[i], uuid, mac, &from);
        assert_string_equal(n, uuid);
        assert_string_equal(from, "uuid");
    }
    ship_machine_name(n, sizeof(n), NULL, "", mac, &from);
    assert_string_equal(n, "52-54-00-12-34-56");
    assert_string_equal(from, "mac");
    ship_machine_name(n, sizeof(n), NULL, NULL, NULL, &from);
    assert_string_equal(n, "unknown");
    ship_machine_name(n, sizeof(n), "..", NULL, NULL, &from);
    assert_true(ship_name_ok(n));
    assert_false(ship_name_ok(".."));
    assert_false(ship_name_ok("a/b"));
    assert_true(ship_name_ok("random.samples.csv"));
}

static void test_run_id(void **state)
{
    (void)state;
    char id[SHIP_RUN_ID_MAX], want[SHIP_RUN_ID_MAX];
    ship_run_id(id, sizeof(id), "2026-11-28T21:50:00", uuid, mac, 0x99deadbeefull);
    snprintf(want, sizeof(want), "20261128215000-%08x-deadbeef",
             (unsigned)crc32_ieee(uuid, strlen(uuid)));
    assert_string_equal(id, want);
    ship_run_id(id, sizeof(id), "", NULL, mac, 1);
    snprintf(want, sizeof(want), "00000000000000-%08x-00000001", (unsigned)crc32_ieee(mac, 6));
    assert_string_equal(id, want);
    /* two machines booted in the same second with the same TSC still differ */
    char other[SHIP_RUN_ID_MAX];
    ship_run_id(id, sizeof(id), "2026-11-28T21:50:00", uuid, NULL, 5);
    ship_run_id(other, sizeof(other), "2026-11-28T21:50:00", "12345678-1234-5678-9abc-def012345679",
                NULL, 5);
    assert_string_not_equal(id, other);
    assert_int_equal(ship_backoff_s(1), 1);
    assert_int_equal(ship_backoff_s(3), 4);
    assert_int_equal(ship_backoff_s(10), SHIP_BACKOFF_MAX_S);
}

static struct run_fleet fleet = {.machine = "SN-A1", .run_id = "20261128215000-0a1b2c3d-00000001"};

static void test_manifest(void **state)
{
    (void)state;
    struct ship_file f[2] = {{"run.json", "{}\n", 3}, {"manifest.json", "old", 3}};
    struct strbuf m = {0};
    ship_manifest(&m, &fleet, f, 2);
    char hex[SHA256_HEX_CHARS + 1], want[512];
    sha256_hex("{}\n", 3, hex);
    snprintf(want, sizeof(want),
             "{\"format\":\"chase-manifest\",\"version\":1,\"machine\":\"SN-A1\",\"run_id\":"
             "\"20261128215000-0a1b2c3d-00000001\",\"files\":[{\"name\":\"run.json\",\"size\":3,"
             "\"sha256\":\"%s\"}]}\n",
             hex);
    char compact[512];
    size_t n = 0;
    for (const char *p = strbuf_str(&m); *p && n + 1 < sizeof(compact); p++)
        if (*p != ' ' && (*p != '\n' || !p[1]))
            compact[n++] = *p;
    compact[n] = 0;
    assert_string_equal(compact, want);
    strbuf_release(&m);
}

static int b64_value(char c)
{
    const char *a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *p = strchr(a, c);
    return c && p ? (int)(p - a) : -1;
}

/* Decode base64 text of len characters into out; returns the bytes. */
static size_t b64_decode(const char *s, size_t len, uint8_t *out)
{
    size_t n = 0;
    for (size_t i = 0; i + 4 <= len; i += 4) {
        int v[4];
        for (int k = 0; k < 4; k++)
            v[k] = s[i + k] == '=' ? 0 : b64_value(s[i + k]);
        assert_true(v[0] >= 0 && v[1] >= 0 && v[2] >= 0 && v[3] >= 0);
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | v[3];
        out[n++] = (uint8_t)(w >> 16);
        if (s[i + 2] != '=')
            out[n++] = (uint8_t)(w >> 8);
        if (s[i + 3] != '=')
            out[n++] = (uint8_t)w;
    }
    return n;
}

/* Rebuild the file called name from the stream in stub_serial: its bytes into out. */
static size_t rebuild(const char *name, uint8_t *out, unsigned *chunks)
{
    size_t n = 0;
    char key[96];
    snprintf(key, sizeof(key), "kind=data name=%s seq=", name);
    *chunks = 0;
    for (const char *p = strstr(stub_serial, key); p; p = strstr(p + 1, key)) {
        unsigned seq, crc;
        assert_int_equal(sscanf(p + strlen(key), "%u crc32=%8x", &seq, &crc), 2);
        assert_int_equal(seq, *chunks);
        const char *b = strstr(p, "b64=") + 4, *end = strstr(b, "\r\n");
        size_t got = b64_decode(b, (size_t)(end - b), out + n);
        assert_true(got <= SHIP_CHUNK_BYTES);
        assert_int_equal(crc32_ieee(out + n, got), crc);
        n += got;
        (*chunks)++;
    }
    return n;
}

static void test_serial_stream(void **state)
{
    (void)state;
    static uint8_t big[1000], back[1200];
    for (unsigned i = 0; i < sizeof(big); i++)
        big[i] = (uint8_t)(i * 31 + 7);
    struct ship_file f[2] = {{"run.json", "{\"a\":1}\n", 8}, {"random.csv", big, sizeof(big)}};
    struct ship_file man = {"manifest.json", "{}\n", 3};
    stub_serial_len = 0;
    stub_serial[0] = 0;
    stub_serial_present = true;
    assert_true(ship_serial(&fleet, f, 2, &man));
    const char *p = "CHASE-FILE v=1 run=20261128215000-0a1b2c3d-00000001 ";
    assert_non_null(strstr(stub_serial, "kind=run machine=SN-A1 files=3\r\n"));
    assert_ptr_equal(strstr(stub_serial, p), stub_serial); /* every line starts so */
    unsigned chunks;
    assert_int_equal(rebuild("random.csv", back, &chunks), sizeof(big));
    assert_memory_equal(back, big, sizeof(big));
    assert_int_equal(chunks, (sizeof(big) + SHIP_CHUNK_BYTES - 1) / SHIP_CHUNK_BYTES);
    char hex[SHA256_HEX_CHARS + 1], want[160];
    sha256_hex(big, sizeof(big), hex);
    snprintf(want, sizeof(want), "kind=begin name=random.csv size=1000 sha256=%s\r\n", hex);
    assert_non_null(strstr(stub_serial, want));
    assert_non_null(strstr(stub_serial, "kind=end name=random.csv chunks=6\r\n"));
    assert_int_equal(rebuild("run.json", back, &chunks), 8);
    assert_memory_equal(back, "{\"a\":1}\n", 8);
    /* the manifest comes last, then done */
    assert_true(strstr(stub_serial, "name=manifest.json") > strstr(stub_serial, "name=random.csv"));
    const char *done = strstr(stub_serial, "kind=done files=3\r\n");
    assert_non_null(done);
    assert_int_equal(done + strlen("kind=done files=3\r\n") - stub_serial, stub_serial_len);
    stub_serial_present = false;
    assert_false(ship_serial(&fleet, f, 2, &man)); /* no port: said */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_machine_name),
        cmocka_unit_test(test_run_id),
        cmocka_unit_test(test_manifest),
        cmocka_unit_test(test_serial_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
