// SPDX-License-Identifier: MIT
// What the bandwidth experiments share: the kernels, their byte accounting, timing one point.
#ifndef CHASE_EXP_BW_H
#define CHASE_EXP_BW_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/bw_kernels.h"
#include "chase/measure.h"
#include "chase/reps.h"
#include "chase/timing.h"
#include "machine/simd.h"

/* The kernels, in the order bw_kernel_names lists them. */
enum bw_kernel {
    BW_READ,
    BW_WRITE,
    BW_COPY,
    BW_NT_WRITE,
    BW_NT_COPY,
    BW_REP_MOVSB,
    BW_REP_STOSB,
    BW_KERNELS
};
/* "read", "write", "copy", "nt_write", "nt_copy", "rep_movsb", "rep_stosb", NULL. */
extern const char *const bw_kernel_names[];

/* GB/s everywhere is 10^9 bytes per second (the GB of memory bandwidth, not the GiB of sizes). */
#define BW_BYTES_PER_GB 1e9

/* Buffer sizes are multiples of this: two blocks, so that a copy's halves are whole blocks. */
#define BW_SIZE_ALIGN_BYTES (2 * BW_BLOCK_BYTES)

/* Whether kernel k reads one half of its buffer and writes the other (copy, nt_copy, rep_movsb). */
bool bw_is_copy(enum bw_kernel k);
/* The stretch kernel k walks per lap in a buffer of size_bytes: half of it for a copy. */
uint64_t bw_span_bytes(enum bw_kernel k, uint64_t size_bytes);
/*
 * Bytes the program moves when kernel k walks `span` bytes laps times: every byte loaded
 * plus every byte stored, so a copy counts what it reads and what it writes (as STREAM
 * does), and a whole lap over a buffer of size_bytes moves size_bytes whatever the kernel.
 */
uint64_t bw_bytes_moved(enum bw_kernel k, uint64_t span, uint64_t laps);
/* The vector bits a row of kernel k at width w reports on the machine c describes: w's
   (simd_vector_bits), or 0 for the string kernels (the CPU's microcode picks its own). */
unsigned bw_width_bits(enum bw_kernel k, const struct simd_caps *c, enum simd_width w);
/*
 * The documented L1 peak of kernel k, bytes moved per core cycle, from the core's load and
 * store bytes per cycle: read: the loads; write: the stores; copy: a load and a store of
 * each vector, so twice the lesser. NaN for the non-temporal and string kernels (their
 * stores bypass L1 or are the microcode's).
 */
double bw_l1_peak_bpc(enum bw_kernel k, double load_bpc, double store_bpc);

struct cfg_check;
struct machine;
/* Report key `key` when width (enum simd_width) is not usable on m, naming what is. */
void bw_check_width(struct cfg_check *c, const char *key, const struct machine *m, unsigned width);
/* Report key `key` when kernel (enum bw_kernel) has no code on this architecture (x86-64's
   rep movsb and rep stosb elsewhere). */
void bw_check_kernel(struct cfg_check *c, const char *key, unsigned kernel);

/* The most widths a point is measured at: x86-64's SSE2, AVX2 and AVX-512 (AArch64 has two). */
#define BW_CANDIDATES_MAX 3
/*
 * The widths a bandwidth point is measured at, into w (BW_CANDIDATES_MAX): asked alone, or with
 * SIMD_AUTO every width usable on the machine c describes (simd_usable: the CPU has it, its state
 * is or, in ring 0, can be enabled), the widest first. Their count; 0 when asked is not usable.
 */
unsigned bw_width_candidates(const struct simd_caps *c, bool ring0, enum simd_width asked,
                             enum simd_width *w);
/* The machine code of kernel k at width w (the string kernels ignore w); NULL: none. */
bw_kernel_fn bw_kernel_code(enum bw_kernel k, enum simd_width w);
/* The width for asked (a bandwidth.width value) into *w, its register state enabled for the
 * windows: 0, or EXP_RUN_SKIPPED with ctx->failure saying why (a width the CPU lacks, state
 * that cannot be enabled). */
struct exp_ctx;
int bw_width_choose(struct exp_ctx *ctx, int asked, enum simd_width *w);

/* One point: kernel k over a buffer, timed until its median is known. */
struct bw_point {
    enum bw_kernel kernel;
    bw_kernel_fn fn;
    uint8_t *base;       /* the buffer (64-byte aligned) */
    uint64_t size_bytes; /* a multiple of BW_SIZE_ALIGN_BYTES */
};

#define BW_REPS_MAX 1000 /* repetitions one point keeps at most (the reps key's own bound) */

/* What a point's repetitions gave, over all the slices (passes) that measured it. */
struct bw_result {
    unsigned reps;
    uint64_t bytes_per_rep;       /* moved per repetition (bw_bytes_moved) */
    uint64_t span, laps;          /* each repetition's stretch and laps, the first slice's */
    uint64_t ticks[BW_REPS_MAX];  /* each repetition's TSC ticks */
    double core_per[BW_REPS_MAX]; /* ... its core cycles per tick (0: not known) */
    bool outlier[BW_REPS_MAX];    /* ... left out as disturbed (reps.h) */
    uint8_t pass[BW_REPS_MAX];    /* ... the pass that took it (0: the first) */
    unsigned passes;              /* the passes that measured the point (bw_sweep_run) */
    unsigned outliers;
    double gbs_median, gbs_min, gbs_max; /* over the kept repetitions; 10^9 bytes per second */
    double bpc_median;                   /* bytes per core cycle, median of the kept (NaN) */
    double core_per_tick;                /* the median clock estimate (NaN: none) */
    const char *clock; /* how core_per was taken: ARCH_CORE_COUNTER (APERF/MPERF around the
                          kernel), "adds" (an add chain before and after it), NULL: none */
    double precision;  /* half-width of the median's 95% interval, relative */
    unsigned stop;     /* enum reps_stop */
    unsigned dropped;  /* windows lost to an NMI and taken again */
    uint64_t sink;     /* what the read kernels summed */
    uint64_t warm_ticks, timed_ticks; /* the warm-up's windows; the repetitions' timed parts */
};

/*
 * Measure a slice of pt, appended to the slices r holds (r zeroed before the first): a
 * warm-up lap (in windows of at most BW_WARM_PIECE_BYTES; always before the first slice, whose
 * pace sizes the repetitions, and before a later one when `warm`), then repetitions in
 * windows, each long enough for plan->target_ticks at the first warm-up's pace (whole laps,
 * or a stretch of a buffer whose lap is longer, the stretches walking round it), bounded by
 * plan->window_max_ticks, repeated as plan says (reps, precision, time cap; reps_should_stop
 * on the slice's own repetitions, their stop in r->stop; BW_REPS_MAX in all), each with the
 * core clock taken by plan->core_iters adds before and after it in its window; r's summary
 * then covers all its repetitions (bw_result_summarize). Returns 0, or -1 with why (capacity
 * cap) when a CPU exception stopped it.
 */
#define BW_WARM_PIECE_BYTES (4ULL << 20)
int bw_measure(const struct bw_point *pt, const struct measure_plan *plan, const struct timing *t,
               bool warm, struct bw_result *r, char *why, size_t cap);

/* The fastest of a point's width candidates and each one's median (bandwidth, bw_cores). */
struct bw_best {
    struct bw_result best;
    unsigned cand;                 /* the fastest's index into the candidates */
    double gbs[BW_CANDIDATES_MAX]; /* each candidate's median GB/s (NaN: not measured) */
};

/* Candidate c's result r of a point (c 0 begins a point): kept when the fastest so far. */
void bw_best_add(struct bw_best *b, unsigned c, const struct bw_result *r);

/* Candidates' medians gbs[0..n) as "avx512:4.70 avx2:6.58" (w: their widths; NaN: left out). */
void bw_widths_text(const double *gbs, const enum simd_width *w, unsigned n, char *out, size_t cap);

/* r's summary over all its repetitions: outliers set aside (reps_assess of ticks per byte),
   GB/s median, min and max of the rest at t's TSC rate, bytes per cycle, clock, precision. */
void bw_result_summarize(struct bw_result *r, const struct timing *t);
/*
 * The stop of a point measured in passes, after a slice whose own stop r->stop holds, given
 * the point's stop before it (`before`): the later of the two, then `precision` (the whole
 * point's) reached by all the repetitions: REPS_STOP_PRECISION; not reached though the slice
 * reached its own (or its fixed count): REPS_STOP_PASSES (measure_reassess's rule).
 */
void bw_result_merge_stop(struct bw_result *r, enum reps_stop before, double precision);

/* A sweep of bandwidth points measured in one pass or in interleaved passes. */
struct bw_sweep {
    unsigned points;
    unsigned passes;      /* exp_sweep_passes: 1, or the interleaved passes */
    uint64_t wall_tsc_hz; /* the TSC's real rate, for the progress line */
    void *data;           /* the experiment's own, passed to every hook */
    /* Point i's plan, for all its repetitions. */
    struct measure_plan (*plan)(void *data, unsigned i);
    /* Measure a slice of point i into r as bw_measure does; 0, or -1 (why said by the hook). */
    int (*measure)(void *data, unsigned i, const struct measure_plan *plan, bool warm,
                   struct bw_result *r);
    /* Write point i's row. */
    void (*row)(void *data, unsigned i, const struct bw_result *r);
};

/*
 * Run a bandwidth sweep. One pass: each point measured with its plan and its row written.
 * Interleaved passes: as the chase driver's (exp_sweep_run): pass p visits the points in
 * exp_pass_order, each visit a slice (exp_slice_plan) merged into the point's repetitions
 * (warmed again before each later slice); a point whose warm-up lap costs more than
 * EXP_PASS_COST_SHARE of a slice takes the rest (exp_rest_plan) right away, unwarmed; a point
 * stops after two passes once all its repetitions reach the plan's precision
 * (bw_result_merge_stop); then every point's row in order. A progress line counts the visits.
 * Returns 0, -1 when a measurement failed, or BW_SWEEP_NO_MEMORY when the points' results found no
 * memory.
 */
#define BW_SWEEP_NO_MEMORY (-2)
int bw_sweep_run(const struct bw_sweep *s);

#endif
