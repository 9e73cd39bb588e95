// SPDX-License-Identifier: MIT
// numa's memory-side cache sweep: for each memory-side cache HMAT describes, a random chase in
// its memory domain's node whose sizes cross the cache (numa.msc.csv), and the step it shows.
#include "experiments/numa_msc.h"

#include "experiments/driver.h"
#include "point/plan.h"
#include "point/rows.h"
#include "point/sizes.h"

#include "chase/sweep.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/msc.h"
#include "machine/tiers.h"
#include "procs/mp.h"

#define MSC_ALIGN_BYTES (2ULL << 20) /* the buffer: 2 MiB aligned, like numa's node buffers */
#define MSC_QUICK_PER_OCTAVE 1       /* quick: 7 sizes over the 6 octaves, seconds under TCG */

#define MSC_CSV_HEAD                                                                               \
    "mem_node,mem_domain,cpu_node,cpu,cache_level,cache_bytes,size_bytes,size_vs_cache,"           \
    "stride_bytes,slots,chain_checksum,buffer_phys,buffer_placement," EXP_CSV_COMMON "\n"

/* One cache's sweep. */
struct msc_run {
    const struct hmat_cache *c;
    unsigned node, from; /* the memory's node, the processor's node */
    int cpu;
    uint64_t stride_bytes;
    struct plat_buffer buf;
    unsigned n;
    uint64_t size[EXP_POINTS_MAX];
    double ns[EXP_POINTS_MAX];
};

static void msc_plan(const struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct msc_run *d = data;
    uint64_t size = d->size[pp->index];
    pp->plan = exp_plan(ctx, size, d->stride_bytes, 1);
    pp->plan.prewalk_max_hops = exp_prewalk_tlb_hops(ctx, size);
    pp->label = pp->chain_bytes = size;
    pp->slots = pp->lap_hops = size / d->stride_bytes;
}

static int msc_build(struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct msc_run *d = data;
    struct chain_layout l = {d->buf.virt, 0, d->stride_bytes, pp->slots, 0};
    point_cycle(&pp->pt, &l, 0, ctx->cfg->global.seed + pp->index);
    return 0;
}

static void msc_row(struct exp_ctx *ctx, void *data, const struct exp_point *pp,
                    const struct point_result *r)
{
    struct msc_run *d = data;
    uint64_t size = d->size[pp->index];
    char keys[160], sz[24], placed[200];
    ksnprintf(keys, sizeof(keys), "%u,%u,%u,%d,%u,%llu,%llu", d->node, d->c->mem_domain, d->from,
              d->cpu, d->c->level, (unsigned long long)d->c->size_bytes, (unsigned long long)size);
    exp_samples(ctx, keys, r);
    d->ns[pp->index] = exp_ns(ctx, r);
    con_printf("%10s %7.3f %9llu ", exp_size(sz, sizeof(sz), size),
               (double)size / (double)d->c->size_bytes, (unsigned long long)pp->slots);
    exp_table_common(ctx, r);
    strbuf_printf(&ctx->csv, "%s,%.4f,%llu,%llu,0x%016llx,0x%llx,%s,", keys,
                  (double)size / (double)d->c->size_bytes, (unsigned long long)d->stride_bytes,
                  (unsigned long long)pp->slots, (unsigned long long)pp->pt.link_sum,
                  (unsigned long long)d->buf.phys,
                  exp_csv_field(placed, sizeof(placed), d->buf.placement));
    exp_csv_common(ctx, r, pp->build_ticks);
}

/* The node of domain dom with free memory, or -1. */
static int msc_node_of(const struct plat_numa *t, uint32_t dom)
{
    for (unsigned i = 0; i < t->nnodes; i++)
        if (t->node[i].domain == dom && t->node[i].free_bytes)
            return (int)i;
    return -1;
}

/* The span's sizes and the node and processor that chase them; false (said) when none. */
static bool msc_prepare(const struct exp_ctx *ctx, const struct plat_numa *t, const struct hmat *h,
                        const int *cpu_of, struct msc_run *d)
{
    char why[200], c[24];
    const char *by;
    uint64_t lo, hi;
    int node = msc_node_of(t, d->c->mem_domain);
    exp_size(c, sizeof(c), d->c->size_bytes);
    con_printf("memory-side cache of domain %u (%s, level %u of %u): ", d->c->mem_domain, c,
               d->c->level, d->c->total_levels);
    int from = node >= 0 ? tiers_measured_from(t, h, (unsigned)node, &by) : -1;
    if (node < 0 || from < 0) {
        con_printf("not crossed: %s\n", node < 0 ? "no node with free memory in its domain"
                                                 : "no processor to chase it from");
        return false;
    }
    uint64_t cap =
        ctx->cfg->global.profile == PROFILE_QUICK ? MSC_QUICK_MAX_BYTES : MSC_FULL_MAX_BYTES;
    if (!msc_span(d->c->size_bytes, t->node[node].free_bytes, cap, MSC_ALIGN_BYTES, &lo, &hi, why,
                  sizeof(why))) {
        con_printf("not crossed in node %d: %s\n", node, why);
        return false;
    }
    unsigned ppo = ctx->cfg->global.profile == PROFILE_QUICK ? MSC_QUICK_PER_OCTAVE
                                                             : EXP_SWEEP_FULL_PER_OCTAVE;
    d->node = (unsigned)node;
    d->from = (unsigned)from;
    d->cpu = cpu_of[from];
    d->stride_bytes = exp_line_bytes(ctx->m);
    d->n = sweep_sizes(lo, hi, ppo, d->stride_bytes, d->size, EXP_POINTS_MAX);
    d->n = d->n < EXP_POINTS_MAX ? d->n : EXP_POINTS_MAX;
    char a[24], b[24];
    con_printf("a random chase in node %u from node %u (cpu %d, %s), %u sizes from %s to %s\n",
               d->node, d->from, d->cpu, by, d->n, exp_size(a, sizeof(a), lo),
               exp_size(b, sizeof(b), hi));
    return true;
}

/* One cache's sweep on its processor; EXP_RUN_FAILED (ctx->failure) when it could not run. */
static int msc_sweep(struct exp_ctx *ctx, struct msc_run *d)
{
    char why[200], line[300];
    if (plat_node_buffer_alloc(d->node, d->size[d->n - 1], MSC_ALIGN_BYTES, &d->buf, why,
                               sizeof(why)) != 0) {
        ksnprintf(ctx->failure, sizeof(ctx->failure), "memory-side cache: no buffer in node %u: %s",
                  d->node, why);
        con_printf("%s\n", ctx->failure);
        return EXP_RUN_FAILED;
    }
    con_printf("node %u buffer: 0x%llx, %llu bytes, %s\n", d->node, (unsigned long long)d->buf.phys,
               (unsigned long long)d->buf.size_bytes,
               d->buf.placement ? d->buf.placement : "placed");
    int rc = EXP_RUN_FAILED;
    if (plat_window_cpu((unsigned)d->cpu, MP_TIMEOUT_US) != 0) {
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "memory-side cache: processor %d cannot run windows", d->cpu);
    } else {
        con_printf("%10s %7s %9s ", "size", "x cache", "slots");
        exp_table_head_common();
        struct exp_sweep s = {.points = d->n,
                              .data = d,
                              .interleave = true,
                              .plan = msc_plan,
                              .build = msc_build,
                              .row = msc_row};
        rc = exp_sweep_run(ctx, &s);
        plat_window_cpu(PLAT_WINDOW_HERE, 0);
    }
    plat_node_buffer_free(&d->buf);
    if (rc == 0) {
        struct msc_step st;
        msc_step_find(d->size, d->ns, d->n, d->c->size_bytes, exp_llc_bytes(ctx->m), &st);
        con_printf("memory-side cache of domain %u: %s\n", d->c->mem_domain,
                   msc_step_text(&st, d->c->size_bytes, line, sizeof(line)));
    }
    return rc;
}

int msc_sweep_caches(struct exp_ctx *ctx, const struct plat_numa *t, const struct hmat *h,
                     const int *cpu_of)
{
    static struct msc_run d;
    if (!h || !h->ncaches)
        return 0;
    struct strbuf csv = {0}, samples = {0}, saved_csv = ctx->csv, saved_samples = ctx->samples;
    ctx->csv = csv;
    ctx->samples = samples; /* the sweep's samples are not kept: numa.msc.csv has the medians */
    strbuf_puts(&ctx->csv, MSC_CSV_HEAD);
    int rc = 0;
    for (unsigned i = 0; i < h->ncaches; i++) {
        kmemset(&d, 0, sizeof(d));
        d.c = &h->cache[i];
        if (msc_prepare(ctx, t, h, cpu_of, &d) && d.n && msc_sweep(ctx, &d) != 0)
            rc = EXP_RUN_FAILED;
    }
    csv = ctx->csv;
    strbuf_release(&ctx->samples);
    ctx->csv = saved_csv;
    ctx->samples = saved_samples;
    if (plat_file_write("numa.msc.csv", strbuf_str(&csv), csv.len) != 0)
        con_printf("numa.msc.csv could not be written\n");
    strbuf_release(&csv);
    return rc;
}
