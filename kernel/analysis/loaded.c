// SPDX-License-Identifier: MIT
// The loaded experiment's report side: latency against the bandwidth the others use.
#include "analysis/judge.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"

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

/* Mixes a report tells apart at most (the mixes key lists 8 at most, the older mode 2). */
#define LOADED_MIXES_MAX 16

/* The column naming each row's mix: mix, or in runs before the family the generators' mode. */
static int loaded_mix_col(const struct csv *t)
{
    int c = csv_col(t, "mix");
    return c >= 0 ? c : csv_col(t, "mode");
}

/* One mix's curve: where it peaked (its point of the most bandwidth). */
struct loaded_mix {
    const char *name;
    double peak_gbps, peak_ns, read_gbps, write_gbps;
};

/* The mixes in table order, each with its peak (the point of the most bandwidth); how many. */
static size_t loaded_mixes(const struct csv *t, struct loaded_mix *mx, size_t cap)
{
    int cm = loaded_mix_col(t), cb = csv_col(t, "bandwidth_gb_per_s");
    int cn = csv_col(t, "ns_median"), cg = csv_col(t, "generators");
    int cr = csv_col(t, "read_gb_per_s"), cw = csv_col(t, "write_gb_per_s");
    size_t n = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        const char *name = cm >= 0 ? csv_text(t, i, cm) : "read";
        double b = csv_num(t, i, cb);
        if (csv_num(t, i, cg) == 0 || !kisfinite(b))
            continue;
        size_t k = 0;
        while (k < n && kstrcmp(mx[k].name, name) != 0)
            k++;
        if (k == n && n == cap)
            continue;
        if (k == n)
            mx[n++] = (struct loaded_mix){name, -1, KM_NAN, KM_NAN, KM_NAN};
        if (b > mx[k].peak_gbps) {
            mx[k].peak_gbps = b;
            mx[k].peak_ns = csv_num(t, i, cn);
            mx[k].read_gbps = cr >= 0 ? csv_num(t, i, cr) : KM_NAN;
            mx[k].write_gbps = cw >= 0 ? csv_num(t, i, cw) : KM_NAN;
        }
    }
    return n;
}

/* Each mix's curve in report.md: GB/s : ns at each point, in the table's (the delays') order. */
static void loaded_points(const struct csv *t, struct verdict *v, const struct loaded_mix *mx,
                          size_t n)
{
    int cm = loaded_mix_col(t), cb = csv_col(t, "bandwidth_gb_per_s");
    int cn = csv_col(t, "ns_median"), cd = csv_col(t, "delay_ns"), cg = csv_col(t, "generators");
    verdict_line(v, "| mix | GB/s : ns median per point, lightest load first (delays in ns "
                    "after each 1 KiB block) |");
    verdict_line(v, "|---|---|");
    for (size_t k = 0; k < n && cm >= 0; k++) {
        char pts[VERDICT_CHARS - 24];
        size_t used = 0;
        pts[0] = 0;
        for (size_t i = 0; i < t->nrows && used < sizeof(pts); i++)
            if (csv_num(t, i, cg) > 0 && kstrcmp(csv_text(t, i, cm), mx[k].name) == 0)
                used += (size_t)ksnprintf(pts + used, sizeof(pts) - used, "%s%.2f:%.1f (%.0f)",
                                          used ? ", " : "", csv_num(t, i, cb), csv_num(t, i, cn),
                                          csv_num(t, i, cd));
        verdict_line(v, "| %s | %s |", mx[k].name, pts);
    }
}

/* The headline: idle, the lightest load where it hardly moves data, the highest bandwidth. */
static void loaded_headline(const struct an_judge *j, struct verdict *v, size_t mixes, double idle,
                            double top_bw, double top_ns, const char *top_mix, double low_bw,
                            double low_ns)
{
    char whose[96], light[128] = "", which[48] = "";
    chase_in_llc(j, whose, sizeof(whose));
    if (top_bw < 0 || kisnan(idle)) {
        verdict_headline(v, "loaded latency%s: idle %.1f ns; no loaded point", whose, idle);
        return;
    }
    if (low_bw < LOADED_LIGHT_SHARE * top_bw) /* the others busy, hardly moving data */
        ksnprintf(light, sizeof(light),
                  ", %.1f ns at the lightest load (%.3f GB/s: the others busy, hardly moving "
                  "data)",
                  low_ns, low_bw);
    if (mixes > 1)
        ksnprintf(which, sizeof(which), " in mix %s, of %u read:write mixes", top_mix,
                  (unsigned)mixes);
    verdict_headline(v,
                     "loaded latency%s: %.1f ns idle%s, %.1f ns at the highest bandwidth (%.2f "
                     "GB/s from the others%s), %+.0f%%",
                     whose, idle, light, top_ns, top_bw, which, (top_ns / idle - 1) * 100);
}

/* The table per mix in report.md and --json (verdicts.loaded.mixes), and each mix's points. */
static void loaded_mix_table(const struct an_judge *j, struct verdict *v, double idle,
                             const struct loaded_mix *mx, size_t n)
{
    static const struct vcolumn cols[] = {{"mix", "", true},
                                          {"idle_ns", "ns", false},
                                          {"peak_gb_per_s", "GB/s", false},
                                          {"peak_read_gb_per_s", "GB/s", false},
                                          {"peak_write_gb_per_s", "GB/s", false},
                                          {"peak_ns", "ns", false},
                                          {"peak_vs_idle", "", false}};
    int t = verdict_table(v, "mixes",
                          "per mix: the shared idle latency, the most bandwidth moved (read + "
                          "write), the latency there",
                          cols, 7);
    for (size_t k = 0; k < n; k++) {
        const struct loaded_mix *m = &mx[k];
        struct vcell *row = verdict_row(v, t);
        if (!row)
            continue;
        vcell_text(&row[0], m->name);
        double nums[6] = {idle,          m->peak_gbps, m->read_gbps,
                          m->write_gbps, m->peak_ns,   m->peak_ns / idle};
        for (int c = 0; c < 6; c++)
            row[c + 1].num = nums[c];
    }
    loaded_points(j->t, v, mx, n);
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
    const char *top_mix = "";
    int cm = loaded_mix_col(t);
    for (size_t i = 0; i < t->nrows; i++) {
        double b = csv_num(t, i, cb), ns = csv_num(t, i, cn), g = csv_num(t, i, cg);
        if (g == 0 && kisnan(idle))
            idle = ns;
        if (g == 0 || !kisfinite(b))
            continue;
        if (b > top_bw) {
            top_bw = b;
            top_ns = ns;
            top_mix = cm >= 0 ? csv_text(t, i, cm) : "read";
        }
        if (b < low_bw) {
            low_bw = b;
            low_ns = ns;
        }
    }
    struct loaded_mix mx[LOADED_MIXES_MAX];
    size_t n = loaded_mixes(t, mx, LOADED_MIXES_MAX);
    loaded_mix_table(j, v, idle, mx, n);
    verdict_number(v, "idle_ns", idle, "ns", "latency with no traffic");
    verdict_number(v, "top_gb_per_s", top_bw, "GB/s", "the most traffic the generators made");
    verdict_number(v, "top_ns", top_ns, "ns", "latency under that traffic");
    verdict_number(v, "lightest_ns", low_ns, "ns", "latency under the lightest traffic");
    loaded_headline(j, v, n, idle, top_bw, top_ns, top_mix, low_bw, low_ns);
}

const struct an_experiment analysis_loaded = {
    .name = "loaded",
    .plot = {.stem = "loaded",
             .x = "bandwidth_gb_per_s",
             .y = "ns_median",
             .split = "mix", /* one curve per read:write mix, each from the idle point */
             .shared = "idle",
             .mark_dram = true,
             .y_zero = true, /* latency from 0: a rise of a few percent looks like one */
             .xlabel = "bandwidth the other processors move (what they load plus what they "
                       "store), GB/s",
             .ylabel = "chase latency, ns",
             .what = "loaded latency, one curve per read:write mix",
             .caption = "The random chase's latency far beyond the LLC on one processor against "
                        "the bandwidth the others move, one curve per read:write mix (the "
                        "percent of lines loaded : stored; nt: non-temporal stores), each "
                        "from the idle point through stepped injection delays to flat out: "
                        "Mess's family of curves, MLC's loaded latency per mix."},
    .judge = judge_loaded,
};
