// SPDX-License-Identifier: MIT
// The cores experiment's report side: processors grouped by core type and shared caches.
#include "analysis/judge.h"
#include "analysis/levels.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "lib/stats.h"

#define CORES_ROWS_MAX 24  /* processors listed one per line; the rest by group only */
#define CORES_LEVEL_COLS 4 /* cache levels shown per processor, nearest first */
#define CORES_NAME_CHARS 64

/* Whether processors of more than one core share the L2 group of row r (a cluster's L2). */
static bool cores_l2_cluster(const struct csv *t, size_t r)
{
    int c2 = csv_col(t, "l2_group"), cc = csv_col(t, "core"), cp = csv_col(t, "package");
    for (size_t i = 0; i < t->nrows; i++)
        if (csv_num(t, i, c2) == csv_num(t, r, c2) && csv_num(t, i, cp) == csv_num(t, r, cp) &&
            csv_num(t, i, cc) != csv_num(t, r, cc))
            return true;
    return false;
}

/*
 * The group of row r's processor: its core type (CPUID 0x1A, "-" elsewhere), its package and
 * L3 (a CCX or a die's cache), and its L2 where cores share one (an E-core module).
 */
static void cores_group_name(const struct csv *t, size_t r, char *name, size_t cap)
{
    const char *type = csv_text(t, r, csv_col(t, "core_type"));
    int cl2 = csv_col(t, "l2_group"), cl3 = csv_col(t, "l3_group");
    char l2[32] = "";
    if (cl2 >= 0 && cores_l2_cluster(t, r))
        ksnprintf(l2, sizeof(l2), ", L2 %.0f", csv_num(t, r, cl2));
    ksnprintf(name, cap, "%s%spackage %.0f, L3 %.0f%s", type && kstrcmp(type, "-") ? type : "",
              type && kstrcmp(type, "-") ? ", " : "", csv_num(t, r, csv_col(t, "package")),
              cl3 >= 0 ? csv_num(t, r, cl3) : 0, l2);
}

/* The first row of processor cpu. */
static size_t cores_row_of(const struct csv *t, double cpu)
{
    int cc = csv_col(t, "cpu");
    for (size_t i = 0; i < t->nrows; i++)
        if (csv_num(t, i, cc) == cpu)
            return i;
    return 0;
}

/* A group's levels (detected on its median curve): where each plateau is, and its latency. */
struct cores_levels {
    size_t nlevels;
    double from[CORES_LEVEL_COLS], to[CORES_LEVEL_COLS], size[CORES_LEVEL_COLS];
    double ns[CORES_LEVEL_COLS];
    bool size_known[CORES_LEVEL_COLS];
    double dram_from, dram_ns;
};

/* The groups: their names, each processor's group index, each group's levels. */
struct cores_groups {
    char name[JUDGE_MAX_VALUES][CORES_NAME_CHARS];
    size_t n, of[JUDGE_MAX_VALUES];
    struct cores_levels lv[JUDGE_MAX_VALUES];
};

/* The lower median of v[0..m) (sorted in place): with an even count, the smaller of the two
 * middle values, one a processor measured. Their mean would put, between two processors whose
 * step into memory lies apart (a shared cache's share moving), a plateau neither has. */
static double cores_low_median(double *v, size_t m)
{
    stats_sort(v, m);
    return v[(m - 1) / 2];
}

/* Group k's median curve over the given sizes: at each size, the (lower) median of its
 * processors. */
static size_t cores_median_curve(const struct csv *t, const struct cores_groups *g, size_t k,
                                 const double *cpus, size_t nc, const double *sizes, size_t ns,
                                 double *out_size, double *out_ns)
{
    int cc = csv_col(t, "cpu"), cs = csv_col(t, "size_bytes"), cn = csv_col(t, "ns_median");
    double v[JUDGE_MAX_VALUES];
    size_t n = 0;
    for (size_t s = 0; s < ns; s++) {
        size_t m = 0;
        for (size_t i = 0; i < t->nrows && m < JUDGE_MAX_VALUES; i++) {
            if (csv_num(t, i, cs) != sizes[s] || !kisfinite(csv_num(t, i, cn)))
                continue;
            for (size_t c = 0; c < nc; c++)
                if (cpus[c] == csv_num(t, i, cc) && g->of[c] == k)
                    v[m++] = csv_num(t, i, cn);
        }
        if (m) {
            out_size[n] = sizes[s];
            out_ns[n++] = cores_low_median(v, m);
        }
    }
    return n;
}

/* Detect group k's levels on its median curve. */
static void cores_group_detect(const struct an_judge *j, struct cores_groups *g, size_t k,
                               const double *cpus, size_t nc, const double *sizes, size_t ns)
{
    static double size[JUDGE_MAX_VALUES], lat[JUDGE_MAX_VALUES];
    static struct detection d;
    struct cores_levels *l = &g->lv[k];
    size_t n = cores_median_curve(j->t, g, k, cpus, nc, sizes, ns, size, lat);
    struct detect_opts o = {.llc_bytes = j->in ? j->in->llc_bytes : 0};
    levels_detect(size, lat, NULL, n, &o, &d);
    l->nlevels = d.nlevels < CORES_LEVEL_COLS ? d.nlevels : CORES_LEVEL_COLS;
    for (size_t i = 0; i < l->nlevels; i++) {
        l->from[i] = d.level[i].from_bytes;
        l->to[i] = d.level[i].to_bytes;
        l->size[i] = d.level[i].size_bytes;
        l->size_known[i] = d.level[i].size_known;
        l->ns[i] = d.level[i].latency_ns;
    }
    l->dram_ns = d.dram_ns;
    l->dram_from = d.dram_from_bytes;
}

/* Processor cpu's median latency over sizes in [from, to] (NaN when it has none there). */
static double cores_cpu_between(const struct csv *t, double cpu, double from, double to)
{
    int cc = csv_col(t, "cpu"), cs = csv_col(t, "size_bytes"), cn = csv_col(t, "ns_median");
    double v[JUDGE_MAX_VALUES];
    size_t m = 0;
    for (size_t i = 0; i < t->nrows && m < JUDGE_MAX_VALUES; i++) {
        double s = csv_num(t, i, cs), x = csv_num(t, i, cn);
        if (csv_num(t, i, cc) == cpu && s >= from && s <= to && kisfinite(x))
            v[m++] = x;
    }
    return m ? stats_median(v, m) : KM_NAN;
}

/* "| 1.2 |" cells: processor cpu's latency on each of its group's plateaus, then DRAM's (a
   group's own when cpu is NaN). */
static void cores_cells(char *row, size_t cap, const struct csv *t, const struct cores_levels *l,
                        double cpu, size_t ncols)
{
    char sz[32];
    for (size_t i = 0; i < ncols; i++) {
        double x = i >= l->nlevels ? KM_NAN
                   : kisnan(cpu)   ? l->ns[i]
                                   : cores_cpu_between(t, cpu, l->from[i], l->to[i]);
        if (!kisfinite(x)) {
            judge_append(row, cap, " - |");
            continue;
        }
        if (kisnan(cpu) && l->size_known[i])
            fmt_size(sz, sizeof(sz), l->size[i]);
        judge_append(row, cap, kisnan(cpu) ? " %.1f (%s) |" : " %.1f |", x,
                     l->size_known[i] ? sz : "open");
    }
    double dram = kisnan(cpu) || !kisfinite(l->dram_ns)
                      ? l->dram_ns
                      : cores_cpu_between(t, cpu, l->dram_from, KM_INF);
    judge_append(row, cap, kisfinite(dram) ? " %.1f |" : " - |", dram);
}

/* The table's head: level columns, then DRAM. */
static void cores_head(struct verdict *v, const char *first, const char *second, size_t ncols)
{
    char row[VERDICT_CHARS] = "", rule[VERDICT_CHARS] = "|---|---|";
    judge_append(row, sizeof(row), "| %s | %s |", first, second);
    for (size_t i = 0; i < ncols; i++) {
        judge_append(row, sizeof(row), " level %zu ns |", i + 1);
        judge_append(rule, sizeof(rule), "---|");
    }
    verdict_line(v, "%s DRAM ns |", row);
    verdict_line(v, "%s---|", rule);
}

static void cores_grouping(const struct csv *t, const double *cpus, size_t nc,
                           struct cores_groups *g)
{
    char name[CORES_NAME_CHARS];
    g->n = 0;
    for (size_t c = 0; c < nc; c++) {
        cores_group_name(t, cores_row_of(t, cpus[c]), name, sizeof(name));
        size_t k = 0;
        while (k < g->n && kstrcmp(g->name[k], name))
            k++;
        if (k == g->n && g->n < JUDGE_MAX_VALUES)
            ksnprintf(g->name[g->n++], CORES_NAME_CHARS, "%s", name);
        g->of[c] = k < g->n ? k : 0;
    }
}

/* The size where the processors' latencies spread most (largest/smallest - 1). */
static double cores_worst_spread(const struct csv *t, const double *sizes, size_t ns,
                                 double *worst_size)
{
    int cs = csv_col(t, "size_bytes"), cn = csv_col(t, "ns_median");
    double worst = 0;
    for (size_t s = 0; s < ns; s++) {
        double lo = KM_INF, hi = 0;
        for (size_t i = 0; i < t->nrows; i++)
            if (csv_num(t, i, cs) == sizes[s] && kisfinite(csv_num(t, i, cn))) {
                lo = kfmin(lo, csv_num(t, i, cn));
                hi = kfmax(hi, csv_num(t, i, cn));
            }
        double spread = hi > 0 && lo > 0 ? hi / lo - 1 : 0;
        if (spread > worst) {
            worst = spread;
            *worst_size = sizes[s];
        }
    }
    return worst;
}

/* The largest spread (largest/smallest - 1) between the processors of one group on one of its
 * plateaus or in DRAM: where each processor's latency is its own, not where a step lies. */
static double cores_plateau_spread(const struct csv *t, const double *cpus, size_t nc,
                                   const struct cores_groups *g)
{
    double worst = 0;
    for (size_t k = 0; k < g->n; k++) {
        const struct cores_levels *l = &g->lv[k];
        for (size_t i = 0; i <= l->nlevels; i++) {
            double from = i < l->nlevels ? l->from[i] : l->dram_from;
            double to = i < l->nlevels ? l->to[i] : KM_INF, lo = KM_INF, hi = 0;
            for (size_t c = 0; c < nc && kisfinite(from); c++) {
                double x = g->of[c] == k ? cores_cpu_between(t, cpus[c], from, to) : KM_NAN;
                lo = kisfinite(x) ? kfmin(lo, x) : lo;
                hi = kisfinite(x) ? kfmax(hi, x) : hi;
            }
            worst = hi > 0 && lo < KM_INF ? kfmax(worst, hi / lo - 1) : worst;
        }
    }
    return worst;
}

/* What the groups' processors share: how far apart they lie on their plateaus, and in DRAM
 * where a group of more than one processor reached it (a quick run's curves may end inside the
 * last cache). With one processor a group there is nothing to compare: no plateau_spread. */
static void cores_within(char *out, size_t cap, const struct csv *t, const double *cpus, size_t nc,
                         const struct cores_groups *g, struct verdict *v)
{
    size_t members[JUDGE_MAX_VALUES] = {0}, largest = 0;
    bool dram = false;
    for (size_t c = 0; c < nc; c++)
        members[g->of[c]]++;
    for (size_t k = 0; k < g->n; k++) {
        largest = members[k] > largest ? members[k] : largest;
        dram |= members[k] > 1 && kisfinite(g->lv[k].dram_from);
    }
    if (largest < 2) {
        ksnprintf(out, cap, "one processor a group, so none to compare within one");
        return;
    }
    double plateaus = cores_plateau_spread(t, cpus, nc, g);
    verdict_number(v, "plateau_spread", plateaus, NULL,
                   "the largest relative spread of the processors' plateaus");
    ksnprintf(out, cap, "within a group %s agree within %.0f%%",
              dram ? "plateaus and DRAM" : "plateaus (DRAM not reached)", plateaus * 100);
}

/* One line per group (its levels, sizes, DRAM), then per processor on its group's levels. */
static void cores_tables(const struct an_judge *j, struct verdict *v, const double *cpus, size_t nc,
                         struct cores_groups *g, const double *sizes, size_t ns)
{
    size_t ncols = 0;
    for (size_t k = 0; k < g->n; k++) {
        cores_group_detect(j, g, k, cpus, nc, sizes, ns);
        ncols = g->lv[k].nlevels > ncols ? g->lv[k].nlevels : ncols;
    }
    cores_head(v, "processors", "group: level ns (size) on its median curve", ncols);
    for (size_t k = 0; k < g->n; k++) {
        char row[VERDICT_CHARS] = "";
        size_t members = 0;
        for (size_t c = 0; c < nc; c++)
            members += g->of[c] == k;
        judge_append(row, sizeof(row), "| %zu | %s |", members, g->name[k]);
        cores_cells(row, sizeof(row), j->t, &g->lv[k], KM_NAN, ncols);
        verdict_line(v, "%s", row);
    }
    verdict_line(v, "%s", ""); /* two tables */
    cores_head(v, "cpu", "group: each level's plateau, this processor's median", ncols);
    for (size_t c = 0; c < nc && c < CORES_ROWS_MAX; c++) {
        char row[VERDICT_CHARS] = "";
        judge_append(row, sizeof(row), "| %.0f | %s |", cpus[c], g->name[g->of[c]]);
        cores_cells(row, sizeof(row), j->t, &g->lv[g->of[c]], cpus[c], ncols);
        verdict_line(v, "%s", row);
    }
    if (nc > CORES_ROWS_MAX)
        verdict_line(v, "| ... | %zu more in cores.csv |", nc - CORES_ROWS_MAX);
}

static void judge_cores(const struct an_judge *j, struct verdict *v)
{
    const struct csv *t = j->t;
    if (!t || t->nrows == 0)
        return; /* skipped: run.json says why */
    v->present = true;
    int cc = csv_col(t, "cpu"), cs = csv_col(t, "size_bytes");
    if (cc < 0 || cs < 0 || csv_col(t, "ns_median") < 0 || csv_col(t, "package") < 0) {
        verdict_headline(v, "cores.csv lacks cpu, package, size_bytes or ns_median");
        return;
    }
    static double cpus[JUDGE_MAX_VALUES], sizes[JUDGE_MAX_VALUES];
    static struct cores_groups g;
    double worst_size = KM_NAN;
    size_t nc = judge_values(t, cc, cpus, JUDGE_MAX_VALUES);
    size_t ns = judge_values(t, cs, sizes, JUDGE_MAX_VALUES);
    cores_grouping(t, cpus, nc, &g);
    cores_tables(j, v, cpus, nc, &g, sizes, ns);
    double worst = cores_worst_spread(t, sizes, ns, &worst_size);
    char sz[32], names[VERDICT_CHARS] = "";
    fmt_size(sz, sizeof(sz), worst_size);
    for (size_t k = 0; k < g.n; k++)
        judge_append(names, sizeof(names), "%s%s", k ? "; " : "", g.name[k]);
    verdict_number(v, "processors", (double)nc, "processors", "processors measured");
    verdict_number(v, "groups", (double)g.n, "groups", "groups of processors alike");
    verdict_number(v, "largest_spread", worst, NULL, "the largest relative spread at one size");
    char within[VERDICT_CHARS];
    cores_within(within, sizeof(within), t, cpus, nc, &g, v);
    verdict_headline(
        v, "%zu processors in %zu group%s (%s); %s, the curves differ most at %s (%.0f%%)", nc, g.n,
        g.n == 1 ? "" : "s", names, within, sz, worst * 100);
}

const struct an_experiment analysis_cores = {
    .name = "cores",
    .plot = {.stem = "cores",
             .x = "size_bytes",
             .y = "ns_median",
             .row_series = cores_group_name,
             .group = "cpu", /* up to 8 processors: each one's curve too */
             .label = AN_LABEL_GROUP_VALUE,
             .xlabel = "chain size",
             .ylabel = "ns per access",
             .x_size = true,
             .logy = true,
             .mark_cpuid = true,
             .what = "latency on each group of processors",
             .caption = "The random sweep run on each processor in turn, one curve per group "
                        "(core type, package and shared L3, and shared L2 where cores share "
                        "one), the median of its processors at each size, and with up to 8 "
                        "processors each one's own: groups of another core type or cluster show "
                        "other levels."},
    .judge = judge_cores,
};
