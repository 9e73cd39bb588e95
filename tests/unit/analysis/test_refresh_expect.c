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
    assert_false(refresh_expect_for(0x1B, 0, &e)); /* LPDDR: not here */
    assert_true(refresh_expect_for(REFRESH_SMBIOS_LPDDR4, 8, &e));
    assert_string_equal(e.type, "LPDDR4");
    assert_true(e.trefi_ns == 3900 && e.trfc_lo_ns == 180 && e.trfc_hi_ns == 180);
    assert_true(refresh_expect_for(REFRESH_SMBIOS_LPDDR5, 0, &e));
    assert_true(e.trfc_lo_ns == 210 && e.trfc_hi_ns == 380);
    /* by the names smbios_memtype_name gives */
    assert_int_equal(refresh_smbios_type("DDR5"), REFRESH_SMBIOS_DDR5);
    assert_int_equal(refresh_smbios_type("LPDDR4"), REFRESH_SMBIOS_LPDDR4);
    assert_int_equal(refresh_smbios_type("RAM"), 0);
    assert_int_equal(refresh_smbios_type(NULL), 0);
}

/* The line beside tail.csv's dram_type: what the type implies, or why nothing is implied. */
static void test_line_for(void **state)
{
    (void)state;
    char buf[320];
    struct refresh_result found = {.found = true, .period_ns = 7801, .stall_ns = 279.6};
    struct refresh_result none = {0};
    refresh_summary_for(&found, "DDR4", "us", buf, sizeof(buf));
    assert_string_equal(buf, "DRAM refresh: every 7.8 us, about 280 ns (DDR4 implies every 7.8 us, "
                             "3.9 us fine-granularity or hot; tRFC 160-550 ns by density)");
    refresh_summary_for(&none, "DDR5", "us", buf, sizeof(buf));
    assert_string_equal(buf, "DRAM refresh: no period stands out (DDR5 implies every 3.9 us, "
                             "1.95 us when hot; tRFC 195-410 ns by density)");
    refresh_summary_for(&none, "none", "us", buf, sizeof(buf));
    assert_string_equal(buf, "DRAM refresh: no period stands out (the DIMMs' type is unknown: no "
                             "SMBIOS table was read)");
    refresh_summary_for(&found, "RAM", "us", buf, sizeof(buf));
    assert_string_equal(buf, "DRAM refresh: every 7.8 us, about 280 ns (SMBIOS gives the memory "
                             "type as RAM: no JEDEC refresh interval is known for it here)");
    refresh_summary_for(&none, "mixed", "us", buf, sizeof(buf));
    assert_string_equal(buf, "DRAM refresh: no period stands out (SMBIOS gives the DIMMs' type as "
                             "mixed)");
    int n = refresh_summary_for(&none, "", "us", buf, sizeof(buf));
    assert_string_equal(buf, "DRAM refresh: no period stands out");
    assert_int_equal(n, (int)strlen(buf));
    refresh_summary_for(&none, NULL, "us", buf, sizeof(buf));
    assert_string_equal(buf, "DRAM refresh: no period stands out");
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
        cmocka_unit_test(test_line_for),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
