// SPDX-License-Identifier: MIT
// Unit tests of the serial log: rows written once each as they complete, with the CSV's
// column names as keys and values that parse back to the CSV's cells; quoting; the run id;
// no lines when off or when there is no serial port.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/csv.h"
#include "lib/slog.h"
#include "stubs/stub_platform.h"

static int setup(void **state)
{
    (void)state;
    stub_serial_len = 0;
    stub_serial[0] = 0;
    stub_serial_present = true;
    return 0;
}

/* The value of key in the CHASE-LOG line `line` (quotes undone) into out; false if absent. */
static bool value_of(const char *line, const char *key, char *out, size_t cap)
{
    char pat[64];
    snprintf(pat, sizeof(pat), " %s=", key);
    const char *p = strstr(line, pat);
    const char *eol = strchr(line, '\n');
    if (!p || (eol && p > eol))
        return false;
    p += strlen(pat);
    size_t n = 0;
    if (*p == '"') {
        for (p++; *p && *p != '"' && n + 1 < cap; p++) {
            if (*p == '\\')
                p++;
            out[n++] = *p;
        }
    } else {
        while (*p && *p != ' ' && *p != '\r' && *p != '\n' && n + 1 < cap)
            out[n++] = *p++;
    }
    out[n] = 0;
    return true;
}

/* The i-th line (0-based) of the serial output starting with the prefix. */
static const char *nth_line(unsigned i)
{
    const char *p = stub_serial;
    for (;;) {
        const char *hit = strstr(p, SLOG_PREFIX);
        if (!hit)
            return NULL;
        if (i-- == 0)
            return hit;
        p = hit + 1;
    }
}

static void test_rows_once_and_parse_back(void **state)
{
    (void)state;
    assert_true(slog_begin(true, "20261126225000-0a1b2c3d-1234abcd", "2026-11-26T22:50:00", "0.1.0",
                           "uefi"));
    assert_string_equal(slog_run_id(), "20261126225000-0a1b2c3d-1234abcd");
    slog_experiment("random");
    struct strbuf csv = {0};
    strbuf_puts(&csv, "size_bytes,ns_median,clock,note\n4096,1.290,adds,\n");
    slog_rows(&csv);
    strbuf_puts(&csv, "8192,1.310,adds,two words");
    slog_rows(&csv); /* not finished: nothing yet */
    assert_null(nth_line(2));
    strbuf_puts(&csv, "\n");
    slog_rows(&csv);
    slog_rows(&csv); /* nothing new */
    assert_non_null(nth_line(2));
    assert_null(nth_line(3));
    struct csv t;
    char err[80], v[64];
    assert_int_equal(csv_parse(strbuf_str(&csv), csv.len, &t, err, sizeof(err)), 0);
    for (unsigned r = 0; r < 2; r++) {
        const char *line = nth_line(r + 1);
        assert_true(value_of(line, "kind", v, sizeof(v)));
        assert_string_equal(v, "point");
        assert_true(value_of(line, "run", v, sizeof(v)));
        assert_string_equal(v, slog_run_id());
        assert_true(value_of(line, "exp", v, sizeof(v)));
        assert_string_equal(v, "random");
        for (size_t c = 0; c < t.ncols; c++) {
            assert_true(value_of(line, t.col[c], v, sizeof(v)));
            assert_string_equal(v, csv_text(&t, r, (int)c));
        }
    }
    csv_free(&t);
    slog_summary("dram", "latency_ns=%.3f", 81.5);
    slog_end("complete");
    assert_non_null(strstr(nth_line(3), "kind=summary item=dram latency_ns=81.500"));
    assert_non_null(strstr(nth_line(4), "kind=end status=complete points=2"));
    assert_non_null(strstr(stub_serial, "\r\n"));
    assert_false(slog_active());
    strbuf_release(&csv);
}

static void test_new_experiment_restarts(void **state)
{
    (void)state;
    slog_begin(true, "00000000000000-00000000-00000007", "", "0.1.0", "uefi");
    assert_string_equal(slog_run_id(), "00000000000000-00000000-00000007");
    struct strbuf csv = {0};
    slog_experiment("linear");
    strbuf_puts(&csv, "stride_bytes,ns_median\n64,0.5\n");
    slog_rows(&csv);
    slog_experiment("tlb");
    strbuf_reset(&csv);
    strbuf_puts(&csv, "page,ns_median\n4K,9.5\n");
    slog_rows(&csv);
    char v[32];
    assert_true(value_of(nth_line(2), "exp", v, sizeof(v)));
    assert_string_equal(v, "tlb");
    assert_true(value_of(nth_line(2), "row", v, sizeof(v)));
    assert_string_equal(v, "0");
    assert_true(value_of(nth_line(2), "page", v, sizeof(v)));
    assert_string_equal(v, "4K");
    slog_end("complete");
    strbuf_release(&csv);
}

static void test_off_and_no_port(void **state)
{
    (void)state;
    struct strbuf csv = {0};
    strbuf_puts(&csv, "a,b\n1,2\n");
    assert_true(slog_begin(false, "x", "", "0.1.0", "uefi"));
    slog_experiment("random");
    slog_rows(&csv);
    slog_end("complete");
    assert_int_equal(stub_serial_len, 0);
    stub_serial_present = false;
    assert_false(slog_begin(true, "x", "", "0.1.0", "linux"));
    assert_false(slog_active());
    slog_rows(&csv);
    slog_end("complete");
    assert_int_equal(stub_serial_len, 0);
    strbuf_release(&csv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_rows_once_and_parse_back, setup),
        cmocka_unit_test_setup(test_new_experiment_restarts, setup),
        cmocka_unit_test_setup(test_off_and_no_port, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
