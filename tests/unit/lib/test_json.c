// SPDX-License-Identifier: MIT
// Unit tests of the JSON writer: structure, commas, escaping and numbers.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "lib/json.h"

static void test_document(void **state)
{
    (void)state;
    struct strbuf sb = {0};
    struct json j;
    json_init(&j, &sb);
    json_object_begin(&j, NULL);
    json_string(&j, "name", "a \"quoted\"\\ line\n\x01");
    json_u64(&j, "n", 18446744073709551615ull);
    json_double(&j, "x", 1.25, 3);
    json_double(&j, "nan", 0.0 / 0.0, 3);
    json_bool(&j, "yes", true);
    json_string(&j, "none", NULL);
    json_array_begin(&j, "list");
    json_u64(&j, NULL, 1);
    json_object_begin(&j, NULL);
    json_object_end(&j);
    json_array_end(&j);
    json_array_begin(&j, "empty");
    json_array_end(&j);
    json_object_end(&j);
    assert_string_equal(strbuf_str(&sb), "{\n"
                                         "  \"name\": \"a \\\"quoted\\\"\\\\ line\\n\\u0001\",\n"
                                         "  \"n\": 18446744073709551615,\n"
                                         "  \"x\": 1.250,\n"
                                         "  \"nan\": null,\n"
                                         "  \"yes\": true,\n"
                                         "  \"none\": null,\n"
                                         "  \"list\": [\n"
                                         "    1,\n"
                                         "    {}\n"
                                         "  ],\n"
                                         "  \"empty\": []\n"
                                         "}\n");
    strbuf_release(&sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_document),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
