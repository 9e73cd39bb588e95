// SPDX-License-Identifier: MIT
// The parallel experiment's report side: memory-level parallelism by chain count; its plot.
#include "analysis/judge.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"

/* Parallelism is reached with the fewest chains that give this share of the best. */
#define NEAR_TOP 0.9
/* The curve is still rising when its last chains added more than this many misses in flight
 * each: half way between one more (the linear rise, misses to spare) and none (full). */
#define STILL_RISING 0.5

/* Effective parallelism by chain count for one buffer size (any size when size is NaN):
 * the parallelism column, else n * t1 / tn with tn the time per step of every chain. */
static size_t parallel_series(const struct csv *t, double size, double *ks, double *ps)
{
    int cc = csv_col(t, "chains"), cs = csv_col(t, "size_bytes"), cp = csv_col(t, "parallelism");
    int cn = csv_col(t, "ns_per_access_per_chain");
    double t1 = KM_NAN;
    size_t k = 0;
    for (size_t i = 0; i < t->nrows; i++)
        if (csv_num(t, i, cc) == 1 && (kisnan(size) || csv_num(t, i, cs) == size))
            t1 = csv_num(t, i, cn);
    for (size_t i = 0; i < t->nrows && k < JUDGE_MAX_VALUES; i++) {
        if (!kisnan(size) && csv_num(t, i, cs) != size)
            continue;
        double n = csv_num(t, i, cc), p = csv_num(t, i, cp), tn = csv_num(t, i, cn);
        if (!kisfinite(p) && tn > 0)
            p = n * t1 / tn;
        if (kisfinite(n) && kisfinite(p)) {
            ks[k] = n;
            ps[k++] = p;
        }
    }
    return k;
}

/* One table row for a buffer size; its best parallelism and the chains reaching 90% of it;
 * *rising: the most chains tried still added more than STILL_RISING per chain over the next
 * most tried. */
static double parallel_row(struct verdict *v, const struct csv *t, double size, double *top_k,
                           bool *rising)
{
    double ks[JUDGE_MAX_VALUES], ps[JUDGE_MAX_VALUES], top = 0;
    size_t k = parallel_series(t, size, ks, ps), last = 0, prev = k;
    for (size_t i = 1; i < k; i++)
        last = ks[i] > ks[last] ? i : last;
    for (size_t i = 0; i < k; i++) /* the most chains tried below the most */
        if (ks[i] < ks[last] && (prev == k || ks[i] > ks[prev]))
            prev = i;
    *rising = prev < k && ps[last] - ps[prev] > STILL_RISING * (ks[last] - ks[prev]);
    char row[VERDICT_CHARS] = "", sz[32];
    for (size_t i = 0; i < k; i++) {
        top = kfmax(top, ps[i]);
        judge_append(row, sizeof(row), "%s%.0f: %.1f", i ? ", " : "", ks[i], ps[i]);
    }
    *top_k = 0;
    for (size_t i = 0; i < k && *top_k == 0; i++)
        if (ps[i] >= NEAR_TOP * top)
            *top_k = ks[i];
    fmt_size(sz, sizeof(sz), size);
    verdict_line(v, "| %s | %s |", sz, row);
    return top;
}

static void judge_parallel(const struct an_judge *j, struct verdict *v)
{
    const struct csv *t = j->t;
    if (!t)
        return;
    v->present = true;
    int cc = csv_col(t, "chains"), cs = csv_col(t, "size_bytes"), cp = csv_col(t, "parallelism");
    if (cc < 0 || (cp < 0 && csv_col(t, "ns_per_access_per_chain") < 0)) {
        verdict_headline(v, "parallel.csv lacks chains, or both parallelism and "
                            "ns_per_access_per_chain");
        return;
    }
    double sizes[JUDGE_MAX_VALUES], best = 0, best_chains = 0, best_size = 0, most = 0;
    bool rising = false;
    size_t ns = judge_values(t, cs, sizes, JUDGE_MAX_VALUES);
    verdict_line(v, "| buffer | effective parallelism by chains |");
    verdict_line(v, "|---|---|");
    for (size_t s = 0; s < (ns ? ns : 1); s++) {
        bool up;
        double top_k, top = parallel_row(v, t, ns ? sizes[s] : KM_NAN, &top_k, &up);
        if (top > best) {
            best = top;
            best_chains = top_k;
            best_size = ns ? sizes[s] : KM_NAN;
            rising = up;
        }
    }
    for (size_t i = 0; i < t->nrows; i++)
        most = kfmax(most, csv_num(t, i, cc));
    char sz[32];
    fmt_size(sz, sizeof(sz), best_size);
    verdict_number(v, "parallelism", best, NULL,
                   "the best effective parallelism (random latency over per-load time)");
    verdict_number(v, "mlp", best, NULL, "the same: memory-level parallelism");
    verdict_bool(v, "mlp_lower_bound", rising, "still rising at the most chains tried");
    verdict_number(v, "chains", best_chains, "chains", "the chains that reached it");
    /* A buffer the last cache holds is chased from that cache (the quick profile's 2M): what
     * overlaps there are its hits, and the headline says whose parallelism it is. */
    char what[112] = "memory-level parallelism", lc[32];
    if (judge_in_llc(j, best_size, lc, sizeof(lc)))
        ksnprintf(what, sizeof(what),
                  "parallelism of last-cache hits (not memory's: the buffer fits in the %s last "
                  "cache)",
                  lc);
    if (rising)
        verdict_headline(v,
                         "%s is at least %.1f: still rising at the %.0f chains tried (buffer %s), "
                         "the core has misses to spare",
                         what, best, most, sz);
    else
        verdict_headline(v, "%s reaches %.1f (within 10%% of it with %.0f chains, buffer %s)", what,
                         best, best_chains, sz);
}

const struct an_experiment analysis_parallel = {
    .name = "parallel",
    .plot = {.stem = "parallel",
             .x = "chains",
             .y = "parallelism",
             .group = "size_bytes",
             .label = AN_LABEL_BUFFER,
             .xlabel = "independent chains",
             .ylabel = "effective parallelism",
             .what = "memory-level parallelism",
             .caption = "Effective parallelism t1/(tn/n) of n independent chains chased "
                        "together, one curve per buffer size: where it flattens, the memory "
                        "system has no more misses in flight."},
    .judge = judge_parallel,
};
