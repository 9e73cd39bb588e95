// SPDX-License-Identifier: MIT
// TLB effects: steps of small-page curves missing in larger-page ones, and the tlb experiment.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "inputs/rtext.h"

/* A level of a small-page curve matches one of the larger-page curve within this many octaves. */
#define MATCH_OCTAVES 0.75
/* In the tlb experiment, a page size pays a TLB penalty where it is slower than the largest
 * page size by more than this fraction and this many ns. */
#define PENALTY_FRACTION 0.04
#define PENALTY_MIN_NS 0.3

static bool same_machine(const struct source *a, const struct source *b)
{
    return a == b || (strncmp(a->machine, "unknown", 7) != 0 && strcmp(a->machine, b->machine) == 0);
}

/* The levels curve with the largest page size above cr's, among the results of sources of the
 * same machine as home; *from is set to its source. */
static const struct curve_result *find_reference(const struct source_result *r, size_t n,
                                                 const struct curve_result *cr,
                                                 const struct source *home,
                                                 const struct source **from)
{
    const struct curve_result *best = NULL;
    for (size_t j = 0; j < n; j++) {
        if (!same_machine(r[j].src, home))
            continue;
        for (size_t k = 0; k < r[j].src->ncurves; k++) {
            const struct curve_result *q = &r[j].cr[k];
            if (!q->analysed || q->c->role != ROLE_LEVELS || q->c->n < 2 ||
                q->c->page_bytes <= cr->c->page_bytes)
                continue;
            if (!best || q->c->page_bytes > best->c->page_bytes) {
                best = q;
                *from = r[j].src;
            }
        }
    }
    return best;
}

static bool matched(const struct level *lv, const struct detection *ref)
{
    for (size_t i = 0; i < ref->nlevels; i++) {
        const struct level *q = &ref->level[i];
        double s = q->size_known ? q->size_bytes : q->to_bytes;
        if (fabs(log2(lv->size_bytes / s)) <= MATCH_OCTAVES ||
            (!q->size_known && lv->size_bytes >= q->from_bytes))
            return true;
    }
    return false;
}

/* Remove level i (a TLB step): the next level or DRAM keeps its size and this latency. */
static void remove_step(struct curve_result *cr, size_t i)
{
    struct detection *d = &cr->det;
    struct level *lv = &d->level[i];
    double next = i + 1 < d->nlevels ? d->level[i + 1].latency_ns : d->dram_ns;
    if (cr->ntlb < LEVELS_MAX)
        cr->tlb[cr->ntlb++] = (struct tlb_step){lv->size_bytes, next - lv->latency_ns};
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
    memmove(lv, lv + 1, (d->nlevels - i - 1) * sizeof(*lv));
    d->nlevels--;
}

static void classify(struct curve_result *cr, const struct curve_result *ref)
{
    const struct curve *rc = ref->c;
    double lo = rc->size[0], hi = rc->size[rc->n - 1];
    size_t i = 0;
    while (i < cr->det.nlevels) {
        const struct level *lv = &cr->det.level[i];
        bool covered = lv->size_known && lv->size_bytes >= lo * 1.4 && lv->size_bytes <= hi / 1.4;
        if (covered && !matched(lv, &ref->det)) {
            char sz[32];
            rtext_size(sz, sizeof(sz), lv->size_bytes);
            levels_note(&cr->det, "the step at %s is not in the %s curve: a TLB step", sz,
                        rc->label);
            remove_step(cr, i);
            continue;
        }
        i++;
    }
}

void tlb_pair_curves(struct source_result *r, size_t n)
{
    for (size_t j = 0; j < n; j++)
        for (size_t k = 0; k < r[j].src->ncurves; k++) {
            struct curve_result *cr = &r[j].cr[k];
            if (!cr->analysed || cr->c->role != ROLE_LEVELS || cr->c->page_bytes == 0)
                continue;
            const struct source *from = NULL;
            const struct curve_result *ref = find_reference(r, n, cr, r[j].src, &from);
            if (!ref)
                continue;
            cr->reference_src = from;
            for (size_t q = 0; q < from->ncurves; q++)
                if (ref->c == &from->curve[q])
                    cr->reference = (int)q;
            classify(cr, ref);
        }
}

/* Where curve c pays more than the reference: the start of the run of slower points that
 * lasts to the end (one point inside it may miss), and the extra ns at the largest size.
 * False when there is no such run of at least two points. */
static bool penalty_run(const struct curve *c, const struct curve *ref, double *reach,
                        double *penalty)
{
    size_t first = SIZE_MAX, count = 0, misses = 0;
    for (size_t i = c->n; i-- > 0;) {
        double base = interp_log2(ref->size, ref->ns, ref->n, c->size[i]);
        if (!isfinite(base))
            continue;
        double extra = c->ns[i] - base;
        if (!(extra > fmax(PENALTY_MIN_NS, PENALTY_FRACTION * base))) {
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
    size_t o = 0;
    buf[0] = 0;
    for (size_t i = 0; i < d->nlevels && o + 1 < cap; i++) {
        char sz[32];
        rtext_size(sz, sizeof(sz), d->level[i].size_bytes);
        int k = snprintf(buf + o, cap - o, "%s%s", i ? ", " : "",
                         d->level[i].size_known ? sz : "(open)");
        o += k > 0 ? (size_t)k : 0;
    }
    if (!buf[0])
        snprintf(buf, cap, "none");
}

/* One table row per page size; the first penalised page size makes the headline. */
static void tlb_row(struct verdict *v, const struct curve_result *cr,
                    const struct curve_result *ref, const char *rp, char *head, size_t cap)
{
    char pg[32], steps[160], reach_s[32] = "-", pen_s[32] = "-", key[48];
    double reach = 0, penalty = 0;
    rtext_size(pg, sizeof(pg), (double)cr->c->page_bytes);
    steps_text(&cr->det, steps, sizeof(steps));
    if (cr != ref && penalty_run(cr->c, ref->c, &reach, &penalty)) {
        rtext_size(reach_s, sizeof(reach_s), reach);
        snprintf(pen_s, sizeof(pen_s), "%.1f ns", penalty);
        snprintf(key, sizeof(key), "penalty_ns_%s", pg);
        verdict_item(v, key, penalty);
        snprintf(key, sizeof(key), "reach_bytes_%s", pg);
        verdict_item(v, key, reach);
        if (!head[0])
            snprintf(head, cap, "%s pages: TLB misses from %s on, adding %.1f ns per load at "
                     "the largest size compared with %s pages", pg, reach_s, penalty, rp);
    } else if (cr != ref && !head[0]) {
        snprintf(head, cap, "%s pages cost no more than %s pages over the sizes tried", pg, rp);
    }
    verdict_line(v, "| %s | %s | %s | %s |", pg, steps, cr == ref ? "(reference)" : pen_s,
                 reach_s);
}

void verdict_tlb(struct source_result *r)
{
    struct verdict *v = &r->verdict[EXP_TLB];
    const struct source *s = r->src;
    const struct curve_result *ref = NULL;
    size_t count = 0;
    for (size_t i = 0; i < s->ncurves; i++)
        if (r->cr[i].analysed && s->curve[i].role == ROLE_TLB) {
            count++;
            if (!ref || s->curve[i].page_bytes > ref->c->page_bytes)
                ref = &r->cr[i];
        }
    if (!ref)
        return;
    v->present = true;
    char rp[32], head[VERDICT_CHARS] = "";
    rtext_size(rp, sizeof(rp), (double)ref->c->page_bytes);
    verdict_line(v, "| page size | steps in the curve | TLB penalty vs %s pages | from size |", rp);
    verdict_line(v, "|---|---|---|---|");
    for (size_t i = 0; i < s->ncurves; i++)
        if (r->cr[i].analysed && s->curve[i].role == ROLE_TLB)
            tlb_row(v, &r->cr[i], ref, rp, head, sizeof(head));
    if (count == 1) {
        char steps[160];
        steps_text(&ref->det, steps, sizeof(steps));
        snprintf(head, sizeof(head), "only %s pages were measured: its steps (%.100s) mix cache "
                 "and TLB effects; a larger page size would separate them", rp, steps);
    }
    snprintf(v->headline, sizeof(v->headline), "%s", head);
}
