// SPDX-License-Identifier: MIT
// The c2c experiment: core-to-core latency, one cache line bounced between two processors.
#include "experiments/driver.h"
#include "point/ctx.h"
#include "point/sizes.h"

#include "arch/cpu.h"
#include "chase/chain.h"
#include "procs/mp.h"
#include "lib/stats.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

/* This experiment's row of the table (defined at the end). */
extern const struct experiment experiment_c2c;

#define C2C_REPS_MAX 64
#define C2C_MATRIX_PRINT_MAX 16 /* larger matrices are summarized by group */
/* A partner that does not answer within this is gone (the wait goes on over windows of at most
 * window_max_ms: interrupts are off inside them). */
#define C2C_WAIT_S 2
/* Round trips between two looks at the clock in a repetition that may outlast its window: one
   fenced TSC read (tens of cycles) per 64 round trips of hundreds, under 1% of the time. */
#define C2C_ROUNDS_PER_LOOK 64
#define C2C_AREA_BYTES (1ULL << 20) /* the flag line and the modified lines, in the buffer */

struct c2c_params {
    uint64_t cpus;   /* 0: all */
    uint64_t rounds; /* round trips per timed repetition */
    uint64_t reps;
    uint64_t lines;     /* lines the other processor modifies before they are read */
    unsigned hang_test; /* 1: the first answering processor other than chase's never returns */
};
CFG_PARAMS_FIT(struct c2c_params);

#define P(field) offsetof(struct c2c_params, field)

static const char *const c2c_hang_names[] = {"none", "answer", NULL};

static const struct key_desc c2c_keys[] = {
    {"cpus", KEY_U64, P(cpus), 0, PLAT_CPUS_MAX, NULL, "",
     "processors to pair (0: all, at most 64): on a larger machine a set spread over nodes, "
     "packages, dies and core types, said on the console"},
    {"rounds", KEY_U64, P(rounds), 16, 1000000, NULL, "", "round trips per timed repetition"},
    {"reps", KEY_U64, P(reps), 3, C2C_REPS_MAX, NULL, "", "timed repetitions per pair"},
    {"lines", KEY_U64, P(lines), 8, 4096, NULL, "",
     "lines the other processor modifies before they are read (keep them in its L1)"},
    {"hang_test", KEY_CHOICE, P(hang_test), 0, 0, c2c_hang_names, "",
     "test of the timeout path: 'answer' makes the first answering processor (not chase's) "
     "spin forever, to be reported and left out"},
};

static void c2c_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct c2c_params *p = params;
    (void)m;
    p->cpus = 0;
    p->rounds = profile == PROFILE_QUICK ? 200 : 5000;
    p->reps = profile == PROFILE_QUICK ? 5 : 15;
    p->lines = 256;
    p->hang_test = 0;
}

static void c2c_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct c2c_params *p = params;
    (void)m; /* lines (at most 4096) x a line (at most 128 bytes) fit C2C_AREA_BYTES */
    if (p->cpus == 1)
        cfg_check_fail(c, "cpus", "1 processor makes no pair; expected 0 (all) or 2 to %d",
                       PLAT_CPUS_MAX);
}

static uint64_t c2c_buffer_bytes(const void *params, const struct machine *m)
{
    (void)params, (void)m;
    return C2C_AREA_BYTES;
}

/* One side's progress, kept between its windows (each side writes only its own). */
struct c2c_side {
    unsigned phase;     /* C2C_* */
    uint64_t v;         /* the last value this side stored or answered */
    uint64_t i, r;      /* round trips and repetitions done in this phase */
    uint64_t deadline;  /* the wait in progress ends here (0: none yet) */
    bool stored;        /* this round's value is stored: its answer is awaited */
    uint64_t rep_ticks; /* the last repetition's length (whether the next fits a window) */
};

enum { C2C_START, C2C_BOUNCE, C2C_READ, C2C_FINISH, C2C_END };

/* What both sides of one pair share; the `flag` line is the one bounced. */
struct c2c_pair {
    volatile uint64_t *flag;  /* its own cache line */
    volatile uint64_t *ready; /* the answering side has started (another line) */
    void **chain;             /* lines the answering side modifies, read by the timer */
    struct chain_layout layout;
    uint64_t rounds, reps, hops;
    uint64_t timer_wait_ticks, answer_wait_ticks; /* each side's longest wait: C2C_WAIT_S */
    uint64_t window_ticks;                        /* each side's longest window: window_max_ms */
    struct c2c_side timer, answer;
    uint64_t bounce_ticks[C2C_REPS_MAX]; /* per repetition, on the timing side's TSC */
    uint64_t read_ticks[C2C_REPS_MAX];
    uint64_t cuts; /* window ends inside a timed repetition (its parts are summed) */
    void *sink;
    bool failed;
    bool hang; /* the answering side spins forever (hang_test) */
};

/* Whether a repetition of the timing side may outlast what is left of a window (the first
   one's length is not known yet): then it looks at the clock every C2C_ROUNDS_PER_LOOK. */
static bool c2c_may_outlast(const struct win_slice *w, const struct c2c_side *s)
{
    return w->window_ticks && (!s->rep_ticks || s->rep_ticks > w->window_ticks / 2);
}

/*
 * The timed round trips, repetition after repetition: a repetition starts in a window that
 * holds it (at the last one's pace) and is cut only where it is longer than half a window or
 * the partner is late; a cut one is the sum of its parts (the round trip in flight at the cut
 * counts up to the cut).
 */
static enum win_state c2c_time_bounces(struct c2c_pair *pr, struct c2c_side *s,
                                       const struct win_slice *w)
{
    for (; s->r < pr->reps; s->r++, s->i = 0) {
        uint64_t t0 = arch_tsc_fenced();
        if (s->i == 0 && !s->stored) { /* a new repetition (not one cut in its first trip) */
            if (!win_fits(w, t0, s->rep_ticks))
                return WIN_WINDOW_END; /* the next window holds it whole */
            pr->bounce_ticks[s->r] = 0;
            s->deadline = t0 + pr->timer_wait_ticks;
        }
        bool look = c2c_may_outlast(w, s);
        for (; s->i < pr->rounds; s->i++, s->v++, s->stored = false) {
            enum win_state st = WIN_GO_ON;
            if (!s->stored) {
                if (look && s->i && s->i % C2C_ROUNDS_PER_LOOK == 0) /* a cut between trips */
                    st = win_check(w, arch_tsc_fenced(), s->deadline);
                if (st == WIN_GO_ON)
                    __atomic_store_n(pr->flag, ++s->v, __ATOMIC_RELEASE);
                s->stored = st == WIN_GO_ON;
            }
            if (st == WIN_GO_ON)
                st = mp_wait_in(pr->flag, s->v + 1, s->deadline, w);
            if (st != WIN_GO_ON) {
                pr->bounce_ticks[s->r] += arch_tsc_fenced() - t0;
                pr->cuts += st == WIN_WINDOW_END;
                return st;
            }
        }
        pr->bounce_ticks[s->r] += arch_tsc_fenced() - t0;
        s->rep_ticks = pr->bounce_ticks[s->r];
    }
    s->phase = C2C_READ;
    s->r = 0;
    return WIN_GO_ON;
}

/* The reads of lines the other side modified: one request, its answer, the timed walk each. */
static enum win_state c2c_time_reads(struct c2c_pair *pr, struct c2c_side *s,
                                     const struct win_slice *w)
{
    for (; s->r < pr->reps; s->r++, s->v++, s->stored = false) {
        if (!s->stored) {
            uint64_t now = arch_tsc_fenced();
            if (win_check(w, now, 0) != WIN_GO_ON)
                return WIN_WINDOW_END;
            __atomic_store_n(pr->flag, ++s->v, __ATOMIC_RELEASE); /* "modify the lines" */
            s->deadline = now + pr->timer_wait_ticks;
        }
        s->stored = true;
        enum win_state st = mp_wait_in(pr->flag, s->v + 1, s->deadline, w);
        if (st != WIN_GO_ON)
            return st;
        uint64_t t0 = arch_tsc_fenced();
        void **p = chain_walk(pr->chain, pr->hops);
        pr->read_ticks[s->r] = arch_tsc_fenced() - t0;
        pr->sink = p;
    }
    __atomic_store_n(pr->flag, ++s->v, __ATOMIC_RELEASE); /* "done" */
    s->phase = C2C_END;
    return WIN_GO_ON;
}

/*
 * The timing side (its own TSC only), one window's share: round trips, then reads of lines
 * the other modified. Returns true while more remains.
 */
static bool c2c_timer(void *arg)
{
    struct c2c_pair *pr = arg;
    struct c2c_side *s = &pr->timer;
    struct win_slice w;
    win_begin(&w, arch_tsc_fenced(), pr->window_ticks);
    enum win_state st = WIN_GO_ON;
    if (s->phase == C2C_START) {
        s->deadline = s->deadline ? s->deadline : w.start_tsc + pr->timer_wait_ticks;
        st = mp_wait_in(pr->ready, 1, s->deadline, &w);
        s->phase = st == WIN_GO_ON ? C2C_BOUNCE : C2C_START;
    }
    if (st == WIN_GO_ON && s->phase == C2C_BOUNCE)
        st = c2c_time_bounces(pr, s, &w);
    if (st == WIN_GO_ON && s->phase == C2C_READ)
        st = c2c_time_reads(pr, s, &w);
    if (st == WIN_DEADLINE) {
        pr->failed = true;
        __atomic_store_n(pr->flag, ~0ULL, __ATOMIC_RELEASE);
    }
    return st == WIN_WINDOW_END;
}

/* The answering side of hang_test: never returns, so its processor's timeout must end it. */
static void c2c_hang(volatile uint64_t *ready)
{
    __atomic_store_n(ready, 1, __ATOMIC_RELEASE);
    for (;;)
        arch_pause();
}

/*
 * The answering side's wait for the next odd value (deadline: C2C_WAIT_S from its start); the
 * clock read for the deadline also ends the window when it is over.
 */
static enum win_state c2c_await(struct c2c_pair *pr, struct c2c_side *s, const struct win_slice *w)
{
    if (!s->deadline) {
        uint64_t now = arch_tsc_fenced();
        if (win_check(w, now, 0) != WIN_GO_ON)
            return WIN_WINDOW_END;
        s->deadline = now + pr->answer_wait_ticks;
    }
    enum win_state st = mp_wait_in(pr->flag, s->v + 1, s->deadline, w);
    if (st == WIN_GO_ON)
        s->deadline = 0;
    return st;
}

/* One window's share of answering: each odd value with the next even one, the lines modified
   before each read answer. Returns true while more remains. */
static bool c2c_answer(void *arg)
{
    struct c2c_pair *pr = arg;
    struct c2c_side *s = &pr->answer;
    struct win_slice w;
    win_begin(&w, arch_tsc_fenced(), pr->window_ticks);
    if (pr->hang)
        c2c_hang(pr->ready);
    __atomic_store_n(pr->ready, 1, __ATOMIC_RELEASE);
    for (enum win_state st; s->phase != C2C_END; s->v += 2) {
        if ((st = c2c_await(pr, s, &w)) != WIN_GO_ON || pr->failed)
            return st == WIN_WINDOW_END && !pr->failed;
        if (s->phase == C2C_FINISH) {
            s->phase = C2C_END;
            break;
        }
        if (s->phase == C2C_READ) {
            void **p = pr->chain; /* rewrite every link as it is: each line modified here */
            for (uint64_t h = 0; h < pr->hops; h++) {
                void **next = (void **)*p;
                *(void *volatile *)p = next;
                p = next;
            }
        }
        __atomic_store_n(pr->flag, s->v + 2, __ATOMIC_RELEASE);
        uint64_t phase_len = s->phase == C2C_READ ? pr->reps : pr->rounds * pr->reps;
        if (++s->i == phase_len) {
            s->phase = s->phase == C2C_READ ? C2C_FINISH : C2C_READ;
            s->i = 0;
        }
    }
    return false;
}

/* How two processors relate, nearest first (the groups the summary names). */
static const char *c2c_group(const struct mp_cpu *a, const struct mp_cpu *b)
{
    if (a->p.package != b->p.package)
        return "other_package";
    if (a->p.die == b->p.die && a->p.core == b->p.core) /* AArch64: core numbers restart a die */
        return "same_core";
    if (!a->groups_known || !b->groups_known) /* AArch64 without a PPTT's caches */
        return "caches_unknown";
    if (a->l2_group == b->l2_group)
        return "shared_l2";
    if (a->l3_group == b->l3_group)
        return "shared_l3";
    return "same_package";
}

/* The results of one ordered pair, in ns. */
struct c2c_result {
    double one_way_median, one_way_min, one_way_p90, read_median, read_min;
    bool ok;
};

/* Median, min and p90 of n tick counts, each over `per` events, in ns. */
static void c2c_stats(const struct exp_ctx *ctx, const uint64_t *ticks, uint64_t n, double per,
                      double *median, double *min, double *p90)
{
    double v[C2C_REPS_MAX];
    for (uint64_t i = 0; i < n; i++)
        v[i] = timing_ticks_to_ns(ctx->timing, (double)ticks[i]) / per;
    stats_sort(v, n);
    *median = stats_quantile_sorted(v, n, 0.5);
    *min = v[0];
    if (p90)
        *p90 = stats_quantile_sorted(v, n, 0.9);
}

/* Time the pair (a times, b answers); false when either did not come back. */
static bool c2c_pair_run(struct exp_ctx *ctx, struct c2c_pair *pr, const struct mp_cpu *a,
                         const struct mp_cpu *b, struct c2c_result *res)
{
    struct mp_cpu two[2] = {*a, *b};
    struct mp_step_job jobs[2] = {{c2c_timer, pr}, {c2c_answer, pr}};
    bool done[2];
    pr->failed = false;
    pr->timer = pr->answer = (struct c2c_side){0};
    *pr->flag = 0;
    *pr->ready = 0;
    int rc = mp_run_steps(two, 2, jobs, MP_TIMEOUT_US, done);
    if (rc == PLAT_CPU_TIMEOUT)
        con_printf("processor %u did not come back within %llu s: reported and left out\n",
                   done[0] ? b->p.id : a->p.id, (unsigned long long)(MP_TIMEOUT_US / 1000000));
    res->ok = rc == 0 && !pr->failed;
    if (!res->ok)
        return false;
    c2c_stats(ctx, pr->bounce_ticks, pr->reps, 2.0 * (double)pr->rounds, &res->one_way_median,
              &res->one_way_min, &res->one_way_p90);
    c2c_stats(ctx, pr->read_ticks, pr->reps, (double)pr->hops, &res->read_median, &res->read_min,
              NULL);
    return true;
}

/* One ordered pair's CSV row, samples and console progress line. */
static void c2c_row(struct exp_ctx *ctx, const struct c2c_pair *pr, const struct mp_cpu *a,
                    const struct mp_cpu *b, const struct c2c_result *r)
{
    const char *g = c2c_group(a, b);
    for (uint64_t i = 0; i < pr->reps; i++)
        strbuf_printf(&ctx->samples, "%u,%u,%llu,%llu,%llu,%llu\n", a->p.id, b->p.id,
                      (unsigned long long)i, (unsigned long long)pr->rounds,
                      (unsigned long long)pr->bounce_ticks[i],
                      (unsigned long long)pr->read_ticks[i]);
    strbuf_printf(&ctx->csv, "%u,%u,%s,%llu,%llu,%llu,", a->p.id, b->p.id, g,
                  (unsigned long long)pr->rounds, (unsigned long long)pr->reps,
                  (unsigned long long)pr->hops);
    if (r->ok)
        strbuf_printf(&ctx->csv, "%.2f,%.2f,%.2f,%.2f,%.2f\n", r->one_way_median, r->one_way_min,
                      r->one_way_p90, r->read_median, r->read_min);
    else
        strbuf_puts(&ctx->csv, ",,,,\n");
    if (r->ok)
        con_printf("%5u -> %-5u %-14s %9.1f %9.1f %9.1f %10.1f\n", a->p.id, b->p.id, g,
                   r->one_way_median, r->one_way_min, r->one_way_p90, r->read_median);
    else
        con_printf("%5u -> %-5u %-14s did not come back: left out\n", a->p.id, b->p.id, g);
}

/* The matrix of one-way medians (the timing processor's row), or a summary by group. */
static void c2c_print_matrix(const struct mp_cpu *cpus, unsigned n, const double *m)
{
    if (n > C2C_MATRIX_PRINT_MAX) {
        con_printf("(%u processors: the matrix is in c2c.csv; by group below)\n", n);
        return;
    }
    con_printf("one-way latency, ns (median; row times, column answers)\n%6s", "");
    for (unsigned j = 0; j < n; j++)
        con_printf(" %7u", cpus[j].p.id);
    con_printf("\n");
    for (unsigned i = 0; i < n; i++) {
        con_printf("%6u", cpus[i].p.id);
        for (unsigned j = 0; j < n; j++)
            if (i == j || m[i * n + j] < 0)
                con_printf(" %7s", i == j ? "-" : "lost");
            else
                con_printf(" %7.1f", m[i * n + j]);
        con_printf("\n");
    }
}

/* Each group's median one-way latency over its pairs. */
static void c2c_print_groups(const struct mp_cpu *cpus, unsigned n, const double *m)
{
    static const char *const groups[] = {"same_core",    "shared_l2",     "shared_l3",
                                         "same_package", "other_package", "caches_unknown"};
    static double v[PLAT_CPUS_MAX * PLAT_CPUS_MAX];
    for (unsigned g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
        size_t k = 0;
        for (unsigned i = 0; i < n; i++)
            for (unsigned j = 0; j < n; j++)
                if (i != j && m[i * n + j] >= 0 &&
                    kstrcmp(c2c_group(&cpus[i], &cpus[j]), groups[g]) == 0)
                    v[k++] = m[i * n + j];
        if (!k)
            continue;
        stats_sort(v, k);
        con_printf("group %-14s %4zu pairs, one-way median %.1f ns (min %.1f, max %.1f)\n",
                   groups[g], k, stats_quantile_sorted(v, k, 0.5), v[0], v[k - 1]);
    }
}

/* The shared lines in the buffer: the bounced flag, the ready line, the modified chain. */
static void c2c_setup(struct exp_ctx *ctx, const struct c2c_params *p, struct c2c_pair *pr)
{
    uint64_t line = exp_line_bytes(ctx->m);
    kmemset(pr, 0, sizeof(*pr));
    pr->flag = (volatile uint64_t *)ctx->buffer.virt;
    pr->ready = (volatile uint64_t *)(ctx->buffer.virt + 2 * line);
    pr->layout = (struct chain_layout){ctx->buffer.virt, 4 * line, line, p->lines, 0};
    pr->chain = chain_build_random(&pr->layout, ctx->cfg->global.seed);
    pr->rounds = p->rounds;
    pr->reps = p->reps;
    pr->hops = p->lines;
    /* Each side's windows (interrupts off) are bounded as the boot processor's measuring ones;
       a wait goes on over several. */
    pr->window_ticks = mp_window_ticks(ctx);
    pr->timer_wait_ticks = pr->answer_wait_ticks = C2C_WAIT_S * ctx->timing->wall_tsc_hz;
}

static int c2c_run(struct exp_ctx *ctx, const void *params)
{
    const struct c2c_params *p = params;
    static struct mp_cpu cpus[PLAT_CPUS_MAX];
    static struct c2c_pair pr;
    static double m[PLAT_CPUS_MAX * PLAT_CPUS_MAX];
    exp_header(ctx, &experiment_c2c,
               "every ordered pair: %llu round trips x %llu repetitions, then %llu lines "
               "modified by the answering processor read by the timing one",
               (unsigned long long)p->rounds, (unsigned long long)p->reps,
               (unsigned long long)p->lines);
    strbuf_puts(&ctx->csv, "cpu_a,cpu_b,group,rounds,reps,lines,ns_median,ns_min,ns_p90,"
                           "modified_read_ns_median,modified_read_ns_min\n");
    strbuf_puts(&ctx->samples, "cpu_a,cpu_b,rep,rounds,bounce_tsc_total,modified_read_tsc_total\n");
    unsigned n = mp_cpus(ctx, (unsigned)p->cpus, cpus, PLAT_CPUS_MAX), lost = 0;
    bool hung = false;
    if (!n)
        return EXP_RUN_SKIPPED;
    mp_print_cpus(cpus, n);
    c2c_setup(ctx, p, &pr);
    con_printf("%5s    %-5s %-14s %9s %9s %9s %10s\n", "timer", "other", "group", "ns med",
               "ns min", "ns p90", "mod rd ns");
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            struct c2c_result r = {0};
            m[i * n + j] = -1;
            if (i == j || cpus[i].p.lost || cpus[j].p.lost)
                continue;
            pr.hang = p->hang_test && !hung && !cpus[j].p.bsp;
            hung |= pr.hang;
            if (c2c_pair_run(ctx, &pr, &cpus[i], &cpus[j], &r))
                m[i * n + j] = r.one_way_median;
            else {
                lost++;
                mp_refresh_lost(cpus, n);
            }
            c2c_row(ctx, &pr, &cpus[i], &cpus[j], &r);
        }
    c2c_print_matrix(cpus, n, m);
    c2c_print_groups(cpus, n, m);
    if (pr.cuts)
        con_printf("note: %llu window ends (window_max_ms = %llu) fell inside timed repetitions: "
                   "each such repetition is the sum of its parts\n",
                   (unsigned long long)pr.cuts, (unsigned long long)ctx->cfg->global.window_max_ms);
    if (lost)
        ksnprintf(
            ctx->failure, sizeof(ctx->failure),
            "%u pairs left out: a processor did not come back in time (run.json: processors, lost)",
            lost);
    return 0;
}

const struct experiment experiment_c2c = {
    .cfg =
        {
            .name = "c2c",
            .keys = c2c_keys,
            .nkeys = sizeof(c2c_keys) / sizeof(c2c_keys[0]),
            .params_size = sizeof(struct c2c_params),
            .defaults = c2c_defaults,
            .check = c2c_check,
            .buffer_bytes = c2c_buffer_bytes,
        },
    .describe = "core-to-core latency: two processors bounce one cache line, every pair; and "
                "reading lines another processor modified",
    .why = "a line moves between cores through the cache they share, or the interconnect: the "
           "latency groups processors by what they share",
    .run = c2c_run,
};
