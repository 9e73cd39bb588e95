// SPDX-License-Identifier: MIT
// The tlb experiment's report side: the TLB penalty of each page size and where it starts.
#include "analysis/judge.h"
#include "analysis/interpret.h"
#include "lib/fmt.h"
#include "lib/kmath.h"

/* A page size pays a TLB penalty where it is slower than the largest page size by more than
 * this fraction and this many ns. */
#define PENALTY_FRACTION 0.04
#define PENALTY_MIN_NS 0.3

/* Where curve c pays more than the reference: the start of the run of slower points that
 * lasts to the end (one point inside it may miss), and the extra ns at the largest size.
 * False when there is no such run of at least two points. */
static bool penalty_run(const struct an_curve *c, const struct an_curve *ref, double *reach,
                        double *penalty)
{
    size_t first = 0, count = 0, misses = 0;
    for (size_t i = c->n; i-- > 0;) {
        double base = analysis_interp_log2(ref->size, ref->ns, ref->n, c->size[i]);
        if (!kisfinite(base))
            continue;
        double extra = c->ns[i] - base;
        if (!(extra > kfmax(PENALTY_MIN_NS, PENALTY_FRACTION * base))) {
            if (count == 0 || ++misses > 1)
                break;
            continue;
        }
        if (count++ == 0)
            *penalty = extra;
        first = i;
        misses = 0;
    }
    if (count < 2)
        return false;
    *reach = c->size[first];
    return true;
}

static void steps_text(const struct detection *d, char *buf, size_t cap)
{
    buf[0] = 0;
    for (size_t i = 0; i < d->nlevels; i++) {
        char sz[32];
        analysis_size(sz, sizeof(sz), d->level[i].size_bytes);
        judge_append(buf, cap, "%s%s", i ? ", " : "", d->level[i].size_known ? sz : "(open)");
    }
    if (!buf[0])
        ksnprintf(buf, cap, "none");
}

/* One table row per page size; the first penalised page size makes the headline. */
static void tlb_row(struct verdict *v, const struct an_curve *c, const struct an_curve_result *cr,
                    const struct an_curve *ref, const char *rp)
{
    char pg[32], steps[160], reach_s[32] = "-", pen_s[32] = "-", key[48];
    double reach = 0, penalty = 0;
    analysis_size(pg, sizeof(pg), c->page_bytes);
    steps_text(&cr->det, steps, sizeof(steps));
    if (c != ref && penalty_run(c, ref, &reach, &penalty)) {
        analysis_size(reach_s, sizeof(reach_s), reach);
        ksnprintf(pen_s, sizeof(pen_s), "%.1f ns", penalty);
        ksnprintf(key, sizeof(key), "penalty_ns_%s", pg);
        verdict_item(v, key, penalty);
        ksnprintf(key, sizeof(key), "reach_bytes_%s", pg);
        verdict_item(v, key, reach);
        if (v->data.nsteps < LEVELS_MAX)
            v->data.step[v->data.nsteps++] =
                (struct verdict_tlb_step){reach, c->page_bytes, penalty};
        if (!v->headline[0])
            verdict_headline(v,
                             "%s pages: TLB misses from %s on, adding %.1f ns per load at the "
                             "largest size compared with %s pages",
                             pg, reach_s, penalty, rp);
    } else if (c != ref && !v->headline[0]) {
        verdict_headline(v, "%s pages cost no more than %s pages over the sizes tried", pg, rp);
    }
    verdict_line(v, "| %s | %s | %s | %s |", pg, steps, c == ref ? "(reference)" : pen_s, reach_s);
}

static void judge_tlb(const struct an_judge *j, struct verdict *v)
{
    const struct an_input *in = j->in;
    int ref = -1;
    size_t count = 0, n = in->ncurves < AN_MAX_CURVES ? in->ncurves : AN_MAX_CURVES;
    for (size_t i = 0; i < n; i++)
        if (j->r->cr[i].analysed && in->curve[i].role == AN_ROLE_TLB) {
            count++;
            if (ref < 0 || in->curve[i].page_bytes > in->curve[ref].page_bytes)
                ref = (int)i;
        }
    if (ref < 0)
        return;
    v->present = true;
    v->data.fields |= VD_STEPS;
    char rp[32];
    analysis_size(rp, sizeof(rp), in->curve[ref].page_bytes);
    verdict_line(v, "| page size | steps in the curve | TLB penalty vs %s pages | from size |", rp);
    verdict_line(v, "|---|---|---|---|");
    for (size_t i = 0; i < n; i++)
        if (j->r->cr[i].analysed && in->curve[i].role == AN_ROLE_TLB)
            tlb_row(v, &in->curve[i], &j->r->cr[i], &in->curve[ref], rp);
    if (count == 1) {
        char steps[160];
        steps_text(&j->r->cr[ref].det, steps, sizeof(steps));
        verdict_headline(v,
                         "only %s pages were measured: its steps (%.100s) mix cache and TLB "
                         "effects; a larger page size would separate them",
                         rp, steps);
    }
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
