// SPDX-License-Identifier: MIT
// TLB steps: steps of a small-page curve that a larger-page curve of the same machine lacks, and
// the tlb experiment's steps (each page size against its largest), which level_kind.c also reads.
#include "analysis/tlb_steps.h"

#include "analysis/detect_params.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/stats.h"

static bool matched(const struct level *lv, const struct detection *ref)
{
    for (size_t i = 0; i < ref->nlevels; i++) {
        const struct level *q = &ref->level[i];
        double s = q->size_known ? q->size_bytes : q->to_bytes;
        if (kfabs(klog2(lv->size_bytes / s)) <= MATCH_OCTAVES ||
            (!q->size_known && lv->size_bytes >= q->from_bytes))
            return true;
    }
    return false;
}

/* Remove level i (a TLB step): the next level or DRAM keeps its size and this latency. */
static void remove_step(struct an_curve_result *cr, size_t i)
{
    struct detection *d = &cr->det;
    struct level *lv = &d->level[i];
    double next = i + 1 < d->nlevels ? d->level[i + 1].latency_ns : d->dram_ns;
    if (cr->ntlb < LEVELS_MAX)
        cr->tlb[cr->ntlb++] = (struct tlb_step){lv->effective_bytes, next - lv->latency_ns};
    if (i + 1 < d->nlevels) {
        d->level[i + 1].latency_ns = lv->latency_ns;
        d->level[i + 1].cycles = lv->cycles;
        d->level[i + 1].from_bytes = lv->from_bytes;
        d->level[i + 1].first = lv->first;
    } else if (!d->dram_lower_bound) {
        d->dram_ns = lv->latency_ns;
        d->dram_cycles = lv->cycles;
        d->dram_from_bytes = lv->from_bytes;
    }
    for (size_t k = i; k + 1 < d->nlevels; k++)
        d->level[k] = d->level[k + 1];
    d->nlevels--;
}

void analysis_tlb_classify(const struct an_curve *c, struct an_curve_result *cr,
                           const struct an_curve *ref, const struct an_curve_result *rr)
{
    (void)c;
    double lo = ref->size[0], hi = ref->size[ref->n - 1];
    size_t i = 0;
    while (i < cr->det.nlevels) {
        const struct level *lv = &cr->det.level[i];
        bool covered = lv->size_known && lv->size_bytes >= lo * COVERED_MARGIN &&
                       lv->size_bytes <= hi / COVERED_MARGIN;
        if (covered && !matched(lv, &rr->det)) {
            char sz[32];
            fmt_size(sz, sizeof(sz), lv->size_bytes);
            levels_note(&cr->det, "the step at %s is not in the %s curve: a TLB step", sz,
                        ref->label);
            remove_step(cr, i);
            continue;
        }
        i++;
    }
    /* Memory plus page walks (levels.c) that the larger pages do not pay is a TLB step too. */
    const struct detection *d = &cr->det;
    if (kisfinite(d->walk_ns) && !kisfinite(rr->det.walk_ns) && cr->ntlb < LEVELS_MAX &&
        d->walk_from_bytes >= lo * COVERED_MARGIN && d->walk_from_bytes <= hi / COVERED_MARGIN)
        cr->tlb[cr->ntlb++] = (struct tlb_step){d->walk_from_bytes, d->walk_ns};
}

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
size_t analysis_tlb_penalty_steps(const struct an_curve *c, const struct an_curve *ref,
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
size_t analysis_tlb_own_steps(const struct an_input *in, const struct an_result *r, int ref,
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

int analysis_tlb_reference(const struct an_input *in, const struct an_result *r, size_t *count)
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
    int ref = analysis_tlb_reference(in, r, &count);
    for (size_t i = 0; ref >= 0 && i < n && nsteps < cap; i++)
        if ((int)i != ref && r->cr[i].analysed && in->curve[i].role == AN_ROLE_TLB)
            nsteps += analysis_tlb_penalty_steps(&in->curve[i], &in->curve[ref], out + nsteps,
                                                 cap - nsteps);
    if (ref >= 0)
        nsteps += analysis_tlb_own_steps(in, r, ref, out + nsteps, cap - nsteps);
    return nsteps;
}
