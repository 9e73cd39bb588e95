// SPDX-License-Identifier: MIT
// Unit tests of the bandwidth kernels' byte accounting: what one GB/s counts.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "stream/bw.h"

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

/* Widths a point is measured at: with auto every usable one, widest first; else the one asked. */
static void test_width_candidates(void **state)
{
    (void)state;
    const uint64_t avx512_state =
        XCR0_X87 | XCR0_SSE | XCR0_AVX | XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM;
    /* Cascade Lake under Linux, which enabled every component */
    struct simd_caps clx = {.sse2 = true,
                            .avx = true,
                            .avx2 = true,
                            .avx512f = true,
                            .xsave = true,
                            .xcr0_cpu = avx512_state,
                            .os_xsave = true,
                            .xcr0_os = avx512_state};
    enum simd_width w[BW_CANDIDATES_MAX];
    assert_int_equal(bw_width_candidates(&clx, false, SIMD_AUTO, w), 3);
    assert_int_equal(w[0], SIMD_AVX512);
    assert_int_equal(w[1], SIMD_AVX2);
    assert_int_equal(w[2], SIMD_SSE2);
    assert_int_equal(bw_width_candidates(&clx, false, SIMD_AVX2, w), 1);
    assert_int_equal(w[0], SIMD_AVX2);
    /* an OS that left the AVX-512 state off: AVX2 and SSE2 */
    clx.xcr0_os = XCR0_X87 | XCR0_SSE | XCR0_AVX;
    assert_int_equal(bw_width_candidates(&clx, false, SIMD_AUTO, w), 2);
    assert_int_equal(w[0], SIMD_AVX2);
    assert_int_equal(w[1], SIMD_SSE2);
    assert_int_equal(bw_width_candidates(&clx, false, SIMD_AVX512, w), 0);
    /* the firmware front end (ring 0, CR4.OSXSAVE clear): chase enables what CPUID offers */
    clx.os_xsave = false;
    clx.xcr0_os = 0;
    assert_int_equal(bw_width_candidates(&clx, true, SIMD_AUTO, w), 3);
    /* QEMU's qemu64: SSE2 alone */
    struct simd_caps qemu64 = {.sse2 = true};
    assert_int_equal(bw_width_candidates(&qemu64, true, SIMD_AUTO, w), 1);
    assert_int_equal(w[0], SIMD_SSE2);
    /* AArch64: SVE where enabled, then NEON; NEON alone while SVE is off */
    struct simd_caps sve = {.neon = true, .sve = true, .sve_enabled = true, .sve_vector_bytes = 32};
    assert_int_equal(bw_width_candidates(&sve, false, SIMD_AUTO, w), 2);
    assert_int_equal(w[0], SIMD_SVE);
    assert_int_equal(w[1], SIMD_NEON);
    sve.sve_enabled = false;
    assert_int_equal(bw_width_candidates(&sve, false, SIMD_AUTO, w), 1);
    assert_int_equal(w[0], SIMD_NEON);
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
        cmocka_unit_test(test_width_candidates),
        cmocka_unit_test(test_l1_peak_per_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
