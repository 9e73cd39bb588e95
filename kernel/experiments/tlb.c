// SPDX-License-Identifier: MIT
// The tlb experiment: the random sweep with one slot per 4 KiB page, under each page size.
#include "experiments/common.h"

#include "arch/x86_64/cpu.h"
#include "chase/sweep.h"

#define P(field) offsetof(struct tlb_params, field)
#define SLOT_PAGE_BYTES 4096ULL /* one slot per 4 KiB page, whatever the mapping */
#define POINTS_PER_OCTAVE 2
#define MIN_BYTES (16ULL << 10)
#define QUICK_MAX_BYTES (4ULL << 20)
#define FULL_MAX_BYTES (1ULL << 30)
#define PAGE_2M_BYTES (2ULL << 20)
#define PAGE_1G_BYTES (1ULL << 30)

static const struct key_desc tlb_keys[] = {
    {"min", KEY_SIZE, P(min_bytes), SLOT_PAGE_BYTES, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "smallest chain size (one slot per 4K page)"},
    {"max", KEY_SIZE, P(max_bytes), SLOT_PAGE_BYTES, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "largest chain size"},
    {"pages", KEY_SIZE_LIST, P(pages), SLOT_PAGE_BYTES, PAGE_1G_BYTES, NULL, "bytes",
     "page sizes to map the buffer with, one curve each: 4K, 2M, 1G (default: those the CPU has)"},
};

static void tlb_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct tlb_params *p = params;
    p->min_bytes = MIN_BYTES;
    p->max_bytes = exp_fit_memory(m, profile == PROFILE_QUICK ? QUICK_MAX_BYTES : FULL_MAX_BYTES);
    p->pages.n = 0;
    p->pages.v[p->pages.n++] = SLOT_PAGE_BYTES;
    p->pages.v[p->pages.n++] = PAGE_2M_BYTES;
    if (m->cpu.has_1g_pages && profile != PROFILE_QUICK)
        p->pages.v[p->pages.n++] = PAGE_1G_BYTES;
}

static bool is_page_size(uint64_t v)
{
    return v == SLOT_PAGE_BYTES || v == PAGE_2M_BYTES || v == PAGE_1G_BYTES;
}

static void tlb_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct tlb_params *p = params;
    for (unsigned i = 0; i < p->pages.n; i++) {
        for (unsigned k = 0; k < i; k++) {
            if (p->pages.v[k] == p->pages.v[i])
                cfg_check_fail(c, "pages", "%llu is listed twice; expected each page size once",
                               (unsigned long long)p->pages.v[i]);
        }
        if (!is_page_size(p->pages.v[i]))
            cfg_check_fail(c, "pages", "%llu is not a page size; expected 4K, 2M or 1G",
                           (unsigned long long)p->pages.v[i]);
        else if (p->pages.v[i] == PAGE_1G_BYTES && !m->cpu.has_1g_pages &&
                 kstrcmp(m->platform, "uefi") == 0)
            cfg_check_fail(c, "pages",
                           "this CPU has no 1 GiB pages (CPUID 0x80000001 EDX bit "
                           "26); expected 4K or 2M");
    }
    if (p->min_bytes > p->max_bytes)
        cfg_check_fail(c, "min", "min (%llu) is larger than max (%llu)",
                       (unsigned long long)p->min_bytes, (unsigned long long)p->max_bytes);
}

static uint64_t tlb_buffer_bytes(const void *params)
{
    const struct tlb_params *p = params;
    return p->max_bytes;
}

/* Turn the platform's note into a CSV field: no commas. */
static void csv_field(char *dst, size_t cap, const char *src)
{
    size_t i = 0;
    for (; src && src[i] && i + 1 < cap; i++)
        dst[i] = src[i] == ',' ? ';' : src[i];
    dst[i] = 0;
}

static void tlb_row(struct run_ctx *ctx, struct tlb_finding *f, uint64_t size, uint64_t slots,
                    uint64_t build_ticks, const struct point_result *r)
{
    char keys[64], sz[24], pg[24], source[96];
    ksnprintf(keys, sizeof(keys), "%llu,%llu", (unsigned long long)f->page_bytes,
              (unsigned long long)size);
    csv_field(source, sizeof(source), ctx->buffer.page_source);
    strbuf_printf(&ctx->csv, "%s,%llu,%s,", keys, (unsigned long long)slots, source);
    exp_csv_common(ctx, r, build_ticks);
    exp_samples(ctx, keys, r);
    con_printf("%6s %10s %8llu ", exp_size(pg, sizeof(pg), f->page_bytes),
               exp_size(sz, sizeof(sz), size), (unsigned long long)slots);
    exp_table_common(ctx, r);
    curve_add(&f->curve, size, exp_ns(ctx, r), exp_cycles(r));
}

static int tlb_sweep(struct run_ctx *ctx, struct tlb_finding *f, const uint64_t *sizes, unsigned n,
                     struct con_progress *pg)
{
    for (unsigned i = 0; i < n; i++) {
        struct chain_layout l = {ctx->buffer.virt, 0, SLOT_PAGE_BYTES, sizes[i] / SLOT_PAGE_BYTES,
                                 exp_line_bytes(ctx->m)};
        struct measure_plan plan =
            exp_plan(ctx, l.slots * exp_line_bytes(ctx->m), exp_line_bytes(ctx->m), 1);
        struct chase_point pt;
        struct point_result r;
        uint64_t t0 = arch_tsc_fenced();
        point_random(&pt, &l, 0, ctx->cfg->global.seed + i);
        uint64_t build_ticks = arch_tsc_fenced() - t0;
        if (exp_measure(ctx, &pt, &plan, sizes[i], &r) != 0)
            return EXP_RUN_FAILED;
        tlb_row(ctx, f, sizes[i], l.slots, build_ticks, &r);
        measure_release(&r);
        con_progress_step(pg, exp_point_work(ctx, &plan, l.slots * 64, l.slots, l.slots, 1),
                          arch_tsc_fenced());
    }
    return 0;
}

/* Map the buffer with one page size and sweep; a page size the platform refuses is noted. */
static int tlb_page(struct run_ctx *ctx, uint64_t page, const uint64_t *sizes, unsigned n,
                    struct con_progress *pg)
{
    struct tlb_finding *f = &ctx->found.tlb[ctx->found.ntlb++];
    char why[160] = "", name[24];
    f->page_bytes = page;
    exp_size(name, sizeof(name), page);
    if (plat_buffer_set_pages(&ctx->buffer, page, why, sizeof(why)) != 0) {
        ksnprintf(f->note, sizeof(f->note), "%s", why);
        con_printf("%6s pages: skipped: %s\n", name, why);
        for (unsigned i = 0; i < n; i++)
            con_progress_step(pg, 0, arch_tsc_fenced());
        return 0;
    }
    f->measured = true;
    ksnprintf(f->note, sizeof(f->note), "%s", ctx->buffer.page_source);
    con_printf("%6s pages: %s\n", name, ctx->buffer.page_source);
    return tlb_sweep(ctx, f, sizes, n, pg);
}

/* Say which page sizes were skipped, as the experiment's note or its reason to be skipped. */
static int tlb_outcome(struct run_ctx *ctx)
{
    unsigned measured = 0;
    size_t len = 0;
    ctx->failure[0] = 0;
    for (unsigned i = 0; i < ctx->found.ntlb; i++) {
        const struct tlb_finding *f = &ctx->found.tlb[i];
        char name[24];
        if (f->measured) {
            measured++;
            continue;
        }
        if (len < sizeof(ctx->failure))
            len += (size_t)ksnprintf(ctx->failure + len, sizeof(ctx->failure) - len,
                                     "%s%s pages skipped: %s", len ? "; " : "",
                                     exp_size(name, sizeof(name), f->page_bytes), f->note);
    }
    return measured ? 0 : EXP_RUN_SKIPPED;
}

static int tlb_run(struct run_ctx *ctx, const void *params)
{
    const struct tlb_params *p = params;
    uint64_t sizes[EXP_POINTS_MAX], saved = ctx->buffer.page_bytes;
    unsigned n = sweep_sizes(p->min_bytes, p->max_bytes, POINTS_PER_OCTAVE, SLOT_PAGE_BYTES, sizes,
                             EXP_POINTS_MAX);
    char a[24], b[24], list[96];
    cfg_format_value(list, sizeof(list), &tlb_keys[2], p);
    exp_header(ctx, &experiment_tlb,
               "%u sizes from %s to %s (%d per octave), one slot per 4K "
               "page (each in another line of its page), under %s pages",
               n, exp_size(a, sizeof(a), p->min_bytes), exp_size(b, sizeof(b), p->max_bytes),
               POINTS_PER_OCTAVE, list);
    strbuf_puts(&ctx->csv, "page_bytes,size_bytes,slots,page_source," EXP_CSV_COMMON "\n");
    strbuf_puts(&ctx->samples, "page_bytes,size_bytes," EXP_SAMPLES_COMMON "\n");
    con_printf("%6s %10s %8s ", "page", "size", "slots");
    exp_table_head_common();
    ctx->found.ntlb = 0;
    struct con_progress pg;
    double total = 0;
    for (unsigned i = 0; i < n; i++) {
        struct measure_plan plan = exp_plan(ctx, sizes[i] / 64, 64, 1);
        uint64_t slots = sizes[i] / SLOT_PAGE_BYTES;
        total += exp_point_work(ctx, &plan, slots * 64, slots, slots, 1) * p->pages.n;
    }
    con_progress_begin(&pg, n * p->pages.n, total, arch_tsc_fenced(), ctx->timing->wall_tsc_hz);
    int rc = 0;
    for (unsigned i = 0; i < p->pages.n && rc == 0 && i < FINDINGS_PAGE_SIZES; i++)
        rc = tlb_page(ctx, p->pages.v[i], sizes, n, &pg);
    con_progress_end(&pg);
    exp_pages_end(ctx, saved);
    return rc != 0 ? rc : tlb_outcome(ctx);
}

const struct experiment experiment_tlb = {
    .name = "tlb",
    .describe = "TLB reach and miss cost: the random sweep with one slot per 4 KiB page, under "
                "each page size",
    .why = "the same lines under different page sizes: where a curve rises above the one with "
           "larger pages, the TLB misses, and the difference is the page walk",
    .keys = tlb_keys,
    .nkeys = sizeof(tlb_keys) / sizeof(tlb_keys[0]),
    .params_offset = offsetof(struct chase_config, tlb),
    .params_size = sizeof(struct tlb_params),
    .size_key = "max",
    .defaults = tlb_defaults,
    .check = tlb_check,
    .buffer_bytes = tlb_buffer_bytes,
    .run = tlb_run,
};
