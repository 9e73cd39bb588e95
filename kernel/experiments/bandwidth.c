// SPDX-License-Identifier: MIT
// The bandwidth experiment: bytes per second each level delivers to one core, per kernel.
#include "experiments/driver.h"
#include "point/ctx.h"
#include "point/passes.h"
#include "point/plan.h"
#include "point/sizes.h"

#include "arch/cpu.h"
#include "chase/reps.h"
#include "chase/sweep.h"
#include "stream/bw.h"
#include "lib/kmath.h"
#include "machine/smbios.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

/* This experiment's row of the table (defined at the end). */
extern const struct experiment experiment_bandwidth;

struct bandwidth_params {
    uint64_t min_bytes;
    uint64_t max_bytes;
    uint64_t points_per_octave;
    struct cfg_list kernels; /* indices into bw_kernel_names */
    unsigned width;          /* enum simd_width */
};
CFG_PARAMS_FIT(struct bandwidth_params);

#define P(field) offsetof(struct bandwidth_params, field)

static const struct key_desc bandwidth_keys[] = {
    {"min", KEY_SIZE, P(min_bytes), BW_SIZE_ALIGN_BYTES, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "smallest buffer"},
    {"max", KEY_SIZE, P(max_bytes), BW_SIZE_ALIGN_BYTES, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "largest buffer (default: 4x the last-level cache, bounded by memory, as random's)"},
    {"points_per_octave", KEY_U64, P(points_per_octave), 1, 32, NULL, "",
     "sizes per doubling of the buffer"},
    {"kernels", KEY_CHOICE_LIST, P(kernels), 0, 0, bw_kernel_names, "",
     "what each point does to its buffer: read (load every byte), write (store every byte), "
     "copy (read one half, write the other), nt_write and nt_copy (non-temporal stores), "
     "rep_movsb and rep_stosb (the CPU's string copy and fill; x86-64 only)"},
    {"width", KEY_CHOICE, P(width), 0, 0, simd_width_names, "",
     "vector width of the kernels: auto (every width the CPU and platform allow, the fastest "
     "kept at each point), sse2, avx2, avx512 (x86-64), neon, sve (AArch64)"},
};

static const enum bw_kernel default_kernels[] = {BW_READ, BW_WRITE, BW_COPY, BW_NT_WRITE,
                                                 BW_NT_COPY};

static void bandwidth_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct bandwidth_params *p = params;
    p->min_bytes = EXP_SWEEP_MIN_BYTES;
    p->max_bytes = exp_sweep_max_bytes(m, profile);
    p->points_per_octave =
        profile == PROFILE_QUICK ? EXP_SWEEP_QUICK_PER_OCTAVE : EXP_SWEEP_FULL_PER_OCTAVE;
    p->kernels.n = sizeof(default_kernels) / sizeof(default_kernels[0]);
    for (unsigned i = 0; i < p->kernels.n; i++)
        p->kernels.v[i] = default_kernels[i];
    p->width = SIMD_AUTO;
}

static void bandwidth_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct bandwidth_params *p = params;
    exp_check_min_max(c, "min", p->min_bytes, p->max_bytes, "min", "max");
    exp_check_sweep_points(c, p->min_bytes, p->max_bytes, p->points_per_octave, BW_SIZE_ALIGN_BYTES,
                           "points");
    bw_check_width(c, "width", m, p->width);
    for (unsigned k = 0; k < p->kernels.n; k++)
        bw_check_kernel(c, "kernels", p->kernels.v[k]);
}

static uint64_t bandwidth_buffer_bytes(const void *params, const struct machine *m)
{
    (void)m;
    return ((const struct bandwidth_params *)params)->max_bytes;
}

/* A width a point is measured at, and what the core's L1 is documented to deliver at it. */
struct bw_candidate {
    enum simd_width width;
    bool peak_known;
    double load_bpc, store_bpc;
};

/* A point of the sweep: a size, a kernel and the width it is measured at. */
struct bw_point_ref {
    uint16_t size, kernel, cand; /* indices into sizes, p->kernels.v and cand */
};

/* The sweep: sizes and the widths measured. With width auto every point is measured at every
   width the CPU and platform allow, the fastest kept (its row says which, widths_gbs gives each
   width's median): a wider vector is not faster everywhere. AVX-512 code lowers the core clock
   of some Intel cores (Skylake-SP, Cascade Lake: 2.65 against 3.1 GHz on this guest), and on
   that guest narrower stores wrote DRAM faster (write 256M, one round: SSE2 9.35, AVX2 9.10,
   AVX-512 7.77 GB/s; AVX-512 slowest in all six rounds of two runs; docs/bench.md).
   The string kernels are the same code at every width: one candidate. The points run size
   by size, kernel by kernel, a point's candidates one after another. */
struct bandwidth_sweep {
    struct exp_ctx *ctx;
    const struct bandwidth_params *p;
    struct bw_candidate cand[BW_CANDIDATES_MAX];
    unsigned ncand;
    uint64_t sizes[EXP_POINTS_MAX];
    unsigned nsizes;
    struct bw_point_ref points[EXP_POINTS_MAX * CFG_LIST_MAX * BW_CANDIDATES_MAX];
    unsigned npoints;
    char dram_peak[24];    /* the theoretical DRAM bandwidth, GB/s, as CSV text ("": unknown) */
    struct bw_result best; /* the fastest candidate of the point whose row comes next */
    unsigned best_cand;
    double cand_gbs[BW_CANDIDATES_MAX]; /* each candidate's median of that point (NaN: none) */
};

static void bandwidth_row(struct exp_ctx *ctx, const struct bandwidth_sweep *d, uint64_t size,
                          enum bw_kernel k, const struct bw_result *r)
{
    char sz[24], bpc[24] = "", prec[24] = "", peak[24] = "", stop[24], widths[96] = "";
    const struct bw_candidate *c = &d->cand[d->best_cand];
    double peak_bpc = c->peak_known ? bw_l1_peak_bpc(k, c->load_bpc, c->store_bpc) : KM_NAN;
    bool named = d->ncand > 1 && bw_width_bits(k, &ctx->m->cpu.simd, c->width) != 0;
    size_t at = 0;
    for (unsigned i = 0; i < d->ncand && at < sizeof(widths); i++)
        if (kisfinite(d->cand_gbs[i]))
            at += (size_t)ksnprintf(widths + at, sizeof(widths) - at, "%s%s:%.3f", at ? " " : "",
                                    simd_width_name(d->cand[i].width), d->cand_gbs[i]);
    if (kisfinite(r->bpc_median))
        ksnprintf(bpc, sizeof(bpc), "%.3f", r->bpc_median);
    if (kisfinite(r->precision))
        ksnprintf(prec, sizeof(prec), "%.3f", r->precision * 100);
    if (kisfinite(peak_bpc))
        ksnprintf(peak, sizeof(peak), "%.0f", peak_bpc);
    ksnprintf(stop, sizeof(stop), "%s", reps_stop_names[r->stop] ? reps_stop_names[r->stop] : "");
    strbuf_printf(&ctx->csv, "%llu,%s,%u,%.3f,%.3f,%.3f,%s,%u,%u,%llu,%u,%s,%s,%s,%s,%s,%s\n",
                  (unsigned long long)size, bw_kernel_names[k],
                  bw_width_bits(k, &ctx->m->cpu.simd, c->width), r->gbs_median, r->gbs_min,
                  r->gbs_max, bpc, r->reps, r->passes, (unsigned long long)r->bytes_per_rep,
                  r->outliers, prec, stop, peak, d->dram_peak, widths, r->clock ? r->clock : "");
    for (unsigned i = 0; i < r->reps; i++)
        strbuf_printf(&ctx->samples, "%llu,%s,%u,%u,%llu,%llu,%.5f,%d\n", (unsigned long long)size,
                      bw_kernel_names[k], i, r->pass[i], (unsigned long long)r->bytes_per_rep,
                      (unsigned long long)r->ticks[i], r->core_per[i], r->outlier[i] ? 1 : 0);
    con_printf("%10s %-9s %9.2f %9.2f %9.2f %8s %5u %7s%s%s\n", exp_size(sz, sizeof(sz), size),
               bw_kernel_names[k], r->gbs_median, r->gbs_min, r->gbs_max, *bpc ? bpc : "-", r->reps,
               *prec ? prec : "-", named ? " " : "", named ? simd_width_name(c->width) : "");
}

/* The theoretical DRAM bandwidth from SMBIOS type 17 (machine/smbios_mem.c: per channel its
   slowest device's transfer rate times its data bus bytes, summed), said and kept as CSV text. */
static void bandwidth_dram_peak(const struct exp_ctx *ctx, struct bandwidth_sweep *d)
{
    const struct smbios_info *s = ctx->m->id.smbios;
    if (!s || !s->bandwidth_bytes_per_s) {
        con_printf("DRAM peak: not known (%s)\n",
                   !s ? "no SMBIOS tables" : "SMBIOS type 17 gives no memory speeds");
        return;
    }
    double gbs = (double)s->bandwidth_bytes_per_s / BW_BYTES_PER_GB;
    ksnprintf(d->dram_peak, sizeof(d->dram_peak), "%.3f", gbs);
    con_printf("DRAM peak: %.1f GB/s, theoretical: %u channel%s x transfer rate x bus bytes "
               "(SMBIOS type 17%s)\n",
               gbs, s->channels, s->channels == 1 ? "" : "s",
               s->channels_named ? "" : "; channels not named: one per device assumed");
}

/* A candidate's L1 peak from the table, said when known. */
static void bandwidth_peak(const struct machine *m, struct bw_candidate *c)
{
    const char *core = NULL, *source = NULL;
    c->peak_known = simd_l1_peak(&m->cpu, c->width, &c->load_bpc, &c->store_bpc, &core, &source);
    if (c->peak_known)
        con_printf("L1 peak of a %s core at %s: %.0f bytes loaded and %.0f stored per cycle "
                   "(%s)\n",
                   core, simd_width_name(c->width), c->load_bpc, c->store_bpc, source);
    else
        con_printf("L1 peak: this core is not in chase's table (machine/simd_peak.c)\n");
}

/* The points: size by size, kernel by kernel, each kernel's candidates (one for a string
   kernel, the same code at every width). */
static void bandwidth_points(struct bandwidth_sweep *d)
{
    d->npoints = 0;
    for (unsigned s = 0; s < d->nsizes; s++)
        for (unsigned k = 0; k < d->p->kernels.n; k++) {
            enum bw_kernel kernel = (enum bw_kernel)d->p->kernels.v[k];
            bool one_code = bw_width_bits(kernel, &d->ctx->m->cpu.simd, d->cand[0].width) == 0;
            for (unsigned c = 0; c < (one_code ? 1 : d->ncand); c++)
                d->points[d->npoints++] = (struct bw_point_ref){s, k, c};
        }
}

/* The widest's state enabled for the windows (it holds the narrower ones'), the widths said.
   0, or EXP_RUN_SKIPPED with why. */
static int bandwidth_width(struct exp_ctx *ctx, struct bandwidth_sweep *d)
{
    const struct machine *m = ctx->m;
    int rc = bw_width_choose(ctx, (int)d->p->width, &d->cand[0].width);
    if (rc)
        return rc;
    con_printf("vector width: %s (%u-bit)%s\n", simd_width_name(d->cand[0].width),
               simd_vector_bits(&m->cpu.simd, d->cand[0].width),
               d->p->width == SIMD_AUTO ? ", the widest this CPU and platform allow" : "");
    if (d->ncand > 1) {
        char also[40] = "";
        for (unsigned i = 1; i < d->ncand; i++)
            ksnprintf(also + kstrlen(also), sizeof(also) - kstrlen(also), "%s%s", i > 1 ? ", " : "",
                      simd_width_name(d->cand[i].width));
        con_printf("each point also with %s, the fastest kept and named in its row: a wider "
                   "vector is not faster everywhere (AVX-512 code lowers the clock of some cores; "
                   "narrower stores can write DRAM faster)\n",
                   also);
    }
    for (unsigned i = 0; i < d->ncand; i++)
        bandwidth_peak(m, &d->cand[i]);
    return 0;
}

static uint64_t point_size(const struct bandwidth_sweep *d, unsigned i)
{
    return d->sizes[d->points[i].size];
}

static enum bw_kernel point_kernel(const struct bandwidth_sweep *d, unsigned i)
{
    return (enum bw_kernel)d->p->kernels.v[d->points[i].kernel];
}

static struct measure_plan bandwidth_plan(void *data, unsigned i)
{
    const struct bandwidth_sweep *d = data;
    return exp_plan(d->ctx, point_size(d, i), exp_line_bytes(d->ctx->m), 1);
}

/* A slice of point i into r (bw_measure), its time split counted; 0, or -1 said. */
static int bandwidth_measure(void *data, unsigned i, const struct measure_plan *plan, bool warm,
                             struct bw_result *r)
{
    struct bandwidth_sweep *d = data;
    struct exp_ctx *ctx = d->ctx;
    char why[120];
    enum bw_kernel k = point_kernel(d, i);
    struct bw_point pt = {k, bw_kernel_code(k, d->cand[d->points[i].cand].width), ctx->buffer.virt,
                          point_size(d, i)};
    struct time_split split = {0};
    uint64_t warm0 = r->warm_ticks, timed0 = r->timed_ticks, t0 = arch_tsc_fenced();
    if (bw_measure(&pt, plan, ctx->timing, warm, r, why, sizeof(why)) != 0) {
        ksnprintf(ctx->failure, sizeof(ctx->failure), "%s at %llu bytes: %s", bw_kernel_names[k],
                  (unsigned long long)pt.size_bytes, why);
        con_printf("%s\n", ctx->failure);
        return -1;
    }
    time_split_measured(&split, arch_tsc_fenced() - t0, r->warm_ticks - warm0,
                        r->timed_ticks - timed0);
    time_split_add(&ctx->spent, &split);
    return 0;
}

/* Point i's result: kept when it is its size and kernel's fastest so far; the row written
   after its last candidate (the sweeps give the rows in point order). */
static void bandwidth_point_row(void *data, unsigned i, const struct bw_result *r)
{
    struct bandwidth_sweep *d = data;
    struct time_split split = {0};
    unsigned c = d->points[i].cand;
    uint64_t t0 = arch_tsc_fenced();
    if (c == 0) {
        for (unsigned j = 0; j < BW_CANDIDATES_MAX; j++)
            d->cand_gbs[j] = KM_NAN;
    }
    d->cand_gbs[c] = r->gbs_median;
    if (c == 0 || r->gbs_median > d->best.gbs_median) {
        d->best = *r;
        d->best_cand = c;
    }
    if (i + 1 < d->npoints && d->points[i + 1].cand != 0)
        return;
    bandwidth_row(d->ctx, d, point_size(d, i), point_kernel(d, i), &d->best);
    split.output = arch_tsc_fenced() - t0;
    time_split_add(&d->ctx->spent, &split);
}

static int bandwidth_sweep_all(struct exp_ctx *ctx, struct bandwidth_sweep *d, unsigned passes)
{
    struct bw_sweep s = {.points = d->npoints,
                         .passes = passes,
                         .wall_tsc_hz = ctx->timing->wall_tsc_hz,
                         .data = d,
                         .plan = bandwidth_plan,
                         .measure = bandwidth_measure,
                         .row = bandwidth_point_row};
    int rc = bw_sweep_run(&s);
    if (rc == BW_SWEEP_NO_MEMORY)
        ksnprintf(ctx->failure, sizeof(ctx->failure), "out of memory for %u points' results",
                  s.points);
    return rc ? EXP_RUN_FAILED : 0;
}

static int bandwidth_run(struct exp_ctx *ctx, const void *params)
{
    static struct bandwidth_sweep d;
    kmemset(&d, 0, sizeof(d));
    d.ctx = ctx;
    d.p = params;
    unsigned n = sweep_sizes(d.p->min_bytes, d.p->max_bytes, (unsigned)d.p->points_per_octave,
                             BW_SIZE_ALIGN_BYTES, d.sizes, EXP_POINTS_MAX);
    d.nsizes = n < EXP_POINTS_MAX ? n : EXP_POINTS_MAX;
    enum simd_width widths[BW_CANDIDATES_MAX];
    d.ncand =
        bw_width_candidates(&ctx->m->cpu.simd, ctx->m->ring0, (enum simd_width)d.p->width, widths);
    for (unsigned i = 0; i < d.ncand; i++)
        d.cand[i].width = widths[i];
    bandwidth_points(&d);
    unsigned passes = exp_sweep_passes(ctx, d.npoints);
    char in_passes[40] = "";
    if (passes > 1)
        ksnprintf(in_passes, sizeof(in_passes), " in %u interleaved passes", passes);
    exp_header(ctx, &experiment_bandwidth,
               "%u sizes x %u kernels, one core%s; GB/s = 10^9 bytes moved per second (a copy "
               "counts the bytes it reads and those it writes)",
               d.nsizes, d.p->kernels.n, in_passes);
    strbuf_puts(&ctx->csv, "size_bytes,kernel,width_bits,gbs_median,gbs_min,gbs_max,"
                           "bytes_per_cycle_median,reps,passes,bytes_per_rep,outliers,"
                           "precision_pct,stop,l1_peak_bytes_per_cycle,dram_peak_gbs,"
                           "widths_gbs,clock\n");
    strbuf_puts(&ctx->samples, "size_bytes,kernel,rep,pass,bytes,tsc_total,core_per_tsc,outlier\n");
    if (ctx->measure != measure_chase) {
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "needs real processors: this measurement backend models chases, not the "
                  "vector kernels");
        return EXP_RUN_SKIPPED;
    }
    if (bandwidth_width(ctx, &d) != 0)
        return EXP_RUN_SKIPPED;
    bandwidth_dram_peak(ctx, &d);
    con_printf("%10s %-9s %9s %9s %9s %8s %5s %7s\n", "size", "kernel", "GB/s", "min", "max",
               "B/cycle", "reps", "+-%");
    int rc = bandwidth_sweep_all(ctx, &d, passes);
    plat_window_xstate(0);
    return rc;
}

const struct experiment experiment_bandwidth = {
    .cfg = {.name = "bandwidth",
            .keys = bandwidth_keys,
            .nkeys = sizeof(bandwidth_keys) / sizeof(bandwidth_keys[0]),
            .params_size = sizeof(struct bandwidth_params),
            .size_key = "max",
            .defaults = bandwidth_defaults,
            .check = bandwidth_check,
            .buffer_bytes = bandwidth_buffer_bytes},
    .describe = "bytes per second each level delivers to one core: read, write, copy and "
                "non-temporal kernels in the widest vector unit allowed, over random's sizes",
    .why = "the other half of a level's character: how many bytes per second it delivers, "
           "beside how long a load waits",
    .run = bandwidth_run,
};
