// SPDX-License-Identifier: MIT
// Unit tests of growable text buffers.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/strbuf.h"

static void test_grows_and_formats(void **state)
{
    (void)state;
    struct strbuf sb = {0};
    assert_string_equal(strbuf_str(&sb), "");
    for (int i = 0; i < 1000; i++)
        strbuf_printf(&sb, "%d,", i);
    assert_int_equal(sb.len, strlen(sb.data));
    assert_memory_equal(sb.data, "0,1,2,", 6);
    assert_memory_equal(sb.data + sb.len - 4, "999,", 4);
    char big[1000];
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = 0;
    strbuf_reset(&sb);
    strbuf_printf(&sb, "<%s>", big);
    assert_int_equal(sb.len, 1001);
    assert_int_equal(sb.data[1000], '>');
    assert_false(sb.failed);
    strbuf_release(&sb);
    assert_null(sb.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grows_and_formats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
