// SPDX-License-Identifier: MIT
// The c2c experiment's report side: the groups core-to-core latency reveals.
#include "analysis/judge.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "lib/stats.h"

/* The groups c2c.c writes, nearest first. */
static const char *const c2c_groups[] = {"same_core",    "shared_l2",     "shared_l3",
                                         "same_package", "other_package", "caches_unknown"};
#define C2C_GROUPS (sizeof(c2c_groups) / sizeof(c2c_groups[0]))
/* A group is apart from the nearer one when their medians differ by more than this many times
   the matrix's noise (the typical a->b against b->a difference). */
#define C2C_NOISE_MULTIPLE 2

/* The line states c2c.c writes beside the bounce, and their verdict items per home. */
static const char *const c2c_states[] = {"modified", "exclusive", "shared"};
static const char *const c2c_state_items[] = {"modified_ns", "exclusive_ns", "shared_ns"};
static const char *const c2c_state_far_items[] = {
    "modified_other_node_ns", "exclusive_other_node_ns", "shared_other_node_ns"};
#define C2C_STATES (sizeof(c2c_states) / sizeof(c2c_states[0]))

/* Whether row i holds state `state` (a table from before the state column: every row is a
   bounce) and, when home is not NULL, that home. */
static bool c2c_row_is(const struct csv *t, size_t i, const char *state, const char *home)
{
    int cs = csv_col(t, "state"), ch = csv_col(t, "home");
    const char *v = cs >= 0 ? csv_text(t, i, cs) : "bounce", *h = ch >= 0 ? csv_text(t, i, ch) : "";
    return v && kstrcmp(v, state) == 0 && (!home || (h && kstrcmp(h, home) == 0));
}

/* Median one-way ns of the pairs of group g; how many pairs in *n (NaN when none). */
static double group_median(const struct csv *t, const char *g, size_t *n, double *lo, double *hi)
{
    int cg = csv_col(t, "group"), cn = csv_col(t, "ns_median");
    double v[JUDGE_MAX_VALUES];
    size_t k = 0;
    *lo = KM_INF;
    *hi = -KM_INF;
    for (size_t i = 0; i < t->nrows && k < JUDGE_MAX_VALUES; i++) {
        const char *s = csv_text(t, i, cg);
        double x = csv_num(t, i, cn);
        if (s && kstrcmp(s, g) == 0 && kisfinite(x) && c2c_row_is(t, i, "bounce", NULL)) {
            v[k++] = x;
            *lo = kfmin(*lo, x);
            *hi = kfmax(*hi, x);
        }
    }
    *n = k;
    return k ? stats_median(v, k) : KM_NAN;
}

/*
 * The matrix's noise, ns: the larger of the median over processor pairs of |a->b - b->a| (two
 * measurements of one handover) and the median over pairs of p90 - median (the spread of a
 * pair's own repetitions); NaN when neither can be had.
 */
static double c2c_noise(const struct csv *t)
{
    int ca = csv_col(t, "cpu_a"), cb = csv_col(t, "cpu_b"), cn = csv_col(t, "ns_median");
    int cp = csv_col(t, "ns_p90");
    double d[JUDGE_MAX_VALUES], spread = KM_NAN;
    size_t k = 0;
    for (size_t i = 0; cp >= 0 && i < t->nrows && k < JUDGE_MAX_VALUES; i++)
        if (kisfinite(csv_num(t, i, cp) - csv_num(t, i, cn)) && c2c_row_is(t, i, "bounce", NULL))
            d[k++] = csv_num(t, i, cp) - csv_num(t, i, cn);
    if (k)
        spread = stats_median(d, k);
    k = 0;
    for (size_t i = 0; i < t->nrows && k < JUDGE_MAX_VALUES; i++) {
        double a = csv_num(t, i, ca), b = csv_num(t, i, cb), x = csv_num(t, i, cn);
        for (size_t r = 0; r < t->nrows && a < b && c2c_row_is(t, i, "bounce", NULL); r++)
            if (c2c_row_is(t, r, "bounce", NULL) && csv_num(t, r, ca) == b &&
                csv_num(t, r, cb) == a && kisfinite(csv_num(t, r, cn)) && kisfinite(x))
                d[k++] = kfabs(x - csv_num(t, r, cn));
    }
    double asym = k ? stats_median(d, k) : KM_NAN;
    return kisnan(asym) ? spread : kisnan(spread) ? asym : kfmax(asym, spread);
}

/* Whether median m stands apart from ref (the last distinct group's) beyond the noise. */
static bool c2c_distinct(double m, double ref, double noise)
{
    if (kisnan(ref))
        return true;
    return kisfinite(noise) && kfabs(m - ref) > C2C_NOISE_MULTIPLE * noise;
}

/* Median ns a line of state s in home over the pairs, their count in *n; min and max. */
static double state_median(const struct csv *t, const char *s, const char *home, size_t *n,
                           double *lo, double *hi)
{
    int cn = csv_col(t, "ns_median");
    double v[JUDGE_MAX_VALUES];
    size_t k = 0;
    *lo = KM_INF;
    *hi = -KM_INF;
    for (size_t i = 0; i < t->nrows && k < JUDGE_MAX_VALUES; i++) {
        double x = csv_num(t, i, cn);
        if (kisfinite(x) && c2c_row_is(t, i, s, home)) {
            v[k++] = x;
            *lo = kfmin(*lo, x);
            *hi = kfmax(*hi, x);
        }
    }
    *n = k;
    return k ? stats_median(v, k) : KM_NAN;
}

/* The line states' table, items and a clause for the headline (empty: no state rows). */
static void c2c_states_verdict(const struct csv *t, struct verdict *v, char *clause, size_t cap)
{
    static const char *const homes[] = {"buffer", "other_node"};
    bool any = false;
    for (size_t h = 0; h < 2; h++)
        for (size_t s = 0; s < C2C_STATES; s++) {
            size_t n;
            double lo, hi, m = state_median(t, c2c_states[s], homes[h], &n, &lo, &hi);
            if (!n)
                continue;
            if (!any)
                verdict_line(v, "\n| line state in the other processor | home | pairs | ns a "
                                "line (median) | min | max |\n|---|---|---|---|---|---|");
            any = true;
            verdict_line(v, "| %s | %s | %zu | %.1f | %.1f | %.1f |", c2c_states[s], homes[h], n, m,
                         lo, hi);
            if (h)
                verdict_number(v, c2c_state_far_items[s], m, "ns",
                               "median over pairs of one line's read in that state, homed away");
            else
                verdict_number(v, c2c_state_items[s], m, "ns",
                               "median over pairs of one line's read in that state");
            judge_append(clause, cap, "%s%s%s %.0f ns", clause[0] ? ", " : "", c2c_states[s],
                         h ? " (home away from both)" : "", m);
        }
    if (any)
        verdict_line(v, "- a line state's figure is one read of a line the other processor holds "
                        "so, over a random chain of fresh lines (c2c.fresh), per line");
}

static void judge_c2c(const struct an_judge *j, struct verdict *v)
{
    const struct csv *t = j->t;
    if (!t || t->nrows == 0)
        return; /* skipped: run.json says why */
    v->present = true;
    if (csv_col(t, "group") < 0 || csv_col(t, "ns_median") < 0) {
        verdict_headline(v, "c2c.csv lacks the group or ns_median column");
        return;
    }
    char head[VERDICT_CHARS] = "", same[VERDICT_CHARS] = "", states[VERDICT_CHARS] = "";
    double noise = c2c_noise(t), ref = KM_NAN;
    verdict_line(v, "| group | pairs | one-way ns (median) | min | max | apart from the nearer |");
    verdict_line(v, "|---|---|---|---|---|---|");
    for (size_t g = 0; g < C2C_GROUPS; g++) {
        size_t n;
        double lo, hi, m = group_median(t, c2c_groups[g], &n, &lo, &hi);
        if (!n)
            continue;
        bool apart = c2c_distinct(m, ref, noise);
        verdict_line(v, "| %s | %zu | %.1f | %.1f | %.1f | %s |", c2c_groups[g], n, m, lo, hi,
                     kisnan(ref) ? "-"
                     : apart     ? "yes"
                                 : "no: within the noise");
        verdict_number(v, c2c_groups[g], m, "ns", "median round trip between such processors");
        if (apart) {
            judge_append(head, sizeof(head), "%s%s %.0f ns (%zu pairs)", head[0] ? ", " : "",
                         c2c_groups[g], m, n);
            ref = m;
        } else {
            judge_append(same, sizeof(same), "%s%s %.0f ns", same[0] ? ", " : "", c2c_groups[g], m);
        }
    }
    verdict_number(v, "noise_ns", noise, "ns", "the spread a difference must exceed");
    verdict_line(v,
                 "- noise %.1f ns: the larger of how much a->b and b->a (one handover measured "
                 "twice) differ and of a pair's p90 - median, medians over pairs; a group is "
                 "named apart only beyond %d times that",
                 noise, C2C_NOISE_MULTIPLE);
    c2c_states_verdict(t, v, states, sizeof(states));
    if (states[0])
        judge_append(same[0] ? same : head, VERDICT_CHARS, "; a line read from the other: %s",
                     states);
    if (!head[0])
        verdict_headline(v, "core-to-core: no pair came back");
    else if (same[0])
        verdict_headline(v,
                         "core-to-core one-way latency by group: %s; not apart from the "
                         "nearer group beyond the noise (%.1f ns): %s",
                         head, noise, same);
    else
        verdict_headline(v, "core-to-core one-way latency by group: %s", head);
}

const struct an_experiment analysis_c2c = {
    .name = "c2c",
    .plot = {.stem = "c2c",
             .x = "cpu_a",
             .y = "cpu_b",
             .z = "ns_median",
             .xlabel = "answering processor",
             .ylabel = "timing processor",
             .zlabel = "one-way ns (median); a line state: ns a line",
             .split = "state",
             .where = "home",
             .equals = "buffer",
             .what = "core-to-core latency",
             .caption =
                 "One-way latency of handing a cache line between two processors (half a "
                 "round trip timed on the timing processor; per line state, one read of a "
                 "line the other holds so, homed in chase's buffer), every ordered pair, on a "
                 "colour scale from 0 (grey: the diagonal and pairs not measured), so "
                 "cells a few percent apart look alike and only real groups stand out."},
    .judge = judge_c2c,
};
