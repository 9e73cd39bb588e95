// SPDX-License-Identifier: MIT
// The summary of a run as text: what the console prints and report.md and --json carry.
#include "analysis/interpret.h"
#include "lib/fmt.h"
#include "lib/kmath.h"

/* "12.34" or "-" when not a finite number. */
static void number(char *dst, size_t cap, double v, int decimals)
{
    if (kisfinite(v))
        ksnprintf(dst, cap, "%.*f", decimals, v);
    else
        ksnprintf(dst, cap, "-");
}

static void summary_levels(struct strbuf *sb, const struct an_curve *c,
                           const struct an_curve_result *cr)
{
    const struct detection *d = &cr->det;
    char means[LEVELS_SIZE_MEANING_CHARS];
    levels_size_meaning(means, sizeof(means), d);
    strbuf_printf(sb, "levels of \"%s\" (size: %s):\n", c->label, means);
    strbuf_printf(sb, "%8s %12s %10s %10s %6s  %s\n", "level", "size", "ns", "cycles", "conf",
                  "kind");
    for (size_t i = 0; i < d->nlevels; i++) {
        const struct level *lv = &d->level[i];
        char name[8], sz[32], ns[32], cyc[32];
        level_name_of(name, sizeof(name), d, i);
        if (lv->size_known)
            fmt_size(sz, sizeof(sz), lv->size_bytes);
        else
            ksnprintf(sz, sizeof(sz), "open");
        number(ns, sizeof(ns), lv->latency_ns, 2);
        number(cyc, sizeof(cyc), lv->cycles, 2);
        strbuf_printf(sb, "%8s %12s %10s %10s %6.2f  %s\n", name, sz, ns, cyc, lv->confidence,
                      level_kind_name(lv->kind));
    }
    if (!d->nlevels)
        strbuf_printf(sb, "%8s\n", "(none)");
    for (size_t i = 0; i < d->nnotes; i++)
        strbuf_printf(sb, "  - %s\n", d->note[i]);
}

static void summary_dram(struct strbuf *sb, const struct detection *d)
{
    char from[32], cyc[32];
    if (!kisfinite(d->dram_ns)) {
        strbuf_printf(sb, "DRAM latency: not reached (the largest size is inside the last "
                          "cache)\n");
        return;
    }
    if (d->dram_lower_bound) {
        strbuf_printf(sb, "DRAM latency: at least %.1f ns (the curve ends still rising)\n",
                      d->dram_ns);
        return;
    }
    fmt_size(from, sizeof(from), d->dram_from_bytes);
    number(cyc, sizeof(cyc), d->dram_cycles, 0);
    strbuf_printf(sb, "DRAM latency: %.1f ns, %s cycles (plateau from %s)\n", d->dram_ns, cyc,
                  from);
}

static void summary_tlb_steps(struct strbuf *sb, const struct an_input *in,
                              const struct an_result *r)
{
    for (size_t i = 0; i < in->ncurves && i < AN_MAX_CURVES; i++)
        for (size_t k = 0; k < r->cr[i].ntlb; k++) {
            char sz[32];
            fmt_size(sz, sizeof(sz), r->cr[i].tlb[k].size_bytes);
            strbuf_printf(sb,
                          "TLB step in \"%s\" at %s: %+.2f ns per load (absent with "
                          "larger pages)\n",
                          in->curve[i].label, sz, r->cr[i].tlb[k].penalty_ns);
        }
}

void analysis_summary(struct strbuf *sb, const struct an_input *in, const struct an_result *r)
{
    if (r->primary >= 0) {
        summary_levels(sb, &in->curve[r->primary], &r->cr[r->primary]);
        summary_dram(sb, &r->cr[r->primary].det);
    } else {
        strbuf_printf(sb, "levels: no latency curve to find them on\n");
    }
    summary_tlb_steps(sb, in, r);
    for (size_t e = 0; e < analysis_experiment_count() && e < AN_EXP_MAX; e++) {
        const struct verdict *v = &r->verdict[e];
        if (v->present)
            strbuf_printf(sb, "%s: %s\n", analysis_experiment(e)->name, v->headline);
    }
}
