// SPDX-License-Identifier: MIT
// chase-report's analysis driver: kernel/analysis's interpretation, then model fits and CPUID.
#include "fit/analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A detected level matches a CPUID cache within this factor of size. */
#define CPUID_MATCH_FACTOR 2.5

const struct detection *primary_detection(const struct source_result *r)
{
    return r->an.primary >= 0 ? &r->an.cr[r->an.primary].det : NULL;
}

double llc_latency_ns(const struct source_result *r)
{
    const struct detection *d = primary_detection(r);
    return d && d->nlevels ? d->level[d->nlevels - 1].latency_ns : NAN;
}

/* The index of CPUID's largest data or unified cache, -1 when it lists none. */
static int cpuid_llc_index(const struct source *s)
{
    int best = -1;
    for (size_t i = 0; i < s->ncaches; i++)
        if (strcmp(s->cache[i].type, "instruction") != 0 &&
            (best < 0 || s->cache[i].size_bytes > s->cache[best].size_bytes))
            best = (int)i;
    return best;
}

static double cpuid_llc(const struct source *s)
{
    int k = cpuid_llc_index(s);
    return k >= 0 ? s->cache[k].size_bytes : 0;
}

/* Turn tinymembench's time above L1 into latencies when the L1 latency was given. */
static void apply_l1(struct source *s, double l1_ns)
{
    for (size_t i = 0; i < s->ncurves; i++) {
        struct an_curve *c = &s->curve[i];
        if (!c->relative || !(l1_ns > 0))
            continue;
        for (size_t k = 0; k < c->n; k++)
            s->points[i].ns[k] += l1_ns;
        c->relative = false;
    }
}

static bool same_machine(const struct source *a, const struct source *b)
{
    return a == b ||
           (strncmp(a->machine, "unknown", 7) != 0 && strcmp(a->machine, b->machine) == 0);
}

/* The first level-1 cache's line, 64 when unknown (the console's summary reads it alike). */
static double line_bytes(const struct source *s)
{
    for (size_t i = 0; i < s->ncaches; i++)
        if (s->cache[i].level == 1 && s->cache[i].line_bytes >= 8 && s->cache[i].line_bytes <= 4096)
            return s->cache[i].line_bytes;
    return 64;
}

/* The source's tables and curves through kernel/analysis: the interpretation the console
 * summary of a chase run gives too. */
static void interpret(struct source_result *r)
{
    const struct source *s = r->src;
    struct an_input in = {.ncurves = s->ncurves,
                          .curve = s->curve,
                          .llc_bytes = r->llc_bytes,
                          .line_bytes = line_bytes(s),
                          .hypervisor = s->hypervisor};
    for (size_t i = 0; i < s->ncaches && in.ncaches < AN_CACHES_MAX; i++)
        if (strcmp(s->cache[i].type, "instruction") != 0 && s->cache[i].size_bytes > 0)
            in.cache_bytes[in.ncaches++] = s->cache[i].size_bytes;
    for (size_t e = 0; e < EXP_COUNT; e++) {
        in.table[e] = s->table[e];
        in.side_table[e] = s->side[e][SIDE_TABLE];
    }
    analysis_run(&in, &r->an);
    for (size_t i = 0; i < s->ncurves; i++) {
        r->cr[i].c = &s->curve[i];
        r->cr[i].an = &r->an.cr[i];
    }
    struct strbuf sb = {0};
    analysis_summary(&sb, &in, &r->an);
    r->summary = strdup(strbuf_str(&sb));
    strbuf_release(&sb);
}

/* Fit both forms of the model to an analysed curve; check the fit against the detection
 * (tries other level counts, so only for the curve the report is about). */
static void fit_curve(struct curve_result *cr, bool check)
{
    const struct an_curve *c = cr->c;
    const struct detection *d = &cr->an->det;
    double offset = cr->an->ns_offset;
    if (d->nlevels == 0)
        return;
    bool a = fit_model(c->size, c->ns, c->n, d, false, offset, &cr->fit[0]);
    bool b = fit_model(c->size, c->ns, c->n, d, true, offset, &cr->fit[1]);
    cr->fitted = a || b;
    cr->form = (!a || (b && cr->fit[1].rms < cr->fit[0].rms * 0.98)) ? 1 : 0;
    if (cr->fitted && check)
        fit_check(c->size, c->ns, c->n, d, &cr->fit[cr->form], offset, &cr->check);
}

/* Match each detected cache level to the nearest CPUID data/unified cache, in order; a TLB step
 * is no cache's. A shared last cache (the analysis found it well below CPUID's largest cache)
 * is that cache's share. */
static void match_cpuid(struct source_result *r)
{
    const struct detection *d = primary_detection(r);
    const struct source *s = r->src;
    const int llc = cpuid_llc_index(s);
    size_t next = 0;
    for (size_t i = 0; i < LEVELS_MAX; i++)
        r->cache_match[i] = -1;
    for (size_t i = 0; d && i < d->nlevels; i++) {
        const struct level *lv = &d->level[i];
        if (lv->kind == LEVEL_TLB)
            continue;
        double want = lv->size_known ? lv->size_bytes : lv->to_bytes;
        double best = INFINITY;
        for (size_t k = next; k < s->ncaches; k++) {
            if (strcmp(s->cache[k].type, "instruction") == 0)
                continue;
            double dist = fabs(log(s->cache[k].size_bytes / want));
            /* An open last level is at least as big as the largest size it was seen at, and
             * may be much bigger; a sized level must be near the CPUID size. */
            bool fits =
                lv->size_known ? dist < log(CPUID_MATCH_FACTOR) : s->cache[k].size_bytes >= want;
            if (fits && dist < best) {
                best = dist;
                r->cache_match[i] = (int)k;
            }
        }
        if (r->cache_match[i] < 0 && lv->shared && llc >= (int)next)
            r->cache_match[i] = llc;
        if (r->cache_match[i] >= 0)
            next = (size_t)r->cache_match[i] + 1;
    }
}

/* A report-only extra: a random curve without a larger-page curve in its own source is
 * compared with the largest-page random curve of another source of the same machine (two
 * runs, one with small and one with huge pages). The source's summary and verdicts stay as
 * the run alone gives them, as its console printed them. */
static void pair_across_sources(struct source_result *r, size_t n)
{
    for (size_t j = 0; j < n; j++)
        for (size_t k = 0; k < r[j].src->ncurves; k++) {
            struct curve_result *cr = &r[j].cr[k];
            struct an_curve_result *an = &r[j].an.cr[k];
            const struct curve_result *best = NULL;
            if (!an->analysed || an->reference >= 0 || cr->c->role != AN_ROLE_LEVELS ||
                cr->c->page_bytes == 0)
                continue;
            for (size_t i = 0; i < n; i++)
                for (size_t q = 0;
                     i != j && same_machine(r[i].src, r[j].src) && q < r[i].src->ncurves; q++) {
                    const struct curve_result *o = &r[i].cr[q];
                    if (o->an->analysed && o->c->role == AN_ROLE_LEVELS && o->c->n >= 2 &&
                        o->c->page_bytes > cr->c->page_bytes &&
                        (!best || o->c->page_bytes > best->c->page_bytes))
                        best = o;
                }
            if (!best)
                continue;
            analysis_tlb_classify(cr->c, an, best->c, best->an);
            cr->reference_src = best;
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
        interpret(&r[i]);
    }
    pair_across_sources(r, n);
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < src[i].ncurves; k++)
            if (r[i].cr[k].an->analysed && r[i].cr[k].c->role != AN_ROLE_TLB)
                fit_curve(&r[i].cr[k], (int)k == r[i].an.primary);
        match_cpuid(&r[i]);
    }
}

void analyse_free(struct source_result *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(r[i].summary);
        r[i].summary = NULL;
    }
}
