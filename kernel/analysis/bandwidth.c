// SPDX-License-Identifier: MIT
// The bandwidth experiment's report side: each level's read, write and copy GB/s beside its
// latency.
//
// The levels are the random chase's of the same run (its plateaus); without one, the read
// kernel's own curve, time per byte taken as a latency, goes through the same level detection.
// A level's bandwidth is the median, per kernel, of the points on its plateau (DRAM: from where
// the memory plateau begins). The theoretical peaks beside the measured read: L1's is the
// documented one the run wrote (its l1_peak_bytes_per_cycle column, machine/simd_peak.c) at the
// clock the run measured; DRAM's is channels x transfer rate x bus bytes from SMBIOS type 17
// (its dram_peak_gbs column, machine/smbios_mem.c), for the whole memory, not one core's share.
#include "analysis/judge.h"
#include "lib/kmath.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/stats.h"

/* The read curve needs this many sizes to find levels on. */
#define BW_CURVE_MIN_POINTS 4
#define BW_CURVE_MAX 256

/* The kernels a level's row gives, in the table's order. */
static const char *const level_kernels[] = {"read", "write", "copy"};

/* One level's bandwidth from one core (GB/s: 10^9 bytes moved per second), NaN: not measured. */
struct bw_level {
    char level[8]; /* "L1", "L2", ..., "DRAM" */
    double size_bytes, latency_ns;
    double read_gbs, write_gbs, copy_gbs;
    double read_peak_gbs; /* the theoretical peak: L1's loads at the measured clock, DRAM's bus */
};

/* The levels of one run, DRAM last. */
struct bw_levels {
    size_t n;
    struct bw_level l[LEVELS_MAX + 1];
};

/* The verdict's table: one record a level (verdicts.bandwidth.levels in chase-report --json). */
static const struct vcolumn level_columns[] = {
    {"level", "", true},
    {"size_bytes", "bytes", false},
    {"latency_ns", "ns", false},
    {"read_gbs", "GB/s", false},
    {"write_gbs", "GB/s", false},
    {"copy_gbs", "GB/s", false},
    {"read_peak_gbs", "GB/s", false},
};

/* Median of column y over rows of kernel k with size in [lo, hi]; NaN when none. */
static double median_in(const struct csv *t, const char *k, const char *y, double lo, double hi)
{
    double v[BW_CURVE_MAX];
    size_t n = 0;
    int ck = csv_col(t, "kernel"), cs = csv_col(t, "size_bytes"), cy = csv_col(t, y);
    for (size_t r = 0; r < t->nrows && n < BW_CURVE_MAX; r++) {
        double s = csv_num(t, r, cs), g = csv_num(t, r, cy);
        if (kstrcmp(csv_text(t, r, ck), k) == 0 && s >= lo && s <= hi && kisfinite(g))
            v[n++] = g;
    }
    return n ? stats_median(v, n) : KM_NAN;
}

/* Levels from the read kernel's curve (ns per byte as the latency); false with too few sizes. */
static bool own_levels(const struct csv *t, struct detection *d)
{
    static double size[BW_CURVE_MAX], ns[BW_CURVE_MAX];
    size_t n = 0;
    int ck = csv_col(t, "kernel"), cs = csv_col(t, "size_bytes"), cg = csv_col(t, "gbs_median");
    for (size_t r = 0; r < t->nrows && n < BW_CURVE_MAX; r++) {
        double s = csv_num(t, r, cs), g = csv_num(t, r, cg);
        if (kstrcmp(csv_text(t, r, ck), "read") == 0 && s > 0 && g > 0) {
            size[n] = s;
            ns[n++] = 1.0 / g; /* 1/GB/s = ns per byte */
        }
    }
    if (n < BW_CURVE_MIN_POINTS)
        return false;
    struct detect_opts o = {0};
    levels_detect(size, ns, NULL, n, &o, d);
    return true;
}

/* One level's row from the points in [lo, hi]. */
static void fill_level(const struct csv *t, struct bw_level *b, double lo, double hi)
{
    double *g[] = {&b->read_gbs, &b->write_gbs, &b->copy_gbs};
    for (size_t k = 0; k < 3; k++)
        *g[k] = median_in(t, level_kernels[k], "gbs_median", lo, hi);
    b->read_peak_gbs = KM_NAN;
}

/* The L1 read peak in GB/s: the documented bytes per cycle times the measured clock (GHz =
   GB/s over bytes per cycle), over the L1 plateau's read points. */
static double l1_peak_gbs(const struct csv *t, double lo, double hi)
{
    double peak = median_in(t, "read", "l1_peak_bytes_per_cycle", lo, hi);
    double gbs = median_in(t, "read", "gbs_median", lo, hi);
    double bpc = median_in(t, "read", "bytes_per_cycle_median", lo, hi);
    return peak * gbs / bpc;
}

/* The theoretical DRAM bandwidth the run wrote (every row holds it; NaN: unknown). */
static double dram_peak_gbs(const struct csv *t)
{
    return csv_col(t, "dram_peak_gbs") < 0 ? KM_NAN
                                           : median_in(t, "read", "dram_peak_gbs", 0, KM_INF);
}

/* Every level of d, then DRAM, into bl; latencies only when d is the random chase's. */
static void collect(const struct csv *t, const struct detection *d, bool latency,
                    struct bw_levels *bl)
{
    for (size_t i = 0; i < d->nlevels && bl->n < LEVELS_MAX; i++) {
        const struct level *l = &d->level[i];
        if (l->kind == LEVEL_TLB)
            continue;
        struct bw_level *b = &bl->l[bl->n++];
        level_name_of(b->level, sizeof(b->level), d, i);
        b->size_bytes = l->size_known ? l->size_bytes : KM_NAN;
        b->latency_ns = latency ? l->latency_ns : KM_NAN;
        fill_level(t, b, l->from_bytes, l->to_bytes);
        if (bl->n == 1)
            b->read_peak_gbs = l1_peak_gbs(t, l->from_bytes, l->to_bytes);
    }
    if (kisfinite(d->dram_from_bytes)) {
        struct bw_level *b = &bl->l[bl->n++];
        kstrlcpy(b->level, "DRAM", sizeof(b->level));
        b->size_bytes = KM_NAN;
        b->latency_ns = latency ? d->dram_ns : KM_NAN;
        fill_level(t, b, d->dram_from_bytes, KM_INF);
        b->read_peak_gbs = dram_peak_gbs(t);
    }
}

/* The levels as the verdict's table of records. */
static void level_items(struct verdict *v, const struct bw_levels *bl)
{
    int t = verdict_table(v, "levels", "one core's GB/s per level, DRAM last", level_columns,
                          sizeof(level_columns) / sizeof(level_columns[0]));
    for (size_t i = 0; i < bl->n; i++) {
        const struct bw_level *b = &bl->l[i];
        struct vcell *row = verdict_row(v, t);
        if (!row)
            return;
        vcell_text(&row[0], b->level);
        row[1].num = b->size_bytes;
        row[2].num = b->latency_ns;
        row[3].num = b->read_gbs;
        row[4].num = b->write_gbs;
        row[5].num = b->copy_gbs;
        row[6].num = b->read_peak_gbs;
    }
}

/* "12.3" or "-". */
static void gbs_text(char *dst, size_t cap, double v)
{
    if (kisfinite(v))
        ksnprintf(dst, cap, "%.1f", v);
    else
        ksnprintf(dst, cap, "-");
}

/* The table (AIDA64's screen): level, size, latency, read, write, copy, the theoretical peak. */
static void level_lines(struct verdict *v, const struct bw_levels *bl)
{
    verdict_line(v, "| level | size | latency ns | read GB/s | write GB/s | copy GB/s | "
                    "read peak GB/s |");
    verdict_line(v, "|---|---|---|---|---|---|---|");
    for (size_t i = 0; i < bl->n; i++) {
        const struct bw_level *b = &bl->l[i];
        char sz[16], lat[16], r[16], w[16], c[16], pk[16];
        fmt_size(sz, sizeof(sz), b->size_bytes);
        gbs_text(lat, sizeof(lat), b->latency_ns);
        gbs_text(r, sizeof(r), b->read_gbs);
        gbs_text(w, sizeof(w), b->write_gbs);
        gbs_text(c, sizeof(c), b->copy_gbs);
        gbs_text(pk, sizeof(pk), b->read_peak_gbs);
        verdict_line(v, "| %s | %s | %s | %s | %s | %s | %s |", b->level,
                     kisfinite(b->size_bytes) ? sz : "-", lat, r, w, c, pk);
    }
    verdict_line(v, "%s", "");
    verdict_line(v, "- read peak: L1's from the core's documented loads per cycle at the measured "
                    "clock (machine/simd_peak.c); DRAM's the theoretical bandwidth of all "
                    "channels, channels x transfer rate x bus bytes from SMBIOS type 17 (one "
                    "core reaches a share of it; bw_cores' all-read peak is the figure to set "
                    "against it)");
}

/* "L1 read 325.6 GB/s (94% of the documented peak), L2 115.2, DRAM 11.7 GB/s". */
static void headline(struct verdict *v, const struct bw_levels *bl, const char *source)
{
    char text[VERDICT_CHARS] = "";
    for (size_t i = 0; i < bl->n; i++) {
        const struct bw_level *b = &bl->l[i];
        char g[16];
        gbs_text(g, sizeof(g), b->read_gbs);
        judge_append(text, sizeof(text), "%s%s %s", i ? ", " : "read GB/s: ", b->level, g);
        if (!kisfinite(b->read_peak_gbs) || b->read_peak_gbs <= 0)
            continue;
        double pct = 100.0 * b->read_gbs / b->read_peak_gbs;
        if (kstrcmp(b->level, "DRAM") == 0)
            judge_append(text, sizeof(text), " (%.0f%% of the theoretical %.1f)", pct,
                         b->read_peak_gbs);
        else
            judge_append(text, sizeof(text), " (%.0f%% of the documented L1 peak)", pct);
    }
    verdict_headline(v, "%s (levels from %s)", text, source);
}

static void judge_bandwidth(const struct an_judge *j, struct verdict *v)
{
    static struct detection own;
    static struct bw_levels bl;
    const struct csv *t = j->t;
    bl.n = 0;
    if (!t || t->nrows == 0)
        return; /* skipped: run.json says why */
    v->present = true;
    if (csv_col(t, "kernel") < 0 || csv_col(t, "size_bytes") < 0 || csv_col(t, "gbs_median") < 0) {
        verdict_headline(v, "bandwidth.csv lacks kernel, size_bytes or gbs_median");
        return;
    }
    const char *source = "the random chase";
    if (j->r && j->r->primary >= 0) {
        collect(t, &j->r->cr[j->r->primary].det, true, &bl);
    } else if (own_levels(t, &own)) {
        collect(t, &own, false, &bl);
        source = "the read curve's own steps";
    } else {
        verdict_headline(v, "too few sizes in bandwidth.csv to find levels on");
        return;
    }
    level_items(v, &bl);
    level_lines(v, &bl);
    headline(v, &bl, source);
}

const struct an_experiment analysis_bandwidth = {
    .name = "bandwidth",
    .plot = {.stem = "bandwidth",
             .x = "size_bytes",
             .y = "gbs_median",
             .split = "kernel",
             .xlabel = "buffer size (bytes, log2 scale)",
             .ylabel = "GB/s (1e9 bytes moved per second; copy: read + written)",
             .x_size = true,
             .logy = true,
             .mark_levels = true,
             .what = "bandwidth of one core against buffer size, per kernel",
             .caption = "Bytes moved per second by one core, one curve per kernel (read, write, "
                        "copy, non-temporal write and copy), with the levels the random chase "
                        "found marked: each level's plateau gives its bandwidth."},
    .judge = judge_bandwidth,
};
