// SPDX-License-Identifier: MIT
// The end-of-run summary: the run's interpretation (kernel/analysis) and where the files are.
#include "run/summary.h"

#include "analysis/interpret.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "lib/slog.h"
#include "platform.h"

/* The line size the analysis assumes when CPUID gives none (as chase-report does). */
#define DEFAULT_LINE_BYTES 64

/* Everything analysis_run reads, built from the summary input; freed by summary_release. */
struct summary_work {
    struct csv table[AN_EXP_MAX];
    struct an_curve curve[AN_MAX_CURVES];
    struct an_input in;
    struct an_result result;
};

/* The data and unified caches, the largest of them and the first level-1 cache's line, as
 * chase-report reads them from run.json. */
static void machine_caches(const struct machine *m, struct an_input *in)
{
    in->llc_bytes = 0;
    in->line_bytes = 0;
    in->ncaches = 0;
    for (unsigned i = 0; i < m->cpu.ncaches; i++) {
        const struct cache_info *c = &m->cpu.caches[i];
        if (c->type != CACHE_INSTRUCTION && (double)c->size_bytes > in->llc_bytes)
            in->llc_bytes = (double)c->size_bytes;
        if (c->type != CACHE_INSTRUCTION && c->size_bytes && in->ncaches < AN_CACHES_MAX)
            in->cache_bytes[in->ncaches++] = (double)c->size_bytes;
        if (!in->line_bytes && c->level == 1 && c->line_bytes >= 8 && c->line_bytes <= 4096)
            in->line_bytes = c->line_bytes;
    }
    if (!in->line_bytes)
        in->line_bytes = DEFAULT_LINE_BYTES;
    in->hypervisor = m->cpu.hypervisor;
}

/* Parse each experiment's CSV text into w's tables and curves. */
static void load_tables(struct summary_work *w, const struct summary_input *si, struct strbuf *sb)
{
    size_t ncurves = 0;
    for (unsigned i = 0; i < si->n; i++) {
        int e = analysis_experiment_index(si->names[i]);
        const struct strbuf *text = si->csv[i];
        char err[120];
        if (e < 0 || !text || w->in.table[e])
            continue;
        if (csv_parse(strbuf_str(text), text->len, &w->table[e], err, sizeof(err)) != 0) {
            strbuf_printf(sb, "%s.csv: not read (%s)\n", si->names[i], err);
            continue;
        }
        w->in.table[e] = &w->table[e];
        analysis_curves_from_table(analysis_experiment((size_t)e), &w->table[e],
                                   (double)si->page_bytes, w->curve, &ncurves, AN_MAX_CURVES);
    }
    w->in.curve = w->curve;
    w->in.ncurves = ncurves;
}

static void summary_release(struct summary_work *w)
{
    analysis_curves_free(w->curve, w->in.ncurves);
    for (size_t e = 0; e < AN_EXP_MAX; e++)
        if (w->in.table[e])
            csv_free(&w->table[e]);
    plat_free(w);
}

/* The summary's items on the serial log: the levels, DRAM, each verdict's typed items. */
static void summary_log(const struct an_input *in, const struct an_result *r)
{
    if (!slog_active())
        return;
    if (r->primary >= 0) {
        const struct detection *d = &r->cr[r->primary].det;
        for (size_t i = 0; i < d->nlevels; i++) {
            const struct level *l = &d->level[i];
            char size[32] = ""; /* empty: a last level whose end the curve never reached */
            if (l->size_known && kisfinite(l->size_bytes))
                ksnprintf(size, sizeof(size), "%.0f", l->size_bytes);
            slog_summary("level", "n=%zu size_bytes=%s latency_ns=%.3f", i + 1, size,
                         l->latency_ns);
        }
        if (kisfinite(d->dram_ns))
            slog_summary("dram", "latency_ns=%.3f lower_bound=%d", d->dram_ns,
                         d->dram_lower_bound ? 1 : 0);
    }
    for (size_t e = 0; e < AN_EXP_MAX && e < analysis_experiment_count(); e++) {
        const struct verdict *v = &r->verdict[e];
        if (!v->present || !in->table[e])
            continue;
        for (size_t k = 0; k < v->nitems; k++) {
            const struct vitem *it = &v->item[k];
            bool scalar = it->type == VITEM_NUMBER || it->type == VITEM_BOOL;
            if (scalar && kisfinite(it->value))
                slog_summary("verdict", "exp=%s key=%s value=%.4f", analysis_experiment(e)->name,
                             it->name, it->value);
        }
    }
}

void summary_write(struct strbuf *sb, const struct summary_input *si)
{
    struct summary_work *w = plat_alloc(sizeof(*w));
    if (!w) {
        strbuf_printf(sb, "summary: out of memory\n");
    } else {
        machine_caches(si->m, &w->in);
        load_tables(w, si, sb);
        analysis_run(&w->in, &w->result);
        summary_log(&w->in, &w->result);
        analysis_summary(sb, &w->in, &w->result);
        summary_release(w);
    }
    if (si->m->cpu.hypervisor)
        strbuf_printf(sb, "note: measured under a hypervisor; under emulation (TCG) timings mean "
                          "nothing\n");
    if (si->machine_checks && si->machine_checks[0])
        strbuf_printf(sb, "%s", si->machine_checks);
    strbuf_printf(sb, "results: %s\n", si->where);
}

void summary_print(const struct summary_input *in)
{
    struct strbuf sb = {0};
    summary_write(&sb, in);
    con_printf("\n== summary\n%s", strbuf_str(&sb));
    strbuf_release(&sb);
}
