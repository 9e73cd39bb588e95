// SPDX-License-Identifier: MIT
// What every experiment does alike: machine facts, plans, pages, measuring, CSV and tables.
#ifndef CHASE_EXP_COMMON_H
#define CHASE_EXP_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "chase/chain_points.h"
#include "chase/measure.h"
#include "config/config.h"
#include "experiments/experiment.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

/* Sizes and counts that bound every experiment's plan. */
#define EXP_POINTS_MAX 256 /* points of one sweep */
#define EXP_FALLBACK_LLC_BYTES (32ULL << 20)
#define EXP_FALLBACK_L2_BYTES (1ULL << 20)
#define EXP_FALLBACK_LINE_BYTES 64
#define EXP_FAR_BEYOND_LLC 4    /* chains this many times the LLC need no full warm-up lap */
#define EXP_WARM_LLC_MULTIPLE 2 /* ... only enough hops to replace the LLC this many times */
/* A warm-up lap longer than this share of point_max_ms may stop once its pace is steady:
   measure_warm_steady (a lap of a chain far beyond the caches costs seconds and adds nothing
   once every cache holds only the chain's latest stretch). */
#define EXP_WARM_STEADY_SHARE 0.1
#define EXP_SIZE_KEY_MAX (1ULL << 40)
#define EXP_STRIDE_KEY_MAX (1ULL << 30)

/*
 * The keys of random's size sweep (min, max, points_per_octave, stride), for an experiment
 * that runs that sweep (random, cores): P(field) gives the offset of min_bytes, max_bytes,
 * points_per_octave and stride_bytes in its parameter struct.
 */
// clang-format off
#define EXP_RANDOM_SWEEP_KEYS(P)                                                                 \
    {"min", KEY_SIZE, P(min_bytes), 8, EXP_SIZE_KEY_MAX, NULL, "bytes", "smallest chain size"},  \
    {"max", KEY_SIZE, P(max_bytes), 8, EXP_SIZE_KEY_MAX, NULL, "bytes",                          \
     "largest chain size (default: 4x the last-level cache, bounded by memory)"},                \
    {"points_per_octave", KEY_U64, P(points_per_octave), 1, 32, NULL, "",                        \
     "sizes per doubling of the chain size"},                                                    \
    {"stride", KEY_SIZE, P(stride_bytes), 8, EXP_STRIDE_KEY_MAX, NULL, "bytes",                  \
     "distance between slots (default: the cache line)"}
// clang-format on

/* The keys of a stride sweep (min_stride, max_stride, step), for an experiment that runs one
   (linear, fused): P(field) gives the offsets of min_stride_bytes, max_stride_bytes and
   step_bytes; exp_check_stride_sweep checks them. */
// clang-format off
#define EXP_STRIDE_SWEEP_KEYS(P)                                                                 \
    {"min_stride", KEY_SIZE, P(min_stride_bytes), 8, EXP_STRIDE_KEY_MAX, NULL, "bytes",          \
     "smallest stride"},                                                                         \
    {"max_stride", KEY_SIZE, P(max_stride_bytes), 8, EXP_STRIDE_KEY_MAX, NULL, "bytes",          \
     "largest stride"},                                                                          \
    {"step", KEY_SIZE, P(step_bytes), 8, EXP_STRIDE_KEY_MAX, NULL, "bytes",                      \
     "stride increment between points"}
// clang-format on
/* The default size sweeps: from 4 KiB to 4x the LLC (at least 64M), 4 M when quick. */
#define EXP_SWEEP_MIN_BYTES 4096
#define EXP_SWEEP_FULL_MIN_MAX_BYTES (64ULL << 20)
#define EXP_SWEEP_QUICK_MAX_BYTES (4ULL << 20)
#define EXP_SWEEP_QUICK_PER_OCTAVE 2
#define EXP_SWEEP_FULL_PER_OCTAVE 4

/*
 * The columns every experiment's CSV ends with: the statistics leave the outliers out;
 * ns and core_cycles are the headline robust to bursts (reps.h: REPS_HEADLINE_QUANTILE of
 * all repetitions), core cycles are per repetition at that repetition's own clock (clock:
 * adds or aperf; clock_disagree_pct how far its repetitions' clocks lie apart, p10 to p90),
 * disturbed what the repetitions show (tail, modes, drift; empty when clean), passes how many
 * interleaved passes measured the point; precision_pct is the half-width of the median's
 * 95% interval in percent of it (empty when the repetitions are too few for one), stop why
 * the repetitions ended (reps.h); the *_ns columns split the point's wall time,
 * timed_fraction is the timed part's share; tick_share_pct one counter tick over the mean
 * timed region (a repetition's window), in percent: the timer's resolution in each number.
 */
#define EXP_CSV_COMMON                                                                             \
    "hops,reps,build_ns,tsc_min,tsc_median,tsc_p90,ns_min,ns_median,ns_p90,ns,core_cycles,"        \
    "core_cycles_min,core_cycles_median,core_cycles_p90,core_per_tsc,clock,clock_disagree_pct,"    \
    "disturbed,passes,outliers,precision_pct,stop,warm_ns,timed_ns,bookkeeping_ns,output_ns,"      \
    "timed_fraction,tick_share_pct"
/*
 * The columns every samples CSV ends with: outlier is 1 for a repetition left out;
 * core_per_tsc the repetition's own clock estimate (empty without one); clock_pair_pct how
 * far the estimates before and after it lie apart, in percent (empty without two: over
 * TIMING_CLOCK_PAIR_TOLERANCE the clock changed during it); smi is last and empty where SMIs
 * cannot be counted.
 */
#define EXP_SAMPLES_COMMON                                                                         \
    "rep,hops,tsc_total,tsc_per_access,ns_per_access,outlier,core_per_tsc,clock_pair_pct,smi"

/* The last-level cache, the level below it, and the line size (CPUID, or fallbacks). */
uint64_t exp_llc_bytes(const struct machine *m);
uint64_t exp_l2_bytes(const struct machine *m);
uint64_t exp_line_bytes(const struct machine *m);
/* The smallest power of two >= v, and the largest <= v (v >= 1). */
uint64_t exp_pow2_at_least(uint64_t v);
uint64_t exp_pow2_at_most(uint64_t v);
/* v lowered to the largest power of two the buffer limit allows (no limit when 0). */
uint64_t exp_fit_memory(const struct machine *m, uint64_t v);
/* The largest 2^k or 1.5 x 2^k at most v (0 when v is 0): the sizes the configuration offers
   when a plan does not fit in memory (config_resolve.c), so an auto size lowered is one too. */
uint64_t exp_size_at_most(uint64_t v);

/* The default full-profile buffer: 4x the LLC as a power of two, at least
   EXP_SWEEP_FULL_MIN_MAX_BYTES, bounded by the buffer limit. */
uint64_t exp_full_buffer_bytes(const struct machine *m);
/* The largest size of the default size sweeps, bounded by the buffer limit. */
uint64_t exp_sweep_max_bytes(const struct machine *m, enum profile profile);

/* The checks size sweeps share, each reported at its key (messages as users see them):
 * a stride that is not a multiple of 8, min above max, a sweep of more than EXP_POINTS_MAX
 * sizes (per `what`: "points", or "sizes per stride"), sizes aligned to align. */
void exp_check_stride(struct cfg_check *c, const char *key, uint64_t stride);
void exp_check_min_max(struct cfg_check *c, const char *key, uint64_t min, uint64_t max,
                       const char *min_name, const char *max_name);
/* The checks stride sweeps (min_stride to max_stride by step) share: each a multiple of 8,
   min_stride not above max_stride. */
void exp_check_stride_sweep(struct cfg_check *c, uint64_t min_stride, uint64_t max_stride,
                            uint64_t step);
void exp_check_sweep_points(struct cfg_check *c, uint64_t min, uint64_t max,
                            uint64_t points_per_octave, uint64_t align, const char *what);

/* How many strides a sweep from min to max in steps of step has (0 when none). */
unsigned exp_stride_count(uint64_t min, uint64_t max, uint64_t step);

/*
 * The measurement plan of a point: repetitions from the configuration, time per
 * repetition from the profile, and a warm-up of one lap, or, for chains of chain_bytes
 * (all streams) far beyond the LLC, only enough hops to replace the LLC's content, each
 * hop touching bytes_per_hop new bytes (min of stride and line) per stream.
 */
struct measure_plan exp_plan(const struct exp_ctx *ctx, uint64_t chain_bytes,
                             uint64_t bytes_per_hop, unsigned streams);

/*
 * The hops that refill the TLBs for a chain of chain_bytes whose slots are visited in random
 * order (plan.prewalk_max_hops): with P of its pages in the buffer's page size, at most
 * EXP_TLB_ENTRIES_MAX, P x (ln P + 3) random hops leave on average e^-3 = 0.05 of those P
 * pages untouched (the coupon collector). Entering a window on the firmware empties the
 * TLBs, never the data caches.
 */
#define EXP_TLB_ENTRIES_MAX 4096 /* Golden Cove's second-level TLB has 2048, Zen 4's 3072 */
uint64_t exp_prewalk_tlb_hops(const struct exp_ctx *ctx, uint64_t chain_bytes);

/* Estimated TSC ticks of a point (for the progress line's time left). */
double exp_point_work(const struct exp_ctx *ctx, const struct measure_plan *plan,
                      uint64_t chain_bytes, uint64_t slots, uint64_t lap_hops, unsigned streams);

/*
 * Measure pt with plan into r, and time it: r->time gets the bookkeeping around the
 * backend's warm-up and timed parts. Returns 0, or EXP_RUN_FAILED with ctx->failure
 * saying which point (label, a size in bytes) and why (also printed); r is released on
 * failure.
 */
int exp_measure(struct exp_ctx *ctx, const struct chase_point *pt, const struct measure_plan *plan,
                uint64_t label, struct point_result *r);

/* One point of a sweep: what the experiment's hooks fill in, and the driver measures. */
struct exp_point {
    unsigned index; /* in the sweep, from 0 */
    /* The plan hook's: how to measure it, what a failure names, what it costs (exp_point_work). */
    struct measure_plan plan;
    uint64_t label; /* a size in bytes */
    uint64_t chain_bytes, slots, lap_hops;
    unsigned streams;
    /* The build hook's: the chains to chase. */
    struct chase_point pt;
    /* The driver's: the build hook's ticks. */
    uint64_t build_ticks;
};

/* What a prepare or build hook returns for a point that cannot be measured here. */
#define EXP_POINT_SKIPPED 1

/*
 * A sweep of `points` points; data is the experiment's own (its parameters, sizes, what its
 * points share), passed to every hook.
 */
struct exp_sweep {
    unsigned points;
    void *data;
    /* Its points may be measured in any order, each rebuilt from scratch whenever it is
       measured: the driver then measures them in the passes the passes key asks for. */
    bool interleave;
    /* Fill p's plan, label and work estimate (called for the estimate and again to measure). */
    void (*plan)(const struct exp_ctx *ctx, void *data, struct exp_point *p);
    /* Before p is built, untimed (NULL: none): switch what a group of points shares. */
    int (*prepare)(struct exp_ctx *ctx, void *data, struct exp_point *p);
    /* Build p's chains into p->pt (timed into p->build_ticks); 0 or EXP_POINT_SKIPPED. */
    int (*build)(struct exp_ctx *ctx, void *data, struct exp_point *p);
    /* Right after each measurement of p, failed or not (NULL: none): stop what build started
       for it (loaded's traffic generators), so that nothing runs on into the next point. */
    void (*measured)(struct exp_ctx *ctx, void *data, const struct exp_point *p);
    /* Write p's row: samples, console line, then the CSV row (exp_csv_common last). */
    void (*row)(struct exp_ctx *ctx, void *data, const struct exp_point *p,
                const struct point_result *r);
};

/*
 * Run a sweep: estimate the work of every point, then for each point plan, prepare, build
 * (timed), measure, write its row and release it, with a progress line throughout. A skipped
 * point is left out. Returns 0, or EXP_RUN_FAILED at the first point that could not be
 * measured (ctx->failure says which and why).
 */
int exp_sweep_run(struct exp_ctx *ctx, const struct exp_sweep *s);

/*
 * The order in which pass `pass` (of `passes`) visits n points: order[0..n) a permutation of
 * 0..n-1 that steps about 0.618 n points at a time (so any stretch of the pass covers sizes
 * spread evenly over the sweep, and neighbours in size are never visited one after the
 * other when n >= 5), each pass starting elsewhere.
 */
void exp_pass_order(unsigned n, unsigned pass, unsigned passes, unsigned *order);

/*
 * The plan of one pass's slice of a point measured in `passes` passes: the same fewest
 * repetitions, the time cap shared out, the precision the slice alone must reach so that
 * all slices together reach plan->precision (sqrt(passes) wider), and, after the first
 * slice (so_far: the slices merged so far, NULL or empty before the first), the hops per
 * repetition the first one took and a warm-up of at most EXP_PASS_WARM_SHARE of the slice's
 * time cap: a chain whose lap takes longer only needs its latest stretch in the caches,
 * which a warm-up of that many hops puts there for caches of up to (hops x line) bytes.
 */
#define EXP_PASS_WARM_SHARE 0.25
/*
 * A point whose next visit (a build and that warm-up) would cost more than this share of a
 * slice takes all its slices in its first visit, one after the other (its passes column
 * says 1): interleaving it would cost more time outside timed chasing than it saves. (At
 * 0.3, once DRAM-sized warm-ups had become shorter, 47M-160M chains were interleaved too and
 * their builds and warm-ups three times over kept a 4K-256M sweep at 27-31% outside timed
 * chasing; at 0.15 it was 18%, with chains from 28M in one visit here.)
 */
#define EXP_PASS_COST_SHARE 0.15
struct measure_plan exp_slice_plan(const struct measure_plan *plan, unsigned passes,
                                   const struct point_result *so_far);
/*
 * The plan of the rest of a point's slices taken right after its first (the point is costly to
 * come back to, exp_pass_costly): exp_slice_plan's, with the time cap of the other passes
 * together, the precision their repetitions need together (sqrt(passes / (passes - 1)) wider)
 * and a warm-up of one hop (warm from the slice just taken). passes >= 2.
 */
struct measure_plan exp_rest_plan(const struct measure_plan *plan, unsigned passes,
                                  const struct point_result *so_far);
/* Whether coming back to a point costs revisit_ticks (TSC ticks: a rebuild, a warm-up) more
   than EXP_PASS_COST_SHARE of a slice of slice_max_ticks (0: no cap, never). */
bool exp_pass_costly(double revisit_ticks, uint64_t slice_max_ticks);
/* How many passes a sweep of `points` points takes: the passes key, or 1 with one point,
   without a precision (a fixed count has nothing to share out) or with passes=1. */
unsigned exp_sweep_passes(const struct exp_ctx *ctx, unsigned points);

/*
 * Map the buffer with the page size the experiment's page key asks for (PAGE_CHOICE_AUTO keeps
 * what it has: the global page key's choice). *saved receives the size to restore with
 * exp_pages_end. Returns 0, or EXP_RUN_SKIPPED with ctx->failure saying why.
 */
int exp_pages_begin(struct exp_ctx *ctx, unsigned page_choice, uint64_t *saved);
/* Map the buffer with the page size it had before exp_pages_begin. */
void exp_pages_end(struct exp_ctx *ctx, uint64_t saved);

/* Print the experiment's "why" line and its plan line (printf format). */
void exp_header(const struct exp_ctx *ctx, const struct experiment *x, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Append the common columns of a point (EXP_CSV_COMMON) and end the CSV row. The point's
 * time split gets build_ticks and, as output, the time since exp_measure returned (so
 * rows are best written after the point's samples and console line); it is added to the
 * experiment's (ctx->spent).
 */
void exp_csv_common(struct exp_ctx *ctx, const struct point_result *r, uint64_t build_ticks);
/* Append one samples row per repetition: `keys` (the point's own columns), then the common ones. */
void exp_samples(struct exp_ctx *ctx, const char *keys, const struct point_result *r);

/* Median ns and core cycles per access of a point. */
double exp_ns(const struct exp_ctx *ctx, const struct point_result *r);
double exp_cycles(const struct point_result *r);

/*
 * The table columns every experiment prints after its own: ns min, median, p90, cycles,
 * then the repetitions, the precision reached (+-%) and the outliers left out.
 */
void exp_table_head_common(void);
void exp_table_common(const struct exp_ctx *ctx, const struct point_result *r);

/* src (NULL: "") as one CSV field in dst of capacity cap, commas written as ';'; returns dst. */
static inline const char *exp_csv_field(char *dst, size_t cap, const char *src)
{
    size_t i = 0;
    for (; src && src[i] && i + 1 < cap; i++)
        dst[i] = src[i] == ',' ? ';' : src[i];
    if (cap)
        dst[i] = 0;
    return dst;
}

/* A size as people write it, in a small static-free buffer the caller provides. */
static inline const char *exp_size(char *buf, size_t cap, uint64_t bytes)
{
    fmt_size(buf, cap, (double)bytes);
    return buf;
}

#endif
