// SPDX-License-Identifier: MIT
// The bw_cores experiment: bandwidth on 1, 2, 4 ... all processors, and the all-processor peak.
#include "experiments/driver.h"
#include "point/ctx.h"
#include "point/passes.h"
#include "point/plan.h"
#include "point/sizes.h"

#include "arch/cpu.h"
#include "stream/bw.h"
#include "stream/bw_levels.h"
#include "stream/bw_team.h"
#include "procs/mp.h"
#include "chase/reps.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

/* This experiment's row of the table (defined at the end). */
extern const struct experiment experiment_bw_cores;

static const char *const level_names[] = {"L1", "L2", "L3", "dram", NULL};

struct bw_cores_params {
    unsigned level;         /* LEVEL_* */
    struct cfg_auto size;   /* bytes per processor; auto: from the level */
    unsigned kernel;        /* enum bw_kernel */
    unsigned width;         /* enum simd_width */
    uint64_t level_bytes;   /* auto: the level's bytes per processor when memory could not hold
                               them for every processor and size is lower (0: it could) */
    uint64_t l3_part_bytes; /* auto, L3: each processor's part of the last cache when no size is
                               beyond its L2 and within that part (l3_bytes; 0: one is) */
    struct cpu_choice cpus; /* the processors that stream */
};
CFG_PARAMS_FIT(struct bw_cores_params);

#define P(field) offsetof(struct bw_cores_params, field)

static const struct key_desc bw_cores_keys[] = {
    {"level", KEY_CHOICE, P(level), 0, 0, level_names, "",
     "the level each processor's private buffer fits: L1 and L2 (half of it), L3 (half of its "
     "part of the L3 instance it shares, at least twice its L2), dram (twice the last cache, at "
     "least 64M); lowered to the largest that fits when memory cannot hold one for every "
     "processor"},
    {"size", KEY_SIZE_AUTO, P(size), BW_SIZE_ALIGN_BYTES, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "each processor's buffer (auto: from level); the plan needs one per processor"},
    {"kernel", KEY_CHOICE, P(kernel), 0, 0, bw_kernel_names, "",
     "what each processor does to its buffer in the scaling table (bandwidth's kernels)"},
    {"width", KEY_CHOICE, P(width), 0, 0, simd_width_names, "",
     "vector width: auto (the widest allowed), sse2, avx2, avx512 (x86-64), neon, sve (AArch64)"},
    {"cpus", KEY_CPUS, P(cpus), 0, PLAT_CPUS_MAX, NULL, "",
     "processors that stream: a count (0: as many as 64) spread over nodes, packages, dies and "
     "core types; all (up to 512); p or e (hybrid parts' core types); or a list (0-3,8)"},
};

static void bw_cores_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct bw_cores_params *p = params;
    (void)m;
    p->level = profile == PROFILE_QUICK ? BW_LEVEL_L2 : BW_LEVEL_DRAM;
    p->size = (struct cfg_auto){0, true};
    p->kernel = BW_READ;
    p->width = SIMD_AUTO;
    p->cpus = (struct cpu_choice){.kind = CPU_CHOICE_COUNT};
}

/* The processors bw_cores streams on at most, the boot processor included: those its cpus key
   may name of the machine's (cpu_choice_most), at most MP_TEAM_MAX. */
static unsigned bwc_processors(const struct machine *m, const struct cpu_choice *c)
{
    unsigned n = cpu_choice_most(c, m->processors, PLAT_CPUS_MAX);
    return n < MP_TEAM_MAX ? n : MP_TEAM_MAX;
}

/* size auto: the level's, lowered to the largest that memory holds for every processor. */
static void bw_cores_resolve(void *params, const struct machine *m)
{
    struct bw_cores_params *p = params;
    uint64_t limit = m->buffer_limit_bytes;
    unsigned n = bwc_processors(m, &p->cpus);
    p->level_bytes = p->l3_part_bytes = 0;
    if (!p->size.is_auto)
        return;
    p->size.value = bw_level_bytes(m, p->level, n, &p->l3_part_bytes);
    uint64_t fit = exp_size_at_most(limit / n) / BW_SIZE_ALIGN_BYTES;
    if (limit && fit && p->size.value * n > limit) {
        p->level_bytes = p->size.value;
        p->size.value = fit * BW_SIZE_ALIGN_BYTES;
    }
}

static void bw_cores_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct bw_cores_params *p = params;
    if (!p->size.is_auto && p->size.value % BW_SIZE_ALIGN_BYTES)
        cfg_check_fail(c, "size", "%llu is not a multiple of %d", (unsigned long long)p->size.value,
                       BW_SIZE_ALIGN_BYTES);
    bw_check_width(c, "width", m, p->width);
    bw_check_kernel(c, "kernel", p->kernel);
}

/* A buffer of its own for each processor. */
static uint64_t bw_cores_buffer_bytes(const void *params, const struct machine *m)
{
    const struct bw_cores_params *p = params;
    return p->size.value * bwc_processors(m, &p->cpus);
}

/* MLC's peak injection mixes: a read of size/2 and a copy of size read size and write size/2. */
static const struct bw_mix peak_mixes[] = {
    {"all-read", {{BW_READ, 1}}, 1},
    {"3:1", {{BW_READ, 1}, {BW_COPY, 1}}, 2}, /* read S + S/2, write S/2 */
    {"2:1", {{BW_READ, 2}, {BW_COPY, 1}}, 2}, /* read S/2 + S/2, write S/2 */
    {"1:1", {{BW_COPY, 1}}, 1},               /* read S/2, write S/2 */
    {"nt-write 1:1", {{BW_NT_COPY, 1}}, 1},   /* the same with non-temporal stores */
};
#define NMIXES (sizeof(peak_mixes) / sizeof(peak_mixes[0]))

/* Why each processor's buffer is not the level's (or the size key's): bw_cores.csv's size_note. */
enum bwc_note { BWC_NOTE_NONE, BWC_NOTE_NO_L3, BWC_NOTE_MEMORY, BWC_NOTE_SHARE };
static const char *const bwc_note_text[] = {
    "", "no L3 size: twice the L2 is more than its part of the L3", "lowered to fit memory",
    "a share of the buffer: more processors than planned"};

/* One row of a table: `n` processors streaming `mix`. */
struct bwc_row {
    const char *table; /* "scaling" or "peak" */
    unsigned n;
    const struct bw_mix *mix;
};
/* The rows at most: the scaling table's 1, 2, 4 ... all, and the peak table's mixes. */
#define BWC_ROWS_MAX (8 * sizeof(unsigned) + 1 + NMIXES)

/* A point of the sweep: a row at one of the widths (as bandwidth's points: with width auto every
   row at every width the CPU and platform allow, the fastest kept, each width's median in
   widths_gbs; a row of string kernels, the same code at every width, at one). */
struct bwc_point {
    uint16_t row, cand;
};

/* The run's processors (boot processor first, then cores before SMT siblings, packages in
   turn), the team that streams on the first n of them, and the tables' rows. */
struct bw_cores_sweep {
    struct exp_ctx *ctx;
    const struct bw_cores_params *p;
    struct mp_cpu cpus[MP_TEAM_MAX];
    unsigned n;
    struct bw_team team;
    uint64_t size;      /* each processor's buffer */
    enum bwc_note note; /* ... and why it is not the level's */
    struct bw_mix one;  /* the scaling table's kernel */
    struct bwc_row rows[BWC_ROWS_MAX];
    unsigned nrows;
    enum simd_width cand[BW_CANDIDATES_MAX]; /* the widths, the widest first */
    unsigned ncand;
    struct bwc_point points[BWC_ROWS_MAX * BW_CANDIDATES_MAX];
    unsigned npoints;
    struct bw_best best; /* the fastest width of the row written next */
};

/* Whether a comes before b: thread, then core, then package (the boot processor first). */
static bool bwc_before(const struct mp_cpu *a, const struct mp_cpu *b)
{
    if (a->p.bsp != b->p.bsp)
        return a->p.bsp;
    if (a->p.thread != b->p.thread)
        return a->p.thread < b->p.thread;
    if (a->p.core != b->p.core)
        return a->p.core < b->p.core;
    return a->p.package < b->p.package;
}

/* The processors in order; one processor (the boot one) when there are no others, said. */
static void bwc_cpus(struct exp_ctx *ctx, struct bw_cores_sweep *d)
{
    d->n = mp_cpus_chosen(ctx, &d->p->cpus, d->cpus, MP_TEAM_MAX);
    if (d->n == 0) {
        con_printf("one processor: one row per table (%s)\n", ctx->failure);
        ctx->failure[0] = 0; /* said; the experiment still runs, on this processor */
        kmemset(&d->cpus[0], 0, sizeof(d->cpus[0]));
        d->cpus[0].p.bsp = true;
        d->n = 1;
        return;
    }
    for (unsigned i = 1; i < d->n; i++) /* insertion sort: a few dozen processors */
        for (unsigned j = i; j > 0 && bwc_before(&d->cpus[j], &d->cpus[j - 1]); j--) {
            struct mp_cpu t = d->cpus[j];
            d->cpus[j] = d->cpus[j - 1];
            d->cpus[j - 1] = t;
        }
    mp_print_cpus(d->cpus, d->n);
}

static struct measure_plan bwc_plan(void *data, unsigned i)
{
    const struct bw_cores_sweep *d = data;
    (void)i;
    return exp_plan(d->ctx, d->size, exp_line_bytes(d->ctx->m), 1);
}

/* A slice of point i's runs (its row at its width) into r (bw_team_slice); 0, or -1 said. */
static int bwc_measure(void *data, unsigned i, const struct measure_plan *plan, bool warm,
                       struct bw_result *r)
{
    struct bw_cores_sweep *d = data;
    struct exp_ctx *ctx = d->ctx;
    const struct bwc_row *row = &d->rows[d->points[i].row];
    d->team.width = d->cand[d->points[i].cand];
    char keys[48];
    ksnprintf(keys, sizeof(keys), "%u,%s,%s", row->n, row->mix->name,
              simd_width_name(d->team.width));
    d->team.n = row->n;
    d->team.sample_keys = keys;
    for (unsigned k = 0; k < row->n; k++)
        d->team.base[k] = ctx->buffer.virt + k * d->size;
    if (bw_team_slice(ctx, &d->team, row->mix, plan, warm, r) != 0) {
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "%s on %u processors: a processor did not come back in time", row->mix->name,
                  row->n);
        con_printf("%s\n", ctx->failure);
        return -1;
    }
    return 0;
}

/* The buffer cannot hold every processor's: fewer processors when it cannot give each even
   BW_SIZE_ALIGN_BYTES, and each streams its share, said (the rows say it too). 0, or -1. */
static int bwc_share(struct exp_ctx *ctx, struct bw_cores_sweep *d, unsigned planned)
{
    uint64_t buffer = ctx->buffer.size_bytes;
    unsigned fit =
        buffer / BW_SIZE_ALIGN_BYTES < d->n ? (unsigned)(buffer / BW_SIZE_ALIGN_BYTES) : d->n;
    char a[24], b[24], c[24];
    exp_size(a, sizeof(a), d->size);
    exp_size(b, sizeof(b), buffer);
    if (fit == 0) {
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "the buffer (%s) cannot hold one processor's %s", b, a);
        return -1;
    }
    if (fit < d->n) {
        con_printf("note: the buffer (%s) holds %u processors' buffers of %s at most: the rows "
                   "use the first %u of the %u that answered\n",
                   b, fit, exp_size(c, sizeof(c), BW_SIZE_ALIGN_BYTES), fit, d->n);
        d->n = fit;
    }
    d->size = buffer / d->n / BW_SIZE_ALIGN_BYTES * BW_SIZE_ALIGN_BYTES;
    d->note = BWC_NOTE_SHARE;
    con_printf("note: the buffer (%s, planned for %u processors) cannot hold %u processors' "
               "buffers of %s: each streams %s, a share of the buffer\n",
               b, planned, d->n, a, exp_size(c, sizeof(c), d->size));
    return 0;
}

/* The caches a level's auto size stands on are unknown (no believable size): said, with the
   default used instead. */
static void bwc_say_unknown(const struct exp_ctx *ctx, const struct bw_cores_params *p)
{
    const struct cpu_info *ci = &ctx->m->cpu;
    bool known = p->level == BW_LEVEL_L1   ? cpuinfo_data_cache(ci, 1) != NULL
                 : p->level == BW_LEVEL_L2 ? cpuinfo_data_cache(ci, 2) != NULL
                                           : cpuinfo_llc(ci) != NULL;
    char a[24];
    if (p->size.is_auto && !known)
        con_printf("note: this machine's cache sizes are unknown (%s): bw_cores cannot size its "
                   "%s level; each processor streams %s, from a default size\n",
                   ci->cache_source ? ci->cache_source : "none", level_names[p->level],
                   exp_size(a, sizeof(a), p->size.value));
}

/* Each processor's buffer: size, said when memory lowered it from the level's (and, should more
   processors answer than the plan counted, the buffer's share, said). 0, or -1. */
static int bwc_size(struct exp_ctx *ctx, struct bw_cores_sweep *d)
{
    const struct bw_cores_params *p = d->p;
    unsigned planned = bwc_processors(ctx->m, &p->cpus);
    char a[24], b[24], c[24], e[24];
    d->size = p->size.value;
    bwc_say_unknown(ctx, p);
    if (p->l3_part_bytes) {
        d->note = BWC_NOTE_NO_L3;
        con_printf("note: no L3 size here: twice each processor's L2 (%s) is more than its part "
                   "of the last cache when all %u stream (%s of an L3 of %s): each streams %s, "
                   "and the rows whose processors overfill an L3 say so\n",
                   exp_size(a, sizeof(a), 2 * exp_l2_bytes(ctx->m)), planned,
                   exp_size(b, sizeof(b), p->l3_part_bytes),
                   exp_size(c, sizeof(c), exp_llc_bytes(ctx->m)), exp_size(e, sizeof(e), d->size));
    }
    if (p->level_bytes) {
        d->note = BWC_NOTE_MEMORY;
        con_printf("note: %u processors' buffers of %s (%s) do not fit in memory (the buffer can "
                   "be at most %s): each streams %s, the largest that fits\n",
                   planned, exp_size(a, sizeof(a), p->level_bytes), level_names[p->level],
                   exp_size(b, sizeof(b), ctx->m->buffer_limit_bytes),
                   exp_size(c, sizeof(c), d->size));
    }
    if (d->size * d->n > ctx->buffer.size_bytes)
        return bwc_share(ctx, d, planned);
    return 0;
}

/* For the L3 level, a row whose processors on one L3 instance stream more than it holds: said in
   beyond ("beyond the L3: ..."); "" for the others. */
static const char *bwc_beyond_l3(const struct bw_cores_sweep *d, const struct bwc_row *row,
                                 char *beyond, size_t cap)
{
    unsigned most = mp_l3_most(d->cpus, row->n);
    uint64_t llc = exp_llc_bytes(d->ctx->m);
    char a[24];
    beyond[0] = 0;
    if (d->p->size.is_auto && d->p->level == BW_LEVEL_L3 && most * d->size > llc)
        ksnprintf(beyond, cap, "beyond the L3: %u processors on one %s", most,
                  exp_size(a, sizeof(a), llc));
    return beyond;
}

/* Row i's line at its fastest width r: the CSV row and the console's. */
static void bwc_row_out(struct bw_cores_sweep *d, const struct bwc_row *row,
                        const struct bw_result *r)
{
    const char *level = d->p->size.is_auto ? level_names[d->p->level] : "size";
    char beyond[80], widths[96];
    bwc_beyond_l3(d, row, beyond, sizeof(beyond));
    bw_widths_text(d->best.gbs, d->cand, d->ncand, widths, sizeof(widths));
    strbuf_printf(
        &d->ctx->csv, "%s,%u,%s,%s,%llu,%.6f,%.6f,%.6f,%.6f,%u,%u,%llu,%u,%s,%s%s%s,%s,%s\n",
        row->table, row->n, level, row->mix->name, (unsigned long long)d->size, r->gbs_median,
        r->gbs_median / row->n, r->gbs_min, r->gbs_max, r->reps, r->outliers,
        (unsigned long long)r->bytes_per_rep, r->passes,
        reps_stop_names[r->stop] ? reps_stop_names[r->stop] : "", bwc_note_text[d->note],
        d->note && beyond[0] ? "; " : "", beyond, simd_width_name(d->cand[d->best.cand]), widths);
    con_printf("%-8s %10u %-13s %10.2f %10.2f %9.2f %9.2f%s%s%s%s\n", row->table, row->n,
               row->mix->name, r->gbs_median, r->gbs_median / row->n, r->gbs_min, r->gbs_max,
               d->ncand > 1 ? " " : "", d->ncand > 1 ? simd_width_name(d->cand[d->best.cand]) : "",
               beyond[0] ? "  " : "", beyond);
}

/* Point i's result: kept when it is its row's fastest so far; the row written after its last
   width (the sweeps give the points in order). */
static void bwc_row_write(void *data, unsigned i, const struct bw_result *r)
{
    struct bw_cores_sweep *d = data;
    bw_best_add(&d->best, d->points[i].cand, r);
    if (i + 1 == d->npoints || d->points[i + 1].cand == 0)
        bwc_row_out(d, &d->rows[d->points[i].row], &d->best.best);
}

/* The width, said and enabled; each processor's buffer, said. */
static int bwc_begin(struct exp_ctx *ctx, struct bw_cores_sweep *d)
{
    const struct bw_cores_params *p = d->p;
    char a[24];
    int rc = bw_width_choose(ctx, (int)p->width, &d->team.width);
    if (rc)
        return rc;
    d->ncand =
        bw_width_candidates(&ctx->m->cpu.simd, ctx->m->ring0, (enum simd_width)p->width, d->cand);
    d->cand[0] = d->team.width; /* the one chosen and enabled, the widest */
    bwc_cpus(ctx, d);
    if (bwc_size(ctx, d) != 0)
        return EXP_RUN_SKIPPED;
    d->team.cpus = d->cpus;
    d->team.size = d->size;
    con_printf("vector width: %s (%u-bit)%s; each processor streams its own %s (%s%s%s)\n",
               simd_width_name(d->team.width), simd_vector_bits(&ctx->m->cpu.simd, d->team.width),
               d->ncand > 1 ? ", each row at every narrower width too, the fastest kept" : "",
               exp_size(a, sizeof(a), d->size), p->size.is_auto ? level_names[p->level] : "size",
               d->note ? ": " : "", bwc_note_text[d->note]);
    con_printf("%-8s %10s %-13s %10s %10s %9s %9s\n", "table", "processors", "kernel/mix", "GB/s",
               "per proc", "min", "max");
    return 0;
}

/* The rows: the scaling table on 1, 2, 4 ... all processors, then the peak table's mixes. */
static void bwc_rows(struct bw_cores_sweep *d)
{
    d->one = (struct bw_mix){bw_kernel_names[d->p->kernel], {{(enum bw_kernel)d->p->kernel, 1}}, 1};
    d->nrows = 0;
    for (unsigned n = 1;; n = 2 * n < d->n ? 2 * n : d->n) {
        d->rows[d->nrows++] = (struct bwc_row){"scaling", n, &d->one};
        if (n == d->n)
            break;
    }
    for (unsigned m = 0; m < NMIXES; m++)
        d->rows[d->nrows++] = (struct bwc_row){"peak", d->n, &peak_mixes[m]};
    d->npoints = 0;
    for (unsigned r = 0; r < d->nrows; r++) { /* string kernels: the same code at every width */
        enum bw_kernel k = d->rows[r].mix->step[0].kernel;
        bool one_code = bw_width_bits(k, &d->ctx->m->cpu.simd, d->cand[0]) == 0;
        for (unsigned c = 0; c < (one_code ? 1 : d->ncand); c++)
            d->points[d->npoints++] = (struct bwc_point){(uint16_t)r, (uint16_t)c};
    }
}

/* Every row, in the passes the passes key asks for (interleaved over the rows). */
static int bwc_tables(struct exp_ctx *ctx, struct bw_cores_sweep *d)
{
    bwc_rows(d);
    struct bw_sweep s = {.points = d->npoints,
                         .passes = exp_sweep_passes(ctx, d->npoints),
                         .wall_tsc_hz = ctx->timing->wall_tsc_hz,
                         .data = d,
                         .plan = bwc_plan,
                         .measure = bwc_measure,
                         .row = bwc_row_write};
    if (s.passes > 1)
        con_printf("the rows in %u interleaved passes\n", s.passes);
    int rc = bw_sweep_run(&s);
    if (rc == BW_SWEEP_NO_MEMORY)
        ksnprintf(ctx->failure, sizeof(ctx->failure), "out of memory for %u rows' results",
                  s.points);
    return rc ? EXP_RUN_FAILED : 0;
}

static int bw_cores_run(struct exp_ctx *ctx, const void *params)
{
    static struct bw_cores_sweep d;
    kmemset(&d, 0, sizeof(d));
    d.ctx = ctx;
    d.p = params;
    exp_header(ctx, &experiment_bw_cores,
               "1, 2, 4 ... all processors streaming buffers of their own, started together and "
               "timed by the boot processor; then the all-processor peak with read:write mixes");
    strbuf_puts(&ctx->csv, "table,processors,level,kernel,size_bytes,gbs_total,gbs_per_processor,"
                           "gbs_min,gbs_max,reps,outliers,bytes_per_run,passes,stop,size_note,"
                           "width,widths_gbs\n");
    strbuf_puts(&ctx->samples, "processors,kernel,width,rep,tsc_total,gbs\n");
    if (ctx->measure != measure_chase) {
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "needs real processors: this measurement backend models chases, not the "
                  "vector kernels");
        return EXP_RUN_SKIPPED;
    }
    int rc = bwc_begin(ctx, &d);
    if (rc == 0)
        rc = bwc_tables(ctx, &d);
    plat_window_xstate(0);
    return rc;
}

const struct experiment experiment_bw_cores = {
    .cfg = {.name = "bw_cores",
            .keys = bw_cores_keys,
            .nkeys = sizeof(bw_cores_keys) / sizeof(bw_cores_keys[0]),
            .params_size = sizeof(struct bw_cores_params),
            .size_key = "size",
            .defaults = bw_cores_defaults,
            .resolve = bw_cores_resolve,
            .check = bw_cores_check,
            .buffer_bytes = bw_cores_buffer_bytes},
    .describe = "bandwidth on 1, 2, 4 ... all processors, each streaming its own buffer of a "
                "chosen level's size; the all-processor peak with read:write mixes (MLC's peak "
                "injection table)",
    .why = "how a level's bandwidth scales with the processors that share it, and what the "
           "memory delivers to all of them at once",
    .run = bw_cores_run,
};
