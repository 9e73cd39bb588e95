// SPDX-License-Identifier: MIT
// Unit tests of IPMI over KCS against a fake BMC that keeps the KCS states of IPMI v2.0 9.15
// (idle, write, read), answering Get Watchdog Timer; and no BMC, a stuck one, an error answer.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/ipmi_kcs.h"

enum { IDLE, READ, WRITE, ERROR };

static struct bmc {
    bool absent, stuck; /* reads all ones; IBF never clears */
    unsigned state;
    bool obf, end_pending;
    uint8_t out_byte;
    uint8_t req[16], resp[16];
    size_t nreq, nresp, at;
    unsigned aborts, pauses;
} bmc;

static void answer(void)
{
    static const uint8_t watchdog[] = {0x1c, 0x25, 0x00, 0x42, 0x01, 0x00,
                                       0x00, 0x70, 0x17, 0xa4, 0x01};
    memcpy(bmc.resp, watchdog, sizeof(watchdog));
    bmc.nresp = sizeof(watchdog);
    if (bmc.nreq != 2 || bmc.req[0] != 0x18 || bmc.req[1] != 0x25) {
        bmc.resp[0] = (uint8_t)(bmc.req[0] + 4); /* the response NetFn */
        bmc.resp[1] = bmc.req[1];
        bmc.resp[2] = 0xc1; /* invalid command */
        bmc.nresp = 3;
    }
    bmc.at = 0;
    bmc.state = READ;
    bmc.out_byte = bmc.resp[0];
    bmc.obf = true;
}

static uint8_t fake_in(void *ctx, enum kcs_reg reg)
{
    (void)ctx;
    if (bmc.absent)
        return 0xff;
    if (reg == KCS_STATUS)
        return (uint8_t)(bmc.state << 6 | (bmc.stuck ? 2 : 0) | (bmc.obf ? 1 : 0));
    bmc.obf = false;
    return bmc.out_byte;
}

static void fake_out(void *ctx, enum kcs_reg reg, uint8_t v)
{
    (void)ctx;
    if (bmc.absent || bmc.stuck)
        return;
    if (reg == KCS_COMMAND) {
        if (v == 0x61) {
            bmc.state = WRITE;
            bmc.nreq = 0;
        } else if (v == 0x62) {
            bmc.end_pending = true;
        } else if (v == 0x60) {
            bmc.aborts++;
            bmc.state = IDLE;
        }
        return;
    }
    if (bmc.state == WRITE) {
        assert_true(bmc.nreq < sizeof(bmc.req));
        bmc.req[bmc.nreq++] = v;
        if (bmc.end_pending) {
            bmc.end_pending = false;
            answer();
        }
    } else if (bmc.state == READ && v == 0x68) {
        if (++bmc.at < bmc.nresp) {
            bmc.out_byte = bmc.resp[bmc.at];
        } else {
            bmc.state = IDLE;
            bmc.out_byte = 0; /* the closing dummy */
        }
        bmc.obf = true;
    } else {
        bmc.state = ERROR;
    }
}

static void fake_pause(void *ctx)
{
    (void)ctx;
    bmc.pauses++;
}

static const struct kcs_io io = {fake_in, fake_out, fake_pause, NULL};

static void test_get_watchdog(void **state)
{
    (void)state;
    memset(&bmc, 0, sizeof(bmc));
    struct ipmi_watchdog w;
    ipmi_get_watchdog(&io, &w);
    assert_true(w.read);
    assert_int_equal(bmc.nreq, 2);
    assert_int_equal(bmc.req[0], 0x18); /* NetFn App (06h) << 2, LUN 0 */
    assert_int_equal(bmc.req[1], 0x25);
    assert_true(w.running);
    assert_int_equal(w.use, 2);
    assert_int_equal(w.action, 1);
    assert_int_equal(w.initial_100ms, 6000);
    assert_int_equal(w.present_100ms, 420);
    assert_int_equal(bmc.state, IDLE);
    assert_int_equal(bmc.aborts, 0);
    char text[96];
    assert_string_equal(ipmi_watchdog_describe(&w, text, sizeof(text)),
                        "RUNNING, BIOS/POST timer, hard reset in 42.0 s (of 600.0 s)");
}

static void test_error_answer(void **state)
{
    (void)state;
    memset(&bmc, 0, sizeof(bmc));
    const uint8_t req[] = {0x18, 0x99};
    uint8_t resp[16];
    char why[96];
    int n = kcs_transact(&io, req, sizeof(req), resp, sizeof(resp), why, sizeof(why));
    assert_int_equal(n, 3);
    struct ipmi_watchdog w;
    assert_false(ipmi_watchdog_decode(resp, (size_t)n, &w));
    assert_non_null(strstr(w.why, "not a Get Watchdog Timer response"));
    const uint8_t cc[] = {0x1c, 0x25, 0xc0};
    assert_false(ipmi_watchdog_decode(cc, sizeof(cc), &w));
    assert_non_null(strstr(w.why, "completion code 0xc0"));
    assert_false(w.read);
}

static void test_no_bmc_and_stuck_bmc(void **state)
{
    (void)state;
    memset(&bmc, 0, sizeof(bmc));
    bmc.absent = true;
    struct ipmi_watchdog w;
    ipmi_get_watchdog(&io, &w);
    assert_false(w.read);
    assert_non_null(strstr(w.why, "no BMC answers (status 0xff)"));
    assert_int_equal(bmc.pauses, 0); /* all ones: no wait */

    memset(&bmc, 0, sizeof(bmc));
    bmc.stuck = true;
    ipmi_get_watchdog(&io, &w);
    assert_false(w.read);
    assert_true(bmc.pauses >= KCS_POLLS_MAX); /* bounded: it gave up */
    char text[96];
    assert_non_null(strstr(ipmi_watchdog_describe(&w, text, sizeof(text)), "not read: KCS"));
}

/* A stopped timer (bit 6 clear), OS load use, power cycle action. */
static void test_decode_stopped(void **state)
{
    (void)state;
    const uint8_t r[] = {0x1c, 0x25, 0x00, 0x03, 0x03, 0, 0, 0x2c, 0x01, 0x2c, 0x01};
    struct ipmi_watchdog w;
    assert_true(ipmi_watchdog_decode(r, sizeof(r), &w));
    assert_false(w.running);
    char text[96];
    assert_string_equal(ipmi_watchdog_describe(&w, text, sizeof(text)),
                        "stopped, OS load timer, power cycle after 30.0 s (of 30.0 s)");
}

/* A BMC whose watchdog nobody set answers zeros (QEMU's ipmi-bmc-sim does). */
static void test_decode_never_set(void **state)
{
    (void)state;
    const uint8_t r[] = {0x1c, 0x25, 0x00, 0, 0, 0, 0, 0, 0, 0, 0};
    struct ipmi_watchdog w;
    assert_true(ipmi_watchdog_decode(r, sizeof(r), &w));
    char text[96];
    assert_string_equal(ipmi_watchdog_describe(&w, text, sizeof(text)),
                        "stopped, never set (no timer use, no countdown)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_get_watchdog),         cmocka_unit_test(test_error_answer),
        cmocka_unit_test(test_no_bmc_and_stuck_bmc), cmocka_unit_test(test_decode_stopped),
        cmocka_unit_test(test_decode_never_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
