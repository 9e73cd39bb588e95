// SPDX-License-Identifier: MIT
// Unit tests of what the DIMMs' type implies for refresh and of the summary's refresh line.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/refresh_expect.h"

static void test_types(void **state)
{
    (void)state;
    struct refresh_expect e;
    assert_true(refresh_expect_for(REFRESH_SMBIOS_DDR4, 0, &e));
    assert_string_equal(e.type, "DDR4");
    assert_true(e.trefi_ns == 7800 && e.trefi_alt_ns == 3900);
    assert_true(e.trfc_lo_ns == 160 && e.trfc_hi_ns == 550);
    assert_true(refresh_expect_for(REFRESH_SMBIOS_DDR4, 8, &e));
    assert_true(e.trfc_lo_ns == 350 && e.trfc_hi_ns == 350);
    assert_true(refresh_expect_for(REFRESH_SMBIOS_DDR5, 16, &e));
    assert_true(e.trefi_ns == 3900 && e.trfc_lo_ns == 295);
    assert_false(refresh_expect_for(0x02, 0, &e)); /* "unknown" */
    assert_false(refresh_expect_for(0x1E, 0, &e)); /* LPDDR4: not here */
}

static void test_line(void **state)
{
    (void)state;
    char buf[256];
    struct refresh_result found = {.found = true, .period_ns = 3899.3, .stall_ns = 350.4};
    refresh_summary_line(&found, NULL, "us", buf, sizeof(buf));
    assert_string_equal(buf, "DRAM refresh: every 3.9 us, about 350 ns");
    struct refresh_expect e;
    assert_true(refresh_expect_for(REFRESH_SMBIOS_DDR4, 0, &e));
    refresh_summary_line(&found, &e, "\xc2\xb5s", buf, sizeof(buf));
    assert_string_equal(buf, "DRAM refresh: every 3.9 \xc2\xb5s, about 350 ns (DDR4 implies every "
                             "7.8 \xc2\xb5s, 3.9 \xc2\xb5s fine-granularity or hot; tRFC 160-550 "
                             "ns by density)");
    struct refresh_result none = {0};
    assert_true(refresh_expect_for(REFRESH_SMBIOS_DDR5, 16, &e));
    int n = refresh_summary_line(&none, &e, "us", buf, sizeof(buf));
    assert_string_equal(buf, "DRAM refresh: no period stands out (DDR5 implies every 3.9 us, "
                             "1.95 us when hot; tRFC 295 ns)");
    assert_int_equal(n, (int)strlen(buf));
    char small[16];
    refresh_summary_line(&none, NULL, "us", small, sizeof(small));
    assert_int_equal(strlen(small), 15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
