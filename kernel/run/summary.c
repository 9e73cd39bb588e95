// SPDX-License-Identifier: MIT
// The end-of-run summary: levels, DRAM, TLB penalty, verdicts, and where the files are.
#include "run/summary.h"

#include "config/config.h"
#include "lib/console.h"
#include "experiments/common.h"
#include "lib/stats.h"

#define RISE 1.25
#define LEVEL_MIN_POINTS 3        /* a plateau of fewer points is a transition */
#define LEVEL_MERGE_RATIO 1.4     /* neighbouring plateaus closer than this are one level */
#define TLB_TOP_POINTS 3          /* the TLB penalty: median over this many largest sizes */
#define DRAM_BEYOND_LLC 2         /* sizes this many times the LLC measure memory */
#define SAME_SIZE_TOLERANCE 0.02  /* dual and random sizes this close are compared */
#define DUAL_HIT_RATIO 0.8        /* below: the second touch hits the LLC */
#define SCAN_LOSS_RISE 1.5        /* the small region is lost once latency is this much higher */
#define SCAN_RESISTANT_SHARE 0.75 /* lost beyond this share of the LLC: scan-resistant */

static void close_plateau(struct plateau *p, const double *ns, const double *cycles, unsigned from,
                          unsigned to)
{
    double a[256], b[256];
    unsigned n = 0;
    for (unsigned i = from; i < to && n < 256; i++, n++) {
        a[n] = ns[i];
        b[n] = cycles[i];
    }
    stats_sort(a, n);
    stats_sort(b, n);
    p->ns = stats_quantile_sorted(a, n, 0.5);
    p->cycles = stats_quantile_sorted(b, n, 0.5);
}

unsigned summary_plateaus(const uint64_t *size, const double *ns, const double *cycles, unsigned n,
                          struct plateau *out, unsigned cap)
{
    unsigned count = 0, start = 0;
    if (!n || !cap)
        return 0;
    for (unsigned i = 1; i <= n; i++) {
        bool end = i == n;
        if (!end) {
            double base = ns[start];
            for (unsigned k = start; k < i; k++)
                base = ns[k] < base ? ns[k] : base;
            bool rise = ns[i] > base * RISE && (i + 1 >= n || ns[i + 1] > base * RISE);
            end = rise;
        }
        if (!end)
            continue;
        if (count < cap) {
            out[count].first_size = size[start];
            out[count].last_size = size[i - 1];
            close_plateau(&out[count], ns, cycles, start, i);
            count++;
        }
        start = i;
    }
    return count;
}

/* Points of the curve inside [first, last]. */
static unsigned points_within(const uint64_t *size, unsigned n, uint64_t first, uint64_t last)
{
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        k += size[i] >= first && size[i] <= last;
    return k;
}

/* Widen level m to end at last_size, its latency the median of all points it now holds. */
static void widen_level(struct plateau *m, uint64_t last_size, const uint64_t *size,
                        const double *ns, const double *cycles, unsigned n)
{
    unsigned from = 0, to = 0;
    m->last_size = last_size;
    for (unsigned k = 0; k < n; k++) {
        if (size[k] < m->first_size)
            from = k + 1;
        if (size[k] <= m->last_size)
            to = k + 1;
    }
    close_plateau(m, ns, cycles, from, to);
}

unsigned summary_levels(const uint64_t *size, const double *ns, const double *cycles, unsigned n,
                        uint64_t llc_bytes, struct plateau *out, unsigned cap)
{
    struct plateau p[SUMMARY_MAX_LEVELS * 4];
    unsigned np = summary_plateaus(size, ns, cycles, n, p, SUMMARY_MAX_LEVELS * 4);
    unsigned count = 0;
    for (unsigned i = 0; i < np; i++) {
        bool memory = i + 1 == np && i > 0 && p[i].first_size > llc_bytes;
        /* A gentle rise split off by the 25% rule is still the level before it. */
        if (count && !memory && p[i].ns < LEVEL_MERGE_RATIO * out[count - 1].ns) {
            widen_level(&out[count - 1], p[i].last_size, size, ns, cycles, n);
            continue;
        }
        /* Short plateaus are transitions (or noise), not levels; the last one is memory. */
        if (memory ||
            (i && points_within(size, n, p[i].first_size, p[i].last_size) < LEVEL_MIN_POINTS))
            continue;
        if (count < cap)
            out[count++] = p[i];
    }
    return count;
}

/* The random curve's ns at size, when a point lies within SAME_SIZE_TOLERANCE of it. */
static bool curve_ns_at(const uint64_t *size, const double *ns, unsigned n, uint64_t at,
                        double *out)
{
    for (unsigned i = 0; i < n; i++) {
        double d = (double)size[i] - (double)at;
        if ((d < 0 ? -d : d) <= SAME_SIZE_TOLERANCE * (double)at) {
            *out = ns[i];
            return true;
        }
    }
    return false;
}

unsigned summary_dual_ratio(const struct curve *dual, const uint64_t *size, const double *ns,
                            unsigned n, uint64_t llc_bytes, double *ratio)
{
    double r[FINDINGS_CURVE_MAX];
    unsigned k = 0;
    for (unsigned i = 0; i < dual->n; i++) {
        double rnd;
        if (dual->x[i] > llc_bytes && curve_ns_at(size, ns, n, dual->x[i], &rnd) && rnd > 0)
            r[k++] = dual->ns[i] / rnd;
    }
    stats_sort(r, k);
    *ratio = stats_quantile_sorted(r, k, 0.5);
    return k;
}

uint64_t summary_scan_loss(const struct curve *scan)
{
    for (unsigned i = 1; i < scan->n; i++) {
        if (scan->ns[i] > SCAN_LOSS_RISE * scan->ns[0])
            return scan->x[i];
    }
    return 0;
}

static void print_levels(const struct run_ctx *ctx, uint64_t llc)
{
    struct plateau p[SUMMARY_MAX_LEVELS];
    unsigned n = summary_levels(ctx->curve_size, ctx->curve_ns, ctx->curve_cycles, ctx->curve_n,
                                llc, p, SUMMARY_MAX_LEVELS);
    if (!n) {
        con_printf("levels: the random experiment did not run\n");
        return;
    }
    con_printf("levels seen by the random chase (a level ends where latency rises by 25%%):\n");
    con_printf("%8s %12s %12s %10s %10s\n", "level", "from", "up to", "ns", "cycles");
    for (unsigned i = 0; i < n; i++) {
        char a[24], b[24], name[8];
        ksnprintf(name, sizeof(name), "L%u", i + 1);
        con_printf("%8s %12s %12s %10.2f %10.2f\n", name, exp_size(a, sizeof(a), p[i].first_size),
                   exp_size(b, sizeof(b), p[i].last_size), p[i].ns, p[i].cycles);
    }
}

static void print_dram(const struct run_ctx *ctx, uint64_t llc)
{
    char a[24], b[24];
    unsigned last = ctx->curve_n - 1;
    if (!ctx->curve_n)
        return;
    if (ctx->curve_size[last] < DRAM_BEYOND_LLC * llc) {
        con_printf("DRAM latency: not reached (the random sweep ends at %s, below %dx the %s "
                   "LLC)\n",
                   exp_size(a, sizeof(a), ctx->curve_size[last]), DRAM_BEYOND_LLC,
                   exp_size(b, sizeof(b), llc));
        return;
    }
    con_printf("DRAM latency: %.1f ns, %.0f cycles (random chase at %s)\n", ctx->curve_ns[last],
               ctx->curve_cycles[last], exp_size(a, sizeof(a), ctx->curve_size[last]));
}

/* Median over the largest sizes both curves have of (a - b), in ns and in cycles. */
static void top_difference(const struct curve *a, const struct curve *b, double *ns, double *cyc)
{
    double dn[TLB_TOP_POINTS], dc[TLB_TOP_POINTS];
    unsigned n = a->n < b->n ? a->n : b->n, k = 0;
    for (unsigned i = n > TLB_TOP_POINTS ? n - TLB_TOP_POINTS : 0; i < n; i++, k++) {
        dn[k] = a->ns[i] - b->ns[i];
        dc[k] = a->cycles[i] - b->cycles[i];
    }
    stats_sort(dn, k);
    stats_sort(dc, k);
    *ns = stats_quantile_sorted(dn, k, 0.5);
    *cyc = stats_quantile_sorted(dc, k, 0.5);
}

static void print_tlb(const struct findings *f)
{
    const struct tlb_finding *ref = NULL;
    char a[24], b[24], c[24];
    for (unsigned i = 0; i < f->ntlb; i++) {
        const struct tlb_finding *t = &f->tlb[i];
        if (t->measured && t->curve.n && (!ref || t->page_bytes > ref->page_bytes))
            ref = t;
    }
    for (unsigned i = 0; i < f->ntlb; i++) {
        const struct tlb_finding *t = &f->tlb[i];
        const struct curve *cv = &t->curve;
        exp_size(a, sizeof(a), t->page_bytes);
        if (!t->measured || !cv->n) {
            con_printf("TLB penalty, %s pages: skipped (%s)\n", a, t->note);
        } else if (t == ref) {
            con_printf("TLB penalty, %s pages: the reference, %.1f ns at %s\n", a,
                       cv->ns[cv->n - 1], exp_size(b, sizeof(b), cv->x[cv->n - 1]));
        } else {
            double dns, dcyc;
            unsigned k = cv->n < ref->curve.n ? cv->n : ref->curve.n;
            top_difference(cv, &ref->curve, &dns, &dcyc);
            con_printf("TLB penalty, %s pages: %+.1f ns, %+.0f cycles per access over %s pages "
                       "(median of the largest sizes, up to %s)\n",
                       a, dns, dcyc, exp_size(c, sizeof(c), ref->page_bytes),
                       exp_size(b, sizeof(b), cv->x[k - 1]));
        }
    }
}

static void print_dual(const struct run_ctx *ctx, uint64_t llc)
{
    double ratio;
    char a[24];
    unsigned k = summary_dual_ratio(&ctx->found.dual, ctx->curve_size, ctx->curve_ns, ctx->curve_n,
                                    llc, &ratio);
    if (!k)
        con_printf("dual vs random: no verdict (no size beyond the %s LLC in both)\n",
                   exp_size(a, sizeof(a), llc));
    else
        con_printf("dual vs random: %.2f of random's latency beyond the LLC (%u sizes): %s\n",
                   ratio, k,
                   ratio < DUAL_HIT_RATIO
                       ? "the second touch hits, lines stay until reused (LRU-like)"
                       : "the second touch misses too (insertion near eviction, BIP-like)");
}

static void print_scan(const struct run_ctx *ctx, uint64_t llc)
{
    const struct curve *c = &ctx->found.scan;
    char a[24];
    uint64_t lost = summary_scan_loss(c);
    if (c->n < 2) {
        con_printf("scan: no verdict (fewer than two small sizes)\n");
        return;
    }
    if (!lost) {
        con_printf("scan: the small region stays cached up to %s (%.2f of the LLC): "
                   "scan-resistant as far as measured\n",
                   exp_size(a, sizeof(a), c->x[c->n - 1]), (double)c->x[c->n - 1] / (double)llc);
        return;
    }
    double share = (double)lost / (double)llc;
    con_printf("scan: the small region is lost at %s (%.2f of the LLC): %s\n",
               exp_size(a, sizeof(a), lost), share,
               share >= SCAN_RESISTANT_SHARE ? "scan-resistant (RRIP-like)"
                                             : "not scan-resistant (LRU-like)");
}

void summary_print(const struct run_ctx *ctx, const struct summary_input *in)
{
    uint64_t llc = exp_llc_bytes(ctx->m);
    con_printf("\n== summary\n");
    print_levels(ctx, llc);
    print_dram(ctx, llc);
    print_tlb(&ctx->found);
    if (ctx->found.dual_ran)
        print_dual(ctx, llc);
    if (ctx->found.scan_ran)
        print_scan(ctx, llc);
    if (ctx->found.parallel_ran)
        con_printf("memory-level parallelism: up to %.1f loads in flight (%u chains)\n",
                   ctx->found.parallel_best, ctx->found.parallel_best_chains);
    if (ctx->m->cpu.hypervisor)
        con_printf("note: measured under a hypervisor; under emulation (TCG) timings mean "
                   "nothing\n");
    con_printf("results: %s\n", in->where);
}
