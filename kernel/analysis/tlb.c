// SPDX-License-Identifier: MIT
// The tlb experiment's report side: the TLB penalty of each page size and where it starts.
#include "analysis/judge.h"
#include "analysis/interpret.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/stats.h"

/* A page size pays a TLB penalty where it is slower than the largest page size by more than
 * this fraction and this many ns. */
#define PENALTY_FRACTION 0.04
#define PENALTY_MIN_NS 0.3

/* The chain touches one line per 4K page, staggered over the sets: its data is size / 4K
 * lines. A step of the reference curve is a cache's when a cache within this factor of the
 * chain's data at the step could hold it before and not after. */
#define SLOT_PAGE_BYTES 4096.0
#define DATA_NEAR_FACTOR 2.0
/* No TLB has fewer entries than this (Intel's L1 DTLB for 1G pages has 4): a step below this
 * many pages of the curve's size is the reach of smaller pages. */
#define TLB_MIN_ENTRIES 4

/* Points of a curve the step finder keeps (more are not judged). */
#define STEP_POINTS_MAX 256

/* What a plateau of extra ns is: the median of its points (a wild point does not move it). */
static double plateau_ns(const double *v, size_t n)
{
    return n ? stats_median(v, n) : 0;
}

/*
 * The TLB steps of curve c over the reference: the extra ns per point is cut into plateaus,
 * a new one starting where two points in a row exceed the current plateau (the median of its
 * points, 0 at first) by more than the threshold; a step's reach is the last size before it
 * (the largest size measured without its penalty: a TLB's entries x page size when the sweep
 * has that size), its penalty the rise of the median. A plateau has two points at least, so
 * that a gradual rise (set-associative TLBs miss in part past their reach) is one step (a
 * plateau still rising by more than the threshold joins the next); a rise that has not ended
 * by the largest size gives a lower bound of its penalty. Two high points whose plateau's median
 * is not above the threshold (noise, a reference that reads high) are no step. Returns the
 * number of steps.
 */
static size_t penalty_steps(const struct an_curve *c, const struct an_curve *ref,
                            struct verdict_tlb_step *out, size_t cap)
{
    double extra[STEP_POINTS_MAX], thr[STEP_POINTS_MAX], size[STEP_POINTS_MAX];
    size_t n = 0, nsteps = 0, start = 0; /* start: the current plateau's first point */
    for (size_t i = 0; i < c->n && n < STEP_POINTS_MAX; i++) {
        double base = analysis_interp_log2(ref->size, ref->ns, ref->n, c->size[i]);
        if (!kisfinite(base) || !kisfinite(c->ns[i]))
            continue;
        extra[n] = c->ns[i] - base;
        thr[n] = kfmax(PENALTY_MIN_NS, PENALTY_FRACTION * base);
        size[n++] = c->size[i];
    }
    double level = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        if (!(extra[i] > level + thr[i] && extra[i + 1] > level + thr[i + 1])) {
            level = plateau_ns(extra + start, i + 1 - start);
            continue;
        }
        if (i == 0 || (nsteps == cap && !(extra[i - 1] - extra[start] > thr[i - 1])))
            break;
        size_t end = i + 2; /* the new plateau: two points at least, up to the next step */
        while (end + 1 < n &&
               !(extra[end] > extra[i] + thr[end] && extra[end + 1] > extra[i] + thr[end + 1]))
            end++;
        end = end + 1 < n ? end : n;
        double next = plateau_ns(extra + i, end - i);
        if (!(next - level > thr[i])) { /* two high points, not a higher plateau: no step */
            level = plateau_ns(extra + start, i + 1 - start);
            continue;
        }
        bool ramp = nsteps && extra[i - 1] - extra[start] > thr[i - 1]; /* still rising */
        if (ramp)
            out[nsteps - 1].penalty_ns += next - level;
        else
            out[nsteps++] = (struct verdict_tlb_step){size[i - 1], c->page_bytes, next - level};
        level = next;
        start = i;
        i = end - 1;
    }
    return nsteps;
}

/* Whether a cache could make the reference's step from reach to end: CPUID's data and unified
 * caches and the main curve's levels (a shared cache's share), against the chain's data there. */
static bool cache_step(const struct an_input *in, const struct an_result *r, double reach,
                       double end)
{
    double line = in->line_bytes > 0 ? in->line_bytes : 64;
    double lo = reach / SLOT_PAGE_BYTES * line / DATA_NEAR_FACTOR;
    double hi = end / SLOT_PAGE_BYTES * line * DATA_NEAR_FACTOR;
    for (size_t i = 0; i < in->ncaches && i < AN_CACHES_MAX; i++)
        if (in->cache_bytes[i] >= lo && in->cache_bytes[i] <= hi)
            return true;
    const struct detection *d = r->primary >= 0 ? &r->cr[r->primary].det : NULL;
    for (size_t i = 0; d && i < d->nlevels; i++)
        if (d->level[i].size_known && d->level[i].size_bytes >= lo && d->level[i].size_bytes <= hi)
            return true;
    return false;
}

/*
 * The reference curve's own TLB steps: its steps where no cache can be, as the chain's data
 * (one line per page) stays within one cache. They need CPUID's caches to tell. The reach is
 * the plateau's last size, the penalty the rise to the next plateau.
 */
static size_t own_steps(const struct an_input *in, const struct an_result *r, int ref,
                        struct verdict_tlb_step *out, size_t cap)
{
    const struct detection *d = &r->cr[ref].det;
    size_t n = 0;
    if (!in->ncaches)
        return 0;
    for (size_t i = 0; i < d->nlevels && n < cap; i++) {
        const struct level *lv = &d->level[i];
        double next = i + 1 < d->nlevels ? d->level[i + 1].latency_ns : d->dram_ns;
        if (!lv->size_known || !kisfinite(next) ||
            cache_step(in, r, lv->to_bytes, lv->step_end_bytes))
            continue;
        out[n++] = (struct verdict_tlb_step){lv->to_bytes, in->curve[ref].page_bytes,
                                             next - lv->latency_ns};
    }
    return n;
}

/* A bullet and a headline clause on the reference's own steps, each with its entries: a reach
 * under TLB_MIN_ENTRIES of the curve's pages is a smaller page's (4K's: 4K is the smallest), so
 * those pages act as smaller ones (a host splitting a guest's huge pages; pages not all huge). */
static void own_steps_text(struct verdict *v, const struct an_input *in, const struct an_curve *ref,
                           const struct verdict_tlb_step *st, size_t n)
{
    char pg[32], what[VERDICT_CHARS] = "", where[64] = "";
    size_t nsplit = 0;
    fmt_size(pg, sizeof(pg), ref->page_bytes);
    for (size_t k = 0; k < n; k++) {
        char sz[32];
        bool split = st[k].reach_bytes < TLB_MIN_ENTRIES * ref->page_bytes;
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
                 TLB_MIN_ENTRIES, pg,
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
    size_t ns = c != ref ? penalty_steps(c, ref, st, LEVELS_MAX) : 0;
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

/* The analysed tlb curve with the largest pages, or -1. */
static int reference_curve(const struct an_input *in, const struct an_result *r, size_t *count)
{
    int ref = -1;
    size_t n = in->ncurves < AN_MAX_CURVES ? in->ncurves : AN_MAX_CURVES;
    *count = 0;
    for (size_t i = 0; i < n; i++)
        if (r->cr[i].analysed && in->curve[i].role == AN_ROLE_TLB) {
            (*count)++;
            if (ref < 0 || in->curve[i].page_bytes > in->curve[ref].page_bytes)
                ref = (int)i;
        }
    return ref;
}

size_t analysis_tlb_steps(const struct an_input *in, const struct an_result *r,
                          struct verdict_tlb_step *out, size_t cap)
{
    size_t count, nsteps = 0, n = in->ncurves < AN_MAX_CURVES ? in->ncurves : AN_MAX_CURVES;
    int ref = reference_curve(in, r, &count);
    for (size_t i = 0; ref >= 0 && i < n && nsteps < cap; i++)
        if ((int)i != ref && r->cr[i].analysed && in->curve[i].role == AN_ROLE_TLB)
            nsteps += penalty_steps(&in->curve[i], &in->curve[ref], out + nsteps, cap - nsteps);
    if (ref >= 0)
        nsteps += own_steps(in, r, ref, out + nsteps, cap - nsteps);
    return nsteps;
}

static void judge_tlb(const struct an_judge *j, struct verdict *v)
{
    const struct an_input *in = j->in;
    size_t count, n = in->ncurves < AN_MAX_CURVES ? in->ncurves : AN_MAX_CURVES;
    int ref = reference_curve(in, j->r, &count);
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
    size_t nown = own_steps(in, j->r, ref, own, LEVELS_MAX);
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
