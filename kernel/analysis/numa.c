// SPDX-License-Identifier: MIT
// The numa experiment's report side: the node x node matrix beside SLIT, the remote/local
// latency ratio of every pair, whether the measured order is SLIT's, and the node x node read
// bandwidth (all of a node's processors into each node's memory) where the run measured it;
// CPU-less memory nodes marked, and the firmware's HMAT figures beside the measured ones; the step
// each memory-side cache's sweep (numa.msc.csv) shows beside HMAT's size.
#include "analysis/judge.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "lib/msc.h"
#include "lib/stats.h"

#define NUMA_NODES 32      /* read back: AMD L3-as-node (24 domains), Xeon Max SNC4 (16) */
#define NUMA_PAIR_LINES 16 /* more off-diagonal pairs: only the matrix is listed */
#define NUMA_MSC_POINTS 64 /* points of one memory-side cache's sweep read (lib/msc.c reads 64) */
#define NUMA_MSC_CACHES 8  /* memory-side caches listed; more are left out of the table */

/* The matrix as read back: ns median and min, SLIT's distance (NaN: not measured, unknown). */
struct numa_matrix {
    unsigned n; /* nodes: one more than the highest node number seen */
    double ns[NUMA_NODES][NUMA_NODES], min[NUMA_NODES][NUMA_NODES];
    double slit[NUMA_NODES][NUMA_NODES];
    double gbs[NUMA_NODES][NUMA_NODES];      /* read bandwidth, GB/s (NaN: not measured) */
    double procs[NUMA_NODES][NUMA_NODES];    /* ... over this many processors */
    bool has_gbs;                            /* the table has the read_gbs column */
    bool cpu_less[NUMA_NODES];               /* the memory node has no processor of its own */
    double hmat_ns[NUMA_NODES][NUMA_NODES];  /* HMAT's advertised latency (NaN: none) */
    double hmat_mbs[NUMA_NODES][NUMA_NODES]; /* ... and bandwidth, MB/s */
};

/* Fill m from the table; false when a column is missing. */
static bool read_matrix(const struct csv *t, struct numa_matrix *m)
{
    int cf = csv_col(t, "cpu_node"), cm = csv_col(t, "mem_node"), cn = csv_col(t, "ns_median");
    int cmin = csv_col(t, "ns_min"), cs = csv_col(t, "slit_distance");
    int cg = csv_col(t, "read_gbs"), cp = csv_col(t, "read_processors");
    int cl = csv_col(t, "cpu_less"), chn = csv_col(t, "hmat_latency_ns");
    int chb = csv_col(t, "hmat_bandwidth_mbs");
    if (cf < 0 || cm < 0 || cn < 0 || cmin < 0 || cs < 0)
        return false;
    m->n = 0;
    m->has_gbs = cg >= 0;
    for (unsigned a = 0; a < NUMA_NODES; a++)
        for (unsigned b = 0; b < NUMA_NODES; b++)
            m->ns[a][b] = m->min[a][b] = m->slit[a][b] = m->gbs[a][b] = m->procs[a][b] =
                m->hmat_ns[a][b] = m->hmat_mbs[a][b] = KM_NAN;
    for (unsigned b = 0; b < NUMA_NODES; b++)
        m->cpu_less[b] = false;
    for (size_t i = 0; i < t->nrows; i++) {
        double f = csv_num(t, i, cf), g = csv_num(t, i, cm);
        if (!(f >= 0 && f < NUMA_NODES && g >= 0 && g < NUMA_NODES))
            continue;
        unsigned a = (unsigned)f, b = (unsigned)g;
        m->ns[a][b] = csv_num(t, i, cn);
        m->min[a][b] = csv_num(t, i, cmin);
        m->slit[a][b] = csv_num(t, i, cs); /* NaN when the cell is empty */
        m->gbs[a][b] = cg >= 0 ? csv_num(t, i, cg) : KM_NAN;
        m->procs[a][b] = cp >= 0 ? csv_num(t, i, cp) : KM_NAN;
        m->hmat_ns[a][b] = chn >= 0 ? csv_num(t, i, chn) : KM_NAN;
        m->hmat_mbs[a][b] = chb >= 0 ? csv_num(t, i, chb) : KM_NAN;
        m->cpu_less[b] = cl >= 0 && kstrcmp(csv_text(t, i, cl), "true") == 0;
        m->n = a + 1 > m->n ? a + 1 : m->n;
        m->n = b + 1 > m->n ? b + 1 : m->n;
    }
    return true;
}

/* The matrix table: a row per processor's node, "ns (SLIT)" per memory node. */
static void matrix_lines(const struct numa_matrix *m, struct verdict *v)
{
    char line[VERDICT_CHARS] = "| processor's node \\ memory's node |";
    char rule[VERDICT_CHARS] = "|---|";
    for (unsigned b = 0; b < m->n; b++) {
        judge_append(line, sizeof(line), m->cpu_less[b] ? " %u (CPU-less) |" : " %u |", b);
        judge_append(rule, sizeof(rule), "---|");
    }
    verdict_line(v, "%s", line);
    verdict_line(v, "%s", rule);
    for (unsigned a = 0; a < m->n; a++) {
        ksnprintf(line, sizeof(line), "| %u |", a);
        bool any = false;
        for (unsigned b = 0; b < m->n; b++) {
            any |= kisfinite(m->ns[a][b]);
            if (!kisfinite(m->ns[a][b]))
                judge_append(line, sizeof(line), " - |");
            else if (kisfinite(m->slit[a][b]))
                judge_append(line, sizeof(line), " %.1f ns (%.0f) |", m->ns[a][b], m->slit[a][b]);
            else
                judge_append(line, sizeof(line), " %.1f ns |", m->ns[a][b]);
        }
        if (any)
            verdict_line(v, "%s", line);
    }
}

/* The read bandwidth matrix: "GB/s (processors)" per cell; nothing when none was measured. */
static void bandwidth_lines(const struct numa_matrix *m, struct verdict *v)
{
    char line[VERDICT_CHARS] = "| processors' node \\ memory's node, read GB/s |";
    char rule[VERDICT_CHARS] = "|---|";
    bool header = false;
    for (unsigned b = 0; b < m->n; b++) {
        judge_append(line, sizeof(line), " %u |", b);
        judge_append(rule, sizeof(rule), "---|");
    }
    for (unsigned a = 0; a < m->n; a++) {
        char row[VERDICT_CHARS];
        bool any = false;
        ksnprintf(row, sizeof(row), "| %u |", a);
        for (unsigned b = 0; b < m->n; b++) {
            any |= kisfinite(m->gbs[a][b]);
            if (!kisfinite(m->gbs[a][b]))
                judge_append(row, sizeof(row), " - |");
            else if (kisfinite(m->procs[a][b]))
                judge_append(row, sizeof(row), " %.1f GB/s (%.0f) |", m->gbs[a][b], m->procs[a][b]);
            else
                judge_append(row, sizeof(row), " %.1f GB/s |", m->gbs[a][b]);
        }
        if (any && !header) {
            verdict_line(v, "%s", "");
            verdict_line(v, "%s", line);
            verdict_line(v, "%s", rule);
            header = true;
        }
        if (any)
            verdict_line(v, "%s", row);
    }
}

/* Each measured pair beside HMAT's advertised latency and bandwidth; nothing without HMAT. */
static void hmat_lines(const struct numa_matrix *m, struct verdict *v)
{
    bool header = false;
    for (unsigned a = 0; a < m->n; a++)
        for (unsigned b = 0; b < m->n; b++) {
            double ns = m->ns[a][b], hns = m->hmat_ns[a][b], gbs = m->gbs[a][b];
            double mbs = m->hmat_mbs[a][b];
            if (!kisfinite(ns) || (!kisfinite(hns) && !kisfinite(mbs)))
                continue;
            if (!header) {
                verdict_line(v, "%s", "");
                verdict_line(v, "| from node | memory node | ns (median) | HMAT | x HMAT | read "
                                "GB/s | HMAT | x HMAT |");
                verdict_line(v, "|---|---|---|---|---|---|---|---|");
                header = true;
            }
            char lat[32] = "-", lr[16] = "-", bw[16] = "-", hb[32] = "-", br[16] = "-";
            if (kisfinite(hns) && hns > 0) {
                ksnprintf(lat, sizeof(lat), "HMAT %.1f ns", hns);
                ksnprintf(lr, sizeof(lr), "%.2f", ns / hns);
            }
            if (kisfinite(gbs))
                ksnprintf(bw, sizeof(bw), "%.2f", gbs);
            if (kisfinite(mbs) && mbs > 0) {
                ksnprintf(hb, sizeof(hb), "HMAT %.0f MB/s", mbs);
                if (kisfinite(gbs))
                    ksnprintf(br, sizeof(br), "%.2f", gbs * 1000.0 / mbs);
            }
            verdict_line(v, "| %u | %u%s | %.1f | %s | %s | %s | %s | %s |", a, b,
                         m->cpu_less[b] ? " (CPU-less)" : "", ns, lat, lr, bw, hb, br);
        }
}

/*
 * Whether row a orders its memory nodes as SLIT does: every two cells whose distances differ
 * are measured in the same order. *compared counts the pairs that could be compared.
 */
static unsigned order_disagreements(const struct numa_matrix *m, unsigned a, unsigned *compared)
{
    unsigned bad = 0;
    for (unsigned b = 0; b < m->n; b++)
        for (unsigned c = 0; c < m->n; c++) {
            double sb = m->slit[a][b], sc = m->slit[a][c];
            if (!kisfinite(m->ns[a][b]) || !kisfinite(m->ns[a][c]) || !kisfinite(sb) ||
                !kisfinite(sc) || !(sb < sc))
                continue;
            (*compared)++;
            bad += !(m->ns[a][b] < m->ns[a][c]);
        }
    return bad;
}

/* Each off-diagonal pair against its row's local latency, beside SLIT's ratio. */
static void pair_lines(const struct numa_matrix *m, struct verdict *v, double *ratios,
                       size_t *nratios)
{
    unsigned pairs = 0;
    for (unsigned a = 0; a < m->n; a++)
        for (unsigned b = 0; b < m->n; b++)
            pairs += a != b && kisfinite(m->ns[a][b]) && kisfinite(m->ns[a][a]);
    if (pairs && pairs <= NUMA_PAIR_LINES) {
        verdict_line(v, "%s", "");
        verdict_line(v,
                     "| from node | memory node | ns (median) | ns (min) | x local | SLIT / 10 |");
        verdict_line(v, "|---|---|---|---|---|---|");
    }
    for (unsigned a = 0; a < m->n; a++)
        for (unsigned b = 0; b < m->n; b++) {
            double local = m->ns[a][a], ns = m->ns[a][b];
            if (a == b || !kisfinite(ns) || !kisfinite(local) || local <= 0)
                continue;
            ratios[(*nratios)++] = ns / local;
            char slit[16] = "-";
            if (kisfinite(m->slit[a][b]) && kisfinite(m->slit[a][a]) && m->slit[a][a] > 0)
                ksnprintf(slit, sizeof(slit), "%.1f", m->slit[a][b] / m->slit[a][a]);
            if (pairs <= NUMA_PAIR_LINES)
                verdict_line(v, "| %u | %u | %.1f | %.1f | %.2f | %s |", a, b, ns, m->min[a][b],
                             ns / local, slit);
        }
}

/* Median of the diagonal (local) and of the rest (remote) cells of x; NaN when none. */
static void local_remote(const struct numa_matrix *m, const double (*x)[NUMA_NODES], double *local,
                         double *remote)
{
    double l[NUMA_NODES], r[NUMA_NODES * NUMA_NODES];
    size_t nl = 0, nr = 0;
    for (unsigned a = 0; a < m->n; a++)
        for (unsigned b = 0; b < m->n; b++) {
            if (!kisfinite(x[a][b]))
                continue;
            if (a == b)
                l[nl++] = x[a][b];
            else
                r[nr++] = x[a][b];
        }
    *local = nl ? stats_median(l, nl) : KM_NAN;
    *remote = nr ? stats_median(r, nr) : KM_NAN;
}

/* What one memory-side cache's sweep shows, for the table's last cell. */
static void msc_shows(const struct msc_step *st, char *buf, size_t cap)
{
    char a[24], b[24];
    fmt_size(a, sizeof(a), (double)st->from_bytes);
    fmt_size(b, sizeof(b), (double)st->to_bytes);
    if (!st->known)
        ksnprintf(buf, cap,
                  "unknown: no point between twice the last cache and half this one, "
                  "or none at twice it");
    else if (st->seen)
        ksnprintf(buf, cap, "step between %s and %s, %.1f -> %.1f ns (x%.2f)", a, b, st->below_ns,
                  st->beyond_ns, st->ratio);
    else
        ksnprintf(buf, cap, "no step: %.1f -> %.1f ns (x%.2f < x%.2f)", st->below_ns, st->beyond_ns,
                  st->ratio, MSC_STEP_RATIO);
}

/* One row of the memory-side cache table: the rows of t of node's cache at level (t's order). */
static void msc_row(const struct an_judge *j, const struct csv *t, const int *c, double node,
                    double level, struct verdict *v)
{
    uint64_t size[NUMA_MSC_POINTS];
    double ns[NUMA_MSC_POINTS], dom = 0, from = 0, cache = 0;
    unsigned n = 0;
    for (size_t i = 0; i < t->nrows && n < NUMA_MSC_POINTS; i++) {
        if (csv_num(t, i, c[0]) != node || csv_num(t, i, c[2]) != level)
            continue;
        dom = csv_num(t, i, c[1]), from = csv_num(t, i, c[5]), cache = csv_num(t, i, c[3]);
        size[n] = (uint64_t)csv_num(t, i, c[4]);
        ns[n++] = csv_num(t, i, c[6]);
    }
    char cs[24], lo[24], hi[24], shows[160];
    struct msc_step st;
    msc_step_find(size, ns, n, (uint64_t)cache, (uint64_t)j->in->llc_bytes, &st);
    msc_shows(&st, shows, sizeof(shows));
    fmt_size(cs, sizeof(cs), cache);
    fmt_size(lo, sizeof(lo), (double)size[0]);
    fmt_size(hi, sizeof(hi), (double)size[n - 1]);
    verdict_line(v, "| %.0f | %.0f | %.0f | %s (level %.0f) | %s .. %s (%u) | %s |", node, dom,
                 from, cs, level, lo, hi, n, shows);
}

/* numa.msc.csv: a row per memory-side cache, the step its sweep shows beside HMAT's size. */
static void msc_lines(const struct an_judge *j, struct verdict *v)
{
    static const char *const cols[] = {"mem_node",   "mem_domain", "cache_level", "cache_bytes",
                                       "size_bytes", "cpu_node",   "ns_median"};
    const struct csv *t = j->side;
    int c[7];
    double seen[NUMA_MSC_CACHES][2];
    unsigned nseen = 0;
    if (!t || !t->nrows)
        return;
    for (unsigned k = 0; k < 7; k++)
        if ((c[k] = csv_col(t, cols[k])) < 0) {
            verdict_line(v, "- numa.msc.csv lacks its %s column", cols[k]);
            return;
        }
    verdict_line(v, "%s", "");
    verdict_line(v, "| memory node | domain | from node | HMAT memory-side cache | sizes chased | "
                    "the chase shows |");
    verdict_line(v, "|---|---|---|---|---|---|");
    for (size_t i = 0; i < t->nrows && nseen < NUMA_MSC_CACHES; i++) {
        double node = csv_num(t, i, c[0]), level = csv_num(t, i, c[2]);
        bool done = !kisfinite(node) || !kisfinite(level);
        for (unsigned k = 0; k < nseen && !done; k++)
            done = seen[k][0] == node && seen[k][1] == level;
        if (done)
            continue;
        seen[nseen][0] = node, seen[nseen++][1] = level;
        msc_row(j, t, c, node, level, v);
    }
}

static void judge_numa(const struct an_judge *j, struct verdict *v)
{
    static struct numa_matrix m;
    if (!j->t || j->t->nrows == 0)
        return; /* skipped: run.json says why */
    v->present = true;
    if (!read_matrix(j->t, &m)) {
        verdict_headline(v, "numa.csv lacks cpu_node, mem_node, ns_median, ns_min or "
                            "slit_distance");
        return;
    }
    matrix_lines(&m, v);
    double ratios[NUMA_NODES * NUMA_NODES], local, remote;
    size_t nratios = 0;
    pair_lines(&m, v, ratios, &nratios);
    hmat_lines(&m, v);
    msc_lines(j, v);
    local_remote(&m, (const double(*)[NUMA_NODES])m.ns, &local, &remote);
    unsigned compared = 0, bad = 0;
    for (unsigned a = 0; a < m.n; a++)
        bad += order_disagreements(&m, a, &compared);
    double ratio = nratios ? stats_median(ratios, nratios) : KM_NAN;
    verdict_number(v, "local_ns", local, "ns", "latency to the processor's own node");
    verdict_number(v, "remote_ns", remote, "ns", "latency to other nodes");
    verdict_number(v, "remote_local_ratio", ratio, NULL, "median remote over local latency");
    verdict_bool(v, "slit_order_agrees", compared ? (bad == 0) : KM_NAN,
                 "the measured order of nodes is the ACPI SLIT's");
    char order[VERDICT_CHARS];
    if (compared)
        ksnprintf(order, sizeof(order), "the measured order %s SLIT's (%u of %u comparisons)",
                  bad ? "breaks" : "agrees with", compared - bad, compared);
    else
        ksnprintf(order, sizeof(order), "no SLIT distances to compare the order with");
    verdict_line(v, "- %s", order);
    char bw[VERDICT_CHARS] = "";
    if (m.has_gbs) {
        double bl, br;
        local_remote(&m, (const double(*)[NUMA_NODES])m.gbs, &bl, &br);
        verdict_number(v, "local_read_gbs", bl, "GB/s",
                       "read bandwidth of a node's processors from their own node's memory");
        verdict_number(v, "remote_read_gbs", br, "GB/s",
                       "read bandwidth of a node's processors from other nodes' memory");
        bandwidth_lines(&m, v);
        if (kisfinite(bl))
            ksnprintf(bw, sizeof(bw), "; read %.1f GB/s local, %.1f remote", bl, br);
    }
    verdict_headline(v,
                     "%u nodes, local %.1f ns, remote %.1f ns (x%.2f median of pairs); "
                     "%s%s",
                     m.n, local, remote, ratio, order, bw);
}

const struct an_experiment analysis_numa = {
    .name = "numa",
    .plot = {.stem = "numa",
             /* as c2c's: the heatmap draws x's values as rows, y's as columns */
             .x = "cpu_node",
             .y = "mem_node",
             .z = "ns_median",
             .xlabel = "memory's node",
             .ylabel = "processor's node",
             .zlabel = "chase latency, ns (median)",
             .what = "node x node memory latency",
             .caption = "The random chase from a processor of each node (row) over a buffer in "
                        "each node's memory (column): the diagonal is local memory; the report's "
                        "table gives SLIT's distance beside each cell."},
    .also = {.stem = "numa_bandwidth",
             .x = "cpu_node",
             .y = "mem_node",
             .z = "read_gbs",
             .xlabel = "memory's node",
             .ylabel = "processors' node",
             .zlabel = "read bandwidth, GB/s (median)",
             .what = "node x node read bandwidth",
             .caption = "Every processor of a node (row) reading its share of a buffer in each "
                        "node's memory (column), all started together: GB/s over the row's "
                        "processors; the diagonal is local memory."},
    .judge = judge_numa,
    .side_table = "msc",
};
