// SPDX-License-Identifier: MIT
// chase-report's readers on what people paste: lat_mem_rd without its stride header, with
// several strides, quoted in a mail; lmbench's results files; Chips and Cheese's MemoryLatency;
// and the one line a text no reader takes gets.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "inputs/load.h"
#include "inputs/readers.h"
#include "inputs/source.h"

#define ERR_BYTES 2048

static int load(const char *name, const char *text, struct source *s, char *err)
{
    memset(s, 0, sizeof(*s));
    snprintf(s->path, sizeof(s->path), "%s", name);
    return source_load_text(s, text, strlen(text), err, ERR_BYTES);
}

/* Rows pasted without the "stride=N line, sizes with three decimals, in a quoted mail. */
static void test_lmbench_headerless(void **state)
{
    (void)state;
    static const char text[] = "On Tue, someone wrote:\n> $ ./lat_mem_rd -t 64 128\n"
                               "> 0.000 1.17\n> 0.001 1.18\n> 0.002 1.18\n> 0.003 1.19\n"
                               "> 0.004 1.19\n> 0.032 3.80\n> 1.000 12.5\n> 48.000 95.2\n";
    struct source s;
    char err[ERR_BYTES];
    assert_int_equal(load("mail.txt", text, &s, err), 0);
    assert_int_equal(s.format, FMT_LMBENCH);
    assert_int_equal(s.ncurves, 1);
    assert_int_equal(s.curve[0].role, AN_ROLE_RING);
    assert_int_equal(s.curve[0].stride_bytes, 0);
    /* "0.000" is no size (skipped); the rest snap to lat_mem_rd's 512-byte grain. */
    assert_int_equal(s.curve[0].n, 7);
    assert_true(s.curve[0].size[0] == 1024 && s.curve[0].size[1] == 2048);
    assert_true(s.curve[0].size[2] == 3072 && s.curve[0].size[3] == 4096);
    assert_true(s.curve[0].size[6] == 48.0 * 1048576);
    assert_true(s.curve[0].ns[6] == 95.2);
    source_free(&s);
    /* Rendered with a blank line between rows (a wiki, a comment box), still without a header. */
    static const char spaced[] =
        "$ lat_mem_rd -N 8 16 128\n\n0.00049 3.013\n\n0.00098 3.009\n\n"
        "0.00195 3.014\n\n0.00293 3.009\n\n0.01562 2.996\n\n16.00000 61.225\n";
    assert_int_equal(load("wiki.txt", spaced, &s, err), 0);
    assert_int_equal(s.format, FMT_LMBENCH);
    assert_int_equal(s.ncurves, 1);
    assert_int_equal(s.curve[0].n, 6);
    assert_true(s.curve[0].size[0] == 512 && s.curve[0].size[5] == 16.0 * 1048576);
    source_free(&s);
    /* Two numbers a line that do not start under 1 MiB are not lat_mem_rd's. */
    assert_int_equal(load("x.txt", "1 2\n3 4\n5 6\n7 8\n9 10\n", &s, err), -1);
    source_free(&s);
}

/* Several strides in one paste: one curve each, sizes with five decimals or more. */
static void test_lmbench_strides(void **state)
{
    (void)state;
    static const char text[] =
        "stride=16\n0.00049 1.100\n0.00098 1.101\n0.0019531 1.102\n64.00000 90.1\n\n"
        "\"stride=128\n0.00049 1.100\n0.00098 1.102\n64.00000 99.5\n\n"
        "\"stride=512\n0.00049 1.103\n64.00000 110.0\n\n"
        /* a second headerless sweep after the blocks: its own curve */
        "0.00049 1.2\n0.00098 1.2\n";
    struct source s;
    char err[ERR_BYTES];
    assert_int_equal(load("strides.out", text, &s, err), 0);
    assert_int_equal(s.ncurves, 4);
    assert_int_equal(s.curve[0].stride_bytes, 16);
    assert_int_equal(s.curve[1].stride_bytes, 128);
    assert_int_equal(s.curve[2].stride_bytes, 512);
    assert_int_equal(s.curve[3].stride_bytes, 0);
    assert_int_equal(s.curve[0].n, 4);
    assert_true(s.curve[0].size[2] == 2048);
    assert_int_equal(s.curve[2].n, 2);
    assert_int_equal(s.curve[3].n, 2);
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(s.curve[i].role, AN_ROLE_RING);
    source_free(&s);
}

/* A raw results/<OS>/<host>.N file: other tools' "name blocks before, lat_mem_rd's blocks under
 * "Memory load latency" (ring) and "Random load latency" (random), a closing date. */
static const char results[] =
    "[lmbench3.0 results for Linux box 6.1.0 #1 SMP x86_64 GNU/Linux]\n[LMBENCH_VER: ]\n"
    "[MHZ: 2994 MHz, 0.3340 nanosec clock]\nSimple syscall: 0.1303 microseconds\n\n"
    "\"mappings\n0.524288 9.824\n1.048576 16\n\n\"read bandwidth\n0.000512 671.66\n"
    "0.001024 1291.46\n\nMemory load latency\n\"stride=16\n0.00049 1.336\n0.00098 1.336\n"
    "0.00195 1.336\n32.00000 6.1\n\n\"stride=32\n0.00049 1.337\n32.00000 12.0\n\n\n"
    "Random load latency\n\"stride=16\n0.00049 1.336\n0.00098 1.336\n32.00000 88.0\n\n"
    "[Wed Jul 30 06:17:19 AM JST 2025]\n";

static void test_lmbench_results(void **state)
{
    (void)state;
    struct source s;
    char err[ERR_BYTES];
    assert_int_equal(load("box.0", results, &s, err), 0);
    assert_int_equal(s.format, FMT_LMBENCH);
    assert_non_null(strstr(s.name, "lmbench results"));
    assert_non_null(strstr(s.machine, "lmbench3.0 results for Linux box"));
    assert_int_equal(s.ncurves, 3);
    assert_int_equal(s.curve[0].role, AN_ROLE_RING);
    assert_int_equal(s.curve[0].stride_bytes, 16);
    assert_int_equal(s.curve[0].n, 4);
    assert_int_equal(s.curve[1].stride_bytes, 32);
    assert_int_equal(s.curve[1].n, 2);
    assert_int_equal(s.curve[2].role, AN_ROLE_LEVELS);
    assert_int_equal(s.curve[2].stride_bytes, 16);
    assert_non_null(strstr(s.curve[2].label, "random"));
    assert_true(s.curve[2].ns[2] == 88.0);
    source_free(&s);
    /* lmbench run without its memory benchmarks: read as a results file, refused by name. */
    static const char no_mem[] = "[lmbench3.0 results for Linux box]\n\"mappings\n0.52 9.8\n";
    assert_int_equal(load("box.1", no_mem, &s, err), -1);
    assert_non_null(strstr(err, "results file without lat_mem_rd"));
    source_free(&s);
    /* The summary (make see) has latencies without sizes: refused, saying so. */
    static const char summary[] =
        "Memory latencies in nanoseconds - smaller is better\n"
        "    (WARNING - may not be correct, check graphs)\n"
        "Host                 OS   Mhz   L1 $   L2 $    Main mem    Rand mem    Guesses\n"
        "box       Linux 6.1.0     2994 1.3360 4.0080   12.1        88.0\n";
    assert_int_equal(load("summary.txt", summary, &s, err), -1);
    assert_non_null(strstr(err, "without sizes"));
    source_free(&s);
}

/* MemoryLatency: a default run (stderr lines first, as a redirect writes them), then an asm run
 * with huge pages; -sizekb runs concatenated; a TLB run. */
static void test_memlat(void **state)
{
    (void)state;
    static const char two_runs[] = "Region,Latency (ns)\n2,1.041000\n4,1.040000\n48,3.100000\n"
                                   "1048576,95.500000\n"
                                   "Using ASM (simple address) test\n"
                                   "If applicable, will use huge pages. Will allocate max memory\n"
                                   "Region,Latency (ns)\n2,0.800000\n24567,12.000000\n";
    struct source s;
    char err[ERR_BYTES];
    assert_int_equal(load("memlat.txt", two_runs, &s, err), 0);
    assert_int_equal(s.format, FMT_MEMLAT);
    assert_int_equal(s.ncurves, 2);
    assert_int_equal(s.curve[0].role, AN_ROLE_LEVELS);
    assert_int_equal(s.curve[0].n, 4);
    assert_true(s.curve[0].size[2] == 48 * 1024 && s.curve[0].ns[3] == 95.5);
    assert_int_equal(s.curve[0].page_bytes, 4096);
    assert_non_null(strstr(s.curve[1].label, "asm, huge pages"));
    assert_int_equal(s.curve[1].page_bytes, 2 << 20);
    assert_true(s.curve[1].size[1] == 24567.0 * 1024);
    source_free(&s);
    static const char dense[] = "Using ASM (simple address) test\nBase iterations: 30000000\n"
                                "Testing 4 KB only\n4,1.000000\nUsing ASM (simple address) test\n"
                                "Base iterations: 30000000\nTesting 5 KB only\n5,1.010000\n";
    assert_int_equal(load("dense.txt", dense, &s, err), 0);
    assert_int_equal(s.ncurves, 1);
    assert_int_equal(s.curve[0].n, 2);
    assert_true(s.curve[0].size[1] == 5 * 1024);
    source_free(&s);
    /* -test tlb: cache latency taken out, so plotted without levels. */
    static const char tlb[] = "Testing TLB with one element accessed per 4K page\n"
                              "Region,Latency (ns)\n2,0.1\n4096,3.5\n";
    assert_int_equal(load("tlb.txt", tlb, &s, err), 0);
    assert_int_equal(s.curve[0].role, AN_ROLE_EXTRA);
    assert_non_null(strstr(s.warning[0], "tlb"));
    source_free(&s);
}

/* A text no reader takes: one line, each format named with what it looked for. */
static void test_refusal_line(void **state)
{
    (void)state;
    struct source s;
    char err[ERR_BYTES];
    assert_int_equal(load("notes.txt", "size latency\n1 2\nhello\n", &s, err), -1);
    assert_null(strchr(err, '\n'));
    assert_non_null(strstr(err, "notes.txt: unrecognised input; tried: a chase result folder"));
    assert_non_null(strstr(err, "a chase experiment CSV ("));
    for (const struct reader *r = readers; r->name; r++) {
        char want[300];
        snprintf(want, sizeof(want), "%s (%s)", r->name, r->shape);
        assert_non_null(strstr(err, want));
    }
    assert_non_null(strstr(err, "MemoryLatency (no \"Region,Latency (ns)\" header"));
    assert_non_null(strstr(err, "lmbench lat_mem_rd (no \"stride=N line"));
    source_free(&s);
}

/* Every prefix of each sample (a paste cut anywhere) is read or refused, never a bad point. */
static void test_cut_anywhere(void **state)
{
    (void)state;
    static const char memlat[] = "Using ASM (simple address) test\nRegion,Latency (ns)\n2,1.0\n"
                                 "48,3.1\nTesting 5 KB only\n5,1.01\n";
    static const char lat[] = "> \"stride=64\n> 0.00049 1.1\n0.00098 1.1\n\n0.00049 1.2\n";
    const char *texts[] = {results, memlat, lat};
    struct source s;
    char err[ERR_BYTES];
    for (size_t t = 0; t < 3; t++)
        for (size_t n = 0; n <= strlen(texts[t]); n++) {
            memset(&s, 0, sizeof(s));
            snprintf(s.path, sizeof(s.path), "cut.txt");
            if (source_load_text(&s, texts[t], n, err, sizeof(err)) == 0)
                for (size_t c = 0; c < s.ncurves; c++)
                    for (size_t i = 0; i < s.curve[c].n; i++)
                        assert_true(s.curve[c].size[i] >= 1 && s.curve[c].ns[i] > 0);
            else
                assert_true(err[0] != 0);
            source_free(&s);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lmbench_headerless), cmocka_unit_test(test_lmbench_strides),
        cmocka_unit_test(test_lmbench_results),    cmocka_unit_test(test_memlat),
        cmocka_unit_test(test_refusal_line),       cmocka_unit_test(test_cut_anywhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
