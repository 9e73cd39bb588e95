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
#include "fake_machine.h"
#include "platform.h"

#define KiB (1ull << 10)
#define MiB (1ull << 20)
#define NPROC 8 /* the machine's processors, the boot processor included */

/* 8 processors, a 32M last cache (2M L2, 32K L1d), SSE2 and AVX2, 4 GiB of buffer room. */
static int setup(void **state)
{
    (void)state;
    fake_machine(&machine, 32 * KiB, 2 * MiB, 32 * MiB);
    cfg_machine_avx2();
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

/* Levels: L1 and L2 are per processor (half of them); L3: half of each processor's part of the
   L3, at least twice its L2 (half the L3 shared out would be 2M: the L2's size, measuring L2). */
static void test_level_sizes_per_processor(void **state)
{
    (void)state;
    assert_true(resolve(NULL, "experiments=bw_cores bw_cores.level=L2"));
    assert_int_equal(bw_cores_size(), MiB);
    assert_int_equal(bw_cores_need(), NPROC * MiB);
    assert_true(resolve(NULL, "bw_cores.level=L3"));
    assert_int_equal(bw_cores_size(), 4 * MiB); /* 32M / 8 processors, twice the 2M L2 */
    assert_int_equal(bw_cores_need(), 32 * MiB);
    machine.processors = 4; /* 8M each: half of it is 4M, twice the L2 */
    assert_true(resolve(NULL, NULL));
    assert_int_equal(bw_cores_size(), 4 * MiB);
    machine.processors = 2; /* 16M each: half of it */
    assert_true(resolve(NULL, NULL));
    assert_int_equal(bw_cores_size(), 8 * MiB);
    machine.processors = NPROC;
    assert_true(resolve(NULL, "bw_cores.level=dram"));
    assert_int_equal(bw_cores_size(), 64 * MiB); /* twice the last cache, each */
    assert_int_equal(bw_cores_need(), NPROC * 64 * MiB);
}

/* The machine's caches: L1d 32K, then l2 and an L3 instance of l3 shared by l3_shared of the
   processors. */
static void caches(uint64_t l2, uint64_t l3, unsigned l3_shared)
{
    machine.cpu.caches[1].size_bytes = l2;
    machine.cpu.caches[2].size_bytes = l3;
    machine.cpu.caches[2].shared_by = l3_shared;
}

/* A 2-socket Xeon of 28 cores a socket with SMT (112 processors; CPUID says 64 IDs share the
   L3): 1.375M of L2 and 1.375M of L3 per core. With the 64 processors bw_cores takes, 32 on
   each L3, a processor's part is 38.5M / 32 = 1.2M, less than its L2: no size is beyond its L2
   and within its part, so each streams twice its L2 (the run says so, test_bw_cores). */
static void test_l3_xeon_two_sockets(void **state)
{
    (void)state;
    caches(1408 * KiB, 28 * 1408 * KiB, 64);
    machine.processors = 112;
    assert_true(resolve(NULL, "experiments=bw_cores bw_cores.level=L3"));
    assert_int_equal(bw_cores_size(), 2 * 1408 * KiB);
    assert_int_equal(bw_cores_need(), PLAT_CPUS_MAX * 2 * 1408 * KiB);
    machine.processors = 4; /* a guest's 4 on one socket: 38.5M / 4 / 2 = 4.8M, within it */
    assert_true(resolve(NULL, NULL));
    assert_int_equal(bw_cores_size(), 28 * 1408 * KiB / 4 / 2 / KiB * KiB);
}

/* An AMD EPYC of 96 cores with SMT (192 processors): 12 CCDs, each an L3 of 32M that its 16
   processors share (CPUID 0x8000001D), 1M of L2. The 64 processors taken lie on 12 L3s, 6 at
   most on one: 32M / 6 / 2 = 2.67M each (half the one L3 shared out among 64 would be 256K, a
   quarter of the L2). On two sockets, 24 L3s, 3 on one: 5.33M. */
static void test_l3_epyc_several_l3s(void **state)
{
    (void)state;
    caches(MiB, 32 * MiB, 16);
    machine.processors = 192;
    assert_true(resolve(NULL, "experiments=bw_cores bw_cores.level=L3"));
    assert_int_equal(bw_cores_size(), 32 * MiB / 6 / 2 / KiB * KiB);
    machine.processors = 384;
    assert_true(resolve(NULL, NULL));
    assert_int_equal(bw_cores_size(), 32 * MiB / 3 / 2 / KiB * KiB);
    machine.processors = 16; /* one CCD's: all 16 on its L3, 1M each is the L2: twice it */
    assert_true(resolve(NULL, NULL));
    assert_int_equal(bw_cores_size(), 2 * MiB);
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
        T(test_l3_xeon_two_sockets),
        T(test_l3_epyc_several_l3s),
        T(test_auto_lowered_to_fit),
        T(test_given_size_beyond_memory),
        T(test_given_size_fits_fewer_processors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
