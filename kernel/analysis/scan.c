// SPDX-License-Identifier: MIT
// The scan experiment's report side: does a huge scan flush a small, hot array (resistance)?
#include "analysis/judge.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/stats.h"
#include "platform.h"

/*
 * The rule. Loads alternate between the small array and the scan, so between two touches of a
 * small line as many scan lines arrive as the small array holds: LRU keeps the small array
 * while twice it fits, up to SCAN_LRU_SHARE of the LLC, and loses it beyond. A policy that
 * keeps it further (RRIP, BIP: scan lines inserted at low priority) is scan-resistant. Where
 * the small array leaves is interpolated between the sweep's sizes, so an LRU cache's half-way
 * point lands within half a step of the default sweep (2 points per octave) of LLC/2 (chase-sim's
 * LRU LLCs: 0.53 and 0.54): the verdict is true when the small array stays beyond
 * SCAN_LRU_SHARE of the LLC moved up by SCAN_MARGIN_OCTAVES (0.59 of the LLC), false otherwise.
 */
#define SCAN_LRU_SHARE 0.5
#define SCAN_MARGIN_OCTAVES 0.25

/* A scan flushes nothing unless the huge region is well beyond the last cache. */
#define SCAN_HUGE_OVER_LLC 2

/* The curve must rise by this share of its start to show the small array leaving the LLC. */
#define SCAN_MIN_RISE 0.25

/* Where the sorted curve (x, y) first rises half way from its start (the small array in the
 * LLC, each load half scan, half small array) to its end (both from memory); NaN when it
 * does not rise by SCAN_MIN_RISE: the small array never leaves. */
static double leaves_at(const double *x, const double *y, size_t n)
{
    double base = kfmin(y[0], y[1]), top = kfmax(y[n - 1], y[n - 2]);
    if (top < (1 + SCAN_MIN_RISE) * base)
        return KM_NAN;
    double half = 0.5 * (base + top);
    for (size_t i = 1; i < n; i++)
        if (y[i] >= half) {
            double f = (half - y[i - 1]) / (y[i] - y[i - 1]);
            return kexp2(klog2(x[i - 1]) + f * (klog2(x[i]) - klog2(x[i - 1])));
        }
    return KM_NAN;
}

static const char *scan_word(double llc, double frac, double cut)
{
    return !(llc > 0)   ? "the last cache's size is unknown"
           : frac > cut ? "scan-resistant: the huge scan does not flush it"
                        : "not scan-resistant: the scan evicts it as under LRU";
}

/* The finite rows of the table as a curve sorted by small_bytes; returns the points. */
static size_t scan_curve(const struct csv *t, double *x, double *y)
{
    int cs = csv_col(t, "small_bytes"), cn = csv_col(t, "ns_median");
    size_t n = 0;
    for (size_t i = 0; cs >= 0 && cn >= 0 && i < t->nrows; i++) {
        double a = csv_num(t, i, cs), b = csv_num(t, i, cn);
        if (!kisfinite(a) || !kisfinite(b))
            continue;
        x[n] = a;
        y[n++] = b;
    }
    stats_sort_by(x, y, NULL, n);
    return n;
}

/* The huge region's size from the table (the same on every row); NaN when absent. */
static double scan_huge_bytes(const struct csv *t)
{
    int c = csv_col(t, "huge_bytes");
    return c >= 0 && t->nrows ? csv_num(t, 0, c) : KM_NAN;
}

/* What the sweep cannot tell: a scan within the LLC, or an array never lost but never large
 * enough to tell. Writes the headline and returns true when there is no verdict. */
static bool scan_undecided(struct verdict *v, const struct csv *t, double llc, double at,
                           double frac, double cut, const char *lim, const char *share)
{
    double huge = scan_huge_bytes(t);
    if (llc > 0 && kisfinite(huge) && huge < SCAN_HUGE_OVER_LLC * llc) {
        char h[32], l[32];
        fmt_size(h, sizeof(h), huge);
        fmt_size(l, sizeof(l), llc);
        verdict_headline(v,
                         "no verdict: the huge region (%s) is not well beyond the last cache "
                         "(%s), so the scan flushes nothing",
                         h, l);
        return true;
    }
    if (llc > 0 && !kisfinite(at) && !(frac > cut)) {
        /* A lower bound: the array may still be lost beyond the sizes tried. */
        verdict_headline(v,
                         "no verdict: the small array stays in the last cache up to %s, but that "
                         "is only %s",
                         lim, share);
        return true;
    }
    return false;
}

/* "0.61 of it", or of a shared last cache "0.61 of the 8.49M share the random chase measured":
 * a small array competes for the share this run had, not for the whole cache. */
static void share_of(char *dst, size_t cap, double frac, const struct an_judge *j, double llc)
{
    judge_sig2(dst, cap, frac);
    if (analysis_llc_is_share(j->r)) {
        char l[32];
        fmt_size(l, sizeof(l), llc);
        judge_append(dst, cap, " of the %s share the random chase measured", l);
    } else {
        judge_append(dst, cap, " of it");
    }
}

static void judge_scan(const struct an_judge *j, struct verdict *v)
{
    const struct csv *t = j->t;
    if (!t)
        return;
    v->present = true;
    double *x = plat_alloc((t->nrows + 1) * sizeof(double));
    double *y = plat_alloc((t->nrows + 1) * sizeof(double));
    size_t n = x && y ? scan_curve(t, x, y) : 0;
    if (n < 2) {
        verdict_headline(v, "scan.csv has too few usable rows");
        goto out;
    }
    double at = leaves_at(x, y, n), llc = analysis_llc_bytes(j->in, j->r);
    char sz[32], lim[32], share[96];
    fmt_size(sz, sizeof(sz), at);
    fmt_size(lim, sizeof(lim), x[n - 1]);
    double frac = (kisfinite(at) ? at : x[n - 1]) / llc;
    share_of(share, sizeof(share), frac, j, llc);
    double cut = SCAN_LRU_SHARE * kexp2(SCAN_MARGIN_OCTAVES);
    bool undecided = scan_undecided(v, t, llc, at, frac, cut, lim, share);
    verdict_bool(v, "scan_resistant", !undecided && llc > 0 ? frac > cut : KM_NAN,
                 "a small hot array keeps its hits against a huge scan beyond where LRU loses it");
    verdict_number(v, "leaves_llc_bytes", at, "bytes",
                   "small array size where latency is half way to the scan's");
    verdict_number(v, "fraction_of_llc", llc > 0 ? frac : KM_NAN, NULL,
                   "that size over the last cache's");
    verdict_number(v, "lru_fraction_of_llc", cut, NULL,
                   "where LRU loses it: half the LLC, a quarter octave of margin above");
    if (undecided)
        goto out;
    if (kisfinite(at))
        verdict_headline(v,
                         "the small array leaves the last cache at %s (%s; latency half way to the "
                         "scan's; LRU %.2f): %s",
                         sz, share, cut, scan_word(llc, frac, cut));
    else
        verdict_headline(v,
                         "the small array stays in the last cache up to %s (at least %s; LRU "
                         "%.2f): %s",
                         lim, share, cut, scan_word(llc, frac, cut));
out:
    plat_free(x);
    plat_free(y);
}

const struct an_experiment analysis_scan = {
    .name = "scan",
    .plot = {.stem = "scan",
             .x = "small_bytes",
             .y = "ns_median",
             .label = AN_LABEL_NAME,
             .xlabel = "small array (bytes, log2 scale)",
             .ylabel = "ns per load",
             .x_size = true,
             .logy = true,
             .mark_llc = true,
             .what = "scan resistance: alternating small and huge chains",
             .caption = "Average latency when loads alternate between a small array and a huge "
                        "scan: the small array keeps its hits only while the cache resists the "
                        "scan."},
    .judge = judge_scan,
};
