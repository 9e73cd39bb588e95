// SPDX-License-Identifier: MIT
// Unit tests of the results keys (issue 49): results = URL | serial, results.token kept out of
// every printout, results.retries' range, and what only chase.efi may do.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cfg_errors.h"
#include "lib/json.h"
#include "lib/url.h"

/* The firmware: the only platform that sends a run anywhere. */
static int setup(void **state)
{
    (void)state;
    memset(&machine, 0, sizeof(machine));
    strcpy(machine.platform, "uefi");
    machine.memory_total_bytes = 1ull << 30;
    machine.buffer_limit_bytes = 512ull << 20;
    cfg_errors_begin();
    return 0;
}

static void test_defaults(void **state)
{
    (void)state;
    assert_true(resolve(NULL, NULL));
    assert_string_equal(cfg.global.results, "");
    assert_string_equal(cfg.global.results_token, "");
    assert_int_equal(cfg.global.results_retries, 3);
}

/* The dotted global keys reach the global struct from the file and from the load options. */
static void test_url_token_retries(void **state)
{
    (void)state;
    assert_true(resolve("results = http://10.0.2.2:8080/up/fleet\nresults.token = s3cret\n",
                        "results.retries=5"));
    assert_string_equal(cfg.global.results, "http://10.0.2.2:8080/up/fleet");
    assert_string_equal(cfg.global.results_token, "s3cret");
    assert_int_equal(cfg.global.results_retries, 5);
    /* the token is never printed or written: run.json says only that one is set */
    const void *params;
    const struct key_desc *k = cfg_key(&cfg, "results.token", &params);
    assert_non_null(k);
    char shown[64];
    cfg_format_value(shown, sizeof(shown), k, params);
    assert_string_equal(shown, "(set)");
    struct strbuf out = {0};
    struct json j;
    json_init(&j, &out);
    json_object_begin(&j, NULL);
    cfg_value_json(&j, k, params);
    json_object_end(&j);
    assert_null(strstr(strbuf_str(&out), "s3cret"));
    assert_non_null(strstr(strbuf_str(&out), "\"results.token\""));
    assert_non_null(strstr(strbuf_str(&out), "true"));
    strbuf_release(&out);
}

static void test_serial(void **state)
{
    (void)state;
    assert_true(resolve(NULL, "results=serial"));
    assert_string_equal(cfg.global.results, "serial");
}

static void test_bad_values(void **state)
{
    (void)state;
    assert_false(resolve("results = ftp://10.0.2.2/x\n", NULL));
    assert_error("\\chase\\chase.cfg:1: key 'results': bad value 'ftp://10.0.2.2/x': not an "
                 "http:// or https:// URL");
    assert_false(resolve(NULL, "results=http://host:99999/"));
    assert_error("the port is not a number from 1 to 65535");
    assert_false(resolve(NULL, "results=http://host/a?b=c"));
    assert_error("no query, no escapes");
    assert_false(resolve(NULL, "results.retries=11"));
    assert_error("key 'results.retries': bad value '11' (out of range)");
}

/* chase-host refuses the key: it writes DIR and nothing else. */
static void test_host_refuses(void **state)
{
    (void)state;
    strcpy(machine.platform, "linux");
    assert_false(resolve(NULL, "results=serial"));
    assert_error("chase-host writes its run folder to DIR only");
}

static void test_url_parse(void **state)
{
    (void)state;
    struct url u;
    char why[128];
    assert_true(url_parse("http://10.0.2.2:8080//up/a/", &u, why, sizeof(why)));
    assert_false(u.https);
    assert_string_equal(u.host, "10.0.2.2");
    assert_int_equal(u.port, 8080);
    assert_string_equal(u.path, "up/a");
    assert_true(u.host_is_ipv4);
    assert_int_equal(u.ipv4[3], 2);
    assert_true(url_parse("https://collector.lab", &u, why, sizeof(why)));
    assert_true(u.https);
    assert_int_equal(u.port, 443);
    assert_string_equal(u.path, "");
    assert_false(u.host_is_ipv4);
    assert_false(url_parse("http://a b/", &u, why, sizeof(why)));
    assert_false(url_parse("http://:80/", &u, why, sizeof(why)));
    assert_false(url_parse("http://user@h/", &u, why, sizeof(why)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_defaults, setup, teardown),
        cmocka_unit_test_setup_teardown(test_url_token_retries, setup, teardown),
        cmocka_unit_test_setup_teardown(test_serial, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_host_refuses, setup, teardown),
        cmocka_unit_test(test_url_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
