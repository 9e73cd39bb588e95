// SPDX-License-Identifier: MIT
// Unit tests of the end-of-run summary: the CSV text of a run through kernel/analysis.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/kmath.h"
#include "run/summary.h"

#define KIB 1024.0
#define MIB (1024.0 * 1024)

/* L1 to 32K (1 ns), L2 to 1M (4 ns), L3 to 8M (20 ns), then memory (90 ns). */
static double latency(double size)
{
    return size <= 32 * KIB ? 1.0 : size <= 1 * MIB ? 4.0 : size <= 8 * MIB ? 20.0 : 90.0;
}

/* random.csv as chase writes it: 4 points per octave from 4K to 256M, 2M pages. */
static void random_csv(struct strbuf *sb)
{
    strbuf_puts(sb, "size_bytes,page_bytes,ns_median,core_cycles_median\n");
    for (int i = 0; i <= 4 * 16; i++) {
        double size = 4096.0 * kexp2(i / 4.0);
        strbuf_printf(sb, "%.0f,2097152,%.3f,%.3f\n", size, latency(size), 3 * latency(size));
    }
}

static struct machine machine_with_llc(void)
{
    struct machine m;
    memset(&m, 0, sizeof(m));
    m.cpu.ncaches = 2;
    m.cpu.caches[0] = (struct cache_info){1, CACHE_DATA, 32 * 1024, 8, 64, 64, 1};
    m.cpu.caches[1] = (struct cache_info){3, CACHE_UNIFIED, 8 * 1024 * 1024, 16, 64, 8192, 8};
    return m;
}

static void test_levels_dram_and_verdicts(void **state)
{
    (void)state;
    struct machine m = machine_with_llc();
    struct strbuf rnd = {0}, scan = {0}, out = {0};
    random_csv(&rnd);
    /* The small array leaves the 8M LLC (half way up) near 7M: scan-resistant. */
    strbuf_puts(&scan, "small_bytes,huge_bytes,ns_median\n1048576,67108864,20\n"
                       "2097152,67108864,21\n4194304,67108864,23\n6291456,67108864,24\n"
                       "8388608,67108864,60\n");
    struct summary_input in = {.m = &m, .n = 2, .page_bytes = 2 << 20, .where = "/tmp/x"};
    in.names[0] = "random";
    in.csv[0] = &rnd;
    in.names[1] = "scan";
    in.csv[1] = &scan;
    summary_write(&out, &in);
    const char *s = strbuf_str(&out);
    assert_non_null(strstr(s, "levels of \"random, 2M pages\""));
    assert_non_null(strstr(s, "      L1 "));
    assert_non_null(strstr(s, "      L3 "));
    assert_null(strstr(s, "      L4 "));
    assert_non_null(strstr(s, "DRAM latency: 90.0 ns, 270 cycles"));
    assert_non_null(strstr(s, "random: 3 cache levels"));
    assert_non_null(strstr(s, "scan: the small array leaves the last cache at"));
    assert_non_null(strstr(s, "scan-resistant: the huge scan does not flush it"));
    assert_non_null(strstr(s, "results: /tmp/x\n"));
    assert_null(strstr(s, "hypervisor"));
    strbuf_release(&rnd);
    strbuf_release(&scan);
    strbuf_release(&out);
}

static void test_unreadable_csv_is_named(void **state)
{
    (void)state;
    struct machine m = machine_with_llc();
    struct strbuf bad = {0}, out = {0};
    strbuf_puts(&bad, "a,a\n1,2\n");
    m.cpu.hypervisor = true;
    struct summary_input in = {.m = &m, .n = 1, .where = "here"};
    in.names[0] = "dual";
    in.csv[0] = &bad;
    summary_write(&out, &in);
    const char *s = strbuf_str(&out);
    assert_non_null(strstr(s, "dual.csv: not read (header names column a twice)"));
    assert_non_null(strstr(s, "levels: no latency curve to find them on"));
    assert_non_null(strstr(s, "note: measured under a hypervisor"));
    strbuf_release(&bad);
    strbuf_release(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels_dram_and_verdicts),
        cmocka_unit_test(test_unreadable_csv_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
