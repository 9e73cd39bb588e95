// SPDX-License-Identifier: MIT
// Verdicts on replacement policy: dual (adaptive insertion), scan (resistance), offset (set
// dueling candidates), and the levels seen per stride in ring.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/levels_int.h"
#include "inputs/rtext.h"

/* dual/random above the LLC over dual/random inside it: below KEEPS the second touch hits;
 * above MISSES it does not. */
#define DUAL_KEEPS 0.8
#define DUAL_MISSES 0.92
/* scan: the small array's share of the LLC where its latency doubles. */
#define SCAN_RESISTANT 0.5
#define SCAN_WEAK 0.25
/* offset: a point stands out from the sweep by this fraction and this many robust sigmas. */
#define OFFSET_FRACTION 0.10
#define OFFSET_SIGMAS 4.0
#define MAX_ROWS 4096

/* dual/random per size into the verdict's table; the mean ratio above the LLC (*out, with
 * *above points) and the median ratio inside it, beyond the smaller caches (*in). */
static void dual_ratios(struct verdict *v, const struct csv *t, const struct curve *rnd,
                        double llc, double *out, size_t *above, double *in)
{
    int cs = csv_col(t, "size_bytes"), cn = csv_col(t, "ns_median");
    double inside[MAX_ROWS], sum = 0;
    size_t k = 0;
    *above = 0;
    verdict_line(v, "| size | dual ns | random ns | dual/random |");
    verdict_line(v, "|---|---|---|---|");
    for (size_t i = 0; i < t->nrows; i++) {
        double size = csv_num(t, i, cs), d = csv_num(t, i, cn);
        double ref = interp_log2(rnd->size, rnd->ns, rnd->n, size);
        if (!isfinite(d) || !isfinite(ref) || ref <= 0)
            continue;
        char sz[32];
        rtext_size(sz, sizeof(sz), size);
        verdict_line(v, "| %s | %.2f | %.2f | %.2f |", sz, d, ref, d / ref);
        if (size > llc * 1.5) {
            sum += d / ref;
            (*above)++;
        } else if (size > llc / 16 && size <= llc / 2 && k < MAX_ROWS) {
            inside[k++] = d / ref;
        }
    }
    *out = *above ? sum / (double)*above : NAN;
    *in = k ? lpoints_median(inside, k) : 1.0;
}

void verdict_dual(struct source_result *r)
{
    struct verdict *v = &r->verdict[EXP_DUAL];
    const struct csv *t = r->src->table[EXP_DUAL];
    if (!t)
        return;
    v->present = true;
    int cs = csv_col(t, "size_bytes"), cn = csv_col(t, "ns_median");
    const struct curve *rnd = r->primary >= 0 ? r->cr[r->primary].c : NULL;
    if (cs < 0 || cn < 0 || !rnd || rnd->role != ROLE_LEVELS) {
        snprintf(v->headline, sizeof(v->headline), "%s", cs < 0 || cn < 0
                 ? "dual.csv lacks size_bytes or ns_median"
                 : "no random chase of the same run to compare with");
        return;
    }
    double llc = llc_size_bytes(r), out, in;
    size_t above;
    dual_ratios(v, t, rnd, llc > 0 ? llc : INFINITY, &out, &above, &in);
    if (above == 0) {
        snprintf(v->headline, sizeof(v->headline), "no size is well above the last cache%s: "
                 "no verdict on insertion", llc > 0 ? "" : " (its size is unknown)");
        return;
    }
    /* Two pointers overlap their loads, so dual is cheaper than random even where both hit:
     * the verdict compares the ratio above the last cache with the ratio inside it. */
    double rel = out / in;
    verdict_item(v, "dual_over_random_above_llc", out);
    verdict_item(v, "dual_over_random_inside_llc", in);
    snprintf(v->headline, sizeof(v->headline), "above the last cache dual costs %.0f%% of "
             "random, inside it %.0f%%: %s", 100 * out, 100 * in,
             rel < DUAL_KEEPS ? "the second touch hits, lines are inserted where they survive "
                                "(no sign of adaptive insertion)"
             : rel > DUAL_MISSES ? "the second touch misses too, lines are inserted with low "
                                   "priority (adaptive insertion such as BIP/DIP) or the lag "
                                   "is too long"
                                 : "partly kept (sets dueling between insertion policies?)");
}

void verdict_scan(struct source_result *r)
{
    struct verdict *v = &r->verdict[EXP_SCAN];
    const struct csv *t = r->src->table[EXP_SCAN];
    if (!t)
        return;
    v->present = true;
    int cs = csv_col(t, "small_bytes"), cn = csv_col(t, "ns_median");
    struct curve c = {0};
    for (size_t i = 0; cs >= 0 && cn >= 0 && i < t->nrows; i++)
        curve_push(&c, csv_num(t, i, cs), csv_num(t, i, cn), NAN);
    curve_sort(&c);
    if (c.n < 2) {
        snprintf(v->headline, sizeof(v->headline), "scan.csv has too few usable rows");
        goto out;
    }
    double base = fmin(c.ns[0], c.ns[1]), at = NAN, llc = llc_size_bytes(r);
    for (size_t i = 1; i < c.n && !isfinite(at); i++)
        if (c.ns[i] >= 2 * base) {
            double f = (2 * base - c.ns[i - 1]) / (c.ns[i] - c.ns[i - 1]);
            at = exp2(log2(c.size[i - 1]) + f * (log2(c.size[i]) - log2(c.size[i - 1])));
        }
    char sz[32], lim[32];
    rtext_size(sz, sizeof(sz), at);
    rtext_size(lim, sizeof(lim), c.size[c.n - 1]);
    double frac = (isfinite(at) ? at : c.size[c.n - 1]) / llc;
    verdict_item(v, "doubling_bytes", at);
    verdict_item(v, "fraction_of_llc", llc > 0 ? frac : NAN);
    const char *word = !(llc > 0) ? "the last cache's size is unknown"
                       : frac >= SCAN_RESISTANT ? "scan-resistant: the huge scan does not flush it"
                       : frac >= SCAN_WEAK ? "partly scan-resistant"
                                          : "not scan-resistant: the scan evicts it (LRU-like)";
    if (isfinite(at))
        snprintf(v->headline, sizeof(v->headline), "latency doubles at a small array of %s "
                 "(%.2g of the last cache): %s", sz, frac, word);
    else
        snprintf(v->headline, sizeof(v->headline), "latency never doubles up to %s (at least "
                 "%.2g of the last cache): %s", lim, frac, word);
out:
    free(c.size);
    free(c.ns);
    free(c.cycles);
}

/* The offset sweep in one direction, in the order of the table. */
static size_t offset_series(const struct csv *t, const char *dir, double *off, double *ns)
{
    int cd = csv_col(t, "direction"), co = csv_col(t, "offset_bytes"), cn = csv_col(t, "ns_median");
    size_t k = 0;
    for (size_t i = 0; i < t->nrows && k < MAX_ROWS; i++)
        if (strcmp(csv_text(t, i, cd), dir) == 0 && isfinite(csv_num(t, i, co)) &&
            isfinite(csv_num(t, i, cn))) {
            off[k] = csv_num(t, i, co);
            ns[k++] = csv_num(t, i, cn);
        }
    return k;
}

static double down_at(const double *off, const double *ns, size_t n, double o)
{
    for (size_t i = 0; i < n; i++)
        if (off[i] == o)
            return ns[i];
    return NAN;
}

void verdict_offset(struct source_result *r)
{
    struct verdict *v = &r->verdict[EXP_OFFSET];
    const struct csv *t = r->src->table[EXP_OFFSET];
    if (!t)
        return;
    v->present = true;
    static double uo[MAX_ROWS], un[MAX_ROWS], dof[MAX_ROWS], dn[MAX_ROWS], dev[MAX_ROWS];
    size_t nu = offset_series(t, "up", uo, un), nd = offset_series(t, "down", dof, dn);
    if (nu < 3 || nd < 3) {
        snprintf(v->headline, sizeof(v->headline), "offset.csv needs up and down sweeps "
                 "(direction, offset_bytes, ns_median)");
        return;
    }
    double med = lpoints_median(un, nu);
    for (size_t i = 0; i < nu; i++)
        dev[i] = fabs(un[i] - med);
    double tol = fmax(OFFSET_FRACTION * med, OFFSET_SIGMAS * 1.4826 * lpoints_median(dev, nu));
    size_t dedicated = 0, hysteresis = 0;
    for (size_t i = 0; i < nu; i++) {
        double d = down_at(dof, dn, nd, uo[i]);
        bool both = fabs(un[i] - med) > tol && fabs(d - med) > tol && (un[i] - med) * (d - med) > 0;
        bool differ = fabs(un[i] - d) > tol;
        if (!both && !differ)
            continue;
        if (dedicated + hysteresis == 0) {
            verdict_line(v, "| offset (bytes) | up ns | down ns | candidate |");
            verdict_line(v, "|---|---|---|---|");
        }
        dedicated += both;
        hysteresis += differ && !both;
        verdict_line(v, "| %.0f | %.2f | %.2f | %s |", uo[i], un[i], d,
                     both ? "stands out both ways: dedicated set?" : "up and down differ");
    }
    verdict_item(v, "dedicated_set_candidates", (double)dedicated);
    verdict_item(v, "direction_dependent_offsets", (double)hysteresis);
    snprintf(v->headline, sizeof(v->headline), "%zu offsets stand out from the median %.2f ns "
             "in both directions (dedicated-set candidates) and %zu differ between the up and "
             "down sweeps (policy following the sweep's history)", dedicated, med, hysteresis);
}

void verdict_ring(struct source_result *r)
{
    struct verdict *v = &r->verdict[EXP_RING];
    const struct source *s = r->src;
    for (size_t i = 0; i < s->ncurves; i++) {
        const struct curve_result *cr = &r->cr[i];
        if (!cr->analysed || s->curve[i].role != ROLE_RING)
            continue;
        if (!v->present) {
            verdict_line(v, "| curve | levels (size @ latency) | DRAM |");
            verdict_line(v, "|---|---|---|");
        }
        v->present = true;
        char row[VERDICT_CHARS] = "";
        size_t o = 0;
        for (size_t k = 0; k < cr->det.nlevels; k++) {
            char sz[32];
            const struct level *lv = &cr->det.level[k];
            rtext_size(sz, sizeof(sz), lv->size_bytes);
            int w = snprintf(row + o, sizeof(row) - o, "%s%s @ %.2f ns", k ? ", " : "",
                             lv->size_known ? sz : "open", lv->latency_ns);
            o = w > 0 && (size_t)w < sizeof(row) - o ? o + (size_t)w : o;
        }
        char dram[32] = "not reached";
        if (isfinite(cr->det.dram_ns))
            snprintf(dram, sizeof(dram), "%s%.1f ns", cr->det.dram_lower_bound ? ">= " : "",
                     cr->det.dram_ns);
        verdict_line(v, "| %s | %s | %s |", s->curve[i].label, row[0] ? row : "none", dram);
    }
    if (v->present)
        snprintf(v->headline, sizeof(v->headline), "levels seen by each backward-stride ring; "
                 "small strides are helped by prefetching and several loads per line");
}
