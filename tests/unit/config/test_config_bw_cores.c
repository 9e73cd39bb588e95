// SPDX-License-Identifier: MIT
// Unit tests of bw_cores' plan: a buffer of its own for every processor, and when memory is short.
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
#include "platform.h"

#define MiB (1ull << 20)
#define NPROC 8 /* the machine's processors, the boot processor included */

/* 8 processors, a 32M last cache (2M L2, 32K L1d), SSE2 and AVX2, 4 GiB of buffer room. */
static int setup(void **state)
{
    (void)state;
    memset(&machine, 0, sizeof(machine));
    strcpy(machine.platform, "linux");
    machine.cpu.ncaches = 3;
    machine.cpu.caches[0] = (struct cache_info){
        .level = 1, .type = CACHE_DATA, .size_bytes = 32 << 10, .ways = 8, .line_bytes = 64};
    machine.cpu.caches[1] = (struct cache_info){
        .level = 2, .type = CACHE_UNIFIED, .size_bytes = 2 << 20, .ways = 16, .line_bytes = 64};
    machine.cpu.caches[2] = (struct cache_info){
        .level = 3, .type = CACHE_UNIFIED, .size_bytes = 32 << 20, .ways = 16, .line_bytes = 64};
    cfg_machine_avx2();
    machine.memory_total_bytes = 16ull << 30;
    machine.buffer_limit_bytes = 4ull << 30;
    machine.processors = NPROC;
    cfg_errors_begin();
    return 0;
}

/* The chase buffer bw_cores' resolved plan needs on the machine (its buffer_bytes hook). */
static uint64_t bw_cores_need(void)
{
    int idx = cfg_table_find(&experiment_cfg_table, "bw_cores");
    assert_true(idx >= 0);
    const struct cfg_section *x = experiment_cfg_table.section((size_t)idx);
    return x->buffer_bytes(cfg_params_const(&cfg, (size_t)idx), &machine);
}

static uint64_t bw_cores_size(void)
{
    return cfg_auto_value(&cfg, "bw_cores.size")->value;
}

/* A size as given is each processor's: the plan holds it once for every processor. */
static void test_need_is_size_times_processors(void **state)
{
    (void)state;
    assert_true(resolve(NULL, "experiments=bw_cores bw_cores.size=1M"));
    assert_int_equal(bw_cores_size(), MiB);
    assert_int_equal(bw_cores_need(), NPROC * MiB);
    machine.processors = 3; /* an odd count: no rounding to a power of two */
    assert_int_equal(bw_cores_need(), 3 * MiB);
    machine.processors = 0; /* no others to start: the boot processor's buffer alone */
    assert_int_equal(bw_cores_need(), MiB);
    machine.processors = PLAT_CPUS_MAX + 10; /* mp_cpus takes PLAT_CPUS_MAX of them at most */
    assert_int_equal(bw_cores_need(), PLAT_CPUS_MAX * MiB);
}

/* Levels: L1 and L2 are per processor (half of them), L3's half is shared out among them. */
static void test_level_sizes_per_processor(void **state)
{
    (void)state;
    assert_true(resolve(NULL, "experiments=bw_cores bw_cores.level=L2"));
    assert_int_equal(bw_cores_size(), MiB);
    assert_int_equal(bw_cores_need(), NPROC * MiB);
    assert_true(resolve(NULL, "bw_cores.level=L3"));
    assert_int_equal(bw_cores_size(), 32 * MiB / 2 / NPROC);
    assert_int_equal(bw_cores_need(), 16 * MiB);
    assert_true(resolve(NULL, "bw_cores.level=dram"));
    assert_int_equal(bw_cores_size(), 64 * MiB); /* twice the last cache, each */
    assert_int_equal(bw_cores_need(), NPROC * 64 * MiB);
}

/* size auto beyond memory: each processor's buffer is lowered to the largest that fits for all
   (2^k or 1.5 x 2^k, as the configuration offers), and the run goes on. */
static void test_auto_lowered_to_fit(void **state)
{
    (void)state;
    machine.buffer_limit_bytes = 256 * MiB; /* 8 x 64M would need 512M */
    assert_true(resolve(NULL, "experiments=bw_cores bw_cores.level=dram"));
    assert_true(cfg_auto_value(&cfg, "bw_cores.size")->is_auto);
    assert_int_equal(bw_cores_size(), 32 * MiB);
    assert_int_equal(bw_cores_need(), 256 * MiB);
    machine.buffer_limit_bytes = 200 * MiB; /* 25M each at most: 24M is 1.5 x 16M */
    assert_true(resolve(NULL, NULL));
    assert_int_equal(bw_cores_size(), 24 * MiB);
    assert_true(bw_cores_need() <= 200 * MiB);
    machine.processors = 0; /* one processor: 64M fits as it is */
    assert_true(resolve(NULL, NULL));
    assert_int_equal(bw_cores_size(), 64 * MiB);
}

/* A size as given beyond memory: a configuration error naming each processor's largest. */
static void test_given_size_beyond_memory(void **state)
{
    (void)state;
    machine.buffer_limit_bytes = 256 * MiB;
    assert_false(resolve(NULL, "experiments=bw_cores bw_cores.size=64M"));
    assert_error("load options:2: key 'bw_cores.size': the plan needs a 512M buffer but at most "
                 "256M fits in memory; the largest bw_cores.size that fits is 32M");
}

/* The same size fits on fewer processors: the plan follows the machine, not the key alone. */
static void test_given_size_fits_fewer_processors(void **state)
{
    (void)state;
    machine.buffer_limit_bytes = 256 * MiB;
    machine.processors = 4;
    assert_true(resolve(NULL, "experiments=bw_cores bw_cores.size=64M"));
    assert_int_equal(bw_cores_need(), 256 * MiB);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_need_is_size_times_processors),
        T(test_level_sizes_per_processor),
        T(test_auto_lowered_to_fit),
        T(test_given_size_beyond_memory),
        T(test_given_size_fits_fewer_processors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
