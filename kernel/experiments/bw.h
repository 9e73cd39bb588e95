// SPDX-License-Identifier: MIT
// What the bandwidth experiments share: the kernels, their byte accounting, timing one point.
#ifndef CHASE_EXP_BW_H
#define CHASE_EXP_BW_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/bw_kernels.h"
#include "chase/measure.h"
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

/* What a point's repetitions gave. */
struct bw_result {
    unsigned reps;
    uint64_t bytes_per_rep;       /* moved per repetition (bw_bytes_moved) */
    uint64_t ticks[BW_REPS_MAX];  /* each repetition's TSC ticks */
    double core_per[BW_REPS_MAX]; /* ... its core cycles per tick (0: not known) */
    bool outlier[BW_REPS_MAX];    /* ... left out as disturbed (reps.h) */
    unsigned outliers;
    double gbs_median, gbs_min, gbs_max; /* over the kept repetitions; 10^9 bytes per second */
    double bpc_median;                   /* bytes per core cycle, median of the kept (NaN) */
    double core_per_tick;                /* the median clock estimate (NaN: none) */
    double precision;                    /* half-width of the median's 95% interval, relative */
    unsigned stop;                       /* enum reps_stop */
    unsigned dropped;                    /* windows lost to an NMI and taken again */
    uint64_t sink;                       /* what the read kernels summed */
    uint64_t warm_ticks, timed_ticks;    /* the warm-up's windows; the repetitions' timed parts */
};

/*
 * Measure pt: a warm-up lap (in windows of at most BW_WARM_PIECE_BYTES), then repetitions in
 * windows, each long enough for plan->target_ticks at the warm-up's pace (whole laps, or a
 * stretch of a buffer whose lap is longer, the stretches walking round it), bounded by
 * plan->window_max_ticks, repeated as plan says (reps, precision, time cap; reps_should_stop),
 * each with the core clock taken by plan->core_iters adds before and after it in its
 * window. Returns 0, or -1 with why (capacity cap) when a CPU exception stopped it.
 */
#define BW_WARM_PIECE_BYTES (4ULL << 20)
int bw_measure(const struct bw_point *pt, const struct measure_plan *plan, const struct timing *t,
               struct bw_result *r, char *why, size_t cap);

#endif
