// SPDX-License-Identifier: MIT
// Unit tests of the bandwidth kernels' machine code on this CPU: every kernel of every width it
// can run touches exactly its bytes and no others, and read returns their quadwords' fold: the sum
// (SSE2, AVX2) or the XOR (AVX-512) over every lap.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/bw_kernels.h"

#define SPAN_BYTES (3 * BW_BLOCK_BYTES) /* more than one iteration of every width */
#define GUARD_BYTES 256                 /* checked untouched around what a kernel may touch */
#define LAPS 3
#define GUARD 0x5a
#define SEED 12345u

struct width {
    const char *name; /* __builtin_cpu_supports' name */
    bool xor_fold;    /* read folds by XOR (else by a 64-bit sum) */
    bw_kernel_fn read, write, copy, nt_write, nt_copy;
};

static const struct width widths[] = {
    {"sse2", false, bw_read_sse2, bw_write_sse2, bw_copy_sse2, bw_nt_write_sse2, bw_nt_copy_sse2},
    {"avx2", false, bw_read_avx2, bw_write_avx2, bw_copy_avx2, bw_nt_write_avx2, bw_nt_copy_avx2},
    {"avx512f", true, bw_read_avx512, bw_write_avx512, bw_copy_avx512, bw_nt_write_avx512,
     bw_nt_copy_avx512},
};

/* [guard][src span][guard][dst span][guard], 64-byte aligned spans. */
static uint8_t area[3 * GUARD_BYTES + 2 * SPAN_BYTES] __attribute__((aligned(64)));
#define SRC (area + GUARD_BYTES)
#define DST (area + 2 * GUARD_BYTES + SPAN_BYTES)

/* The source filled with a fixed pseudo-random pattern, the rest with the guard byte. */
static void fill(void)
{
    uint32_t x = SEED;
    memset(area, GUARD, sizeof(area));
    for (size_t i = 0; i < SPAN_BYTES; i++) {
        x = x * 1103515245u + 12345u;
        SRC[i] = (uint8_t)(x >> 16);
    }
}

/* Whether [p, p + n) all hold byte b. */
static bool all(const uint8_t *p, size_t n, uint8_t b)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != b)
            return false;
    return true;
}

/* The guards around and between the spans are untouched. */
static void assert_guards(void)
{
    assert_true(all(area, GUARD_BYTES, GUARD));
    assert_true(all(SRC + SPAN_BYTES, GUARD_BYTES, GUARD));
    assert_true(all(DST + SPAN_BYTES, GUARD_BYTES, GUARD));
}

/* What read returns after laps laps over [p, p + n): its quadwords summed or XORed laps times. */
static uint64_t quadword_fold(const uint8_t *p, size_t n, unsigned laps, bool xor_fold)
{
    uint64_t s = 0, q;
    for (unsigned lap = 0; lap < laps; lap++)
        for (size_t i = 0; i < n; i += 8) {
            memcpy(&q, p + i, 8);
            s = xor_fold ? s ^ q : s + q;
        }
    return s;
}

/* One width's five kernels. */
static void check_width(const struct width *w)
{
    uint8_t copy_of[SPAN_BYTES];
    fill();
    memcpy(copy_of, SRC, SPAN_BYTES);
    /* An odd and an even lap count: an XOR fold that skipped a lap would miss one of them. */
    for (unsigned laps = LAPS - 1; laps <= LAPS; laps++)
        assert_true(w->read(DST, SRC, SPAN_BYTES, laps) ==
                    quadword_fold(SRC, SPAN_BYTES, laps, w->xor_fold));
    assert_memory_equal(SRC, copy_of, SPAN_BYTES); /* read writes nothing */
    assert_true(all(DST, SPAN_BYTES, GUARD));
    bw_kernel_fn stores[] = {w->write, w->nt_write}, copies[] = {w->copy, w->nt_copy};
    for (int i = 0; i < 2; i++) {
        fill();
        assert_int_equal(stores[i](DST, SRC, SPAN_BYTES, LAPS), 0);
        assert_true(all(DST, SPAN_BYTES, 0xff));
        assert_memory_equal(SRC, copy_of, SPAN_BYTES);
        assert_guards();
        fill();
        assert_int_equal(copies[i](DST, SRC, SPAN_BYTES, LAPS), 0);
        assert_memory_equal(DST, copy_of, SPAN_BYTES);
        assert_memory_equal(SRC, copy_of, SPAN_BYTES);
        assert_guards();
    }
}

static void test_widths(void **state)
{
    (void)state;
    unsigned ran = 0;
    __builtin_cpu_init();
    for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
        /* Linux enables the state of every width the CPU has; the names are literals */
        bool has = i == 0   ? __builtin_cpu_supports("sse2")
                   : i == 1 ? __builtin_cpu_supports("avx2")
                            : __builtin_cpu_supports("avx512f");
        if (!has) {
            print_message("%s: not on this CPU, not run\n", widths[i].name);
            continue;
        }
        check_width(&widths[i]);
        ran++;
    }
    assert_true(ran >= 1); /* SSE2 is every x86-64's */
}

/* The string kernels: rep movsb copies, rep stosb fills with 0xff. */
static void test_string_kernels(void **state)
{
    (void)state;
    uint8_t copy_of[SPAN_BYTES];
    fill();
    memcpy(copy_of, SRC, SPAN_BYTES);
    assert_int_equal(bw_rep_movsb(DST, SRC, SPAN_BYTES, LAPS), 0);
    assert_memory_equal(DST, copy_of, SPAN_BYTES);
    assert_guards();
    fill();
    assert_int_equal(bw_rep_stosb(DST, SRC, SPAN_BYTES, LAPS), 0);
    assert_true(all(DST, SPAN_BYTES, 0xff));
    assert_memory_equal(SRC, copy_of, SPAN_BYTES);
    assert_guards();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_widths),
        cmocka_unit_test(test_string_kernels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
