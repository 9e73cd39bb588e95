// SPDX-License-Identifier: MIT
// Unit tests of the tail experiment's run: the sizes it takes from the levels and the page sizes
// of the largest, its windows (warm-up, timed, the last one short) and their bookkeeping into
// each batch's start and time, dropped windows and SMIs counted, the stalls kept for run.json,
// a page size the platform refuses, and the DIMMs' type in every row.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "experiments/experiment.h"
#include "fake_machine.h"
#include "lib/csv.h"
#include "machine/smbios.h"
#include "point/stall_record.h"
#include "stubs/stub_platform.h"

extern const struct experiment experiment_tail;

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define PAGE_4K 4096ull
#define PAGE_2M (2 * MiB)
#define PAGE_1G (1024 * MiB)
#define BATCHES 4000 /* 62 windows of 64 and one of 32: 20 refresh beats at least */
#define WINDOW 64
#define TIMED_WINDOWS 63
#define HOPS 4
#define BATCH_NS 40        /* the fake batch: 4 hops of 10 ns (a 1 GHz TSC: ticks are ns) */
#define REFRESH_NS 3900    /* the fake DRAM refresh: every 3.9 us ... */
#define REFRESH_COST 350   /* ... costing the batch that meets it 350 ns */
#define STALL_NS 50000     /* one stall no memory explains in each point's timed batches */
#define STALL_AT 700       /* ... at this batch */
#define WINDOW_GAP_NS 1000 /* the untimed time between two windows */

static struct machine machine;
static struct smbios_info smbios;
static struct chase_config cfg;
static struct timing timing;
static struct exp_ctx ctx;
static struct cfg_params params;
static struct stall_record stalls;

/* The buffer, as the platform maps it: page sizes asked for, and which one is refused. */
static uint64_t refused_page;
static uint64_t pages_asked[16];
static unsigned npages_asked;

int plat_buffer_alloc(uint64_t size_bytes, uint64_t align_bytes, struct plat_buffer *b, char *why,
                      size_t why_cap)
{
    (void)size_bytes, (void)align_bytes, (void)b, (void)why, (void)why_cap;
    return -1; /* the test hands the experiment its buffer */
}

void plat_buffer_free(struct plat_buffer *b)
{
    (void)b;
}

int plat_buffer_set_pages(struct plat_buffer *b, uint64_t page_bytes, char *why, size_t why_cap)
{
    if (npages_asked < 16)
        pages_asked[npages_asked++] = page_bytes;
    if (page_bytes == refused_page) {
        snprintf(why, why_cap, "no such pages in this test");
        return -1;
    }
    b->page_bytes = page_bytes;
    b->page_source = "test";
    return 0;
}

/* The fake batches: what each window was asked, and a clock that runs on across windows. */
static struct {
    uint64_t clock;         /* ns */
    uint64_t timed_batches; /* in the point being timed */
    unsigned warm, timed;   /* windows of each kind, all points */
    unsigned short_windows; /* timed windows of fewer than WINDOW batches */
    unsigned drop_every;    /* every n-th timed window reports one dropped window (0: none) */
    int fail_at;            /* the timed window that fails (-1: none) */
} fake;

static int fake_batches(struct batch_window *w)
{
    bool timed = w->prewalk_hops != 0; /* the warm-up lap's windows walk no TLB prefix */
    assert_true(w->batches >= 1 && w->batches <= WINDOW && w->hops == HOPS);
    if (timed && fake.fail_at >= 0 && fake.timed == (unsigned)fake.fail_at) {
        w->fault = (struct fault_info){.faulted = true, .vector = 14};
        return -1;
    }
    if (!timed && fake.timed_batches)
        fake.timed_batches = 0; /* the next point's warm-up */
    fake.warm += !timed;
    fake.timed += timed;
    fake.short_windows += timed && w->batches < WINDOW;
    fake.clock += WINDOW_GAP_NS;
    for (uint64_t i = 0; i < w->batches; i++) {
        uint64_t ns = BATCH_NS;
        if ((fake.clock + ns) / REFRESH_NS != fake.clock / REFRESH_NS)
            ns += REFRESH_COST;
        if (timed && fake.timed_batches++ == STALL_AT)
            ns += STALL_NS;
        w->stamps[i] = fake.clock;
        fake.clock += ns;
    }
    w->stamps[w->batches] = fake.clock;
    w->smi_delta = w->smi && timed ? 2 : 0;
    w->dropped = timed && fake.drop_every && fake.timed % fake.drop_every == 0;
    return 0;
}

/* The parameter of key `name` in params. */
static void *param(const char *name)
{
    const struct cfg_section *s = &experiment_tail.cfg;
    for (size_t i = 0; i < s->nkeys; i++)
        if (!strcmp(s->keys[i].name, name))
            return params.bytes + s->keys[i].offset;
    fail_msg("tail has no key %s", name);
    return NULL;
}

/* A machine of a 32K L1d, 1M L2 and 8M L3; tail's quick defaults with BATCHES batches in
   windows of WINDOW, the largest size max_bytes; the buffer mapped with 2M pages. */
static void begin(uint64_t max_bytes)
{
    fake_machine(&machine, 32 * KiB, 1 * MiB, 8 * MiB);
    machine.cpu.has_1g_pages = true;
    memset(&params, 0, sizeof(params));
    experiment_tail.cfg.defaults(params.bytes, &machine, PROFILE_QUICK);
    *(uint64_t *)param("max") = max_bytes;
    *(uint64_t *)param("batches") = BATCHES;
    *(uint64_t *)param("window") = WINDOW;
    *(uint64_t *)param("hops") = HOPS;
    memset(&cfg, 0, sizeof(cfg));
    cfg.global.profile = PROFILE_QUICK;
    cfg.global.seed = 1;
    timing = (struct timing){.tsc_hz = 1000000000, .wall_tsc_hz = 1000000000, .smi_counting = true};
    memset(&ctx, 0, sizeof(ctx));
    ctx.m = &machine;
    ctx.cfg = &cfg;
    ctx.timing = &timing;
    ctx.batches = fake_batches;
    ctx.stalls = &stalls;
    ctx.buffer.size_bytes = max_bytes;
    ctx.buffer.virt = aligned_alloc(PAGE_4K, max_bytes);
    ctx.buffer.page_bytes = PAGE_2M;
    assert_non_null(ctx.buffer.virt);
    memset(&fake, 0, sizeof(fake));
    fake.fail_at = -1;
    fake.clock = 1000000;
    refused_page = 0;
    npages_asked = 0;
    stub_console_reset();
}

static int teardown(void **state)
{
    (void)state;
    free(ctx.buffer.virt);
    ctx.buffer.virt = NULL;
    strbuf_release(&ctx.csv);
    strbuf_release(&ctx.samples);
    machine.id.smbios = NULL;
    return 0;
}

/* tail.csv as written, parsed into t (freed by the caller). */
static void parse_csv(struct csv *t)
{
    char err[120];
    assert_int_equal(csv_parse(strbuf_str(&ctx.csv), ctx.csv.len, t, err, sizeof(err)), 0);
}

static double cell(const struct csv *t, size_t row, const char *col)
{
    int c = csv_col(t, col);
    assert_true(c >= 0);
    return csv_num(t, row, c);
}

/* Sizes from the levels (half of L1d, L2, L3), then the largest under 4K and 2M pages; every
   point's windows, its batches' times (the comb comes back as the refresh period), the stall,
   SMIs and dropped windows; the buffer's pages restored. */
static void test_points_and_windows(void **state)
{
    (void)state;
    begin(32 * MiB);
    fake.drop_every = 7; /* 9 of each point's 63 timed windows */
    assert_int_equal(experiment_tail.run(&ctx, params.bytes), 0);
    struct csv t;
    parse_csv(&t);
    const uint64_t want[][2] = {{16 * KiB, PAGE_2M},
                                {512 * KiB, PAGE_2M},
                                {4 * MiB, PAGE_2M},
                                {32 * MiB, PAGE_4K},
                                {32 * MiB, PAGE_2M}}; /* size, page size */
    assert_int_equal(t.nrows, 5);
    for (size_t i = 0; i < 5; i++) {
        assert_true(cell(&t, i, "size_bytes") == (double)want[i][0]);
        assert_true(cell(&t, i, "page_bytes") == (double)want[i][1]);
        assert_true(cell(&t, i, "batches") == BATCHES);
        assert_true(cell(&t, i, "p50_ns") == BATCH_NS);
        double period = cell(&t, i, "refresh_period_ns");
        if (period < REFRESH_NS * 0.99 || period > REFRESH_NS * 1.01)
            fail_msg("row %zu: refresh period %.1f ns, want %d", i, period, REFRESH_NS);
        assert_true(cell(&t, i, "refresh_stall_ns") > REFRESH_COST * 0.95);
        assert_true(cell(&t, i, "stalls") == 1);
        assert_true(cell(&t, i, "stall_longest_ns") == STALL_NS);
        assert_true(cell(&t, i, "smi_count") == 2 * TIMED_WINDOWS);
        assert_true(cell(&t, i, "dropped_windows") == TIMED_WINDOWS / 7);
        assert_string_equal(csv_text(&t, i, csv_col(&t, "dram_type")), "none");
    }
    csv_free(&t);
    /* 63 timed windows a point, the last of 32 batches; the warm-up lap in windows of 256 hops */
    assert_int_equal(fake.timed, 5 * TIMED_WINDOWS);
    assert_int_equal(fake.short_windows, 5);
    unsigned warm =
        16 * KiB / 64 / 256 + 512 * KiB / 64 / 256 + 4 * MiB / 64 / 256 + 2 * (32 * MiB / 64 / 256);
    assert_int_equal(fake.warm, warm);
    /* the largest size mapped with 4K then 2M pages, the buffer's 2M kept at the end */
    assert_int_equal(npages_asked, 2);
    assert_true(pages_asked[0] == PAGE_4K && pages_asked[1] == PAGE_2M);
    assert_true(ctx.buffer.page_bytes == PAGE_2M);
    assert_string_equal(ctx.failure, "");
    /* where the time went: builds, warm-up and timed windows, statistics and rows */
    assert_true(ctx.spent.build && ctx.spent.warm && ctx.spent.timed && ctx.spent.bookkeeping &&
                ctx.spent.output);
    /* run.json's record: every point's stall, SMIs and dropped windows */
    assert_true(stalls.measured && stalls.smi_counting);
    assert_int_equal(stalls.count, 5);
    assert_int_equal(stalls.batches, 5 * BATCHES);
    assert_int_equal(stalls.smi_count, 5 * 2 * TIMED_WINDOWS);
    assert_int_equal(stalls.dropped_windows, 5 * TIMED_WINDOWS / 7);
    assert_true(stalls.longest_ns == STALL_NS && stalls.beyond_ns == 10000);
    assert_non_null(strstr(stub_console, "tail: note: 5 stalls no memory explains (over 10 us "
                                         "each, the longest 50.0 us"));
    assert_non_null(strstr(stub_console, "SMIs were counted meanwhile"));
    assert_non_null(strstr(stub_console, "plan: 5 sizes, 4000 batches of 4 hops each; about "));
}

/* Histogram and samples rows keyed by size and page size: every point's counts add up. */
static void test_hist_and_samples(void **state)
{
    (void)state;
    begin(32 * MiB);
    assert_int_equal(experiment_tail.run(&ctx, params.bytes), 0);
    const char *s = strbuf_str(&ctx.samples);
    assert_true(strncmp(s, "size_bytes,page_bytes,tsc_offset,time_us,excess_ns\n", 51) == 0);
    assert_non_null(strstr(s, "\n33554432,4096,"));
    assert_non_null(strstr(s, "\n33554432,2097152,"));
    assert_non_null(strstr(s, "\n16384,2097152,"));
}

/* A page size the platform refuses: that point skipped, the note says why, the rest measured. */
static void test_page_refused(void **state)
{
    (void)state;
    begin(32 * MiB);
    struct cfg_list *pages = param("pages");
    *pages = (struct cfg_list){{PAGE_1G, PAGE_4K}, 2}; /* measured in ascending order */
    refused_page = PAGE_1G;
    assert_int_equal(experiment_tail.run(&ctx, params.bytes), 0);
    struct csv t;
    parse_csv(&t);
    assert_int_equal(t.nrows, 4);
    assert_true(cell(&t, 3, "size_bytes") == 32 * MiB && cell(&t, 3, "page_bytes") == PAGE_4K);
    csv_free(&t);
    assert_string_equal(ctx.failure, "1G pages skipped: no such pages in this test");
    assert_int_equal(npages_asked, 3); /* 4K, 1G (refused), then the buffer's 2M again */
    assert_true(pages_asked[2] == PAGE_2M && ctx.buffer.page_bytes == PAGE_2M);
}

/* A window that faults ends the experiment, the size in its failure; the stalls so far kept. */
static void test_window_fails(void **state)
{
    (void)state;
    begin(32 * MiB);
    fake.fail_at = TIMED_WINDOWS + 3; /* the second point's fourth timed window */
    assert_int_equal(experiment_tail.run(&ctx, params.bytes), EXP_RUN_FAILED);
    assert_non_null(strstr(ctx.failure, "at 512K"));
    assert_non_null(strstr(ctx.failure, "batches stopped"));
    assert_int_equal(stalls.count, 1);
    assert_true(ctx.buffer.page_bytes == PAGE_2M);
}

/* The DIMMs' type from SMBIOS type 17 in every row: the installed devices', or mixed. */
static void test_dram_type(void **state)
{
    (void)state;
    begin(1 * MiB);
    memset(&smbios, 0, sizeof(smbios));
    smbios.found = true;
    smbios.ndevices = 3;
    smbios.device[0] = (struct smbios_memdev){.size_bytes = 16 * 1024 * MiB, .type = 0x22};
    smbios.device[1] = (struct smbios_memdev){.size_bytes = 0, .type = 0x1a}; /* empty slot */
    smbios.device[2] = (struct smbios_memdev){.size_bytes = 16 * 1024 * MiB, .type = 0x22};
    machine.id.smbios = &smbios;
    assert_int_equal(experiment_tail.run(&ctx, params.bytes), 0);
    struct csv t;
    parse_csv(&t);
    for (size_t i = 0; i < t.nrows; i++)
        assert_string_equal(csv_text(&t, i, csv_col(&t, "dram_type")), "DDR5");
    csv_free(&t);
    smbios.device[1].size_bytes = 8 * 1024 * MiB;
    assert_string_equal(smbios_dram_type(&smbios), "mixed");
    smbios.found = false;
    assert_string_equal(smbios_dram_type(&smbios), "none");
    assert_string_equal(smbios_dram_type(NULL), "none");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_points_and_windows, teardown),
        cmocka_unit_test_teardown(test_hist_and_samples, teardown),
        cmocka_unit_test_teardown(test_page_refused, teardown),
        cmocka_unit_test_teardown(test_window_fails, teardown),
        cmocka_unit_test_teardown(test_dram_type, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
