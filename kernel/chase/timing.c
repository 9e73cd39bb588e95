// SPDX-License-Identifier: MIT
// The clocks behind every number: TSC frequency, timer overhead and the core/TSC ratio.
#include "chase/timing.h"

#include "arch/chase_loop.h"
#include "arch/cpu.h"
#include "chase/chain.h"
#include "lib/kstring.h"
#include "machine/machine.h"
#include "platform.h"
#include "lib/stats.h"

#define OVERHEAD_SAMPLES 101
#define CORE_RATIO_TRIES 3

static bool calibrate_source(const struct tsc_reference *ref, struct tsc_source *src)
{
    double hz[TSC_CALIBRATIONS];
    kmemset(src, 0, sizeof(*src));
    src->name = ref->name;
    for (unsigned i = 0; i < TSC_CALIBRATIONS; i++) {
        uint64_t ticks, ns;
        if (!ref->sample(&ticks, &ns) || ns == 0)
            continue;
        src->calib_hz[src->ncalib] = (uint64_t)((double)ticks * 1e9 / (double)ns);
        hz[src->ncalib] = (double)src->calib_hz[src->ncalib];
        src->ncalib++;
    }
    if (!src->ncalib)
        return false;
    struct stats_summary s;
    stats_summarize(hz, src->ncalib, &s);
    src->hz = (uint64_t)s.median;
    src->spread = s.median > 0 ? (s.max - s.min) / s.median : 0;
    return true;
}

static double relative_gap(uint64_t a, uint64_t b)
{
    double d = (double)a - (double)b;
    return (d < 0 ? -d : d) / (double)b;
}

static void calibrate_tsc(struct timing *t)
{
    const struct tsc_reference *refs;
    unsigned n = plat_tsc_references(&refs);
    t->nsources = 0;
    for (unsigned i = 0; i < n && t->nsources < TSC_MAX_SOURCES; i++) {
        if (calibrate_source(&refs[i], &t->sources[t->nsources]))
            t->nsources++;
    }
    if (t->nsources) {
        t->tsc_hz = t->sources[0].hz;
        t->tsc_method = t->sources[0].name;
        t->calib_spread = t->sources[0].spread;
    } else if (t->cpuid_hz) {
        t->tsc_hz = t->cpuid_hz;
        t->tsc_method = "cpuid";
    } else {
        t->tsc_hz = 1000000000ULL; /* nothing to measure against: ns are then ticks */
        t->tsc_method = "none (assumed 1 GHz)";
    }
    t->wall_tsc_hz = t->tsc_hz;
    t->disagreement = 0;
    for (unsigned i = 0; i < t->nsources; i++) {
        double gap = relative_gap(t->sources[i].hz, t->tsc_hz);
        t->disagreement = gap > t->disagreement ? gap : t->disagreement;
    }
    if (t->cpuid_hz) {
        double gap = relative_gap(t->cpuid_hz, t->tsc_hz);
        t->disagreement = gap > t->disagreement ? gap : t->disagreement;
    }
}

struct timer_job {
    bool rdtscp;
    add_chain_fn adds;
    uint64_t iters;
    uint64_t ticks;
};

static void empty_region(void *arg)
{
    struct timer_job *j = arg;
    j->ticks = j->rdtscp ? timer_empty_rdtscp() : timer_empty_rdtsc();
}

static void add_chain(void *arg)
{
    struct timer_job *j = arg;
    j->ticks = j->adds(j->iters);
}

/* Median ticks of an empty timed region, closed with rdtscp or with rdtsc. */
static double measure_overhead(bool rdtscp)
{
    double v[OVERHEAD_SAMPLES];
    struct timer_job job = {rdtscp, NULL, 0, 0};
    struct fault_info fault;
    unsigned n = 0;
    for (unsigned i = 0; i < OVERHEAD_SAMPLES; i++) {
        if (plat_window_run(empty_region, &job, &fault) == 0)
            v[n++] = (double)job.ticks;
    }
    struct stats_summary s;
    stats_summarize(v, n, &s);
    return s.median;
}

double timing_adds_ratio(uint64_t adds, uint64_t ticks, double overhead_ticks)
{
    double net = (double)ticks - overhead_ticks;
    return ticks && net > 0 ? (double)adds / net : 0;
}

double timing_pair_gap(double before, double after)
{
    double hi = before > after ? before : after, lo = before > after ? after : before;
    return lo > 0 ? (hi - lo) / hi : 0;
}

double timing_pair_ratio(double before, double after)
{
    if (before <= 0 || after <= 0)
        return before > after ? before : after;
    double hi = before > after ? before : after;
    return timing_pair_gap(before, after) > TIMING_CLOCK_PAIR_TOLERANCE ? hi : (before + after) / 2;
}

double timing_msr_ratio(uint64_t aperf0, uint64_t aperf1, uint64_t mperf0, uint64_t mperf1)
{
    if (aperf1 <= aperf0 || mperf1 <= mperf0)
        return 0;
    return (double)(aperf1 - aperf0) / (double)(mperf1 - mperf0);
}

double timing_core_ratio(add_chain_fn adds, uint64_t iters, double overhead_ticks)
{
    uint64_t best = UINT64_MAX;
    struct timer_job job = {false, adds, iters, 0};
    struct fault_info fault;
    for (unsigned i = 0; i < CORE_RATIO_TRIES; i++) {
        if (plat_window_run(add_chain, &job, &fault) == 0 && job.ticks && job.ticks < best)
            best = job.ticks;
    }
    double ratio =
        best == UINT64_MAX ? 0 : timing_adds_ratio(iters * CHASE_UNROLL, best, overhead_ticks);
    return ratio > 0 ? ratio : 1.0;
}

uint64_t timing_measure_wall_hz(void)
{
    const struct tsc_reference *refs;
    struct tsc_source src;
    if (plat_tsc_references(&refs) && calibrate_source(&refs[0], &src))
        return src.hz;
    return 0;
}

#if defined(__aarch64__)
_Static_assert(ARCH_MSR_APERF == MSR_APERF && ARCH_MSR_MPERF == MSR_MPERF, "arch/aarch64/cpu.h");
#endif

/* The counters read at both ends of an add chain, inside one window. */
struct counters_job {
    add_chain_fn adds;
    uint64_t a[2], m[2];
};

static void counters_job_run(void *arg)
{
    struct counters_job *j = arg;
    j->a[0] = arch_rdmsr(MSR_APERF);
    j->m[0] = arch_rdmsr(MSR_MPERF);
    j->adds(1 << 14);
    j->a[1] = arch_rdmsr(MSR_APERF);
    j->m[1] = arch_rdmsr(MSR_MPERF);
}

/*
 * Core cycles per TSC tick from APERF/MPERF over an add chain; 0 when they cannot be read. In
 * ring 0 both ends are read in one window: AArch64's counterpart of APERF, the PMU cycle
 * counter, runs only inside windows. Elsewhere (chase-host through the msr driver) each read
 * is its own.
 */
static double aperf_mperf_ratio(const struct timing *t, const struct machine *m)
{
    uint64_t a0, m0, a1, m1;
    if (!plat_read_msr(MSR_APERF, &a0) || !plat_read_msr(MSR_MPERF, &m0))
        return 0;
    if (m->ring0) {
        struct counters_job j = {t->adds, {0, 0}, {0, 0}};
        struct fault_info fault;
        if (plat_window_run(counters_job_run, &j, &fault) != 0)
            return 0;
        return timing_msr_ratio(j.a[0], j.a[1], j.m[0], j.m[1]);
    }
    timing_core_ratio(t->adds, 1 << 14, 0);
    if (!plat_read_msr(MSR_APERF, &a1) || !plat_read_msr(MSR_MPERF, &m1))
        return 0;
    /* MPERF counts at the TSC rate (invariant TSC), APERF at the core clock. */
    return timing_msr_ratio(a0, a1, m0, m1);
}

#define LOOP_CHECK_SLOTS 256 /* 16 KiB at 64 B: in every L1 */
#define LOOP_CHECK_STRIDE 64
#define LOOP_CHECK_LAPS 64
#define LOOP_CHECK_TRIES 5

struct loop_job {
    chase_timed_fn chase;
    void **p;
    uint64_t iters, ticks;
};

static void loop_job_run(void *arg)
{
    struct loop_job *j = arg;
    j->ticks = j->chase(j->p, j->iters, &j->p);
}

/* Best-of-tries ticks per load for one loop over an L1-resident chain. */
static double l1_ticks_per_load(chase_timed_fn chase, unsigned unroll, void **head)
{
    uint64_t loads = LOOP_CHECK_SLOTS * LOOP_CHECK_LAPS;
    struct loop_job job = {chase, head, loads / unroll, 0};
    struct fault_info fault;
    double best = 0;
    for (unsigned i = 0; i < LOOP_CHECK_TRIES; i++) {
        if (plat_window_run(loop_job_run, &job, &fault) != 0)
            return 0;
        double per = (double)job.ticks / (double)loads;
        if (!best || per < best)
            best = per;
    }
    return best;
}

/* The same L1 chain with 16 and with 256 loads per loop iteration. */
static void loop_overhead_check(struct timing *t)
{
    uint8_t *buf = plat_alloc(LOOP_CHECK_SLOTS * LOOP_CHECK_STRIDE);
    if (!buf)
        return;
    struct chain_layout l = {.base = buf,
                             .offset_bytes = 0,
                             .stride_bytes = LOOP_CHECK_STRIDE,
                             .slots = LOOP_CHECK_SLOTS};
    void **head = chain_build_random(&l, 1);
    t->l1_ticks_16 = l1_ticks_per_load(chase_timed_rdtsc, CHASE_UNROLL, head);
    t->l1_ticks_256 = l1_ticks_per_load(chase_timed_wide, CHASE_UNROLL_WIDE, head);
    plat_free(buf);
}

/* SMIs can be counted where chase is in ring 0 on an Intel CPU that has MSR_SMI_COUNT. */
static bool smi_countable(const struct machine *m)
{
    uint64_t v;
    return m->ring0 && kstrcmp(m->cpu.vendor, "GenuineIntel") == 0 &&
           plat_read_msr(MSR_SMI_COUNT, &v);
}

/* The add chain's end from the window rule: rdtscp where LFENCE may not serialize. */
static void choose_adds_end(struct timing *t)
{
    struct window_report w;
    plat_window_report(&w);
    t->adds_end = timed_end_of(w.lfence_unsure, t->rdtscp);
    t->adds = t->adds_end == TIMED_END_RDTSCP ? add_chain_timed_rdtscp : add_chain_timed;
}

void timing_init(struct timing *t, const struct machine *m)
{
    const struct cpu_info *ci = &m->cpu;
    kmemset(t, 0, sizeof(*t));
    t->cpuid_hz = ci->cpuid_tsc_hz;
    t->cpuid_leaf = ci->cpuid_tsc_leaf;
    t->invariant = ci->invariant_tsc;
    t->rdtscp = ci->has_rdtscp;
    t->chase = t->rdtscp ? chase_timed_rdtscp : chase_timed_rdtsc;
    calibrate_tsc(t);
    t->overhead_ticks = measure_overhead(t->rdtscp);
    choose_adds_end(t);
    t->adds_overhead_ticks = measure_overhead(t->adds_end == TIMED_END_RDTSCP);
    t->core_per_tick = timing_core_ratio(t->adds, 1 << 16, t->adds_overhead_ticks);
    t->core_method = "dependent add chain";
    t->aperf_mperf = aperf_mperf_ratio(t, m);
    t->aperf_in_window = m->ring0 && t->aperf_mperf > 0;
    t->smi_counting = smi_countable(m);
    loop_overhead_check(t);
}
