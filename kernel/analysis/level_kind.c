// SPDX-License-Identifier: MIT
// What each level of the run's main curve is: a cache, or a step that may be a TLB reach.
//
// A random chase pays a page walk once its buffer outgrows a TLB's reach (entries x page
// size). Such a step looks like a cache level. A step is left a cache when it is too large
// for a page walk, or when the curve's page size cannot reach that far; otherwise, when it
// sits where a common TLB's reach would be, it is marked uncertain and its confidence halved.
// A run of chase has two more witnesses: its tlb experiment measures each page size's reaches,
// and CPUID lists the caches. A step at a measured reach that the curve's loads pay, with no
// cache CPUID reports near it, is the TLB's (kind tlb): under a hypervisor the host may back
// guest huge pages with 4K pages, so a curve on 2M guest pages can pay the 4K TLBs' reaches
// (the 64-entry L1 DTLB's 256K step of the Zen 3 guest in issue 15). Last, each level's
// confidence is calibrated on real curves (CALIBRATED_CONFIDENCE): the evidence its step gave
// becomes the share of the tune set's levels with such evidence that were real.
#include "analysis/level_kind.h"

#include "analysis/detect_params.h"
#include "analysis/tlb_steps.h"
#include "lib/fmt.h"
#include "lib/kmath.h"

/* What the levels of one curve are judged against: the run, the curve, the tlb experiment's
 * steps (taken once). */
struct kind_ctx {
    const struct an_input *in;
    const struct an_curve *c;
    double ns_offset; /* added to the curve's latencies for ratios (a relative curve's L1) */
    bool tlb_ran;     /* the run has the tlb experiment's curves: its steps witness TLB reaches */
    size_t nsteps;
    struct verdict_tlb_step step[LEVELS_MAX];
};

/* Confidence by band of evidence, calibrated on real curves. */
static const double calibrated[] = CALIBRATED_CONFIDENCE;

/* Level lv's confidence from the evidence its step gives: the share of real curves' levels with
 * evidence in the same band that were real. A TLB's step, and a last cache the curve never left,
 * keep theirs: the calibration counted neither. */
static void calibrate(struct level *lv)
{
    if (lv->kind == LEVEL_TLB || !lv->size_known || !kisfinite(lv->confidence))
        return;
    size_t nb = sizeof(calibrated) / sizeof(calibrated[0]);
    double band = lv->confidence * (double)nb;
    size_t b = band < 0 ? 0 : band >= (double)nb ? nb - 1 : (size_t)band;
    lv->evidence = lv->confidence;
    lv->confidence = calibrated[b];
}

/* Entry counts of common data TLB levels for one page size, in increasing order. */
static const double reach_entries_4k[] = COMMON_DTLB_ENTRIES_4K;
static const double reach_entries_2m[] = COMMON_DTLB_ENTRIES_2M;

void level_make_tlb(struct level *lv)
{
    lv->kind = LEVEL_TLB;
    lv->size_bytes = lv->effective_bytes;
    lv->size_lo_bytes = lv->effective_lo_bytes;
    lv->size_hi_bytes = lv->effective_hi_bytes;
}

const char *level_kind_name(enum level_kind k)
{
    return k == LEVEL_TLB ? "tlb" : k == LEVEL_UNCERTAIN ? "uncertain" : "cache";
}

void level_name_of(char *dst, size_t cap, const struct detection *d, size_t i)
{
    size_t n = 0;
    for (size_t k = 0; k <= i && k < d->nlevels; k++)
        n += d->level[k].kind != LEVEL_TLB;
    if (i < d->nlevels && d->level[i].kind == LEVEL_TLB)
        ksnprintf(dst, cap, "TLB");
    else
        ksnprintf(dst, cap, "L%zu", n);
}

/* Whether a step at size (where latency has made LEVELS_STEP_FRACTION of its rise) may be a
 * TLB's of this reach. Past the reach a random chase misses the TLB on 1 - reach/size of its
 * loads, so a step no larger than a page walk's makes that share of its rise at
 * reach / (1 - LEVELS_STEP_FRACTION) (1.43x) when the TLB is fully associative LRU, and at the
 * reach when it is sharper; REACH_FACTOR either way for where the grid places it. */
static bool at_reach(double size, double reach)
{
    return size >= reach / REACH_FACTOR &&
           size <= reach / (1 - LEVELS_STEP_FRACTION) * REACH_FACTOR;
}

/* The TLB reach (bytes) near size under page bytes per entry, or 0. */
static double near_reach(double size, double page, const double *entries, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double reach = entries[i] * page;
        if (at_reach(size, reach))
            return reach;
    }
    return 0;
}

double analysis_walk_bytes(const struct an_input *in, const struct an_curve *c)
{
    size_t n = sizeof(reach_entries_4k) / sizeof(reach_entries_4k[0]);
    bool small = c->page_bytes > 0 && c->page_bytes <= SMALL_PAGE_BYTES;
    return small || in->hypervisor ? reach_entries_4k[n - 1] * SMALL_PAGE_BYTES : 0;
}

/* Whether curve c's loads may pay 4K TLB entries' misses: its pages are 4K or unknown, or a
 * host may back huge guest pages with 4K pages. */
static bool pays_4k(const struct an_input *in, const struct an_curve *c)
{
    return c->page_bytes <= SMALL_PAGE_BYTES || in->hypervisor;
}

/* The reach of a common TLB that a step at size could be, given the curve's page size and
 * whether a host may split its pages; 0 when none could be there. */
static double candidate_reach(const struct an_input *in, const struct an_curve *c, double size)
{
    double r = 0, page = c->page_bytes;
    if (pays_4k(in, c))
        r = near_reach(size, SMALL_PAGE_BYTES, reach_entries_4k,
                       sizeof(reach_entries_4k) / sizeof(double));
    if (!r && page >= PAGE_2M_BYTES && page < PAGE_1G_BYTES)
        r = near_reach(size, PAGE_2M_BYTES, reach_entries_2m,
                       sizeof(reach_entries_2m) / sizeof(double));
    return r;
}

/* Mark lv uncertain (its confidence halved); sz and rs (32 bytes each) get its size and the
 * reach it is compared with, written for the note. */
static void make_uncertain(struct level *lv, double reach, char *sz, char *rs)
{
    lv->kind = LEVEL_UNCERTAIN;
    lv->confidence *= DOUBT_CONFIDENCE_FACTOR;
    fmt_size(sz, 32, lv->size_bytes);
    fmt_size(rs, 32, reach);
}

/* The last cache's step into memory lies beyond every common 4K TLB's reach and is no more
 * than a page walk adds: from there every load may pay a walk, so the step is memory plus walks
 * as much as a cache (a large LLC, an L4) before memory. Latency cannot tell them apart, a curve
 * with 2M pages can: uncertain, both readings noted. */
static void mark_walk_step(const struct an_input *in, const struct an_curve *c, struct detection *d,
                           struct level *lv, double ratio)
{
    double walk = analysis_walk_bytes(in, c);
    if (!(walk > 0) || lv->size_bytes < walk)
        return;
    char sz[32], rs[32];
    make_uncertain(lv, walk, sz, rs);
    levels_note(d,
                "the step at %s into memory (x%.2f) lies beyond the reach of 4K TLBs (%s)%s: "
                "memory plus page walks (DRAM %.1f ns) or a last cache, uncertain",
                sz, ratio, rs,
                c->page_bytes > SMALL_PAGE_BYTES
                    ? " under a hypervisor, which may back guest pages with 4K"
                    : "",
                lv->latency_ns);
}

/* Whether CPUID reports a cache within CACHE_NEAR_FACTOR of size. */
static bool cache_near(const struct an_input *in, double size)
{
    for (size_t i = 0; i < in->ncaches && i < AN_CACHES_MAX; i++) {
        double c = in->cache_bytes[i];
        if (c > 0 && size <= c * CACHE_NEAR_FACTOR && size >= c / CACHE_NEAR_FACTOR)
            return true;
    }
    return false;
}

/* The tlb experiment's step that a step at size is: a reach it is at (at_reach), for a page size
 * the curve's loads pay (its own, or 4K: pays_4k), with no CPUID cache near it. */
static bool measured_step(const struct kind_ctx *k, double size, struct verdict_tlb_step *st)
{
    if (!k->in->ncaches || !(size > 0) || cache_near(k->in, size))
        return false;
    for (size_t i = 0; i < k->nsteps; i++) {
        double reach = k->step[i].reach_bytes, page = k->step[i].page_bytes;
        bool paid = (k->c->page_bytes > 0 && page == k->c->page_bytes) ||
                    (page <= SMALL_PAGE_BYTES && pays_4k(k->in, k->c));
        if (reach > 0 && paid && at_reach(size, reach)) {
            *st = k->step[i];
            return true;
        }
    }
    return false;
}

/* A step at a TLB reach the run measured with no cache CPUID reports near it is the TLB's:
 * named so (kind tlb). Not the last level: that one may be a shared cache's effective share,
 * which CPUID cannot place. */
static bool mark_measured_tlb(const struct kind_ctx *k, struct detection *d, size_t i, double ratio)
{
    struct level *lv = &d->level[i];
    const struct an_curve *c = k->c;
    struct verdict_tlb_step st;
    if (i + 1 >= d->nlevels || !measured_step(k, lv->effective_bytes, &st))
        return false;
    char sz[32], rs[32], pg[32];
    level_make_tlb(lv);
    fmt_size(sz, sizeof(sz), lv->size_bytes);
    fmt_size(rs, sizeof(rs), st.reach_bytes);
    fmt_size(pg, sizeof(pg), st.page_bytes);
    levels_note(d,
                "the step at %s (x%.2f) is the %s TLB reach the tlb experiment measured (%s, "
                "+%.1f ns) and no CPUID cache is near it: a TLB step, not a cache%s",
                sz, ratio, pg, rs, st.penalty_ns,
                c->page_bytes > st.page_bytes ? " (the host splits the guest's pages)" : "");
    return true;
}

static void mark_level(const struct kind_ctx *k, struct detection *d, size_t i)
{
    const struct an_input *in = k->in;
    const struct an_curve *c = k->c;
    struct level *lv = &d->level[i];
    if (!lv->size_known)
        return;
    /* Ratios of whole latencies: a curve of time added over L1 gets its nominal L1 back. */
    double next = (i + 1 < d->nlevels ? d->level[i + 1].latency_ns : d->dram_ns) + k->ns_offset;
    double ratio = next / (lv->latency_ns + k->ns_offset);
    if (!(lv->latency_ns > 0) || !kisfinite(ratio) || ratio > kexp(CACHE_RISE_LN))
        return;
    if (mark_measured_tlb(k, d, i, ratio))
        return;
    double reach = candidate_reach(in, c, lv->effective_bytes);
    if (reach <= 0) {
        if (i + 1 == d->nlevels)
            mark_walk_step(in, c, d, lv, ratio);
        return;
    }
    char sz[32], rs[32];
    make_uncertain(lv, reach, sz, rs);
    if (!k->tlb_ran && i + 1 < d->nlevels && d->level[i + 1].kind == LEVEL_CACHE &&
        reach <= FIRST_LEVEL_DTLB_MAX_ENTRIES * SMALL_PAGE_BYTES) {
        level_make_tlb(lv);
        fmt_size(sz, sizeof(sz), lv->size_bytes);
        levels_note(d,
                    "the step at %s (x%.2f) rises as a page walk does, not as a cache (x2), at a "
                    "common TLB's reach (%s), below a cache: a TLB step by its size and rise (no "
                    "tlb experiment measured it)",
                    sz, ratio, rs);
        return;
    }
    levels_note(d,
                "the step at %s (x%.2f) sits where a TLB's reach would be (%s)%s: cache or "
                "TLB, uncertain",
                sz, ratio, rs,
                in->hypervisor && c->page_bytes > SMALL_PAGE_BYTES
                    ? " under a hypervisor, which may back huge guest pages with 4K pages"
                    : "");
}

/* Mark the primary curve's levels (kind, confidence) and note a shared last cache. */
void analysis_level_kinds(const struct an_input *in, struct an_result *r)
{
    if (r->primary < 0)
        return;
    struct kind_ctx k = {
        .in = in, .c = &in->curve[r->primary], .ns_offset = r->cr[r->primary].ns_offset};
    size_t count;
    k.tlb_ran = analysis_tlb_reference(in, r, &count) >= 0;
    k.nsteps = analysis_tlb_steps(in, r, k.step, LEVELS_MAX);
    struct detection *d = &r->cr[r->primary].det;
    for (size_t i = 0; i < d->nlevels; i++) {
        mark_level(&k, d, i);
        calibrate(&d->level[i]);
    }
    if (!d->nlevels || in->llc_bytes <= 0 || !kisfinite(d->dram_ns))
        return;
    /* The last level named a cache: an uncertain step after it (a TLB reach, page walks) is no
     * cache of its own to hold the share. */
    size_t i = d->nlevels;
    while (i > 1 && d->level[i - 1].kind != LEVEL_CACHE)
        i--;
    struct level *last = &d->level[i - 1];
    /* Not when a smaller cache CPUID lists is near it: then it is that cache, and the last one
     * left no plateau of its own (a guest whose host's other tenants fill the L3). */
    if (last->size_known && last->kind == LEVEL_CACHE &&
        last->size_bytes < SHARED_SHARE * in->llc_bytes && !cache_near(in, last->size_bytes)) {
        char sz[32], llc[32];
        last->shared = true;
        fmt_size(sz, sizeof(sz), last->size_bytes);
        fmt_size(llc, sizeof(llc), in->llc_bytes);
        levels_note(d,
                    "the last cache holds %s for this chase of the %s CPUID reports: it is "
                    "shared (other cores or guests use the rest)",
                    sz, llc);
    }
}
