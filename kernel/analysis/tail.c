// SPDX-License-Identifier: MIT
// The tail experiment's report side: the percentiles per size, what the largest size's slow
// batches say of DRAM refresh (the summary's refresh line, beside what the DIMMs' type implies),
// what page walks add to its tail (4K against larger pages) and stalls no memory explains.
#include "analysis/interpret.h"
#include "analysis/judge.h"
#include "analysis/refresh_expect.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"

/* The refresh line of the largest size (the chase beyond the last cache) into v. */
static void tail_refresh(const struct csv *t, bool hypervisor, struct verdict *v)
{
    size_t last = t->nrows - 1;
    int cp = csv_col(t, "refresh_period_ns"), cs = csv_col(t, "refresh_stall_ns"),
        cc = csv_col(t, "refresh_confidence"), cb = csv_col(t, "refresh_beats");
    struct refresh_result r = {0};
    if (cp >= 0 && cs >= 0 && csv_num(t, last, cp) > 0) {
        r.found = true;
        r.period_ns = csv_num(t, last, cp);
        r.stall_ns = csv_num(t, last, cs);
        r.confidence = cc >= 0 ? csv_num(t, last, cc) : KM_NAN;
        r.beats = cb >= 0 ? (size_t)csv_num(t, last, cb) : 0;
    }
    char line[300];
    refresh_summary_for(&r, csv_text(t, last, csv_col(t, "dram_type")), "us", line, sizeof(line));
    if (!r.found && hypervisor)
        judge_append(line, sizeof(line),
                     "; under a hypervisor (its exits, the host's interrupts) it may not be "
                     "measurable");
    verdict_headline(v, "%s", line);
    if (r.found)
        verdict_line(v, "- the period from %zu slow batches on its comb, confidence %.2f", r.beats,
                     r.confidence);
    verdict_number(v, "refresh_period_ns", r.found ? r.period_ns : KM_NAN, "ns",
                   "the DRAM refresh interval: the period of the slow batches beyond the last "
                   "cache (null when no period stands out)");
    verdict_number(
        v, "refresh_stall_ns", r.found ? r.stall_ns : KM_NAN, "ns",
        "what a refresh costs the access that meets it (null when no period stands out)");
}

/* The level a chase of bytes sits in: L<n> for the n-th cache (data or unified, smallest first)
 * that holds it, "DRAM" beyond the last, "" when the caches are unknown. */
static void tail_level(const struct an_input *in, double bytes, char *dst, size_t cap)
{
    size_t smaller = 0;
    for (size_t i = 0; i < in->ncaches; i++)
        smaller += in->cache_bytes[i] < bytes;
    if (in->ncaches == 0)
        dst[0] = 0;
    else if (smaller == in->ncaches)
        ksnprintf(dst, cap, "DRAM");
    else
        ksnprintf(dst, cap, "L%zu", smaller + 1);
}

/* verdicts.tail.percentiles: one record per row of tail.csv (a size, and a page size when the
 * table has that column), read by name so a column the run lacks is null. */
static void tail_percentiles(const struct an_judge *j, struct verdict *v)
{
    static const struct vcolumn cols[] = {{"level", "", true},     {"size_bytes", "bytes", false},
                                          {"p50_ns", "ns", false}, {"p90_ns", "ns", false},
                                          {"p99_ns", "ns", false}, {"p999_ns", "ns", false},
                                          {"max_ns", "ns", false}, {"slow_batches", "", false},
                                          {"stalls", "", false},   {"page_bytes", "bytes", false}};
    const struct csv *t = j->t;
    bool paged = csv_col(t, "page_bytes") >= 0;
    size_t ncols = sizeof(cols) / sizeof(cols[0]) - !paged;
    int k = verdict_table(v, "percentiles", "the batch times per size", cols, ncols);
    for (size_t r = 0; k >= 0 && r < t->nrows; r++) {
        struct vcell *row = verdict_row(v, k);
        if (!row)
            break;
        tail_level(j->in, csv_num(t, r, csv_col(t, "size_bytes")), row[0].text, VCELL_TEXT);
        for (size_t c = 1; c < ncols; c++) {
            int col = csv_col(t, cols[c].name);
            row[c].num = col >= 0 ? csv_num(t, r, col) : KM_NAN;
        }
    }
}

/* The row of the largest size under the smallest (walks) or the largest page (fewest walks);
 * -1 when the table has no page_bytes column. */
static long tail_page_row(const struct csv *t, bool largest)
{
    int cz = csv_col(t, "size_bytes"), cp = csv_col(t, "page_bytes");
    double top = csv_num(t, t->nrows - 1, cz);
    long best = -1;
    for (size_t i = 0; cp >= 0 && i < t->nrows; i++) {
        double pg = csv_num(t, i, cp);
        if (csv_num(t, i, cz) != top || !(pg > 0))
            continue;
        if (best < 0 ||
            (largest ? pg > csv_num(t, (size_t)best, cp) : pg < csv_num(t, (size_t)best, cp)))
            best = (long)i;
    }
    return best;
}

/* What page walks add to the largest size's batches: 4K pages against the largest ones. */
static void tail_page_walks(const struct csv *t, struct verdict *v)
{
    long a = tail_page_row(t, false), b = tail_page_row(t, true);
    int cp = csv_col(t, "page_bytes"), c50 = csv_col(t, "p50_ns"), c999 = csv_col(t, "p999_ns");
    bool both = a >= 0 && b >= 0 && a != b;
    double d50 = both ? csv_num(t, (size_t)a, c50) - csv_num(t, (size_t)b, c50) : KM_NAN;
    double d999 = both ? csv_num(t, (size_t)a, c999) - csv_num(t, (size_t)b, c999) : KM_NAN;
    if (both) {
        char sz[32], pa[16], pb[16];
        fmt_size(sz, sizeof(sz), csv_num(t, (size_t)a, csv_col(t, "size_bytes")));
        fmt_size(pa, sizeof(pa), csv_num(t, (size_t)a, cp));
        fmt_size(pb, sizeof(pb), csv_num(t, (size_t)b, cp));
        verdict_line(v,
                     "- page walks at %s: %s pages add %.1f ns to the median batch and %.1f ns "
                     "to its p99.9 against %s pages",
                     sz, pa, d50, d999, pb);
    }
    verdict_number(v, "page_walk_p50_ns", d50, "ns",
                   "what the smallest pages add to the median batch beyond the last cache against "
                   "the largest (null with one page size)");
    verdict_number(v, "page_walk_p999_ns", d999, "ns",
                   "the same at the 99.9th percentile: the share of the tail page walks add");
}

static void judge_tail(const struct an_judge *j, struct verdict *v)
{
    const struct csv *t = j->t;
    if (!t)
        return; /* the experiment did not run: no verdict */
    v->present = true;
    int cz = csv_col(t, "size_bytes"), c50 = csv_col(t, "p50_ns"), c99 = csv_col(t, "p99_ns"),
        c999 = csv_col(t, "p999_ns"), cmax = csv_col(t, "max_ns"), cst = csv_col(t, "stalls"),
        cl = csv_col(t, "stall_longest_ns"), cpm = csv_col(t, "stalls_per_minute");
    if (cz < 0 || c50 < 0 || c99 < 0 || c999 < 0 || cmax < 0 || t->nrows == 0) {
        verdict_headline(v, "tail.csv lacks its percentile columns, or has no rows");
        return;
    }
    for (size_t i = 0; i < t->nrows; i++) {
        char sz[32], pg[40] = "";
        fmt_size(sz, sizeof(sz), csv_num(t, i, cz));
        if (csv_num(t, i, csv_col(t, "page_bytes")) > 0) {
            kstrlcpy(pg, " (", sizeof(pg));
            fmt_size(pg + 2, sizeof(pg) - 2, csv_num(t, i, csv_col(t, "page_bytes")));
            judge_append(pg, sizeof(pg), " pages)");
        }
        verdict_line(v, "- %s%s: p50 %.1f ns, p99 %.1f ns, p99.9 %.1f ns, max %.1f ns", sz, pg,
                     csv_num(t, i, c50), csv_num(t, i, c99), csv_num(t, i, c999),
                     csv_num(t, i, cmax));
    }
    tail_refresh(t, j->in->hypervisor, v);
    tail_percentiles(j, v);
    tail_page_walks(t, v);
    size_t last = t->nrows - 1;
    if (cst >= 0 && cl >= 0 && cpm >= 0 && csv_num(t, last, cst) > 0)
        verdict_line(v, "- stalls no memory explains: %.0f, the longest %.0f ns, %.1f a minute",
                     csv_num(t, last, cst), csv_num(t, last, cl), csv_num(t, last, cpm));
}

static const struct an_dist tail_dist = {
    .size = "size_bytes",
    .page = "page_bytes",
    .batches = "batches",
    .pct = {"p50_ns", "p90_ns", "p99_ns", "p999_ns", "max_ns"},
    .slow = "slow_batches",
    .stalls = "stalls",
    .period = "refresh_period_ns",
    .stall = "refresh_stall_ns",
    .confidence = "refresh_confidence",
    .beats = "refresh_beats",
    .strays = "refresh_strays",
    .bin_low = "bin_low_ns",
    .bin_high = "bin_high_ns",
    .count = "count",
    .time_us = "time_us",
    .excess_ns = "excess_ns",
    .levels = "percentiles",
    .level = "level",
    .walk_p50 = "page_walk_p50_ns",
    .walk_p999 = "page_walk_p999_ns",
};

const struct an_experiment analysis_tail = {
    .name = "tail",
    .plot = {.stem = "tail",
             .x = "size_bytes",
             .y = "p999_ns",
             .group = "page_bytes", /* a curve per page size: 4K's own point at the largest */
             .label = AN_LABEL_PAGES,
             .xlabel = "chain size (bytes, log2 scale)",
             .ylabel = "ns per batch (p99.9)",
             .x_size = true,
             .logy = true,
             .what = "tail: the 99.9th percentile batch time against chain size",
             .caption = "The slowest thousandth of the timed batches at each level's size."},
    .dist = &tail_dist,
    .judge = judge_tail,
};
