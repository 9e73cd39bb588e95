// SPDX-License-Identifier: MIT
// Timing one bandwidth point (or a slice of it): a warm-up lap, then repetitions in windows.
#include "stream/bw.h"

#include "arch/cpu.h"
#include "chase/reps.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "machine/fault.h"

/* A repetition's window may use this share of window_max_ticks at the warm-up's pace: the
   pace of a cold stretch can be slower than the warm-up's. */
#define BW_WINDOW_SHARE 0.5
/* Windows lost to NMIs one point may take again before it gives up. */
#define BW_DROPPED_MAX 100
/* A warm-up piece timed in fewer ticks than this lies within a few ticks of the timer's
   resolution (a 4K piece under an emulator's timer reads 0 or 1): it is timed again over twice
   the laps, up to BW_PACE_LAPS_MAX, until its pace can be read. */
#define BW_PACE_MIN_TICKS 64
#define BW_PACE_LAPS_MAX (1ULL << 20)

bw_kernel_fn bw_kernel_code(enum bw_kernel k, enum simd_width w)
{
    /* Each architecture's widths; the other's stay NULL (never usable there, simd.h). */
    static const bw_kernel_fn vec[BW_NT_COPY + 1][SIMD_WIDTHS] = {
#if defined(__x86_64__)
        [BW_READ] = {[SIMD_SSE2] = bw_read_sse2, bw_read_avx2, bw_read_avx512},
        [BW_WRITE] = {[SIMD_SSE2] = bw_write_sse2, bw_write_avx2, bw_write_avx512},
        [BW_COPY] = {[SIMD_SSE2] = bw_copy_sse2, bw_copy_avx2, bw_copy_avx512},
        [BW_NT_WRITE] = {[SIMD_SSE2] = bw_nt_write_sse2, bw_nt_write_avx2, bw_nt_write_avx512},
        [BW_NT_COPY] = {[SIMD_SSE2] = bw_nt_copy_sse2, bw_nt_copy_avx2, bw_nt_copy_avx512},
#elif defined(__aarch64__)
        [BW_READ] = {[SIMD_NEON] = bw_read_neon, bw_read_sve},
        [BW_WRITE] = {[SIMD_NEON] = bw_write_neon, bw_write_sve},
        [BW_COPY] = {[SIMD_NEON] = bw_copy_neon, bw_copy_sve},
        [BW_NT_WRITE] = {[SIMD_NEON] = bw_nt_write_neon, bw_nt_write_sve},
        [BW_NT_COPY] = {[SIMD_NEON] = bw_nt_copy_neon, bw_nt_copy_sve},
#endif
    };
#if BW_ARCH_STRING_KERNELS
    if (k == BW_REP_MOVSB)
        return bw_rep_movsb;
    if (k == BW_REP_STOSB)
        return bw_rep_stosb;
#endif
    return k <= BW_NT_COPY && w < SIMD_WIDTHS ? vec[k][w] : NULL;
}

/*
 * One window's work: the clock, the kernel timed, the clock again. Where APERF/MPERF can be
 * read in a window (ring 0, as the chase path reads them) they are read right around the
 * kernel: an add chain's clock before and after it misses what AVX-512 code does to the clock
 * while it runs (Skylake-SP and Cascade Lake lower it for the license), and B/cycle with it.
 */
struct bw_job {
    bw_kernel_fn fn;
    uint8_t *dst;
    const uint8_t *src;
    uint64_t span, laps;
    uint64_t clock_iters;
    add_chain_fn adds;
    bool aperf;
    double msr_ratio; /* core cycles per MPERF tick over the kernel (aperf) */
    uint64_t ticks, adds_before, adds_after, sink;
};

static void bw_job_run(void *arg)
{
    struct bw_job *j = arg;
    uint64_t a0 = 0, m0 = 0;
    if (j->clock_iters)
        j->adds_before = j->adds(j->clock_iters);
    if (j->aperf) {
        a0 = arch_rdmsr(MSR_APERF);
        m0 = arch_rdmsr(MSR_MPERF);
    }
    uint64_t t0 = arch_tsc_fenced();
    j->sink += j->fn(j->dst, j->src, j->span, j->laps);
    j->ticks = arch_tsc_fenced() - t0;
    if (j->aperf) {
        uint64_t a1 = arch_rdmsr(MSR_APERF), m1 = arch_rdmsr(MSR_MPERF);
        j->msr_ratio = timing_msr_ratio(a0, a1, m0, m1);
    }
    if (j->clock_iters)
        j->adds_after = j->adds(j->clock_iters);
}

/* Run j in a window, taking it again after an NMI; 0, or -1 with why. */
static int bw_window(struct bw_job *j, struct bw_result *r, char *why, size_t cap)
{
    struct fault_info f;
    while (plat_window_run(bw_job_run, j, &f) != 0) {
        if (f.faulted && fault_is_interruption(&f) && r->dropped++ < BW_DROPPED_MAX)
            continue;
        fault_describe(why, cap, &f);
        return -1;
    }
    return 0;
}

/* Where stretch `at` of `span` bytes starts in the kernel's source and destination. */
static void bw_aim(const struct bw_point *pt, struct bw_job *j, uint64_t at)
{
    uint64_t half = bw_is_copy(pt->kernel) ? pt->size_bytes / 2 : 0;
    j->src = pt->base + at;
    j->dst = pt->base + half + at;
}

/* The first piece timed over twice the laps until it lasts BW_PACE_MIN_TICKS; *best and
 *best_bytes its ticks and bytes moved. 0, or -1 with why. */
static int bw_pace_laps(const struct bw_point *pt, struct bw_job *j, struct bw_result *r,
                        uint64_t *best, uint64_t *best_bytes, char *why, size_t cap)
{
    while (*best < BW_PACE_MIN_TICKS && j->laps < BW_PACE_LAPS_MAX) {
        j->laps *= 2;
        bw_aim(pt, j, 0);
        if (bw_window(j, r, why, cap) != 0)
            return -1;
        *best = j->ticks;
        *best_bytes = bw_bytes_moved(pt->kernel, j->span, j->laps);
    }
    return 0;
}

/*
 * The warm-up: one lap in pieces; returns its pace in ticks per byte moved (the fastest piece).
 * A lap of one piece is taken twice: the first run of a kernel pays for cold caches and TLBs (and
 * under an emulator, for translating the kernel: thousands of times its pace), and a pace from it
 * alone sized a 4K point's repetitions at a few laps each, too short for the timer to see (0
 * ticks); a piece too short to time is timed over more laps (bw_pace_laps).
 */
static int bw_warm(const struct bw_point *pt, struct bw_job *j, struct bw_result *r, double *pace,
                   char *why, size_t cap)
{
    uint64_t span = bw_span_bytes(pt->kernel, pt->size_bytes), best = 0, best_bytes = 1;
    uint64_t piece = span < BW_WARM_PIECE_BYTES ? span : BW_WARM_PIECE_BYTES;
    j->clock_iters = 0;
    j->aperf = false;
    j->laps = 1;
    uint64_t pieces = piece ? span / piece : 1, t0 = arch_tsc_fenced();
    for (uint64_t i = 0; i < (pieces > 1 ? pieces : 2); i++) {
        bw_aim(pt, j, i % pieces * piece);
        j->span = piece;
        if (bw_window(j, r, why, cap) != 0)
            return -1;
        if (!best || j->ticks < best)
            best = j->ticks, best_bytes = bw_bytes_moved(pt->kernel, piece, 1);
    }
    if (bw_pace_laps(pt, j, r, &best, &best_bytes, why, cap) != 0)
        return -1;
    *pace = (double)(best ? best : 1) / (double)best_bytes;
    r->warm_ticks += arch_tsc_fenced() - t0;
    return 0;
}

/* Each repetition's stretch and laps from the pace: about target ticks, within the window cap. */
static void bw_size_reps(const struct bw_point *pt, const struct measure_plan *plan, double pace,
                         struct bw_job *j)
{
    uint64_t span = bw_span_bytes(pt->kernel, pt->size_bytes);
    double per_span = pace * (double)bw_bytes_moved(pt->kernel, 1, 1);
    double want = (double)plan->target_ticks / per_span; /* bytes of span to walk */
    if (plan->window_max_ticks) {
        double most = BW_WINDOW_SHARE * (double)plan->window_max_ticks / per_span;
        want = want < most ? want : most;
    }
    if (want >= (double)span) {
        j->span = span;
        j->laps = (uint64_t)(want / (double)span);
    } else {
        j->span = (uint64_t)want / BW_BLOCK_BYTES * BW_BLOCK_BYTES;
        j->span = j->span ? j->span : BW_BLOCK_BYTES;
        j->laps = 1;
    }
}

/* The clock of the repetition j just ran: core cycles per tick, 0 when not taken. */
static double bw_clock(const struct bw_job *j, const struct timing *t)
{
    if (j->aperf)
        return j->msr_ratio > 0 ? j->msr_ratio : 0;
    if (!j->clock_iters)
        return 0;
    uint64_t adds = j->clock_iters * CHASE_UNROLL;
    return timing_pair_ratio(timing_adds_ratio(adds, j->adds_before, t->adds_overhead_ticks),
                             timing_adds_ratio(adds, j->adds_after, t->adds_overhead_ticks));
}

/* Repetitions as plan says, appended to r (the slice's stop judged on its own); 0, or -1. */
static int bw_reps(const struct bw_point *pt, const struct measure_plan *plan,
                   const struct timing *t, struct bw_job *j, struct bw_result *r, char *why,
                   size_t cap)
{
    static double sorted[BW_REPS_MAX + 1];
    unsigned room = BW_REPS_MAX - r->reps, n = 0;
    unsigned most = plan->max_reps && plan->max_reps < room ? plan->max_reps : room;
    unsigned least = plan->reps ? plan->reps : 1;
    struct reps_rule rule = {least < most ? least : most, most, plan->precision, plan->max_ticks};
    struct reps_verdict v = {0};
    uint64_t span = bw_span_bytes(pt->kernel, pt->size_bytes), at = 0;
    uint64_t start = arch_tsc_fenced();
    enum reps_stop stop = most ? REPS_GO_ON : REPS_STOP_CAPACITY;
    while (stop == REPS_GO_ON) {
        bw_aim(pt, j, at);
        if (bw_window(j, r, why, cap) != 0)
            return -1;
        at = at + 2 * j->span <= span ? at + j->span : 0; /* stretches walk round the buffer */
        r->ticks[r->reps] = j->ticks;
        r->timed_ticks += j->ticks;
        r->core_per[r->reps] = bw_clock(j, t);
        r->reps++;
        reps_insert_sorted(sorted, n, (double)j->ticks / (double)r->bytes_per_rep);
        reps_assess(sorted, ++n, &v);
        stop = reps_should_stop(&rule, &v, arch_tsc_fenced() - start);
    }
    r->stop = stop;
    return 0;
}

int bw_measure(const struct bw_point *pt, const struct measure_plan *plan, const struct timing *t,
               bool warm, struct bw_result *r, char *why, size_t cap)
{
    struct bw_job j = {.fn = pt->fn, .adds = timing_adds(t)};
    double pace = 0;
    if ((warm || !r->reps) && bw_warm(pt, &j, r, &pace, why, cap) != 0)
        return -1;
    if (!r->reps) {
        bw_size_reps(pt, plan, pace, &j);
        r->span = j.span;
        r->laps = j.laps;
        r->bytes_per_rep = bw_bytes_moved(pt->kernel, j.span, j.laps);
    }
    j.span = r->span;
    j.laps = r->laps;
    j.aperf = t->aperf_in_window && plan->core_iters; /* a clock asked for: the better one */
    j.clock_iters = j.aperf ? 0 : plan->core_iters;
    r->clock = j.aperf ? ARCH_CORE_COUNTER : j.clock_iters ? "adds" : NULL;
    if (bw_reps(pt, plan, t, &j, r, why, cap) != 0)
        return -1;
    r->sink += j.sink;
    bw_result_summarize(r, t);
    return 0;
}
