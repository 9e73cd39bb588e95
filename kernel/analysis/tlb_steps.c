// SPDX-License-Identifier: MIT
// TLB steps: steps of a small-page curve that a larger-page curve of the same machine lacks.
#include "analysis/interpret.h"
#include "analysis/levels_params.h"
#include "lib/fmt.h"
#include "lib/kmath.h"

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
