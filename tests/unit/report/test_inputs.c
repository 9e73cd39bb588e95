// SPDX-License-Identifier: MIT
// chase-report's inputs: each foreign format recognised and read, chase folders and CSVs,
// clear errors for anything else, and no crash on mangled files.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_tree.h"
#include "inputs/input_run.h"
#include "inputs/load.h"
#include "inputs/source.h"

/* An experiment's index in kernel/analysis/table.c. */
#define EXP(name) ((size_t)analysis_experiment_index(name))

#define FUZZ_ROUNDS 300

static const char lmbench[] = "\"stride=64\n0.00049 1.176\n0.00098 1.177\n0.00195 1.175\n"
                              "1.50000 5.512\n\n\"stride=256\n0.00049 1.180\n64.00000 95.1\n";
static const char chase[] =
    "   memsize  time in ns\n      1024     1.36904\n      1536     1.35973\n"
    "  33554432    64.04705\n";
static const char tiny[] =
    "== Note 1: All the numbers are representing extra time, which needs to  ==\n\n"
    "block size : single random read / dual random read, [MADV_NOHUGEPAGE]\n"
    "      1024 :    0.0 ns          /     0.0 ns \n"
    "     65536 :    4.3 ns          /     6.6 ns \n"
    "  67108864 :   95.9 ns          /   120.2 ns \n\n"
    "block size : single random read / dual random read, [MADV_HUGEPAGE]\n"
    "      1024 :    0.0 ns          /     0.0 ns \n"
    "  67108864 :   80.1 ns          /   101.0 ns \n";
static const char multichase[] =
    "nr_threads = 1\npage_size = 4096 bytes\ntotal_memory = 268435456 (256.0 MiB)\n"
    "stride = 256\ntlb_locality = 262144\nchase = simple\n"
    "samples (one column per thread, one row per sample):\n  89.123  avg=89.123\n 88.950\n"
    "nr_threads = 1\npage_size = 2097152 bytes (THP)\ntotal_memory = 1048576 (1.0 MiB)\n"
    "stride = 256\nchase = simple\n1700000000.5 4.125\n";

/* name in the tree holding n bytes of text; returns its path (a static buffer). */
static const char *write_text(const char *name, const char *text, size_t n)
{
    static char path[FT_PATH_BYTES];
    ft_put(name, text, n);
    ft_path(path, name);
    return path;
}

static const char *write_file(const char *name, const char *text)
{
    return write_text(name, text, strlen(text));
}

static int load(const char *name, const char *text, struct source *s, char *err)
{
    memset(s, 0, sizeof(*s));
    return source_load(write_text(name, text, strlen(text)), s, err, 600);
}

static void test_lmbench(void **state)
{
    (void)state;
    struct source s;
    char err[600];
    assert_int_equal(load("lat.out", lmbench, &s, err), 0);
    assert_int_equal(s.format, FMT_LMBENCH);
    assert_int_equal(s.ncurves, 2);
    assert_int_equal(s.curve[0].role, AN_ROLE_RING);
    assert_int_equal(s.curve[0].stride_bytes, 64);
    assert_int_equal(s.curve[1].stride_bytes, 256);
    assert_int_equal(s.curve[0].n, 4);
    assert_true(s.curve[0].size[0] == 512 && s.curve[0].size[2] == 2048);
    assert_true(s.curve[0].size[3] == 1.5 * 1048576);
    assert_true(s.curve[1].ns[1] == 95.1);
    source_free(&s);
    assert_int_equal(load("lat2.out", "\"stride=64\n\n", &s, err), -1);
    assert_non_null(strstr(err, "without data"));
    source_free(&s);
}

static void test_random_chase(void **state)
{
    (void)state;
    struct source s;
    char err[600];
    assert_int_equal(load("rc.out", chase, &s, err), 0);
    assert_int_equal(s.format, FMT_RANDOM_CHASE);
    assert_int_equal(s.ncurves, 1);
    assert_int_equal(s.curve[0].role, AN_ROLE_LEVELS);
    assert_int_equal(s.curve[0].n, 3);
    assert_true(s.curve[0].size[2] == 33554432 && s.curve[0].ns[2] == 64.04705);
    source_free(&s);
}

static void test_tinymembench(void **state)
{
    (void)state;
    struct source s;
    char err[600];
    assert_int_equal(load("tiny.txt", tiny, &s, err), 0);
    assert_int_equal(s.format, FMT_TINYMEMBENCH);
    assert_int_equal(s.ncurves, 4);
    assert_int_equal(s.curve[0].role, AN_ROLE_LEVELS);
    assert_int_equal(s.curve[1].role, AN_ROLE_EXTRA);
    assert_true(s.curve[0].relative && s.curve[1].relative);
    assert_int_equal(s.curve[0].page_bytes, 4096);
    assert_int_equal(s.curve[2].page_bytes, 2 << 20);
    assert_int_equal(s.curve[0].n, 3);
    assert_true(s.curve[1].ns[2] == 120.2);
    assert_true(s.nwarnings > 0); /* the time-above-L1 warning */
    source_free(&s);
}

static void test_multichase(void **state)
{
    (void)state;
    struct source s;
    char err[600];
    assert_int_equal(load("mc.txt", multichase, &s, err), 0);
    assert_int_equal(s.format, FMT_MULTICHASE);
    assert_int_equal(s.ncurves, 2);
    assert_int_equal(s.curve[0].page_bytes, 4096);
    assert_int_equal(s.curve[1].page_bytes, 2 << 20);
    assert_true(s.curve[0].size[0] == 268435456 && s.curve[0].ns[0] == 88.95);
    assert_true(s.curve[1].ns[0] == 4.125); /* after a -y timestamp */
    source_free(&s);
}

static void test_chase_csv_file(void **state)
{
    (void)state;
    struct source s;
    char err[600];
    assert_int_equal(load("random.csv", "size_bytes,ns_median\n4096,1.2\n8192,1.3\n", &s, err), 0);
    assert_int_equal(s.format, FMT_CSV);
    assert_int_equal(s.ncurves, 1);
    assert_non_null(s.table[EXP("random")]);
    source_free(&s);
    assert_int_equal(load("other.csv", "a,b\n1,2\n", &s, err), -1);
    assert_non_null(strstr(err, "chase experiment"));
    source_free(&s);
}

static void test_unrecognised(void **state)
{
    (void)state;
    struct source s;
    char err[600];
    const char *texts[] = {"", "hello world\n", "1 2\n3 4\n", "\x01\x02\xff\xfe binary"};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(load("x.txt", texts[i], &s, err), -1);
        assert_non_null(strstr(err, "unrecognised"));
        assert_non_null(strstr(err, "tinymembench"));
        assert_non_null(strstr(err, "lat_mem_rd"));
        source_free(&s);
    }
    memset(&s, 0, sizeof(s));
    assert_int_equal(source_load("/nonexistent/chase/run", &s, err, sizeof(err)), -1);
    source_free(&s);
}

static void test_run_folder(void **state)
{
    (void)state;
    struct source s;
    char err[600], sub[128], path[160];
    snprintf(sub, sizeof(sub), "%s/0007", ft_root);
    mkdir(sub, 0755);
    memset(&s, 0, sizeof(s));
    assert_int_equal(source_load(sub, &s, err, sizeof(err)), -1); /* empty folder */
    assert_non_null(strstr(err, "run.json"));
    source_free(&s);
    write_file("0007/run.json",
               "{\"cpu\": {\"brand\": \"  X CPU  \"}, \"caches\": "
               "[{\"level\": 2, \"size_bytes\": 1048576, \"type\": \"unified\"}, {\"level\": "
               "\"bad\"}], \"core_clock\": {\"core_hz\": 3e9}, \"experiments\": {\"random\": "
               "\"ok\", \"tlb\": \"failed: page fault\"}}");
    write_file("0007/random.csv", "size_bytes,ns_median,page_bytes\n4096,1,4096\n8192,1.1,4096\n"
                                  "4096,1,2097152\n");
    write_file("0007/tlb.csv", "garbage");
    snprintf(path, sizeof(path), "%s/", sub); /* a trailing slash is fine */
    memset(&s, 0, sizeof(s));
    assert_int_equal(source_load(path, &s, err, sizeof(err)), 0);
    assert_string_equal(s.name, "run 0007");
    assert_string_equal(s.machine, "X CPU");
    assert_int_equal(s.ncaches, 1);
    assert_true(s.core_hz == 3e9);
    assert_string_equal(s.status[EXP("tlb")], "failed: page fault");
    assert_int_equal(s.ncurves, 2); /* one random curve per page size */
    source_free(&s);
    write_file("0007/run.json", "{\"cpu\": ");
    memset(&s, 0, sizeof(s));
    assert_int_equal(source_load(sub, &s, err, sizeof(err)), 0);
    assert_true(s.nwarnings >= 1);
    assert_string_equal(s.machine, "unknown machine");
    source_free(&s);
}

/*
 * Found by the fuzzers (tests/fuzz/regressions, the ubsan-* files): a page size or stride too
 * large for a uint64_t (1e300, "1e300G") was cast anyway. Now it is unknown and the run's page
 * size stands in, read through the path-free entries the fuzzers use.
 */
static void test_absurd_sizes(void **state)
{
    (void)state;
    static const char *const configs[] = {
        "{\"page_size_bytes\": 4096, \"config\": {\"tlb\": {\"page\": \"1e300G\"}}}",
        "{\"page_size_bytes\": 4096, \"config\": {\"tlb\": {\"page\": 1e300}}}",
        "{\"page_size_bytes\": 4096, \"config\": {\"tlb\": {\"page\": \"-2M\"}}}",
    };
    static const char table[] = "size_bytes,ns_median\n65536,1.1\n";
    struct source s;
    char err[600];
    for (size_t i = 0; i < 3; i++) {
        memset(&s, 0, sizeof(s));
        run_load_json(&s, configs[i], strlen(configs[i]));
        assert_int_equal(run_load_table(&s, EXP("tlb"), table, strlen(table), err, sizeof(err)), 0);
        assert_int_equal(s.ncurves, 1);
        assert_int_equal(s.curve[0].page_bytes, 4096);
        source_free(&s);
    }
    static const char mc[] = "total_memory = 4096\nstride = 1e300\npage_size = 1e300 bytes\n5\n"
                             "total_memory = 8192\nstride = 64\npage_size = 4096\n6\n";
    memset(&s, 0, sizeof(s));
    snprintf(s.path, sizeof(s.path), "mc.txt");
    assert_int_equal(source_load_text(&s, mc, strlen(mc), err, sizeof(err)), 0);
    assert_int_equal(s.format, FMT_MULTICHASE);
    assert_int_equal(s.ncurves, 2);
    assert_true(s.curve[0].page_bytes == 0 && s.curve[0].stride_bytes == 0);
    assert_true(s.curve[1].page_bytes == 4096 && s.curve[1].stride_bytes == 64);
    source_free(&s);
}

static uint64_t fuzz_state = 99;

static unsigned fuzz_next(void)
{
    fuzz_state = fuzz_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(fuzz_state >> 33);
}

/* Every reader on mangled copies of its own format: errors are fine, crashes are not. */
static void test_fuzz_inputs(void **state)
{
    (void)state;
    static char buf[2048];
    const char *seeds[4] = {lmbench, chase, tiny, multichase};
    for (int round = 0; round < FUZZ_ROUNDS; round++) {
        const char *seed = seeds[round % 4];
        size_t n = strlen(seed);
        memcpy(buf, seed, n);
        for (int k = 0, edits = 1 + fuzz_next() % 6; k < edits && n > 0; k++) {
            size_t at = fuzz_next() % n;
            if (fuzz_next() % 3 == 0)
                n = at;
            else
                buf[at] = "0123456789.e- :\n/=\"[]"[fuzz_next() % 21];
        }
        struct source s;
        char err[600];
        memset(&s, 0, sizeof(s));
        if (source_load(write_text("fuzz.txt", buf, n), &s, err, sizeof(err)) == 0)
            for (size_t c = 0; c < s.ncurves; c++)
                for (size_t i = 0; i < s.curve[c].n; i++)
                    assert_true(isfinite(s.curve[c].size[i]) && isfinite(s.curve[c].ns[i]));
        source_free(&s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lmbench),        cmocka_unit_test(test_random_chase),
        cmocka_unit_test(test_tinymembench),   cmocka_unit_test(test_multichase),
        cmocka_unit_test(test_chase_csv_file), cmocka_unit_test(test_unrecognised),
        cmocka_unit_test(test_run_folder),     cmocka_unit_test(test_fuzz_inputs),
        cmocka_unit_test(test_absurd_sizes),
    };
    return cmocka_run_group_tests(tests, ft_group_setup, ft_group_teardown);
}
