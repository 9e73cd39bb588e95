// SPDX-License-Identifier: MIT
// Unit tests of the bandwidth kernels' byte accounting: what one GB/s counts.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "experiments/bw.h"

/* A whole lap over a buffer moves the buffer's size whatever the kernel: a copy reads one half
   and writes the other, and both count. */
static void test_a_lap_moves_the_buffer(void **state)
{
    (void)state;
    const uint64_t size = 1 << 20;
    for (unsigned k = 0; k < BW_KERNELS; k++) {
        uint64_t span = bw_span_bytes((enum bw_kernel)k, size);
        assert_int_equal(bw_bytes_moved((enum bw_kernel)k, span, 1), size);
        assert_int_equal(bw_bytes_moved((enum bw_kernel)k, span, 3), 3 * size);
    }
    assert_int_equal(bw_span_bytes(BW_COPY, size), size / 2);
    assert_int_equal(bw_span_bytes(BW_NT_COPY, size), size / 2);
    assert_int_equal(bw_span_bytes(BW_REP_MOVSB, size), size / 2);
    assert_int_equal(bw_span_bytes(BW_READ, size), size);
    assert_int_equal(bw_span_bytes(BW_NT_WRITE, size), size);
    /* a copy of 4K: 4K read plus 4K written */
    assert_int_equal(bw_bytes_moved(BW_COPY, 4096, 1), 8192);
    assert_int_equal(bw_bytes_moved(BW_WRITE, 4096, 1), 4096);
}

/* Names as the configuration and the CSV write them, in the enum's order. */
static void test_names(void **state)
{
    (void)state;
    assert_string_equal(bw_kernel_names[BW_READ], "read");
    assert_string_equal(bw_kernel_names[BW_NT_COPY], "nt_copy");
    assert_string_equal(bw_kernel_names[BW_REP_STOSB], "rep_stosb");
    assert_null(bw_kernel_names[BW_KERNELS]);
}

/* The width a row says: the vector's, or 0 for the string kernels. */
static void test_width_bits(void **state)
{
    (void)state;
    struct simd_caps sve256 = {
        .neon = true, .sve = true, .sve_enabled = true, .sve_vector_bytes = 32};
    assert_int_equal(bw_width_bits(BW_READ, &sve256, SIMD_AVX512), 512);
    assert_int_equal(bw_width_bits(BW_COPY, &sve256, SIMD_SSE2), 128);
    assert_int_equal(bw_width_bits(BW_REP_MOVSB, &sve256, SIMD_AVX2), 0);
    assert_int_equal(bw_width_bits(BW_NT_COPY, &sve256, SIMD_NEON), 128);
    assert_int_equal(bw_width_bits(BW_READ, &sve256, SIMD_SVE), 256); /* the machine's VL */
}

/* L1 peaks per kernel from a core's load and store bytes per cycle (Cascade Lake, AVX-512). */
static void test_l1_peak_per_kernel(void **state)
{
    (void)state;
    assert_true(bw_l1_peak_bpc(BW_READ, 128, 64) == 128);
    assert_true(bw_l1_peak_bpc(BW_WRITE, 128, 64) == 64);
    assert_true(bw_l1_peak_bpc(BW_COPY, 128, 64) == 128); /* 64 loaded + 64 stored */
    assert_true(bw_l1_peak_bpc(BW_NT_WRITE, 128, 64) != bw_l1_peak_bpc(BW_NT_WRITE, 128, 64));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_lap_moves_the_buffer),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_width_bits),
        cmocka_unit_test(test_l1_peak_per_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
