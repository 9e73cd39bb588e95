// SPDX-License-Identifier: MIT
// The c2c experiment: core-to-core latency, one cache line bounced between two processors.
#include "experiments/driver.h"
#include "point/ctx.h"
#include "point/sizes.h"

#include "arch/cpu.h"
#include "chase/chain.h"
#include "procs/bounce.h"
#include "procs/mp.h"
#include "procs/linepair.h"
#include "procs/pairs.h"
#include "lib/stats.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

/* This experiment's row of the table (defined at the end). */
extern const struct experiment experiment_c2c;

#define C2C_MATRIX_PRINT_MAX 16 /* larger matrices are summarized by group */
/* A partner that does not answer within this is gone (the wait goes on over windows of at most
 * window_max_ms: interrupts are off inside them). */
#define C2C_WAIT_S 2
#define C2C_AREA_BYTES (1ULL << 20) /* the flag line and the modified lines, in the buffer */
/* The line states' lines lie at twice the line size apart: an adjacent-line prefetcher (it
   fetches a line's 128-byte pair) would otherwise bring a second line in per transfer. */
#define C2C_STATE_STRIDE_LINES 2
_Static_assert(BOUNCE_REPS_MAX <= LS_REPS_MAX, "c2c.reps bounds the bounce and the line states");

struct c2c_params {
    struct cpu_choice cpus;
    uint64_t rounds; /* round trips per timed repetition */
    uint64_t reps;
    uint64_t lines;     /* lines the other processor modifies before they are read */
    unsigned hang_test; /* 1: the first answering processor other than chase's never returns */
    uint64_t pairs;     /* ordered pairs measured at most: all up to it, else a sample */
    uint64_t budget_s;  /* time the pairs may take (0: no limit): the rest is left out, said */
    unsigned states;    /* 0: the bounce and every line state; 1: the bounce only */
    unsigned fresh;     /* 1: new lines for each repetition of a line state; 0: the same ones */
};
CFG_PARAMS_FIT(struct c2c_params);

#define P(field) offsetof(struct c2c_params, field)

static const char *const c2c_hang_names[] = {"none", "answer", NULL};
static const char *const c2c_states_names[] = {"all", "bounce", NULL};
static const char *const c2c_fresh_names[] = {"no", "yes", NULL};

static const struct key_desc c2c_keys[] = {
    {"cpus", KEY_CPUS, P(cpus), 0, PLAT_CPUS_MAX, NULL, "",
     "processors to pair: a count (0: as many as 64) spread over nodes, packages, dies and core "
     "types, said on the console; all; p or e (hybrid parts' core types); or a list (0-3,8)"},
    {"pairs", KEY_U64, P(pairs), 2, PAIRS_MAX, NULL, "",
     "ordered pairs measured at most: every pair when there are no more (4032: all of 64 "
     "processors), else a sample with every package, die, node and core type in it"},
    {"budget_s", KEY_U64, P(budget_s), 0, 86400, NULL, "s",
     "time the pairs may take, said up front (0: no limit); pairs past it are left out"},
    {"rounds", KEY_U64, P(rounds), 16, 1000000, NULL, "", "round trips per timed repetition"},
    {"reps", KEY_U64, P(reps), 3, BOUNCE_REPS_MAX, NULL, "", "timed repetitions per pair"},
    {"lines", KEY_U64, P(lines), 8, 4096, NULL, "",
     "lines the other processor modifies before they are read (keep them in its L1); each line "
     "state reads as many"},
    {"states", KEY_CHOICE, P(states), 0, 0, c2c_states_names, "",
     "all: the bounce, then lines modified, clean exclusive and shared (with a third processor) "
     "in the other processor, homed in chase's buffer and, with nodes, in a node away from both; "
     "bounce: the bounce and the modified read only"},
    {"fresh", KEY_CHOICE, P(fresh), 0, 0, c2c_fresh_names, "",
     "yes: every repetition of a line state reads lines never used before (the area's next "
     "chunk); no: the same lines each time (reuse skews some parts: Zen)"},
    {"hang_test", KEY_CHOICE, P(hang_test), 0, 0, c2c_hang_names, "",
     "test of the timeout path: 'answer' makes the first answering processor (not chase's) "
     "spin forever, to be reported and left out"},
};

static void c2c_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct c2c_params *p = params;
    (void)m;
    p->cpus = (struct cpu_choice){.kind = CPU_CHOICE_COUNT};
    p->pairs = PAIRS_ALL_DEFAULT;
    p->budget_s = profile == PROFILE_QUICK ? 600 : 3600;
    p->rounds = profile == PROFILE_QUICK ? 200 : 5000;
    p->reps = profile == PROFILE_QUICK ? 5 : 15;
    p->lines = 256;
    p->hang_test = 0;
    p->states = 0;
    p->fresh = 1;
}

static void c2c_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct c2c_params *p = params;
    (void)m; /* lines (at most 4096) x a line (at most 128 bytes) fit C2C_AREA_BYTES */
    if (p->cpus.kind == CPU_CHOICE_COUNT && p->cpus.count == 1)
        cfg_check_fail(c, "cpus", "1 processor makes no pair; expected 0 (all) or 2 to %d",
                       PLAT_CPUS_MAX);
}

static uint64_t c2c_buffer_bytes(const void *params, const struct machine *m)
{
    (void)params, (void)m;
    return C2C_AREA_BYTES + LS_AREA_BYTES;
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
    double v[BOUNCE_REPS_MAX];
    for (uint64_t i = 0; i < n; i++)
        v[i] = timing_ticks_to_ns(ctx->timing, (double)ticks[i]) / per;
    stats_sort(v, n);
    *median = stats_quantile_sorted(v, n, 0.5);
    *min = v[0];
    if (p90)
        *p90 = stats_quantile_sorted(v, n, 0.9);
}

/* Time the pair (a times, b answers); false when either did not come back. */
static bool c2c_pair_run(struct exp_ctx *ctx, struct bounce_pair *pr, const struct mp_cpu *a,
                         const struct mp_cpu *b, struct c2c_result *res)
{
    struct mp_cpu two[2] = {*a, *b};
    struct mp_step_job jobs[2] = {{bounce_timer, pr}, {bounce_answer, pr}};
    bool done[2];
    pr->failed = false;
    pr->timer = pr->answer = (struct bounce_side){0};
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

/* The core types of a pair as "P-core>E-core" on a hybrid machine ("-" where none is known). */
static const char *c2c_types(const struct mp_cpu *a, const struct mp_cpu *b, char *buf, size_t cap)
{
    if (!a->core_type && !b->core_type)
        return "-";
    ksnprintf(buf, cap, "%s>%s", mp_core_type_name(a->core_type), mp_core_type_name(b->core_type));
    return buf;
}

/* One ordered pair's CSV row, samples and console progress line. */
static void c2c_row(struct exp_ctx *ctx, const struct bounce_pair *pr, const struct mp_cpu *a,
                    const struct mp_cpu *b, const struct c2c_result *r)
{
    const char *g = c2c_group(a, b);
    char tb[32];
    for (uint64_t i = 0; i < pr->reps; i++)
        strbuf_printf(&ctx->samples, "%u,%u,%llu,%llu,%llu,%llu\n", a->p.id, b->p.id,
                      (unsigned long long)i, (unsigned long long)pr->rounds,
                      (unsigned long long)pr->bounce_ticks[i],
                      (unsigned long long)pr->read_ticks[i]);
    strbuf_printf(&ctx->csv, "%u,%u,%s,%llu,%llu,%llu,", a->p.id, b->p.id, g,
                  (unsigned long long)pr->rounds, (unsigned long long)pr->reps,
                  (unsigned long long)pr->hops);
    if (r->ok)
        strbuf_printf(&ctx->csv, "%.2f,%.2f,%.2f,%.2f,%.2f,", r->one_way_median, r->one_way_min,
                      r->one_way_p90, r->read_median, r->read_min);
    else
        strbuf_puts(&ctx->csv, ",,,,,");
    strbuf_printf(&ctx->csv, "%s,bounce,", c2c_types(a, b, tb, sizeof(tb)));
    if (ctx->buffer.node_known)
        strbuf_printf(&ctx->csv, "%u", ctx->buffer.node);
    strbuf_puts(&ctx->csv, ",buffer,no,\n"); /* the one flag line, handed over and over */
    if (r->ok)
        con_printf("%5u -> %-5u %-14s %9.1f %9.1f %9.1f %10.1f\n", a->p.id, b->p.id, g,
                   r->one_way_median, r->one_way_min, r->one_way_p90, r->read_median);
    else
        con_printf("%5u -> %-5u %-14s did not come back: left out\n", a->p.id, b->p.id, g);
}

/* One group's line: its pairs (of types, when not NULL) with their median one-way latency. */
static void c2c_print_group(const struct mp_cpu *cpus, unsigned n, const double *m,
                            const char *group, const char *types, double *v)
{
    size_t k = 0;
    char tb[32];
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++)
            if (i != j && m[i * n + j] >= 0 && kstrcmp(c2c_group(&cpus[i], &cpus[j]), group) == 0 &&
                (!types || kstrcmp(c2c_types(&cpus[i], &cpus[j], tb, sizeof(tb)), types) == 0))
                v[k++] = m[i * n + j];
    if (!k)
        return;
    stats_sort(v, k);
    con_printf("group %-14s%s%-14s %4zu pairs, one-way median %.1f ns (min %.1f, max %.1f)\n",
               group, types ? " " : "", types ? types : "", k, stats_quantile_sorted(v, k, 0.5),
               v[0], v[k - 1]);
}

/* Each group's median one-way latency over its pairs; on a hybrid machine by core types too. */
static void c2c_print_groups(const struct mp_cpu *cpus, unsigned n, const double *m)
{
    static const char *const groups[] = {"same_core",    "shared_l2",     "shared_l3",
                                         "same_package", "other_package", "caches_unknown"};
    static const char *const types[] = {"P-core>P-core", "P-core>E-core", "E-core>P-core",
                                        "E-core>E-core"};
    bool hybrid = false;
    for (unsigned i = 0; i < n; i++)
        hybrid |= cpus[i].core_type != cpus[0].core_type;
    double *v = plat_alloc((size_t)n * n * sizeof(*v));
    for (unsigned g = 0; v && g < sizeof(groups) / sizeof(groups[0]); g++) {
        c2c_print_group(cpus, n, m, groups[g], NULL, v);
        for (unsigned t = 0; hybrid && t < sizeof(types) / sizeof(types[0]); t++)
            c2c_print_group(cpus, n, m, groups[g], types[t], v);
    }
    plat_free(v);
}

/* The shared lines in the buffer: the bounced flag, the ready line, the modified chain. */
static void c2c_setup(struct exp_ctx *ctx, const struct c2c_params *p, struct bounce_pair *pr)
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

/* What one run holds: its processors, the pairs planned, the matrix (-1: not measured). */
struct c2c_state {
    struct mp_cpu *cpus;
    unsigned n;
    struct pair *plan;
    size_t npairs, measured, lost;
    struct pairs_counts counts;
    double *m;
    bool over_budget;
    struct ls_homes homes; /* where the line states' lines lie */
    struct ls_run lr;      /* the line states' engine */
    uint32_t *perm;        /* its chunk's order of lines */
    unsigned state_fails;  /* line-state measurements not ok */
};

/* What a line-state row needs besides its result. */
struct c2c_state_row {
    struct exp_ctx *ctx;
    const struct mp_cpu *a, *b, *cpus;
    const struct c2c_state *st;
};

/* One line-state row (ls_pair_measure's callback): its state, home and per-line read ns. */
static void c2c_state_row(void *arg, const struct ls_result *r)
{
    const struct c2c_state_row *w = arg;
    struct strbuf *csv = &w->ctx->csv;
    const char *g = c2c_group(w->a, w->b), *name = ls_state_name(r->state);
    char tb[32];
    strbuf_printf(csv, "%u,%u,%s,,%llu,%llu,", w->a->p.id, w->b->p.id, g,
                  (unsigned long long)w->st->lr.reps, (unsigned long long)w->st->lr.lines);
    if (r->ok)
        strbuf_printf(csv, "%.2f,%.2f,%.2f,,,", r->ns_median, r->ns_min, r->ns_p90);
    else
        strbuf_puts(csv, ",,,,,");
    strbuf_printf(csv, "%s,%s,", c2c_types(w->a, w->b, tb, sizeof(tb)), name);
    if (r->home_known)
        strbuf_printf(csv, "%u", r->home_node);
    strbuf_printf(csv, ",%s,%s,", r->home_other ? "other_node" : "buffer",
                  w->st->lr.fresh ? "yes" : "no");
    if (r->helper >= 0)
        strbuf_printf(csv, "%u", w->cpus[r->helper].p.id);
    strbuf_puts(csv, "\n");
    if (r->ok)
        con_printf("%5u -> %-5u %-14s %-9s %-10s %9.1f %9.1f %9.1f\n", w->a->p.id, w->b->p.id, g,
                   name, r->home_other ? "other_node" : "buffer", r->ns_median, r->ns_min,
                   r->ns_p90);
    else
        con_printf("%5u -> %-5u %-14s %-9s did not come back: left out\n", w->a->p.id, w->b->p.id,
                   g, name);
}

/* The pairs to measure, said up front with the budget (and in run.json's note when sampled). */
static bool c2c_plan(struct exp_ctx *ctx, const struct c2c_params *p, struct c2c_state *st)
{
    size_t total = pairs_total(st->n), room = total < p->pairs ? total : p->pairs;
    st->plan = plat_alloc((room ? room : 1) * sizeof(*st->plan));
    st->m = plat_alloc((size_t)st->n * st->n * sizeof(*st->m));
    if (!st->plan || !st->m)
        return false;
    st->npairs = pairs_plan(st->cpus, st->n, room, ctx->cfg->global.seed, st->plan, &st->counts);
    const struct pairs_counts *c = &st->counts;
    con_printf("pairs: %zu of the %zu ordered pairs of %u processors", st->npairs, total, st->n);
    if (!c->all) {
        con_printf(" (a sample, c2c.pairs = %llu: %zu between %zu places of node, package, die "
                   "and core type; %zu of each place's nearest relations; %zu in a ring through "
                   "every processor; %zu seeded random)",
                   (unsigned long long)p->pairs, c->between, c->places, c->within, c->ring,
                   c->random);
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "a sample of %zu of %zu ordered pairs: every pair of places, their nearest "
                  "relations, a ring, seeded random; budget %llu s",
                  st->npairs, total, (unsigned long long)p->budget_s);
    }
    if (p->budget_s)
        con_printf("; time budget %llu s (c2c.budget_s): pairs past it are left out\n",
                   (unsigned long long)p->budget_s);
    else
        con_printf("; no time budget (c2c.budget_s = 0)\n");
    return true;
}

/* Measure the plan's pairs until the budget is spent. */
static void c2c_measure(struct exp_ctx *ctx, const struct c2c_params *p, struct c2c_state *st,
                        struct bounce_pair *pr)
{
    bool hung = false;
    uint64_t t0 = arch_tsc_fenced(), budget = p->budget_s * ctx->timing->wall_tsc_hz;
    for (size_t k = 0; k < (size_t)st->n * st->n; k++)
        st->m[k] = -1;
    for (size_t k = 0; k < st->npairs; k++) {
        const struct mp_cpu *a = &st->cpus[st->plan[k].a], *b = &st->cpus[st->plan[k].b];
        if (budget && arch_tsc_fenced() - t0 > budget) {
            st->over_budget = true;
            break;
        }
        if (a->p.lost || b->p.lost)
            continue;
        struct c2c_result r = {0};
        pr->hang = p->hang_test && !hung && !b->p.bsp;
        hung |= pr->hang;
        if (c2c_pair_run(ctx, pr, a, b, &r))
            st->m[st->plan[k].a * st->n + st->plan[k].b] = r.one_way_median;
        else {
            st->lost++;
            mp_refresh_lost(st->cpus, st->n);
        }
        st->measured++;
        c2c_row(ctx, pr, a, b, &r);
        if (r.ok && st->perm) {
            struct c2c_state_row w = {ctx, a, b, st->cpus, st};
            struct ls_pair pp = {st->cpus, st->n, st->plan[k].a, st->plan[k].b, &st->lr};
            st->state_fails += ls_pair_measure(&st->homes, ctx, &pp, c2c_state_row, &w);
            mp_refresh_lost(st->cpus, st->n);
        }
    }
}

/* The line states' engine: its control line (the area's last), the lines' order, the homes. */
static void c2c_states_setup(struct exp_ctx *ctx, const struct c2c_params *p, struct c2c_state *st)
{
    uint64_t line = exp_line_bytes(ctx->m);
    if (p->states != 0 || !(st->perm = plat_alloc(p->lines * sizeof(*st->perm))))
        return;
    ls_order_random(st->perm, p->lines, ctx->cfg->global.seed);
    st->lr = (struct ls_run){
        .ctl = (volatile uint64_t *)(ctx->buffer.virt + C2C_AREA_BYTES - 2 * line),
        .perm = st->perm,
        .lines = p->lines,
        .stride = C2C_STATE_STRIDE_LINES * line,
        .fresh = p->fresh == 1,
        .reps = p->reps,
        .wait_ticks = C2C_WAIT_S * ctx->timing->wall_tsc_hz,
        .window_ticks = mp_window_ticks(ctx),
    };
    ls_homes_begin(&st->homes, ctx, ctx->buffer.virt + C2C_AREA_BYTES, LS_AREA_BYTES);
    con_printf("line states: modified, exclusive%s in the other processor; %s lines each "
               "repetition; homes: chase's buffer%s\n",
               st->n > 2 ? ", shared (with a third)" : " (shared needs a third processor)",
               p->fresh == 1 ? "fresh" : "the same",
               st->homes.has_mem ? " and a node away from both, where the pair's nodes allow" : "");
}

/* What the run came to, on the console and in the note run.json keeps. */
static void c2c_report(struct exp_ctx *ctx, const struct c2c_params *p, const struct c2c_state *st,
                       const struct bounce_pair *pr)
{
    mp_print_matrix(st->cpus, st->n, st->m, C2C_MATRIX_PRINT_MAX);
    c2c_print_groups(st->cpus, st->n, st->m);
    if (pr->cuts)
        con_printf("note: %llu window ends (window_max_ms = %llu) fell inside timed repetitions: "
                   "each such repetition is the sum of its parts\n",
                   (unsigned long long)pr->cuts,
                   (unsigned long long)ctx->cfg->global.window_max_ms);
    if (st->over_budget) {
        con_printf("note: the time budget (%llu s) was spent after %zu of %zu pairs: the rest "
                   "are left out\n",
                   (unsigned long long)p->budget_s, st->measured, st->npairs);
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "budget %llu s spent after %zu of %zu planned pairs (of %zu)",
                  (unsigned long long)p->budget_s, st->measured, st->npairs, pairs_total(st->n));
    }
    if (st->homes.note[0])
        ksnprintf(ctx->failure, sizeof(ctx->failure), "%s", st->homes.note);
    if (st->state_fails)
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "%u line-state measurements did not come back (their rows are empty)",
                  st->state_fails);
    if (st->lost)
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "%zu pairs left out: a processor did not come back in time (run.json: "
                  "processors, lost)",
                  st->lost);
}

static int c2c_run(struct exp_ctx *ctx, const void *params)
{
    const struct c2c_params *p = params;
    static struct bounce_pair pr;
    struct c2c_state st = {0};
    exp_header(ctx, &experiment_c2c,
               "ordered pairs: %llu round trips x %llu repetitions, then %llu lines "
               "modified by the answering processor read by the timing one",
               (unsigned long long)p->rounds, (unsigned long long)p->reps,
               (unsigned long long)p->lines);
    strbuf_puts(&ctx->csv, "cpu_a,cpu_b,group,rounds,reps,lines,ns_median,ns_min,ns_p90,"
                           "modified_read_ns_median,modified_read_ns_min,types,state,home_node,"
                           "home,fresh,helper\n");
    strbuf_puts(&ctx->samples, "cpu_a,cpu_b,rep,rounds,bounce_tsc_total,modified_read_tsc_total\n");
    unsigned held = mp_cpus_held();
    st.cpus = plat_alloc((held ? held : 1) * sizeof(*st.cpus));
    st.n = st.cpus ? mp_cpus_chosen(ctx, &p->cpus, st.cpus, held) : 0;
    int rc = EXP_RUN_SKIPPED;
    if (st.n && c2c_plan(ctx, p, &st)) {
        mp_print_cpus(st.cpus, st.n);
        c2c_setup(ctx, p, &pr);
        c2c_states_setup(ctx, p, &st);
        con_printf("%5s    %-5s %-14s %9s %9s %9s %10s  (line states: state, home, ns a line)\n",
                   "timer", "other", "group", "ns med", "ns min", "ns p90", "mod rd ns");
        c2c_measure(ctx, p, &st, &pr);
        c2c_report(ctx, p, &st, &pr);
        rc = 0;
    } else if (st.n) {
        ksnprintf(ctx->failure, sizeof(ctx->failure), "no memory for the pairs of %u processors",
                  st.n);
    }
    if (st.perm)
        ls_homes_end(&st.homes);
    plat_free(st.perm);
    plat_free(st.m);
    plat_free(st.plan);
    plat_free(st.cpus);
    return rc;
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
