// SPDX-License-Identifier: MIT
// The tlb experiment: the random sweep with one slot per 4 KiB page, under each page size.
#include "experiments/driver.h"
#include "point/ctx.h"
#include "point/plan.h"
#include "point/rows.h"
#include "point/sizes.h"

#include "arch/cpu.h"
#include "chase/sweep.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

/* This experiment's row of the table (defined at the end). */
extern const struct experiment experiment_tlb;

struct tlb_params {
    uint64_t min_bytes;
    uint64_t max_bytes;
    struct cfg_list pages; /* bytes: 4K, 2M, 1G */
};
CFG_PARAMS_FIT(struct tlb_params);

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
    exp_check_min_max(c, "min", p->min_bytes, p->max_bytes, "min", "max");
}

static uint64_t tlb_buffer_bytes(const void *params, const struct machine *m)
{
    const struct tlb_params *p = params;
    (void)m;
    return p->max_bytes;
}

/* The sweep's own data: the sizes, swept once per page size (a group of points each). */
#define PAGE_SIZES_MAX 3 /* 4K, 2M, 1G */

/* One page size of the sweep: whether the platform gave it, and how (or why not). */
struct tlb_page {
    uint64_t page_bytes;
    bool measured;
    char note[120];
};

struct tlb_sweep {
    const struct tlb_params *p;
    uint64_t sizes[EXP_POINTS_MAX];
    unsigned n; /* sizes per page size */
    struct tlb_page page[PAGE_SIZES_MAX];
    unsigned npages;    /* page sizes begun so far */
    struct tlb_page *f; /* the page size being measured */
    bool skipped;       /* ... could not be had */
};

static void tlb_plan(const struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct tlb_sweep *d = data;
    uint64_t line = exp_line_bytes(ctx->m);
    pp->label = d->sizes[pp->index % d->n];
    pp->slots = pp->lap_hops = pp->label / SLOT_PAGE_BYTES;
    pp->chain_bytes = pp->slots * line; /* one line of each page */
    pp->plan = exp_plan(ctx, pp->chain_bytes, line, 1);
}

/* Map the buffer with the next page size at its first point; a size the platform refuses is noted.
 */
static int tlb_prepare(struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    struct tlb_sweep *d = data;
    if (pp->index % d->n != 0)
        return d->skipped ? EXP_POINT_SKIPPED : 0;
    uint64_t page = d->p->pages.v[pp->index / d->n];
    char why[160] = "", name[24];
    d->f = &d->page[d->npages++];
    d->f->page_bytes = page;
    exp_size(name, sizeof(name), page);
    d->skipped = plat_buffer_set_pages(&ctx->buffer, page, why, sizeof(why)) != 0;
    if (d->skipped) {
        ksnprintf(d->f->note, sizeof(d->f->note), "%s", why);
        con_printf("%6s pages: skipped: %s\n", name, why);
        return EXP_POINT_SKIPPED;
    }
    d->f->measured = true;
    ksnprintf(d->f->note, sizeof(d->f->note), "%s", ctx->buffer.page_source);
    con_printf("%6s pages: %s\n", name, ctx->buffer.page_source);
    return 0;
}

static int tlb_build(struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct tlb_sweep *d = data;
    struct chain_layout l = {ctx->buffer.virt, 0, SLOT_PAGE_BYTES, pp->slots,
                             exp_line_bytes(ctx->m)};
    point_cycle(&pp->pt, &l, 0, ctx->cfg->global.seed + pp->index % d->n);
    return 0;
}

static void tlb_row(struct exp_ctx *ctx, void *data, const struct exp_point *pp,
                    const struct point_result *r)
{
    const struct tlb_sweep *d = data;
    uint64_t size = pp->label;
    char keys[64], sz[24], pg[24], source[96];
    ksnprintf(keys, sizeof(keys), "%llu,%llu", (unsigned long long)d->f->page_bytes,
              (unsigned long long)size);
    exp_csv_field(source, sizeof(source), ctx->buffer.page_source);
    strbuf_printf(&ctx->csv, "%s,%llu,%s,", keys, (unsigned long long)pp->slots, source);
    exp_csv_common(ctx, r, pp->build_ticks);
    exp_samples(ctx, keys, r);
    con_printf("%6s %10s %8llu ", exp_size(pg, sizeof(pg), d->f->page_bytes),
               exp_size(sz, sizeof(sz), size), (unsigned long long)pp->slots);
    exp_table_common(ctx, r);
}

/* Say which page sizes were skipped, as the experiment's note or its reason to be skipped. */
static int tlb_outcome(struct exp_ctx *ctx, const struct tlb_sweep *d)
{
    unsigned measured = 0;
    size_t len = 0;
    ctx->failure[0] = 0;
    for (unsigned i = 0; i < d->npages; i++) {
        const struct tlb_page *f = &d->page[i];
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

static int tlb_run(struct exp_ctx *ctx, const void *params)
{
    const struct tlb_params *p = params;
    struct tlb_sweep d = {.p = p};
    uint64_t saved = ctx->buffer.page_bytes;
    unsigned n = sweep_sizes(p->min_bytes, p->max_bytes, POINTS_PER_OCTAVE, SLOT_PAGE_BYTES,
                             d.sizes, EXP_POINTS_MAX);
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
    unsigned pages = p->pages.n < PAGE_SIZES_MAX ? p->pages.n : PAGE_SIZES_MAX;
    d.n = n;
    struct exp_sweep sweep = {.points = n * pages,
                              .data = &d,
                              .plan = tlb_plan,
                              .prepare = tlb_prepare,
                              .build = tlb_build,
                              .row = tlb_row};
    int rc = n ? exp_sweep_run(ctx, &sweep) : 0;
    exp_pages_end(ctx, saved);
    return rc != 0 ? rc : tlb_outcome(ctx, &d);
}

const struct experiment experiment_tlb = {
    .cfg =
        {
            .name = "tlb",
            .keys = tlb_keys,
            .nkeys = sizeof(tlb_keys) / sizeof(tlb_keys[0]),
            .params_size = sizeof(struct tlb_params),
            .size_key = "max",
            .defaults = tlb_defaults,
            .check = tlb_check,
            .buffer_bytes = tlb_buffer_bytes,
        },
    .describe = "TLB reach and miss cost: the random sweep with one slot per 4 KiB page, under "
                "each page size",
    .why = "the same lines under different page sizes: where a curve rises above the one with "
           "larger pages, the TLB misses, and the difference is the page walk",
    .run = tlb_run,
};
