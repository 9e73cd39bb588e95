// SPDX-License-Identifier: MIT
// Unit tests of the bandwidth experiment's keys: defaults, kernel lists, widths this CPU lacks.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cfg_values.h" /* before cfg_errors.h: its functions take a cfg of their own */
#include "cfg_errors.h"
#include "lib/json.h"

/* A machine with a 32M last cache and SSE2 and AVX2 but no AVX-512, seen from user space. */
static int setup(void **state)
{
    (void)state;
    memset(&machine, 0, sizeof(machine));
    strcpy(machine.platform, "linux");
    machine.cpu.ncaches = 1;
    machine.cpu.caches[0] = (struct cache_info){.level = 3,
                                                .type = CACHE_UNIFIED,
                                                .size_bytes = 32 << 20,
                                                .ways = 16,
                                                .line_bytes = 64,
                                                .sets = 32768};
    cfg_machine_avx2();
    machine.memory_total_bytes = 16ull << 30;
    machine.buffer_limit_bytes = 4ull << 30;
    cfg_errors_begin();
    return 0;
}

/* Defaults: random's sizes and points per octave, the five vector kernels, the widest width. */
static void test_defaults(void **state)
{
    (void)state;
    assert_true(resolve(NULL, NULL));
    assert_int_equal(cfg_u64(&cfg, "bandwidth.min"), cfg_u64(&cfg, "random.min"));
    assert_int_equal(cfg_u64(&cfg, "bandwidth.max"), cfg_u64(&cfg, "random.max"));
    assert_true(cfg_u64(&cfg, "bandwidth.max") >= 4 * (32ull << 20));
    assert_int_equal(cfg_u64(&cfg, "bandwidth.points_per_octave"),
                     cfg_u64(&cfg, "random.points_per_octave"));
    const struct cfg_list *k = cfg_list_value(&cfg, "bandwidth.kernels");
    assert_int_equal(k->n, 5);
    char text[120];
    const void *params;
    const struct key_desc *key = cfg_key(&cfg, "bandwidth.kernels", &params);
    cfg_format_value(text, sizeof(text), key, params);
    assert_string_equal(text, "read,write,copy,nt_write,nt_copy");
    key = cfg_key(&cfg, "bandwidth.width", &params);
    cfg_format_value(text, sizeof(text), key, params);
    assert_string_equal(text, "auto");
}

/* A list of kernels by name, any case; an unknown name is malformed. */
static void test_kernel_lists(void **state)
{
    (void)state;
    assert_true(resolve(NULL, "bandwidth.kernels=Copy,rep_movsb"));
    const struct cfg_list *k = cfg_list_value(&cfg, "bandwidth.kernels");
    assert_int_equal(k->n, 2);
    assert_int_equal(k->v[0], 2); /* copy */
    assert_int_equal(k->v[1], 5); /* rep_movsb */
}

static void test_unknown_kernel(void **state)
{
    (void)state;
    assert_false(resolve(NULL, "bandwidth.kernels=read,triad"));
    assert_error("key 'bandwidth.kernels'");
    assert_error("read, write, copy, nt_write, nt_copy, rep_movsb, rep_stosb");
}

/* A width the CPU has is accepted; one it lacks names what it supports. */
static void test_widths(void **state)
{
    (void)state;
    assert_true(resolve(NULL, "bandwidth.width=avx2"));
}

static void test_width_the_cpu_lacks(void **state)
{
    (void)state;
    assert_false(resolve(NULL, "bandwidth.width=avx512"));
    assert_error("key 'bandwidth.width': avx512 is not usable here (the CPU lacks it); this "
                 "machine supports sse2, avx2");
}

/* The OS has not enabled AVX: avx2 is an error on the host, yet fine in ring 0 (chase.efi). */
static void test_width_the_os_lacks(void **state)
{
    (void)state;
    machine.cpu.simd.xcr0_os = 0x3;
    assert_false(resolve(NULL, "bandwidth.width=avx2"));
    assert_error("the operating system has not enabled its register state (XCR0)); this "
                 "machine supports sse2");
}

static void test_width_in_ring0(void **state)
{
    (void)state;
    machine.cpu.simd.xcr0_os = 0;
    machine.cpu.simd.os_xsave = false;
    machine.ring0 = true;
    assert_true(resolve(NULL, "bandwidth.width=avx2"));
}

static void test_min_above_max(void **state)
{
    (void)state;
    assert_false(resolve(NULL, "bandwidth.min=1M bandwidth.max=64K"));
    assert_error("key 'bandwidth.min': min (1048576) is larger than max (65536)");
}

/* bw_cores: each processor's buffer from the level (half an L2 here: 1M of 2M), or as given. */
static void test_bw_cores_sizes(void **state)
{
    (void)state;
    machine.cpu.ncaches = 2;
    machine.cpu.caches[1] = (struct cache_info){.level = 2,
                                                .type = CACHE_UNIFIED,
                                                .size_bytes = 2 << 20,
                                                .ways = 16,
                                                .line_bytes = 64,
                                                .sets = 2048};
    assert_true(resolve(NULL, "bw_cores.level=L2"));
    assert_true(cfg_auto_value(&cfg, "bw_cores.size")->is_auto);
    assert_int_equal(cfg_auto_value(&cfg, "bw_cores.size")->value, 1 << 20);
    assert_true(resolve(NULL, "bw_cores.level=dram"));
    assert_int_equal(cfg_auto_value(&cfg, "bw_cores.size")->value, 64 << 20); /* 2 x 32M LLC */
    assert_true(resolve(NULL, "bw_cores.size=96K"));
    assert_false(cfg_auto_value(&cfg, "bw_cores.size")->is_auto);
    assert_int_equal(cfg_auto_value(&cfg, "bw_cores.size")->value, 96 << 10);
}

static void test_bw_cores_errors(void **state)
{
    (void)state;
    assert_false(resolve(NULL, "bw_cores.size=1000000 bw_cores.width=avx512 bw_cores.level=L4"));
    assert_error("key 'bw_cores.size': 1000000 is not a multiple of 1024");
    assert_error("key 'bw_cores.width': avx512 is not usable here");
    assert_error("key 'bw_cores.level'");
}

/* AArch64's widths: neon and sve where the machine has them; x86's are errors naming them, and
   neon on the x86 machine names x86's. */
static void test_aarch64_widths(void **state)
{
    (void)state;
    assert_false(resolve(NULL, "bandwidth.width=neon"));
    assert_error("key 'bandwidth.width': neon is not usable here (the CPU lacks it); this "
                 "machine supports sse2, avx2");
    machine.cpu.simd = (struct simd_caps){.neon = true, .sve = true, .sve_enabled = true};
    strbuf_release(&errs.text);
    memset(&errs, 0, sizeof(errs));
    assert_true(resolve(NULL, "bandwidth.width=sve bw_cores.width=neon"));
    assert_false(resolve(NULL, "bandwidth.width=avx2"));
    assert_error("avx2 is not usable here (the CPU lacks it); this machine supports neon, sve");
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_defaults),        T(test_kernel_lists),        T(test_unknown_kernel),
        T(test_widths),          T(test_width_the_cpu_lacks), T(test_width_the_os_lacks),
        T(test_width_in_ring0),  T(test_min_above_max),       T(test_bw_cores_sizes),
        T(test_bw_cores_errors), T(test_aarch64_widths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
