// SPDX-License-Identifier: MIT
// The tlb experiment's report side: the TLB penalty of each page size and where it starts.
#include "analysis/detect_params.h"
#include "analysis/judge.h"
#include "analysis/tlb_steps.h"
#include "lib/fmt.h"
#include "lib/kmath.h"

/* A bullet and a headline clause on the reference's own steps, each with its entries: a reach
 * under MIN_TLB_ENTRIES of the curve's pages is a smaller page's (4K's: 4K is the smallest), so
 * those pages act as smaller ones (a host splitting a guest's huge pages; pages not all huge). */
static void own_steps_text(struct verdict *v, const struct an_input *in, const struct an_curve *ref,
                           const struct verdict_tlb_step *st, size_t n)
{
    char pg[32], what[VERDICT_CHARS] = "", where[64] = "";
    size_t nsplit = 0;
    fmt_size(pg, sizeof(pg), ref->page_bytes);
    for (size_t k = 0; k < n; k++) {
        char sz[32];
        bool split = st[k].reach_bytes < MIN_TLB_ENTRIES * ref->page_bytes;
        double page = split ? SLOT_PAGE_BYTES : ref->page_bytes;
        fmt_size(sz, sizeof(sz), st[k].reach_bytes);
        judge_append(what, sizeof(what), "%s%s (+%.1f ns, about %.0f x %s)", k ? ", " : "", sz,
                     st[k].penalty_ns, st[k].reach_bytes / page, split ? "4K" : pg);
        if (split)
            judge_append(where, sizeof(where), "%s%s", nsplit++ ? ", " : "", sz);
    }
    verdict_line(v, "%s", "");
    verdict_line(v,
                 "- the %s pages step themselves where the chain's lines (one per page) stay in "
                 "one cache, at TLB reaches: %s",
                 pg, what);
    if (!nsplit)
        return;
    verdict_line(v, "- a reach under %d of its pages is not theirs: the %s pages act as 4K pages%s",
                 MIN_TLB_ENTRIES, pg,
                 in->hypervisor ? " (the host backs the guest's pages with 4K pages)"
                                : " (the buffer did not get them all)");
    judge_append(v->headline, VERDICT_CHARS, "; the %s pages act as 4K pages%s (TLB step%s at %s)",
                 pg, in->hypervisor ? ": the host splits them" : "", nsplit > 1 ? "s" : "", where);
}

static void steps_text(const struct detection *d, char *buf, size_t cap)
{
    buf[0] = 0;
    for (size_t i = 0; i < d->nlevels; i++) {
        char sz[32];
        fmt_size(sz, sizeof(sz), d->level[i].size_bytes);
        judge_append(buf, cap, "%s%s", i ? ", " : "", d->level[i].size_known ? sz : "(open)");
    }
    if (!buf[0])
        ksnprintf(buf, cap, "none");
}

/* The steps item's columns: one record per TLB step (reach, page size, penalty). */
static const struct vcolumn step_cols[] = {
    {"reach_bytes", "bytes", false}, {"page_bytes", "bytes", false}, {"penalty_ns", "ns", false}};

static void add_step(struct verdict *v, int tsteps, const struct verdict_tlb_step *st)
{
    struct vcell *row = verdict_row(v, tsteps);
    if (!row)
        return;
    row[0].num = st->reach_bytes;
    row[1].num = st->page_bytes;
    row[2].num = st->penalty_ns;
}

/* One table row per page size; the first penalised page size makes the headline. */
static void tlb_row(struct verdict *v, int tsteps, const struct an_curve *c,
                    const struct an_curve_result *cr, const struct an_curve *ref, const char *rp)
{
    char pg[32], steps[160], reach_s[96] = "", pen_s[96] = "", key[48];
    struct verdict_tlb_step st[LEVELS_MAX];
    size_t ns = c != ref ? analysis_tlb_penalty_steps(c, ref, st, LEVELS_MAX) : 0;
    double total = 0;
    fmt_size(pg, sizeof(pg), c->page_bytes);
    steps_text(&cr->det, steps, sizeof(steps));
    for (size_t k = 0; k < ns; k++) {
        char r[32];
        fmt_size(r, sizeof(r), st[k].reach_bytes);
        judge_append(reach_s, sizeof(reach_s), "%s%s", k ? ", " : "", r);
        judge_append(pen_s, sizeof(pen_s), "%s%.1f ns", k ? ", +" : "", st[k].penalty_ns);
        total += st[k].penalty_ns;
        add_step(v, tsteps, &st[k]);
    }
    if (!ns) {
        ksnprintf(reach_s, sizeof(reach_s), "-");
        ksnprintf(pen_s, sizeof(pen_s), "-");
    } else {
        ksnprintf(key, sizeof(key), "penalty_ns_%s", pg);
        verdict_number(v, key, total, "ns",
                       "the TLB penalty per load under these pages, all steps");
        ksnprintf(key, sizeof(key), "reach_bytes_%s", pg);
        verdict_number(v, key, st[0].reach_bytes, "bytes", "the first TLB's reach, these pages");
        if (!v->headline[0])
            verdict_headline(v,
                             "%s pages: TLB misses beyond %s, adding %.1f ns per load in all "
                             "(%zu step%s) compared with %s pages",
                             pg, reach_s, total, ns, ns > 1 ? "s" : "", rp);
    }
    if (!ns && c != ref && !v->headline[0]) {
        verdict_headline(v, "%s pages cost no more than %s pages over the sizes tried", pg, rp);
    }
    verdict_line(v, "| %s | %s | %s | %s |", pg, steps, c == ref ? "(reference)" : pen_s, reach_s);
}

static void judge_tlb(const struct an_judge *j, struct verdict *v)
{
    const struct an_input *in = j->in;
    size_t count, n = in->ncurves < AN_MAX_CURVES ? in->ncurves : AN_MAX_CURVES;
    int ref = analysis_tlb_reference(in, j->r, &count);
    if (ref < 0)
        return;
    v->present = true;
    int tsteps = verdict_table(v, "steps", "one record per TLB step: reach, page size, penalty",
                               step_cols, sizeof(step_cols) / sizeof(step_cols[0]));
    char rp[32];
    fmt_size(rp, sizeof(rp), in->curve[ref].page_bytes);
    verdict_line(v, "| page size | steps in the curve | TLB penalty vs %s pages | from size |", rp);
    verdict_line(v, "|---|---|---|---|");
    for (size_t i = 0; i < n; i++)
        if (j->r->cr[i].analysed && in->curve[i].role == AN_ROLE_TLB)
            tlb_row(v, tsteps, &in->curve[i], &j->r->cr[i], &in->curve[ref], rp);
    struct verdict_tlb_step own[LEVELS_MAX];
    size_t nown = analysis_tlb_own_steps(in, j->r, ref, own, LEVELS_MAX);
    for (size_t k = 0; k < nown; k++)
        add_step(v, tsteps, &own[k]);
    if (count == 1) {
        char steps[160];
        steps_text(&j->r->cr[ref].det, steps, sizeof(steps));
        verdict_headline(v,
                         "only %s pages were measured: its steps (%.100s) mix cache and TLB "
                         "effects; a larger page size would separate them",
                         rp, steps);
    }
    if (nown)
        own_steps_text(v, in, &in->curve[ref], own, nown);
}

const struct an_experiment analysis_tlb = {
    .name = "tlb",
    .curves = {AN_ROLE_TLB, "page_bytes", "size_bytes"},
    .plot = {.stem = "tlb",
             .from_curves = true,
             .xlabel = "size (bytes, log2 scale)",
             .ylabel = "ns per load",
             .x_size = true,
             .logy = true,
             .what = "one load per page, per page size",
             .caption = "Latency with one slot per page under each page size: where a small page "
                        "size pulls away from a larger one, its TLB no longer covers the "
                        "buffer."},
    .judge = judge_tlb,
};
