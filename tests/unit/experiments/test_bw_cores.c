// SPDX-License-Identifier: MIT
// Unit tests of bw_cores' run on fake processors: where each one streams, and what it says.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stream/bw.h"
#include "experiments/experiment.h"
#include "procs/mp.h"
#include "fake_machine.h"
#include "lib/strbuf.h"
#include "stubs/stub_platform.h"

extern const struct experiment experiment_bw_cores;

#define KiB 1024ull
#define SHARE_NOTE "a share of the buffer: more processors than planned"
#define NO_L3_NOTE "no L3 size: twice the L2 is more than its part of the L3"
#define RANGES_MAX 65536 /* kernel calls recorded at most (a run makes a few hundred) */

static struct machine machine;
static struct chase_config cfg;
static struct timing timing;
static struct exp_ctx ctx;
static struct cfg_params params;

/* What the fake kernels walked: one [lo, hi) per call, from any thread. */
static struct {
    const uint8_t *lo, *hi;
} ranges[RANGES_MAX];
static unsigned nranges;

static void walked(const uint8_t *p, uint64_t bytes)
{
    unsigned i = __atomic_fetch_add(&nranges, 1, __ATOMIC_RELAXED);
    if (i < RANGES_MAX) {
        ranges[i].lo = p;
        ranges[i].hi = p + bytes;
    }
}

/* The kernels, faked: each touches a byte of every page it is given (out of the buffer: an
   AddressSanitizer report) and records what it walked, once whatever laps says. */
static uint64_t fake_read(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps)
{
    (void)dst, (void)laps;
    uint64_t sum = 0;
    for (uint64_t at = 0; at < bytes; at += 4 * KiB)
        sum += src[at];
    walked(src, bytes);
    return sum + src[bytes - 1];
}

static uint64_t fake_write(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps)
{
    (void)src, (void)laps;
    for (uint64_t at = 0; at < bytes; at += 4 * KiB)
        dst[at] = 1;
    dst[bytes - 1] = 1;
    walked(dst, bytes);
    return 0;
}

static uint64_t fake_copy(uint8_t *dst, const uint8_t *src, uint64_t bytes, uint64_t laps)
{
    uint64_t sum = fake_read(dst, src, bytes, laps);
    fake_write(dst, src, bytes, laps);
    return sum;
}

bw_kernel_fn bw_kernel_code(enum bw_kernel k, enum simd_width w)
{
    (void)w;
    return bw_is_copy(k) ? fake_copy : k == BW_READ ? fake_read : fake_write;
}

/* The parameter of key `name` in params. */
static void *param(const char *name)
{
    const struct cfg_section *s = &experiment_bw_cores.cfg;
    for (size_t i = 0; i < s->nkeys; i++)
        if (!strcmp(s->keys[i].name, name))
            return params.bytes + s->keys[i].offset;
    fail_msg("bw_cores has no key %s", name);
    return NULL;
}

/* A machine with a 1M L2 and an L3 of l3 bytes whose plan counts `planned` processors, and
   `answering` fake processors (the first the boot one); bw_cores' defaults, level L2. */
static void machine_l3(unsigned planned, unsigned answering, uint64_t l3)
{
    fake_machine(&machine, 32 * KiB, 1 << 20, l3);
    machine.cpu.simd = (struct simd_caps){.sse2 = true};
    machine.processors = planned;
    stub_ncpus = answering;
    for (unsigned i = 0; i < answering; i++)
        stub_cpus[i] = (struct plat_cpu){.id = i, .core = i, .bsp = i == 0};
    memset(&params, 0, sizeof(params));
    experiment_bw_cores.cfg.defaults(params.bytes, &machine, PROFILE_QUICK);
    *(unsigned *)param("level") = 1; /* L2 */
}

/* ... with an 8M L3. */
static void machine_with(unsigned planned, unsigned answering)
{
    machine_l3(planned, answering, 8 << 20);
}

/* The run's context: quick, a fixed count of 3 runs a row, the buffer the plan asks for. */
static void ctx_begin(void)
{
    experiment_bw_cores.cfg.resolve(params.bytes, &machine);
    memset(&cfg, 0, sizeof(cfg));
    cfg.global.profile = PROFILE_QUICK;
    cfg.global.reps = 3;
    cfg.global.passes = 1;
    cfg.global.point_max_ms = 1000;
    cfg.global.window_max_ms = 100;
    cfg.global.warm_laps = (struct cfg_auto){0, true};
    /* a TSC rate above any real one: the processors' 10 s deadlines last 10 s or more */
    timing = (struct timing){.tsc_hz = 5000000000, .wall_tsc_hz = 5000000000};
    memset(&ctx, 0, sizeof(ctx));
    ctx.m = &machine;
    ctx.cfg = &cfg;
    ctx.timing = &timing;
    ctx.measure = measure_chase;
    ctx.buffer.size_bytes = experiment_bw_cores.cfg.buffer_bytes(params.bytes, &machine);
    ctx.buffer.virt = aligned_alloc(BW_ALIGN_BYTES, ctx.buffer.size_bytes);
    assert_non_null(ctx.buffer.virt);
    nranges = 0;
    stub_console_reset();
}

static int teardown(void **state)
{
    (void)state;
    stub_cpus_unpin();
    free(ctx.buffer.virt);
    ctx.buffer.virt = NULL;
    strbuf_release(&ctx.csv);
    strbuf_release(&ctx.samples);
    stub_ncpus = 0;
    return 0;
}

/* Every walk lies inside one of n equal shares of the buffer, and each share was walked. */
static void assert_shares(unsigned n)
{
    uint64_t share = ctx.buffer.size_bytes / n;
    bool used[PLAT_CPUS_MAX] = {false};
    assert_true(nranges > 0 && nranges <= RANGES_MAX);
    for (unsigned i = 0; i < nranges; i++) {
        assert_true(ranges[i].lo >= ctx.buffer.virt && ranges[i].hi > ranges[i].lo);
        uint64_t k = (uint64_t)(ranges[i].lo - ctx.buffer.virt) / share;
        assert_true(k < n);
        if ((uint64_t)(ranges[i].hi - ctx.buffer.virt) > (k + 1) * share)
            fail_msg("a walk of %llu bytes at %llu crosses share %llu's end (%llu bytes each)",
                     (unsigned long long)(ranges[i].hi - ranges[i].lo),
                     (unsigned long long)(ranges[i].lo - ctx.buffer.virt), (unsigned long long)k,
                     (unsigned long long)share);
        used[k] = true;
    }
    for (unsigned k = 0; k < n; k++)
        assert_true(used[k]);
}

/* The CSV's rows: how many; each must name level, size_bytes and size_note (before the width
   and each width's median, the last two columns) as given, and its width among the medians. */
static unsigned csv_rows(const char *level, uint64_t size_bytes, const char *note)
{
    const char *csv = strbuf_str(&ctx.csv);
    char level_col[32], size_col[32], note_col[80];
    unsigned rows = 0;
    snprintf(level_col, sizeof(level_col), ",%s,", level);
    snprintf(size_col, sizeof(size_col), ",%llu,", (unsigned long long)size_bytes);
    snprintf(note_col, sizeof(note_col), ",%s", note);
    assert_non_null(strstr(csv, ",size_note,width,widths_gbs\n"));
    for (const char *line = strchr(csv, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        const char *end = strchr(line + 1, '\n');
        char row[256];
        snprintf(row, sizeof(row), "%.*s", (int)(end - line - 1), line + 1);
        char *widths = strrchr(row, ','), width[16], kept[24];
        assert_non_null(widths);
        *widths = 0;
        char *w = strrchr(row, ',');
        assert_non_null(w);
        snprintf(width, sizeof(width), "%s", w + 1);
        snprintf(kept, sizeof(kept), "%s:", width);
        assert_non_null(strstr(widths + 1, kept)); /* the kept width's median is listed */
        *w = 0;
        const char *last = strrchr(row, ',');
        if (!strstr(row, level_col) || !strstr(row, size_col) || strcmp(last, note_col) != 0)
            fail_msg("want level %s, size_bytes %s, size_note %s: %s", level, size_col, note, row);
        rows++;
    }
    return rows;
}

/* As many processors answer as the plan counted: each streams its own half of an L2. */
static void test_as_planned(void **state)
{
    (void)state;
    machine_with(4, 4);
    ctx_begin();
    assert_int_equal(ctx.buffer.size_bytes, 4 * 512 * KiB);
    assert_int_equal(experiment_bw_cores.run(&ctx, params.bytes), 0);
    assert_shares(4);
    assert_null(strstr(stub_console, "share of the buffer"));
    assert_int_equal(csv_rows("L2", 512 * KiB, ""), 3 + 5); /* 1, 2, 4; the five mixes */
}

/* With AVX2 usable too (width auto), every row is measured at AVX2 and SSE2, the fastest kept
   and named, both widths' medians in widths_gbs, as bandwidth's points are. */
static void test_width_candidates(void **state)
{
    (void)state;
    machine_with(4, 4);
    machine.cpu.simd = (struct simd_caps){.sse2 = true,
                                          .avx = true,
                                          .avx2 = true,
                                          .xsave = true,
                                          .os_xsave = true,
                                          .xcr0_cpu = 0x7,
                                          .xcr0_os = 0x7};
    ctx_begin();
    assert_int_equal(experiment_bw_cores.run(&ctx, params.bytes), 0);
    assert_non_null(strstr(stub_console, "each row at every narrower width too"));
    assert_int_equal(csv_rows("L2", 512 * KiB, ""), 3 + 5);
    const char *csv = strbuf_str(&ctx.csv);
    unsigned both = 0;
    for (const char *l = strchr(csv, '\n'); l && l[1]; l = strchr(l + 1, '\n'))
        both += strstr(l, ",avx2:") != NULL && strstr(l, " sse2:") != NULL;
    assert_int_equal(both, 3 + 5);
}

/* More processors answer than the plan counted: the buffer is shared out among them, said on
   the console and in every row. */
static void test_more_than_planned(void **state)
{
    (void)state;
    machine_with(2, 4);
    ctx_begin();
    assert_int_equal(ctx.buffer.size_bytes, 2 * 512 * KiB);
    assert_int_equal(experiment_bw_cores.run(&ctx, params.bytes), 0);
    assert_shares(4);
    assert_non_null(strstr(stub_console, "note: the buffer (1M, planned for 2 processors) cannot "
                                         "hold 4 processors' buffers of 512K: each streams 256K, "
                                         "a share of the buffer"));
    assert_non_null(strstr(stub_console, "each processor streams its own 256K (L2: a share"));
    assert_int_equal(csv_rows("L2", 256 * KiB, SHARE_NOTE), 3 + 5);
}

/* A buffer too small to give every processor that answered even the least a kernel walks: the
   rows use as many as it holds, each within the buffer, said. */
static void test_fewer_than_answered(void **state)
{
    (void)state;
    machine_with(1, 4);
    *(struct cfg_auto *)param("size") = (struct cfg_auto){BW_SIZE_ALIGN_BYTES * 2, false};
    ctx_begin();
    assert_int_equal(ctx.buffer.size_bytes, 2 * BW_SIZE_ALIGN_BYTES);
    assert_int_equal(experiment_bw_cores.run(&ctx, params.bytes), 0);
    assert_shares(2);
    assert_non_null(strstr(stub_console, "the rows use the first 2 of the 4 that answered"));
    assert_int_equal(csv_rows("size", BW_SIZE_ALIGN_BYTES, SHARE_NOTE), 2 + 5); /* 1, 2; mixes */
}

/* The rows whose size_note (before the last two columns) is note. */
static unsigned rows_noted(const char *note)
{
    const char *csv = strbuf_str(&ctx.csv);
    unsigned n = 0;
    for (const char *line = strchr(csv, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        const char *end = strchr(line + 1, '\n'), *last;
        for (int cols = 0; cols < 2; cols++) /* past widths_gbs and width */
            while (end > line && *--end != ',')
                ;
        last = end - 1;
        while (last > line && *last != ',')
            last--;
        n += (size_t)(end - last - 1) == strlen(note) && !strncmp(last + 1, note, strlen(note));
    }
    return n;
}

/* L3 with no size beyond the L2 (1M) and within each processor's part of the L3 (4M over 4):
   each streams twice its L2, said; the rows whose processors (all on one L3 here) overfill it,
   4 x 2M, say so, and the others only what the size is. */
static void test_l3_no_size(void **state)
{
    (void)state;
    machine_l3(4, 4, 4 << 20);
    *(unsigned *)param("level") = 2; /* L3 */
    stub_cpus_pin();
    ctx_begin();
    assert_int_equal(experiment_bw_cores.run(&ctx, params.bytes), 0);
    assert_non_null(strstr(stub_console, "note: no L3 size here: twice each processor's L2 (2M) "
                                         "is more than its part of the last cache when all 4 "
                                         "stream (1M of an L3 of 4M): each streams 2M"));
    assert_non_null(
        strstr(stub_console, "each processor streams its own 2M (L3: no L3 size: twice the L2 is"));
    assert_int_equal(rows_noted(NO_L3_NOTE), 2); /* 1 and 2 processors: 2M and 4M */
    assert_non_null(strstr(stub_console, "  beyond the L3: 4 processors on one 4M\n"));
    assert_int_equal(rows_noted(NO_L3_NOTE "; beyond the L3: 4 processors on one 4M"), 1 + 5);
}

/* KVM on Arm without a PPTT: no cache size can be believed (arm_cpu.c drops them all), so
   bw_cores cannot size its levels and says so, naming cache_source, before streaming a default. */
static void test_sizes_unknown(void **state)
{
    (void)state;
    machine_with(2, 2);
    machine.cpu.ncaches = 0;
    machine.cpu.cache_source = "CLIDR_EL1/CCSIDR_EL1" CACHE_SIZES_UNKNOWN;
    memset(&params, 0, sizeof(params));
    experiment_bw_cores.cfg.defaults(params.bytes, &machine, PROFILE_QUICK);
    *(unsigned *)param("level") = 1; /* L2 */
    stub_cpus_pin();
    ctx_begin();
    assert_int_equal(experiment_bw_cores.run(&ctx, params.bytes), 0);
    assert_non_null(strstr(stub_console, "note: this machine's cache sizes are unknown "
                                         "(CLIDR_EL1/CCSIDR_EL1 (sizes unknown: a cache no larger "
                                         "than its line, made up)): bw_cores cannot size its L2 "
                                         "level; each processor streams "));
    /* with its caches known, nothing of the kind is said */
    teardown(NULL);
    machine_with(2, 2);
    stub_cpus_pin();
    ctx_begin();
    assert_int_equal(experiment_bw_cores.run(&ctx, params.bytes), 0);
    assert_null(strstr(stub_console, "cache sizes are unknown"));
}

/* A 2-socket Xeon of 28 cores with SMT (112 processors, 64 IDs on each L3), 1.375M of L2 and
   of L3 per core: the 64 processors bw_cores takes would have 1.2M of an L3 each, less than their
   L2; said. Four answer here (fake): 4 x 2.75M fit the 38.5M L3, so no row is beyond it. */
static void test_l3_xeon_said(void **state)
{
    (void)state;
    machine_l3(112, 4, 28 * 1408 * KiB);
    machine.cpu.caches[1].size_bytes = 1408 * KiB;
    machine.cpu.caches[2].shared_by = 64;
    *(unsigned *)param("level") = 2; /* L3 */
    stub_cpus_pin();
    ctx_begin();
    assert_int_equal(experiment_bw_cores.run(&ctx, params.bytes), 0);
    assert_non_null(strstr(stub_console, "note: no L3 size here: twice each processor's L2 "
                                         "(2.75M) is more than its part of the last cache when "
                                         "all 64 stream (1.2M of an L3 of 38.5M): each streams "
                                         "2.75M"));
    assert_int_equal(rows_noted(NO_L3_NOTE), 3 + 5);
}

/* The most processors on one L3: an EPYC's processors in bw_cores' order, cores of one CCD
   first (its l3_group), then the next CCD's. */
static void test_l3_most(void **state)
{
    (void)state;
    struct mp_cpu cpus[6] = {{.l3_group = 0}, {.l3_group = 0}, {.l3_group = 1},
                             {.l3_group = 1}, {.l3_group = 1}, {.l3_group = 2}};
    assert_int_equal(mp_l3_most(cpus, 0), 0);
    assert_int_equal(mp_l3_most(cpus, 1), 1);
    assert_int_equal(mp_l3_most(cpus, 3), 2);
    assert_int_equal(mp_l3_most(cpus, 6), 3);
}

#define T(f) cmocka_unit_test_teardown(f, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_as_planned),    T(test_more_than_planned), T(test_fewer_than_answered),
        T(test_l3_no_size),    T(test_l3_xeon_said),      T(test_l3_most),
        T(test_sizes_unknown), T(test_width_candidates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
