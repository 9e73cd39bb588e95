// SPDX-License-Identifier: MIT
// The analysis driver: detection on every curve, TLB pairing, the primary curve, verdicts.
#include "analysis/interpret.h"

#include "analysis/detect_params.h"
#include "lib/kstring.h"

/* Detect curve c's levels into cr. The LLC bound is about bytes in cache: a TLB curve touches
 * one line per page, so it gets none. Under a hypervisor other guests share the last cache:
 * CPUID's size bounds only a curve that ended inside it short of CPUID's caches (levels.h). */
static void detect_curve(const struct an_input *in, const struct an_curve *c,
                         struct an_curve_result *cr)
{
    bool tlb = c->role == AN_ROLE_TLB;
    cr->ns_offset = c->relative ? NOMINAL_L1_NS : 0;
    struct detect_opts o = {.llc_bytes =
                                tlb || (in->hypervisor && !in->ncaches) ? 0 : in->llc_bytes,
                            .llc_bound_caches = in->hypervisor ? in->ncaches : 0,
                            .ns_offset = cr->ns_offset,
                            .walk_bytes = tlb ? 0 : analysis_walk_bytes(in, c)};
    levels_detect(c->size, c->ns, c->cycles, c->n, &o, &cr->det);
    cr->analysed = true;
}

static void detect_curves(const struct an_input *in, struct an_result *r)
{
    for (size_t i = 0; i < in->ncurves && i < AN_MAX_CURVES; i++) {
        const struct an_curve *c = &in->curve[i];
        r->cr[i].reference = -1;
        if (c->role != AN_ROLE_EXTRA && c->role != AN_ROLE_NONE)
            detect_curve(in, c, &r->cr[i]);
    }
}

/* Each random curve against the random curve of its group (the same processor) with the largest
 * page size above its own: another core's curve differs by its caches, not its pages. */
static void pair_curves(const struct an_input *in, struct an_result *r)
{
    size_t n = in->ncurves < AN_MAX_CURVES ? in->ncurves : AN_MAX_CURVES;
    for (size_t i = 0; i < n; i++) {
        const struct an_curve *c = &in->curve[i];
        if (!r->cr[i].analysed || c->role != AN_ROLE_LEVELS || c->page_bytes <= 0)
            continue;
        int best = -1;
        for (size_t k = 0; k < n; k++) {
            const struct an_curve *q = &in->curve[k];
            if (!r->cr[k].analysed || q->role != AN_ROLE_LEVELS || q->n < 2 ||
                q->page_bytes <= c->page_bytes || q->group != c->group)
                continue;
            if (best < 0 || q->page_bytes > in->curve[best].page_bytes)
                best = (int)k;
        }
        if (best < 0)
            continue;
        r->cr[i].reference = best;
        analysis_tlb_classify(c, &r->cr[i], &in->curve[best], &r->cr[best]);
    }
}

/* The curve that speaks for the run: a random chase with the largest pages, else the
 * lat_mem_rd-like curve with the largest stride up to RING_PRIMARY_STRIDE bytes. */
static int choose_primary(const struct an_input *in)
{
    size_t n = in->ncurves < AN_MAX_CURVES ? in->ncurves : AN_MAX_CURVES;
    int best = -1;
    for (size_t i = 0; i < n; i++) {
        const struct an_curve *c = &in->curve[i];
        if (c->role == AN_ROLE_LEVELS && c->n > 0 &&
            (best < 0 || c->page_bytes > in->curve[best].page_bytes))
            best = (int)i;
    }
    if (best >= 0)
        return best;
    for (size_t i = 0; i < n; i++) {
        const struct an_curve *c = &in->curve[i];
        if (c->role != AN_ROLE_RING || c->n == 0)
            continue;
        bool fits = c->stride_bytes <= RING_PRIMARY_STRIDE;
        const struct an_curve *b = best >= 0 ? &in->curve[best] : NULL;
        if (!b ||
            (fits && (b->stride_bytes > RING_PRIMARY_STRIDE || c->stride_bytes > b->stride_bytes)))
            best = (int)i;
    }
    return best;
}

void analysis_run(const struct an_input *in, struct an_result *r)
{
    kmemset(r, 0, sizeof(*r));
    detect_curves(in, r);
    pair_curves(in, r);
    r->primary = choose_primary(in);
    analysis_level_kinds(in, r);
    for (size_t e = 0; e < analysis_experiment_count() && e < AN_EXP_MAX; e++) {
        const struct an_experiment *x = analysis_experiment(e);
        struct an_judge j = {in, r, in->table[e], x->name, in->side_table[e]};
        if (x->judge)
            x->judge(&j, &r->verdict[e]);
    }
}
