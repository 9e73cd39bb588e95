// SPDX-License-Identifier: MIT
// The loaded experiment's report side: latency against the bandwidth the others use.
#include "analysis/judge.h"
#include "lib/fmt.h"
#include "lib/kmath.h"

/* A loaded point under this share of the top bandwidth is "hardly moving data". */
#define LOADED_LIGHT_SHARE 0.01

/* A chase the last cache holds (the quick profile's 4M) times that cache under load: dst gets
 * " (the 4M chase fits in the 32M last cache: not memory's)", else nothing. */
static void chase_in_llc(const struct an_judge *j, char *dst, size_t cap)
{
    int cs = csv_col(j->t, "size_bytes");
    double chase = cs >= 0 ? csv_num(j->t, 0, cs) : KM_NAN;
    char cz[32], lc[32];
    dst[0] = 0;
    if (judge_in_llc(j, chase, lc, sizeof(lc))) {
        fmt_size(cz, sizeof(cz), chase);
        ksnprintf(dst, cap, " (the %s chase fits in the %s last cache: not memory's)", cz, lc);
    }
}

static void judge_loaded(const struct an_judge *j, struct verdict *v)
{
    const struct csv *t = j->t;
    if (!t || t->nrows == 0)
        return; /* skipped: run.json says why */
    v->present = true;
    int cb = csv_col(t, "bandwidth_gb_per_s"), cn = csv_col(t, "ns_median");
    int cg = csv_col(t, "generators");
    if (cb < 0 || cn < 0 || cg < 0) {
        verdict_headline(v, "loaded.csv lacks bandwidth_gb_per_s, generators or ns_median");
        return;
    }
    double idle = KM_NAN, top_bw = -1, top_ns = KM_NAN, low_bw = KM_INF, low_ns = KM_NAN;
    int cd = csv_col(t, "delay_ns"), cm = csv_col(t, "mode");
    verdict_line(v, "| generators | mode | delay ns | GB/s | chase ns (median) |");
    verdict_line(v, "|---|---|---|---|---|");
    for (size_t i = 0; i < t->nrows; i++) {
        double b = csv_num(t, i, cb), ns = csv_num(t, i, cn), g = csv_num(t, i, cg);
        const char *mode = cm >= 0 ? csv_text(t, i, cm) : "read";
        verdict_line(v, "| %.0f | %s | %.0f | %.2f | %.1f |", g, g ? mode : "idle",
                     cd >= 0 ? csv_num(t, i, cd) : KM_NAN, b, ns);
        if (g == 0 && kisnan(idle))
            idle = ns;
        if (g == 0 || !kisfinite(b))
            continue;
        if (b > top_bw) {
            top_bw = b;
            top_ns = ns;
        }
        if (b < low_bw) {
            low_bw = b;
            low_ns = ns;
        }
    }
    verdict_number(v, "idle_ns", idle, "ns", "latency with no traffic");
    verdict_number(v, "top_gb_per_s", top_bw, "GB/s", "the most traffic the generators made");
    verdict_number(v, "top_ns", top_ns, "ns", "latency under that traffic");
    verdict_number(v, "lightest_ns", low_ns, "ns", "latency under the lightest traffic");
    char whose[96];
    chase_in_llc(j, whose, sizeof(whose));
    if (top_bw < 0 || kisnan(idle))
        verdict_headline(v, "loaded latency%s: idle %.1f ns; no loaded point", whose, idle);
    else if (low_bw < LOADED_LIGHT_SHARE * top_bw)
        /* a point with the generators busy but hardly moving data: what being busy costs */
        verdict_headline(v,
                         "loaded latency%s: %.1f ns idle, %.1f ns at the lightest load (%.3f "
                         "GB/s: the others busy, hardly moving data), %.1f ns at the highest "
                         "bandwidth (%.2f GB/s from the others), %+.0f%%",
                         whose, idle, low_ns, low_bw, top_ns, top_bw, (top_ns / idle - 1) * 100);
    else
        verdict_headline(v,
                         "loaded latency%s: %.1f ns idle, %.1f ns at the highest bandwidth "
                         "(%.2f GB/s from the others), %+.0f%%",
                         whose, idle, top_ns, top_bw, (top_ns / idle - 1) * 100);
}

const struct an_experiment analysis_loaded = {
    .name = "loaded",
    .plot = {.stem = "loaded",
             .x = "bandwidth_gb_per_s",
             .y = "ns_median",
             .split = "mode", /* one curve per generator mode: read, readwrite */
             .xlabel = "bandwidth the other processors move (reads, plus writebacks in "
                       "readwrite), GB/s",
             .ylabel = "chase latency, ns",
             .what = "loaded latency",
             .caption = "The random chase's latency far beyond the LLC on one processor against "
                        "the bandwidth the others move at stepped injection delays (the first "
                        "point is idle, delays in ns after each 1 KiB block, flat out last): "
                        "MLC's loaded-latency curve."},
    .judge = judge_loaded,
};
