// SPDX-License-Identifier: MIT
// One chase run from start to end: configuration, timing, experiments, results, summary.
#include "run/run.h"

#include "arch/cpu.h"
#include "arch/fault_test.h"
#include "experiments/experiment.h"
#include "procs/mp.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/slog.h"
#include "machine/ap_msr.h"
#include "machine/fault.h"
#include "platform.h"
#include "point/stall_record.h"
#include "run/banner.h"
#include "run/buffer_plan.h"
#include "run/machine_checks.h"
#include "run/prefetch.h"
#include "run/results.h"
#include "run/ship.h"
#include "run/summary.h"

struct run_state {
    bool fault_provoked;
    struct run_record rec;
    struct exp_state exps[EXPERIMENTS_MAX];
    struct strbuf json;
    struct strbuf csv[EXPERIMENTS_MAX]; /* each experiment's CSV as written, for the summary */
    unsigned unwritten_files;           /* files that could not be written; the end says so */
    struct prefetch_run prefetch;       /* what the prefetch key changed, to restore */
    struct mcheck mca;                  /* the machine-check banks, read between experiments */
    struct stall_record stalls;         /* stalls no memory explains (run.json) */
};

static void save_file(struct run_state *s, const char *name, const struct strbuf *sb)
{
    if (sb->failed)
        con_printf("warning: %s is incomplete: out of memory while writing it\n", name);
    int rc = plat_file_write(name, strbuf_str(sb), sb->len);
    if (rc == PLAT_WRITE_FAILED) {
        s->unwritten_files++;
        con_printf("warning: could not write %s to %s (the volume may be full or failing); "
                   "its results are on this console\n",
                   name, plat_result_path());
    } else if (rc == PLAT_WRITE_NO_FOLDER) {
        s->unwritten_files++;
    }
}

static void save_run_json(struct run_state *s)
{
    results_run_json(&s->json, &s->rec);
    save_file(s, "run.json", &s->json);
}

static void save_console(struct run_state *s)
{
    save_file(s, "console.txt", con_log());
}

/* Read the configuration; false (with errs filled) when it has errors. */
static bool read_config(struct chase_config *cfg, struct cfg_entries *entries,
                        const struct machine *m, const struct run_inputs *in,
                        struct cfg_errors *errs)
{
    if (in->config_text)
        cfg_read_file(entries, &experiment_cfg_table, in->config_text, in->config_len,
                      in->config_name, errs);
    if (in->options)
        cfg_read_options(entries, in->options, errs);
    cfg_resolve(cfg, &experiment_cfg_table, entries, m, errs);
    uint64_t need = run_buffer_need(cfg, m);
    if (errs->count == 0 && m->buffer_limit_bytes && need > m->buffer_limit_bytes) {
        char a[24], b[24];
        fmt_size(a, sizeof(a), (double)need);
        fmt_size(b, sizeof(b), (double)m->buffer_limit_bytes);
        struct cfg_source src = {"plan", 0};
        cfg_error(errs, &src,
                  "the experiments need a %s buffer but the largest that fits in memory is %s; "
                  "lower the max sizes",
                  a, b);
    }
    return errs->count == 0;
}

static void report_config_errors(struct run_state *s, const struct cfg_errors *errs)
{
    con_printf("\nconfiguration error%s (%u); no experiment was run:\n", errs->count > 1 ? "s" : "",
               errs->count);
    con_printf("%s", strbuf_str(&errs->text));
    s->rec.status = "config_error";
    save_file(s, "errors.txt", &errs->text);
    save_run_json(s);
    save_console(s);
}

static void print_timing(const struct timing *t)
{
    con_printf("\ntiming\n");
    con_printf("  tsc        %.3f MHz by %s (median of %u, spread %.3f%%)%s\n", t->tsc_hz / 1e6,
               t->tsc_method, t->nsources ? t->sources[0].ncalib : 0, t->calib_spread * 100,
               t->invariant ? "" : "; NOT invariant: timings may drift with the core clock");
    for (unsigned i = 1; i < t->nsources; i++)
        con_printf("             %.3f MHz by %s (spread %.3f%%)\n", t->sources[i].hz / 1e6,
                   t->sources[i].name, t->sources[i].spread * 100);
#if defined(__aarch64__)
    if (t->cpuid_hz) /* the generic timer's rate as firmware set it */
        con_printf("             %.3f MHz from %s\n", t->cpuid_hz / 1e6, t->cpuid_leaf);
#else
    if (t->cpuid_hz)
        con_printf("             %.3f MHz from CPUID leaf %s\n", t->cpuid_hz / 1e6, t->cpuid_leaf);
#endif
    if (t->disagreement > TSC_DISAGREEMENT_WARN)
        con_printf("  WARNING    the TSC frequency sources disagree by %.2f%%: ns may be off by "
                   "that much\n",
                   t->disagreement * 100);
    con_printf("  overhead   %.1f ticks per empty timed region (subtracted)\n", t->overhead_ticks);
    if (t->l1_ticks_16 > 0 && t->l1_ticks_256 > 0)
        con_printf("  loop       L1 chain: %.3f ticks per load with 16 loads per iteration, %.3f "
                   "with 256 (%+.2f%%)\n",
                   t->l1_ticks_16, t->l1_ticks_256, (t->l1_ticks_16 / t->l1_ticks_256 - 1) * 100);
    con_printf("  core clock %.3f core cycles per tick (~%.0f MHz), %s", t->core_per_tick,
               t->tsc_hz * t->core_per_tick / 1e6, t->core_method);
    if (t->aperf_mperf > 0)
        con_printf("; %s says %.3f", ARCH_CORE_COUNTER_TEXT, t->aperf_mperf);
#if defined(__aarch64__)
    con_printf("\n  SMIs       not on this architecture (AArch64 has no SMIs or MSRs)\n");
#else
    con_printf("\n  SMIs       %s\n", t->smi_counting
                                          ? "counted around every repetition (MSR_SMI_COUNT)"
                                          : "not counted (not an Intel CPU in ring 0 with "
                                            "MSR_SMI_COUNT)");
#endif
}

/* What the windows rest on (at the start), or what they saw (at the end). */
static void print_windows(const struct exp_ctx *ctx, bool end)
{
    struct window_report w;
    if (ctx->measure != measure_chase)
        return; /* a model measures (chase-sim): no window holds its points */
    plat_window_report(&w);
    if (!end) {
#if defined(__aarch64__)
        con_printf("  lfence     %s\n  add chain  ends with %s (no LFENCE on this architecture)\n"
                   "  paging     %s\n",
                   w.lfence, ARCH_COUNTER_READ_TEXT, w.paging);
#else
        con_printf("  lfence     %s\n  add chain  ends with %s: %s\n  paging     %s\n", w.lfence,
                   timed_end_fence(ctx->timing->adds_end), timed_end_why(ctx->timing->adds_end),
                   w.paging);
#endif
        return;
    }
    con_printf("\nwindows: %llu, the longest %.3f ms (window_max_ms = %llu caps each window); "
               "NMIs %llu (%llu windows dropped), machine checks %llu\n",
               (unsigned long long)w.windows, timing_wall_ns(ctx->timing, w.longest_ticks) / 1e6,
               (unsigned long long)ctx->cfg->global.window_max_ms, (unsigned long long)w.nmis,
               (unsigned long long)w.nmi_windows, (unsigned long long)w.machine_checks);
    char per_core[400];
    ap_msr_summary(ap_msr_book(), per_core, sizeof(per_core));
    con_printf("%s", per_core);
}

/* How long an experiment took, and how much of it was timed chasing (the rest by part). */
static void print_time_split(const struct timing *t, const char *name, const struct exp_state *st)
{
    const struct time_split *sp = &st->spent;
    double wall = (double)(st->wall_ticks ? st->wall_ticks : 1);
    con_printf("(%s took %.1f s)\n", name, timing_wall_ns(t, st->wall_ticks) / 1e9);
    con_printf("  time: timed %.0f%%, builds %.0f%%, warm-ups %.0f%%, bookkeeping %.0f%%, "
               "output %.0f%%, other %.0f%%\n",
               100 * sp->timed / wall, 100 * sp->build / wall, 100 * sp->warm / wall,
               100 * sp->bookkeeping / wall, 100 * sp->output / wall, 100 * sp->other / wall);
}

/* The run in progress, for the panic path (an exception has no other way to find it). */
static struct run_state *current_run;

/* fault_test=outside_window: a page fault in chase's own code, between windows. */
static void provoke_fault_outside_window(struct run_state *s)
{
    if (s->fault_provoked)
        return;
    s->fault_provoked = true;
    arch_fault_test(FAULT_TEST_PAGE_FAULT);
}

int run_exit_status(enum run_outcome outcome)
{
    switch (outcome) {
    case RUN_OK:
    case RUN_HELP:
        return 0;
    case RUN_CONFIG_ERROR:
        return 2;
    case RUN_NO_MEMORY:
        return 3;
    case RUN_PANIC:
        return 4;
    }
    return 1;
}

void run_panic(const struct fault_info *f)
{
    struct run_state *s = current_run;
    char what[200], where[80];
    ksnprintf(where, sizeof(where), "%s%s",
              s && s->rec.running ? "running " : "between experiments",
              s && s->rec.running ? s->rec.running : "");
    fault_panic_screen(f, where);
    mp_stop_all();
    if (!s)
        return;
    prefetch_restore(&s->prefetch);
    fault_describe(what, sizeof(what), f);
    s->rec.status = "panic";
    slog_end("panic");
    for (unsigned i = 0; i < EXPERIMENTS_MAX; i++) {
        if (s->exps[i].status == EXP_RUNNING) {
            s->exps[i].status = EXP_FAILED;
            ksnprintf(s->exps[i].reason, sizeof(s->exps[i].reason), "panic: %s", what);
        }
    }
    save_run_json(s);
    save_console(s);
}

static void run_experiment(struct run_state *s, struct exp_ctx *ctx, unsigned idx, bool first)
{
    const struct experiment *x = experiment_table[idx];
    const char *xname = x->cfg.name;
    struct exp_state *st = &s->exps[idx];
    char name[48];
    con_printf("\n== %s: %s\n", xname, x->describe);
    st->status = EXP_RUNNING;
    s->rec.running = xname;
    save_run_json(s);
    strbuf_reset(&ctx->csv);
    strbuf_reset(&ctx->samples);
    slog_experiment(xname);
    ctx->failure[0] = 0;
    unsigned fault_test = ctx->cfg->global.fault_test;
    ctx->fault_test =
        first && fault_test != FAULT_TEST_OUTSIDE_WINDOW ? fault_test : FAULT_TEST_NONE;
    if (!first && fault_test == FAULT_TEST_OUTSIDE_WINDOW)
        provoke_fault_outside_window(s);
    kmemset(&ctx->spent, 0, sizeof(ctx->spent));
    uint64_t t0 = arch_tsc_fenced();
    st->prefetch = prefetch_apply(&s->prefetch, ctx->m, cfg_prefetch(ctx->cfg, idx));
    int rc = x->run(ctx, cfg_params_const(ctx->cfg, idx));
    prefetch_restore(&s->prefetch);
    mcheck_after(&s->mca, xname);
    slog_rows(&ctx->csv); /* rows no sweep wrote point by point (c2c, numa ...) */
    if (rc == 0) {
        st->status = EXP_OK;
        kstrlcpy(st->reason, ctx->failure, sizeof(st->reason)); /* a note, if any */
    } else if (rc == EXP_RUN_SKIPPED) {
        st->status = EXP_SKIPPED;
        kstrlcpy(st->reason, ctx->failure[0] ? ctx->failure : "unknown", sizeof(st->reason));
        con_printf("%s skipped: %s\n", xname, st->reason);
    } else {
        st->status = EXP_FAILED;
        kstrlcpy(st->reason, ctx->failure[0] ? ctx->failure : "unknown", sizeof(st->reason));
        con_printf("%s FAILED: %s\n", xname, st->reason);
    }
    ksnprintf(name, sizeof(name), "%s.csv", xname);
    save_file(s, name, &ctx->csv);
    strbuf_reset(&s->csv[idx]);
    strbuf_append(&s->csv[idx], strbuf_str(&ctx->csv), ctx->csv.len);
    ksnprintf(name, sizeof(name), "%s.samples.csv", xname);
    save_file(s, name, &ctx->samples);
    st->wall_ticks = arch_tsc_fenced() - t0;
    st->spent = ctx->spent;
    time_split_close(&st->spent, st->wall_ticks);
    print_time_split(ctx->timing, xname, st);
    s->rec.running = NULL;
    save_run_json(s);
    save_console(s);
}

/* The summary reads the experiments' CSV text, as chase-report reads their files. */
static void print_summary(const struct run_state *s, const struct exp_ctx *ctx)
{
    char mc[200];
    struct summary_input in = {.m = ctx->m,
                               .where = plat_result_path(),
                               .page_bytes = ctx->buffer.page_bytes,
                               .machine_checks = mcheck_summary(&s->mca, mc, sizeof(mc))};
    for (unsigned i = 0; i < ctx->cfg->global.n_experiments; i++) {
        unsigned idx = ctx->cfg->global.experiments[i];
        in.names[in.n] = experiment_table[idx]->cfg.name;
        in.csv[in.n++] = &s->csv[idx];
    }
    summary_print(&in);
    mcheck_slog(&s->mca);
}

/* The clocks: calibrated here, or handed in (chase-sim), with durations in real seconds. */
static void start_timing(struct run_state *s, struct exp_ctx *ctx, struct timing *t,
                         const struct run_inputs *in)
{
    if (in->timing) {
        *t = *in->timing;
        if (!t->wall_tsc_hz)
            t->wall_tsc_hz = timing_measure_wall_hz(); /* durations stay in real seconds */
    } else {
        timing_init(t, ctx->m);
    }
    s->rec.timing = t;
    print_timing(t);
    print_windows(ctx, false);
}

/* No buffer to measure in (the console says why): save what there is. */
static enum run_outcome no_buffer(struct run_state *s)
{
    s->rec.status = "no_memory";
    save_run_json(s);
    save_console(s);
    return RUN_NO_MEMORY;
}

/* Allocate the chase buffer, aligned for the plan when there is room. Returns 0 or -1. */
static int alloc_buffer(struct exp_ctx *ctx, char *why, size_t why_cap)
{
    uint64_t need = run_buffer_need(ctx->cfg, ctx->m), align = run_plan_alignment(ctx->cfg);
    int rc = plat_buffer_alloc(need, align, &ctx->buffer, why, why_cap);
    if (rc != 0 && align > BUFFER_ALIGN_BYTES) {
        con_printf("  note       no room for a buffer aligned to its largest stride (%llu bytes); "
                   "aligned to 2 MiB instead\n",
                   (unsigned long long)align);
        align = BUFFER_ALIGN_BYTES;
        rc = plat_buffer_alloc(need, align, &ctx->buffer, why, why_cap);
    }
    ctx->buffer.align_bytes = align;
    return rc;
}

/* Every experiment, the summary, and the files; the buffer is given back. */
static void run_experiments(struct run_state *s, struct exp_ctx *ctx)
{
    const struct chase_config *cfg = ctx->cfg;
    s->rec.status = "running";
    for (unsigned i = 0; i < cfg->global.n_experiments; i++)
        run_experiment(s, ctx, cfg->global.experiments[i], i == 0);
    mcheck_after(&s->mca, "end of run");
    print_windows(ctx, true);
    print_summary(s, ctx);
    slog_end("complete");
    if (s->unwritten_files)
        con_printf("note: %u result file%s could not be written to %s; every table is on this "
                   "console\n",
                   s->unwritten_files, s->unwritten_files > 1 ? "s" : "", plat_result_path());
    s->rec.status = "complete";
    save_run_json(s);
    save_console(s);
}

static enum run_outcome run_all(struct run_state *s, struct exp_ctx *ctx, struct timing *t,
                                const struct run_inputs *in)
{
    const struct chase_config *cfg = ctx->cfg;
    char why[256] = "";
    start_timing(s, ctx, t, in);
    if (alloc_buffer(ctx, why, sizeof(why)) != 0) {
        con_printf("\ncould not allocate the chase buffer: %s\n", why);
        return no_buffer(s);
    }
    s->rec.buffer = &ctx->buffer;
    uint64_t page = cfg_page_bytes(cfg->global.page);
    if (page && plat_buffer_set_pages(&ctx->buffer, page, why, sizeof(why)) != 0) {
        con_printf("\ncould not map the chase buffer with %s pages: %s\n",
                   page_names[cfg->global.page], why);
        enum run_outcome outcome = no_buffer(s);
        plat_buffer_free(&ctx->buffer);
        s->rec.buffer = NULL;
        return outcome;
    }
    banner_print_buffer(&ctx->buffer, ctx->m->cpu.has_1g_pages);
    run_experiments(s, ctx);
    plat_buffer_free(&ctx->buffer);
    s->rec.buffer = NULL;
    return RUN_OK;
}

/* The run's record from its first line on: what the panic path and run.json read. */
static void record_begin(struct run_state *s, struct machine *m, const struct run_inputs *in)
{
    s->rec.m = m;
    current_run = s;
    s->rec.exps = s->exps;
    s->rec.start_time = in->start_time;
    s->rec.status = "starting";
    s->rec.simulated = in->simulated;
    s->rec.json_extra = in->json_extra;
    s->rec.json_extra_ctx = in->json_extra_ctx;
    s->rec.mca = &s->mca;
    s->stalls = (struct stall_record){0};
    s->rec.stalls = &s->stalls;
    mcheck_begin(&s->mca, m); /* the banner's last line, before the configuration is read */
}

enum run_outcome chase_main(struct machine *m, const struct run_inputs *in, enum on_exit *on_exit)
{
    struct run_state *s = plat_alloc(sizeof(*s));
    struct cfg_entries *entries = plat_alloc(sizeof(*entries));
    struct chase_config *cfg = plat_alloc(sizeof(*cfg));
    struct exp_ctx *ctx = plat_alloc(sizeof(*ctx));
    struct timing *t = plat_alloc(sizeof(*t));
    struct cfg_errors errs = {{0}, 0};
    enum run_outcome outcome = RUN_NO_MEMORY;
    *on_exit = ON_EXIT_WAIT;
    if (!s || !entries || !cfg || !ctx || !t) {
        con_printf("chase: out of memory before starting\n");
        goto out;
    }
    banner_print(m);
    record_begin(s, m, in);
    bool ok = read_config(cfg, entries, m, in, &errs);
    s->rec.cfg = cfg;
    s->rec.prefetch = &s->prefetch;
    m->memtype_test = cfg->global.memtype_test;
    m->buffer_node = cfg->global.node.is_auto ? -1 : (int)cfg->global.node.value;
    *on_exit = (enum on_exit)cfg->global.on_exit;
    if (entries->want_help) {
        chase_print_help(m);
        outcome = RUN_HELP;
        goto out;
    }
    if (!ok) {
        report_config_errors(s, &errs);
        outcome = RUN_CONFIG_ERROR;
        goto out;
    }
    *ctx = (struct exp_ctx){.m = m, .cfg = cfg, .timing = t, .batches = in->batches};
    ctx->stalls = &s->stalls;
    ctx->measure = in->measure ? in->measure : measure_chase;
    ship_begin(&s->rec, in, cfg); /* the run id and machine name; the serial log starts */
    outcome = run_all(s, ctx, t, in);
    if (kstrcmp(m->platform, "uefi") == 0) /* chase-host's threads end with the process */
        mp_exit_check(on_exit);
    strbuf_release(&ctx->csv);
    strbuf_release(&ctx->samples);
out:
    slog_end(s && s->rec.status ? s->rec.status : "no_memory"); /* no-op once ended */
    if (s) {
        strbuf_release(&s->json);
        for (unsigned i = 0; i < EXPERIMENTS_MAX; i++)
            strbuf_release(&s->csv[i]);
    }
    strbuf_release(&errs.text);
    plat_free(t);
    plat_free(ctx);
    plat_free(cfg);
    plat_free(entries);
    current_run = NULL;
    plat_free(s);
    return outcome;
}
