// SPDX-License-Identifier: MIT
// The atomics experiment: 1, 2, 4 ... all processors incrementing one shared line at once
// (LOCK ADD on x86-64, LDADD on AArch64): the group's increments per second and each
// processor's time per increment, as the count grows.
#include "experiments/driver.h"
#include "point/ctx.h"
#include "point/sizes.h"

#include "arch/cpu.h"
#include "procs/contend.h"
#include "procs/mp.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "lib/stats.h"

/* This experiment's row of the table (defined at the end). */
extern const struct experiment experiment_atomics;

#define ATOMICS_REPS_MAX 64                /* repetitions of one count at most (the arrays below) */
#define ATOMICS_BUFFER_BYTES (64ULL << 10) /* the counter, start and stop lines */
#define ATOMICS_WAIT_S 2                   /* the longest wait for the others to arrive */
#define ATOMICS_LINES_APART                                                                        \
    2 /* the three lines twice a line apart: no adjacent-line prefetch                             \
         brings one with another */

struct atomics_params {
    struct cpu_choice cpus;
    uint64_t reps;
    uint64_t run_us; /* how long the processors increment at once, per repetition */
};
CFG_PARAMS_FIT(struct atomics_params);

#define P(field) offsetof(struct atomics_params, field)

static const struct key_desc atomics_keys[] = {
    {"cpus", KEY_CPUS, P(cpus), 0, PLAT_CPUS_MAX, NULL, "",
     "processors that increment: a count (0: as many as 64) spread over nodes, packages, dies "
     "and core types; all; p or e; or a list (0-3,8). The counts are 1, 2, 4 ... and all of "
     "them, the first of the list each time"},
    {"reps", KEY_U64, P(reps), 1, ATOMICS_REPS_MAX, NULL, "", "repetitions of each count"},
    {"run_us", KEY_U64, P(run_us), 10, 1000000, NULL, "us",
     "how long they increment at once per repetition (at most a quarter of window_max_ms: "
     "each repetition is one window)"},
};

static void atomics_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct atomics_params *p = params;
    (void)m;
    p->cpus = (struct cpu_choice){.kind = CPU_CHOICE_COUNT};
    p->reps = profile == PROFILE_QUICK ? 5 : 15;
    p->run_us = 1000;
}

static void atomics_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct atomics_params *p = params;
    (void)m;
    if (p->cpus.kind == CPU_CHOICE_COUNT && p->cpus.count == 1)
        cfg_check_fail(c, "cpus", "1 processor contends with none; expected 0 (all) or 2 to %d",
                       PLAT_CPUS_MAX);
}

static uint64_t atomics_buffer_bytes(const void *params, const struct machine *m)
{
    (void)params, (void)m;
    return ATOMICS_BUFFER_BYTES;
}

/* One count's repetitions, their figures per repetition. */
struct atomics_count {
    unsigned n;
    uint64_t done; /* repetitions every processor came back from */
    double mops[ATOMICS_REPS_MAX], ns_med[ATOMICS_REPS_MAX], ns_lo[ATOMICS_REPS_MAX],
        ns_hi[ATOMICS_REPS_MAX], ops[ATOMICS_REPS_MAX];
};

/* One repetition's figures from each side's own clock: the sum of their rates (million
   increments a second) and the median, fastest and slowest ns per increment. */
static void atomics_rep(struct exp_ctx *ctx, const struct contend_side *s, unsigned n,
                        struct atomics_count *c, uint64_t rep, const struct mp_cpu *cpus)
{
    double ns[MP_TEAM_MAX], mops = 0, ops = 0;
    for (unsigned i = 0; i < n; i++) {
        double t = timing_ticks_to_ns(ctx->timing, (double)s[i].ticks);
        ns[i] = s[i].ops ? t / (double)s[i].ops : 0;
        mops += t > 0 ? (double)s[i].ops * 1e3 / t : 0;
        ops += (double)s[i].ops;
        strbuf_printf(&ctx->samples, "%u,%llu,%u,%llu,%llu\n", n, (unsigned long long)rep,
                      cpus[i].p.id, (unsigned long long)s[i].ops, (unsigned long long)s[i].ticks);
    }
    stats_sort(ns, n);
    uint64_t k = c->done++;
    c->mops[k] = mops;
    c->ops[k] = ops;
    c->ns_med[k] = stats_quantile_sorted(ns, n, 0.5);
    c->ns_lo[k] = ns[0];
    c->ns_hi[k] = ns[n - 1];
}

/* The count's repetitions on cpus[0..n); false when a processor did not come back. */
static bool atomics_count_run(struct exp_ctx *ctx, const struct atomics_params *p,
                              struct contend_run *run, const struct mp_cpu *cpus,
                              struct atomics_count *c)
{
    struct contend_side *sides = plat_alloc(c->n * sizeof(*sides));
    struct mp_step_job *jobs = plat_alloc(c->n * sizeof(*jobs));
    bool *done = plat_alloc(c->n * sizeof(*done)), ok = sides && jobs && done;
    for (uint64_t r = 0; ok && r < p->reps; r++) {
        contend_begin(run, sides, c->n);
        for (unsigned i = 0; i < c->n; i++)
            jobs[i] = (struct mp_step_job){contend_step, &sides[i]};
        run->deadline = arch_tsc_fenced() + ATOMICS_WAIT_S * ctx->timing->wall_tsc_hz;
        ok = mp_run_steps(cpus, c->n, jobs, MP_TIMEOUT_US, done) == 0;
        bool all = ok;
        for (unsigned i = 0; all && i < c->n; i++)
            all = sides[i].ok && sides[i].ops;
        if (all)
            atomics_rep(ctx, sides, c->n, c, r, cpus);
    }
    plat_free(sides);
    plat_free(jobs);
    plat_free(done);
    return ok;
}

/* Median of v[0..n) (sorted in place); NaN for none. */
static double atomics_median(double *v, uint64_t n)
{
    stats_sort(v, n);
    return n ? stats_quantile_sorted(v, n, 0.5) : KM_NAN;
}

/* The count's row: medians over its repetitions; and its console line. */
static void atomics_row(struct exp_ctx *ctx, const struct atomics_params *p,
                        struct atomics_count *c, double run_us, const char *method)
{
    uint64_t k = c->done;
    double lo = k ? c->mops[0] : KM_NAN, hi = lo;
    for (uint64_t i = 1; i < k; i++) {
        lo = kfmin(lo, c->mops[i]);
        hi = kfmax(hi, c->mops[i]);
    }
    double mops = atomics_median(c->mops, k), ns = atomics_median(c->ns_med, k);
    double fast = atomics_median(c->ns_lo, k), slow = atomics_median(c->ns_hi, k);
    double ops = atomics_median(c->ops, k);
    strbuf_printf(&ctx->csv, "%u,%llu,%llu,%s,%.1f,", c->n, (unsigned long long)p->reps,
                  (unsigned long long)k, method, run_us);
    if (k)
        strbuf_printf(&ctx->csv, "%.0f,%.3f,%.3f,%.3f,%.2f,%.2f,%.2f\n", ops, mops, lo, hi, ns,
                      fast, slow);
    else
        strbuf_puts(&ctx->csv, ",,,,,,\n");
    if (k)
        con_printf("%10u %12.3f %10.2f %10.2f %10.2f\n", c->n, mops, ns, fast, slow);
    else
        con_printf("%10u did not come back: left out\n", c->n);
}

/* The counter's, start and stop lines in the buffer; the run's length, capped by the window. */
static double atomics_setup(struct exp_ctx *ctx, const struct atomics_params *p,
                            struct contend_run *run)
{
    uint64_t apart = ATOMICS_LINES_APART * exp_line_bytes(ctx->m);
    uint64_t window = mp_window_ticks(ctx), hz = ctx->timing->wall_tsc_hz;
    run->line = (volatile uint64_t *)ctx->buffer.virt;
    run->start = (volatile uint64_t *)(ctx->buffer.virt + apart);
    run->stop = (volatile uint64_t *)(ctx->buffer.virt + 2 * apart);
    run->window_ticks = window;
    run->run_ticks = p->run_us * hz / 1000000;
    if (window && run->run_ticks > window / 4) {
        run->run_ticks = window / 4;
        con_printf("run_us: %llu us is more than a quarter of window_max_ms: %.0f us instead\n",
                   (unsigned long long)p->run_us, (double)run->run_ticks * 1e6 / (double)hz);
    }
    return (double)run->run_ticks * 1e6 / (double)hz;
}

static int atomics_run(struct exp_ctx *ctx, const void *params)
{
    const struct atomics_params *p = params;
    static struct atomics_count c;
    struct contend_run run = {.variant = arch_atomic_variant()};
    exp_header(ctx, &experiment_atomics,
               "1, 2, 4 ... all processors incrementing one line at once (%s), %llu repetitions "
               "of each count",
               arch_atomic_method(run.variant), (unsigned long long)p->reps);
    strbuf_puts(&ctx->csv, "processors,reps,reps_ok,method,run_us,ops_median,mops_median,"
                           "mops_min,mops_max,ns_per_op_median,ns_per_op_fastest,"
                           "ns_per_op_slowest\n");
    strbuf_puts(&ctx->samples, "processors,rep,cpu,ops,tsc_ticks\n");
    unsigned held = mp_cpus_held();
    struct mp_cpu *cpus = plat_alloc((held ? held : 1) * sizeof(*cpus));
    unsigned n = cpus ? mp_cpus_chosen(ctx, &p->cpus, cpus, held) : 0;
    n = n < MP_TEAM_MAX ? n : MP_TEAM_MAX;
    if (!n) {
        plat_free(cpus);
        return EXP_RUN_SKIPPED;
    }
    mp_print_cpus(cpus, n);
    double run_us = atomics_setup(ctx, p, &run);
    con_printf("%10s %12s %10s %10s %10s\n", "processors", "Mops/s", "ns/op med", "fastest",
               "slowest");
    unsigned lost = 0;
    for (unsigned k = 1; k <= n; k = k == n ? n + 1 : (2 * k < n ? 2 * k : n)) {
        c = (struct atomics_count){.n = k};
        if (!atomics_count_run(ctx, p, &run, cpus, &c)) {
            lost++;
            mp_refresh_lost(cpus, n);
        }
        atomics_row(ctx, p, &c, run_us, arch_atomic_method(run.variant));
    }
    if (lost)
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "%u counts cut short: a processor did not come back (run.json: processors, "
                  "lost)",
                  lost);
    plat_free(cpus);
    return 0;
}

const struct experiment experiment_atomics = {
    .cfg =
        {
            .name = "atomics",
            .keys = atomics_keys,
            .nkeys = sizeof(atomics_keys) / sizeof(atomics_keys[0]),
            .params_size = sizeof(struct atomics_params),
            .defaults = atomics_defaults,
            .check = atomics_check,
            .buffer_bytes = atomics_buffer_bytes,
        },
    .describe = "contended atomics: 1, 2, 4 ... all processors incrementing one line (lock add, "
                "LDADD); increments per second and ns per increment",
    .why = "a line every processor writes moves from core to core on each increment: the rate "
           "the machine sustains, and how fairly, as the count grows (locks, counters, "
           "reference counts)",
    .run = atomics_run,
};
