// SPDX-License-Identifier: MIT
// chase-report's analysis driver: detection, TLB pairing, model fits, CPUID match, verdicts.
#include "analysis/analysis.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Latency assumed for an L1 hit when a curve gives only time above it and none is known:
 * it keeps the analysis in ratios sensible; reported latencies stay relative. */
#define NOMINAL_L1_NS 1.0
/* A detected level matches a CPUID cache within this factor of size. */
#define CPUID_MATCH_FACTOR 2.5

void verdict_line(struct verdict *v, const char *fmt, ...)
{
    if (v->nlines >= VERDICT_LINES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->line[v->nlines++], VERDICT_CHARS, fmt, ap);
    va_end(ap);
}

void verdict_item(struct verdict *v, const char *key, double value)
{
    if (v->nitems >= VERDICT_ITEMS)
        return;
    snprintf(v->item[v->nitems].key, sizeof(v->item[0].key), "%s", key);
    v->item[v->nitems++].value = value;
}

double interp_log2(const double *x, const double *y, size_t n, double x0)
{
    if (n == 0 || !(x0 >= x[0]) || !(x0 <= x[n - 1]) || !(x[0] > 0))
        return NAN;
    size_t lo = 0, hi = n - 1; /* x[lo] <= x0 <= x[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (x[mid] <= x0)
            lo = mid;
        else
            hi = mid;
    }
    double a = log2(x[lo]), b = log2(x[hi]);
    double t = b > a ? (log2(x0) - a) / (b - a) : 0;
    return y[lo] + t * (y[hi] - y[lo]);
}

const struct detection *primary_detection(const struct source_result *r)
{
    return r->primary >= 0 ? &r->cr[r->primary].det : NULL;
}

double llc_latency_ns(const struct source_result *r)
{
    const struct detection *d = primary_detection(r);
    return d && d->nlevels ? d->level[d->nlevels - 1].latency_ns : NAN;
}

double llc_size_bytes(const struct source_result *r)
{
    if (r->llc_bytes > 0)
        return r->llc_bytes;
    const struct detection *d = primary_detection(r);
    if (d && d->nlevels && d->level[d->nlevels - 1].size_known)
        return d->level[d->nlevels - 1].size_bytes;
    return 0;
}

static double cpuid_llc(const struct source *s)
{
    double best = 0;
    for (size_t i = 0; i < s->ncaches; i++)
        if (strcmp(s->cache[i].type, "instruction") != 0)
            best = fmax(best, s->cache[i].size_bytes);
    return best;
}

/* Turn tinymembench's time above L1 into latencies when the L1 latency was given. */
static void apply_l1(struct source *s, double l1_ns)
{
    for (size_t i = 0; i < s->ncurves; i++) {
        struct curve *c = &s->curve[i];
        if (!c->relative || !(l1_ns > 0))
            continue;
        for (size_t k = 0; k < c->n; k++)
            c->ns[k] += l1_ns;
        c->relative = false;
    }
}

static void detect_curves(struct source_result *r)
{
    const struct source *s = r->src;
    for (size_t i = 0; i < s->ncurves; i++) {
        const struct curve *c = &s->curve[i];
        struct curve_result *cr = &r->cr[i];
        cr->c = c;
        cr->reference = -1;
        if (c->role == ROLE_EXTRA)
            continue;
        cr->relative = c->relative;
        cr->ns_offset = c->relative ? NOMINAL_L1_NS : 0;
        /* The LLC bound is about bytes in cache: a TLB curve touches one line per page. */
        struct detect_opts o = {c->role == ROLE_TLB ? 0 : r->llc_bytes, cr->ns_offset};
        levels_detect(c->size, c->ns, c->cycles, c->n, &o, &cr->det);
        cr->analysed = true;
    }
}

/* Fit both forms of the model to an analysed curve; check the fit against the detection
 * (tries other level counts, so only for the curve the report is about). */
static void fit_curve(struct curve_result *cr, bool check)
{
    const struct curve *c = cr->c;
    if (cr->det.nlevels == 0)
        return;
    bool a = fit_model(c->size, c->ns, c->n, &cr->det, false, cr->ns_offset, &cr->fit[0]);
    bool b = fit_model(c->size, c->ns, c->n, &cr->det, true, cr->ns_offset, &cr->fit[1]);
    cr->fitted = a || b;
    cr->form = (!a || (b && cr->fit[1].rms < cr->fit[0].rms * 0.98)) ? 1 : 0;
    if (cr->fitted && check)
        fit_check(c->size, c->ns, c->n, &cr->det, &cr->fit[cr->form], cr->ns_offset, &cr->check);
}

/* The curve that speaks for the source: a random chase with the largest pages, else the
 * lat_mem_rd-like curve with the largest stride up to 512 bytes. */
static int choose_primary(const struct source_result *r)
{
    const struct source *s = r->src;
    int best = -1;
    for (size_t i = 0; i < s->ncurves; i++) {
        const struct curve *c = &s->curve[i];
        if (c->role == ROLE_LEVELS && c->n > 0 &&
            (best < 0 || c->page_bytes > s->curve[best].page_bytes))
            best = (int)i;
    }
    if (best >= 0)
        return best;
    for (size_t i = 0; i < s->ncurves; i++) {
        const struct curve *c = &s->curve[i];
        if (c->role != ROLE_RING || c->n == 0)
            continue;
        bool fits = c->stride_bytes <= 512;
        if (best < 0 || (fits && (s->curve[best].stride_bytes > 512 ||
                                  c->stride_bytes > s->curve[best].stride_bytes)))
            best = (int)i;
    }
    return best;
}

/* Match each detected level to the nearest CPUID data/unified cache, in order. */
static void match_cpuid(struct source_result *r)
{
    const struct detection *d = primary_detection(r);
    const struct source *s = r->src;
    size_t next = 0;
    for (size_t i = 0; i < LEVELS_MAX; i++)
        r->cache_match[i] = -1;
    for (size_t i = 0; d && i < d->nlevels; i++) {
        const struct level *lv = &d->level[i];
        double want = lv->size_known ? lv->size_bytes : lv->to_bytes;
        double best = INFINITY;
        for (size_t k = next; k < s->ncaches; k++) {
            if (strcmp(s->cache[k].type, "instruction") == 0)
                continue;
            double dist = fabs(log(s->cache[k].size_bytes / want));
            /* An open last level is at least as big as the largest size it was seen at, and
             * may be much bigger; a sized level must be near the CPUID size. */
            bool fits = lv->size_known ? dist < log(CPUID_MATCH_FACTOR)
                                       : s->cache[k].size_bytes >= want;
            if (fits && dist < best) {
                best = dist;
                r->cache_match[i] = (int)k;
            }
        }
        if (r->cache_match[i] >= 0)
            next = (size_t)r->cache_match[i] + 1;
    }
}

void analyse_all(struct source_result *r, struct source *src, size_t n,
                 const struct analysis_opts *o)
{
    for (size_t i = 0; i < n; i++) {
        memset(&r[i], 0, sizeof(r[i]));
        r[i].src = &src[i];
        apply_l1(&src[i], o->l1_ns);
        r[i].llc_bytes = cpuid_llc(&src[i]);
        detect_curves(&r[i]);
    }
    tlb_pair_curves(r, n);
    for (size_t i = 0; i < n; i++) {
        r[i].primary = choose_primary(&r[i]);
        for (size_t k = 0; k < src[i].ncurves; k++)
            if (r[i].cr[k].analysed && r[i].cr[k].c->role != ROLE_TLB)
                fit_curve(&r[i].cr[k], (int)k == r[i].primary);
        match_cpuid(&r[i]);
        verdict_linear(&r[i]);
        verdict_fused(&r[i]);
        verdict_dual(&r[i]);
        verdict_scan(&r[i]);
        verdict_ring(&r[i]);
        verdict_offset(&r[i]);
        verdict_parallel(&r[i]);
        verdict_tlb(&r[i]);
    }
}
