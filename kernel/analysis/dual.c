// SPDX-License-Identifier: MIT
// The dual experiment's report side: is a line's second touch a hit (insertion policy)?
#include "analysis/judge.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/stats.h"
#include "platform.h"

/*
 * The rule. Above the last cache random misses on every load (m ns). Under LRU the lagging
 * pointer's touch, twice the cache below the last away, hits in the last cache (h ns), so dual
 * costs (m + h) / 2, a ratio to random of lru = (1 + h/m) / 2; when every second touch misses
 * too (a line inserted at low priority, evicted before it: BIP, BRRIP, the duel's winner of
 * DIP/DRRIP under this thrashing) the ratio is 1. Both are scaled by the overlap of the two
 * pointers (the ratio inside the LLC, where both hit, at most 1). The share of second touches
 * that miss is (ratio - lru) / (overlap - lru); adaptive insertion is reported when more than
 * DUAL_MISS_SHARE of them miss: the data is then nearer "the second touch misses" than LRU's
 * "it hits".
 */
#define DUAL_MISS_SHARE 0.5
#define MAX_ROWS 4096

/* dual/random per size into the verdict's table; the mean ratio above the LLC (*out, with
 * *above points, where random's mean latency is *miss) and the median ratio inside it, beyond
 * the smaller caches (*in). */
static void dual_ratios(const struct an_judge *j, struct verdict *v, double llc, double *out,
                        size_t *above, double *in, double *miss)
{
    const struct csv *t = j->t;
    const struct an_curve *rnd = judge_primary(j);
    int cs = csv_col(t, "size_bytes"), cn = csv_col(t, "ns_median");
    /* From the heap: the firmware's stack is small. */
    double *inside = plat_alloc(MAX_ROWS * sizeof(double)), sum = 0, sum_ref = 0;
    size_t k = 0;
    *above = 0;
    verdict_line(v, "| size | dual ns | random ns | dual/random |");
    verdict_line(v, "|---|---|---|---|");
    for (size_t i = 0; i < t->nrows; i++) {
        double size = csv_num(t, i, cs), d = csv_num(t, i, cn);
        double ref = analysis_interp_log2(rnd->size, rnd->ns, rnd->n, size);
        if (!kisfinite(d) || !kisfinite(ref) || ref <= 0)
            continue;
        char sz[32];
        fmt_size(sz, sizeof(sz), size);
        verdict_line(v, "| %s | %.2f | %.2f | %.2f |", sz, d, ref, d / ref);
        if (size > llc * 1.5) {
            sum += d / ref;
            sum_ref += ref;
            (*above)++;
        } else if (size > llc / 16 && size <= llc / 2 && inside && k < MAX_ROWS) {
            inside[k++] = d / ref;
        }
    }
    *out = *above ? sum / (double)*above : KM_NAN;
    *miss = *above ? sum_ref / (double)*above : KM_NAN;
    *in = k ? stats_median(inside, k) : 1.0;
    plat_free(inside);
}

/* The latency of a hit in the last cache: the primary curve's last cache level's, else the
 * random chase's at half the last cache; 0 (a hit is free against a miss) when unknown. */
static double llc_hit_ns(const struct an_judge *j, double llc)
{
    const struct detection *d = j->r->primary >= 0 ? &j->r->cr[j->r->primary].det : NULL;
    for (size_t i = d ? d->nlevels : 0; i-- > 0;)
        if (d->level[i].kind == LEVEL_CACHE && kisfinite(d->level[i].latency_ns))
            return d->level[i].latency_ns;
    double at = judge_random_at(j, llc / 2);
    return kisfinite(at) ? at : 0;
}

static void judge_dual(const struct an_judge *j, struct verdict *v)
{
    const struct csv *t = j->t;
    if (!t)
        return;
    v->present = true;
    int cs = csv_col(t, "size_bytes"), cn = csv_col(t, "ns_median");
    const struct an_curve *rnd = judge_primary(j);
    if (cs < 0 || cn < 0 || !rnd || rnd->role != AN_ROLE_LEVELS) {
        verdict_headline(v, "%s",
                         cs < 0 || cn < 0 ? "dual.csv lacks size_bytes or ns_median"
                                          : "no random chase of the same run to compare with");
        return;
    }
    double llc = analysis_llc_bytes(j->in, j->r), out, in, miss;
    size_t above;
    dual_ratios(j, v, llc > 0 ? llc : KM_INF, &out, &above, &in, &miss);
    if (above == 0) {
        verdict_headline(v, "no size is well above the last cache%s: no verdict on insertion",
                         llc > 0 ? "" : " (its size is unknown)");
        return;
    }
    /* Two pointers overlap their loads, so dual is cheaper than random even where both hit.
     * Overlap can only make dual cheaper: a ratio above 1 inside the LLC means the second
     * touch already misses there (low-priority insertion), so no overlap gain is measurable. */
    double overlap = kfmin(in, 1.0);
    double lru = overlap * 0.5 * (1 + kfmin(kfmax(llc_hit_ns(j, llc) / miss, 0), 1));
    double share = lru < overlap ? kfmin(kfmax((out - lru) / (overlap - lru), 0), 1) : KM_NAN;
    bool adaptive = share > DUAL_MISS_SHARE;
    verdict_bool(v, "adaptive_insertion", kisfinite(share) ? adaptive : KM_NAN,
                 "more than half the second touches miss above the last cache (BIP/DIP-like)");
    verdict_number(v, "dual_over_random_above_llc", out, NULL,
                   "dual's latency over random's, mean above 1.5x the last cache");
    verdict_number(v, "dual_over_random_inside_llc", in, NULL,
                   "the same ratio inside the last cache (median), the overlap of two pointers");
    verdict_number(v, "lru_expectation", lru, NULL,
                   "LRU's ratio: (1 + LLC hit / miss) / 2 times the overlap, second touches hit");
    verdict_number(v, "second_touch_miss_share", share, NULL,
                   "(ratio - LRU's) / (overlap - LRU's): the share of second touches that miss");
    verdict_headline(v,
                     "above the last cache dual costs %.0f%% of random (inside it %.0f%%), "
                     "LRU %.0f%%: %.0f%% of second touches miss, %s",
                     100 * out, 100 * in, 100 * lru, 100 * share,
                     adaptive ? "lines are inserted at low priority (adaptive insertion such as "
                                "BIP, DIP or DRRIP) or the lag is too long"
                              : "as under LRU: lines are inserted where they survive (no sign of "
                                "adaptive insertion)");
}

const struct an_experiment analysis_dual = {
    .name = "dual",
    .plot = {.stem = "dual",
             .x = "size_bytes",
             .y = "ns_median",
             .label = AN_LABEL_NAME,
             .xlabel = "size (bytes, log2 scale)",
             .ylabel = "ns per load",
             .x_size = true,
             .logy = true,
             .over_random = true,
             .mark_cpuid = true,
             .what = "dual pointers on one cycle against random",
             .caption = "Two pointers walk the same random cycle, the second lagging: below "
                        "random above the last cache when the second touch still hits there."},
    .judge = judge_dual,
};
