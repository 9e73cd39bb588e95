// SPDX-License-Identifier: MIT
// The atomics experiment's report side: contended increments of one line as processors are
// added, the group's rate and each processor's time per increment.
#include "analysis/judge.h"
#include "lib/kmath.h"
#include "lib/kstring.h"

static void judge_atomics(const struct an_judge *j, struct verdict *v)
{
    const struct csv *t = j->t;
    if (!t || t->nrows == 0)
        return; /* skipped: run.json says why */
    v->present = true;
    int cn = csv_col(t, "processors"), cm = csv_col(t, "mops_median");
    int cs = csv_col(t, "ns_per_op_median"), cf = csv_col(t, "ns_per_op_fastest");
    int cw = csv_col(t, "ns_per_op_slowest"), cx = csv_col(t, "method");
    if (cn < 0 || cm < 0 || cs < 0) {
        verdict_headline(v, "atomics.csv lacks processors, mops_median or ns_per_op_median");
        return;
    }
    double one = KM_NAN, one_mops = KM_NAN, most = KM_NAN, most_ns = KM_NAN, most_mops = KM_NAN;
    double most_slow = KM_NAN, most_fast = KM_NAN;
    verdict_line(v, "| processors | million increments/s, all | ns per increment (median "
                    "processor) | fastest | slowest |");
    verdict_line(v, "|---|---|---|---|---|");
    for (size_t r = 0; r < t->nrows; r++) {
        double n = csv_num(t, r, cn), m = csv_num(t, r, cm), ns = csv_num(t, r, cs);
        if (!kisfinite(n) || !kisfinite(m) || !kisfinite(ns))
            continue;
        verdict_line(v, "| %.0f | %.3f | %.2f | %.2f | %.2f |", n, m, ns, csv_num(t, r, cf),
                     csv_num(t, r, cw));
        if (n == 1)
            one = ns, one_mops = m;
        if (!(n < most))
            most = n, most_ns = ns, most_mops = m, most_slow = csv_num(t, r, cw),
            most_fast = csv_num(t, r, cf);
    }
    if (kisnan(most)) {
        verdict_headline(v, "contended atomics: no count came back");
        return;
    }
    verdict_number(v, "one_ns_per_op", one, "ns", "one processor alone: an increment's time");
    verdict_number(v, "all_ns_per_op", most_ns, "ns",
                   "every processor at once: the median processor's time per increment");
    verdict_number(v, "all_mops", most_mops, "Mops/s",
                   "every processor at once: increments a "
                   "second, all together");
    verdict_number(v, "all_processors", most, "", "processors in the largest count");
    verdict_line(v, "- each processor times its own increments on its own clock; the group's rate "
                    "is the sum of each one's rate; fastest and slowest show how fairly the line "
                    "is handed round");
    verdict_headline(v,
                     "contended atomics (%s): 1 processor %.1f ns an increment (%.1f M/s); %.0f "
                     "at once %.1f ns each (fastest %.1f, slowest %.1f), %.1f M/s in all",
                     cx >= 0 && csv_text(t, 0, cx) ? csv_text(t, 0, cx) : "?", one, one_mops, most,
                     most_ns, most_fast, most_slow, most_mops);
}

const struct an_experiment analysis_atomics = {
    .name = "atomics",
    .plot = {.stem = "atomics",
             .x = "processors",
             .y = "ns_per_op_median",
             .split = "method",
             .xlabel = "processors incrementing one line at once",
             .ylabel = "ns per increment (median processor)",
             .what = "contended atomics",
             .caption = "Each processor's time per atomic increment of one shared line (LOCK "
                        "ADD, LDADD) as 1, 2, 4 ... all processors increment it at once: a line "
                        "handed from core to core on every increment."},
    .also = {.stem = "atomics_rate",
             .x = "processors",
             .y = "mops_median",
             .split = "method",
             .xlabel = "processors incrementing one line at once",
             .ylabel = "million increments a second, all processors",
             .what = "contended atomics: the group's rate",
             .caption = "Increments of one shared line a second, all processors together (the "
                        "sum of each one's own rate), as 1, 2, 4 ... all increment it at once."},
    .judge = judge_atomics,
};
