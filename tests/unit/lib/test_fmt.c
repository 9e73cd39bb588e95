// SPDX-License-Identifier: MIT
// Unit tests of the kernel's printf against the C library's for the conversions it supports.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"

#define SAME(...)                                                                                  \
    do {                                                                                           \
        char ours[256], libc[256];                                                                 \
        int a = ksnprintf(ours, sizeof(ours), __VA_ARGS__);                                        \
        int b = snprintf(libc, sizeof(libc), __VA_ARGS__);                                         \
        assert_string_equal(ours, libc);                                                           \
        assert_int_equal(a, b);                                                                    \
    } while (0)

static void test_integers(void **state)
{
    (void)state;
    SAME("%d %d %d", 0, -1, 2147483647);
    SAME("%5d|%-5d|%05d|%+d|% d", 42, 42, 42, 42, 42);
    SAME("%u %x %X %lx %llx", 3000000000u, 0xbeefu, 0xbeefu, 0x1234567890ul, 0xffffffffffffffffull);
    SAME("%lld %llu", (long long)-9223372036854775807LL - 1, 18446744073709551615ull);
    SAME("%zu %.3d %8.3d", (size_t)12345, 7, 7);
    SAME("%p", (void *)0x1000);
}

static void test_strings_and_chars(void **state)
{
    (void)state;
    SAME("%s|%10s|%-10s|%.3s|%c%c%%", "abc", "abc", "abc", "abcdef", 'x', 'y');
    SAME("%*d|%-*d|%.*s", 6, 1, 6, 1, 2, "hello");
}

static void test_doubles(void **state)
{
    (void)state;
    SAME("%f %.0f %.1f %.2f %.3f", 1.5, 2.5, 0.05, 1.005, 1234.5678);
    SAME("%10.2f|%-10.2f|%010.2f", 3.14159, -3.14159, 3.14159);
    SAME("%.2f %.4f %f", -0.001, 123456789.123456, 0.0);
    SAME("%.3f", 4.9996);
}

/* Random values at random precisions: the same digits as the C library, ties included. */
static void test_doubles_random(void **state)
{
    (void)state;
    uint64_t x = 12345;
    for (int i = 0; i < 20000; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        double scale = (double)(1ULL << (x >> 58));
        double v = (double)(x >> 11) / (double)(1ULL << 53) * scale;
        if (i % 3 == 0)
            v = (double)((x >> 20) % 100000) / 8.0; /* exact ties at .5, .25, .125 */
        int prec = (int)((x >> 40) % 10);
        SAME("%.*f", prec, v);
        SAME("%.*f", prec, -v);
    }
}

/*
 * Flags, '*' and length modifiers in the combinations the spec parser must keep apart,
 * including flags the C library ignores ('0' with '-' or a precision, ' ' with '+').
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
static void test_spec_parsing(void **state)
{
    (void)state;
    SAME("%-+5d|%+05d|% 05d|%-05d|%0-5d|%+ d|% +d", 42, 42, -42, 42, 42, 7, 7);
    SAME("%*d|%*d|%-*d|%0*d", -6, 1, 6, -1, -4, 2, 5, -3);
    SAME("%.*d|%.*u|%*.*x|%-*.*s|", -1, 5, 0, 7u, 8, 4, 0xabu, 7, 2, "hello");
    SAME("%.0d|%.0u|%.0x|%5.0d|%-3.0u|%+.0d", 0, 0u, 0u, 0, 0u, 0);
    SAME("%08.3d|%-8.3d|%08x|%.5X", -7, -7, 0xbeu, 0xbeu);
    SAME("%hd %hu %hhu %hhd %hx", (short)-5, (unsigned short)6, (unsigned char)7, (signed char)-8,
         (unsigned short)0xfff);
    SAME("%ld %lu %li %lld %lli %zu %zx", -1L, 2UL, -3L, -4LL, 5LL, (size_t)6, (size_t)0x7f);
    SAME("%5c|%-3c|%c", 'a', 'b', '%');
    SAME("%20p|%-20p|", (void *)0xdeadbeef, (void *)0x10);
    SAME("%+f|% f|%+.2f|%08.3f|%-8.1f|%+08.2f|% .0f", 1.25, 1.25, -1.25, -2.5, 2.5, 3.0, 0.5);
    SAME("%f %f %.1f", INFINITY, -INFINITY, NAN);
    SAME("%d%%%d|%%%s", 1, 2, "x");
}
#pragma GCC diagnostic pop

/* kvsnprintf without the format attribute: formats the compiler would rightly refuse. */
static int fmt_unchecked(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = kvsnprintf(buf, cap, fmt, ap);
    va_end(ap);
    return n;
}

/* What the kernel's printf does with what the C library leaves undefined. */
static void test_malformed_specs(void **state)
{
    (void)state;
    char buf[32];
    /* A '%' at the end, even after flags and width, prints nothing. */
    assert_int_equal(fmt_unchecked(buf, sizeof(buf), "abc%"), 3);
    assert_string_equal(buf, "abc");
    assert_int_equal(fmt_unchecked(buf, sizeof(buf), "abc%-08.3l"), 3);
    assert_string_equal(buf, "abc");
    /* An unknown conversion prints as '%' and its letter and takes no argument. */
    assert_int_equal(fmt_unchecked(buf, sizeof(buf), "%q|%5y|%d", 9), 7);
    assert_string_equal(buf, "%q|%y|9");
    assert_int_equal(fmt_unchecked(buf, sizeof(buf), "%s|%5s", (char *)NULL, (char *)NULL), 13);
    assert_string_equal(buf, "(null)|(null)");
}

static void test_precision_bounds_the_read(void **state)
{
    (void)state;
    char unterminated[3] = {'a', 'b', 'c'}; /* no NUL: %.3s must not look past it */
    char buf[8];
    assert_int_equal(ksnprintf(buf, sizeof(buf), "%.3s|%.*s", unterminated, 2, unterminated), 6);
    assert_string_equal(buf, "abc|ab");
}

static void test_truncation(void **state)
{
    (void)state;
    char buf[5];
    int n = ksnprintf(buf, sizeof(buf), "%s", "abcdefgh");
    assert_int_equal(n, 8);
    assert_string_equal(buf, "abcd");
    assert_int_equal(ksnprintf(NULL, 0, "%d", 12345), 5);
    /* Padding and digits past the end are counted, not written. */
    assert_int_equal(ksnprintf(buf, sizeof(buf), "%8d|%-6.2f", 1, 2.5), 15);
    assert_string_equal(buf, "    ");
    assert_int_equal(ksnprintf(buf, 1, "%s%d", "ab", 3), 3);
    assert_string_equal(buf, "");
}

/* The one size formatter: three significant digits, no trailing zeros, powers of 1024. */
static void test_size(void **state)
{
    (void)state;
    static const struct {
        double bytes;
        const char *text;
    } cases[] = {{100, "100"},       {1536, "1.5K"},           {11584, "11.3K"},
                 {741440, "724K"},   {1482880, "1.41M"},       {32 << 20, "32M"},
                 {1310720, "1.25M"}, {1048576.0 * 1024, "1G"}, {-1, "?"},
                 {49152, "48K"},     {1019718, "996K"},        {512, "512"}};
    char buf[24];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        fmt_size(buf, sizeof(buf), cases[i].bytes);
        assert_string_equal(buf, cases[i].text);
    }
    fmt_size(buf, sizeof(buf), NAN);
    assert_string_equal(buf, "?");
}

static void test_kstring(void **state)
{
    (void)state;
    assert_int_equal(kstr_distance("random.min", "random.mn"), 1);
    assert_int_equal(kstr_distance("reps", "resp"), 1);
    assert_int_equal(kstr_distance("random.mxa", "random.max"), 1);
    assert_int_equal(kstr_distance("kitten", "sitting"), 3);
    assert_int_equal(kstr_distance("", "abc"), 3);
    assert_true(kstrcasecmp("Quick", "quick") == 0);
    char d[4];
    assert_int_equal(kstrlcpy(d, "hello", sizeof(d)), 5);
    assert_string_equal(d, "hel");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers),          cmocka_unit_test(test_size),
        cmocka_unit_test(test_strings_and_chars), cmocka_unit_test(test_doubles),
        cmocka_unit_test(test_doubles_random),    cmocka_unit_test(test_spec_parsing),
        cmocka_unit_test(test_malformed_specs),   cmocka_unit_test(test_precision_bounds_the_read),
        cmocka_unit_test(test_truncation),        cmocka_unit_test(test_kstring),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
