// SPDX-License-Identifier: MIT
// The plots chase-report draws for each source: latency, ring, tlb and every other experiment.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model.h"
#include "outputs/output.h"
#include "outputs/plot.h"
#include "inputs/rtext.h"

#define MODEL_POINTS 240
#define MAX_GROUPS 16

struct ctx {
    const struct source_result *r;
    const char *outdir;
    char prefix[64];
    struct plot_list *pl;
};

void level_name(char *dst, size_t cap, size_t index)
{
    snprintf(dst, cap, "L%zu", index + 1);
}

static void title_for(const struct ctx *c, char *dst, size_t cap, const char *what)
{
    snprintf(dst, cap, "%.90s - %.60s: %s", c->r->src->machine, c->r->src->name, what);
}

/* Render and record the plot with its two caption lines. */
static void finish(struct ctx *c, struct plot_spec *ps, const char *what, const char *finding)
{
    if (c->pl->n >= PLOTS_PER_SOURCE) {
        plot_free(ps);
        return;
    }
    struct plot_made *m = &c->pl->p[c->pl->n++];
    snprintf(m->file, sizeof(m->file), "%s.png", ps->name);
    snprintf(m->caption[0], sizeof(m->caption[0]), "%s", what);
    snprintf(m->caption[1], sizeof(m->caption[1]), "%s", finding ? finding : "");
    m->ok = plot_render(c->outdir, ps, m->err, sizeof(m->err)) == 0;
    plot_free(ps);
}

static void name_for(const struct ctx *c, char *dst, size_t cap, const char *stem)
{
    snprintf(dst, cap, "%s%s", c->prefix, stem);
}

static void mark_levels(struct plot_spec *ps, const struct source_result *r)
{
    const struct detection *d = primary_detection(r);
    char label[64], sz[32], nm[8];
    for (size_t i = 0; d && i < d->nlevels; i++) {
        if (!d->level[i].size_known)
            continue;
        rtext_size(sz, sizeof(sz), d->level[i].size_bytes);
        level_name(nm, sizeof(nm), i);
        snprintf(label, sizeof(label), "%s %s", nm, sz);
        plot_add_marker(ps, d->level[i].size_bytes, MARK_LEVEL, label);
    }
}

static void mark_cpuid(struct plot_spec *ps, const struct source *s)
{
    char label[64], sz[32];
    for (size_t i = 0; i < s->ncaches; i++) {
        if (strcmp(s->cache[i].type, "instruction") == 0)
            continue;
        rtext_size(sz, sizeof(sz), s->cache[i].size_bytes);
        snprintf(label, sizeof(label), "CPUID L%d %s", s->cache[i].level, sz);
        plot_add_marker(ps, s->cache[i].size_bytes, MARK_CPUID, label);
    }
}

/* The fitted model of the primary curve as a dashed line over its size range. */
static void add_model(struct plot_spec *ps, const struct source_result *r)
{
    if (r->primary < 0 || !r->cr[r->primary].fitted)
        return;
    const struct curve_result *cr = &r->cr[r->primary];
    const struct fit_result *f = &cr->fit[cr->form];
    double *x = plot_alloc(ps, MODEL_POINTS), *y = plot_alloc(ps, MODEL_POINTS);
    if (!x || !y || cr->c->n < 2 || !f->ok)
        return;
    double lo = log2(cr->c->size[0]), hi = log2(cr->c->size[cr->c->n - 1]);
    for (size_t i = 0; i < MODEL_POINTS; i++) {
        x[i] = exp2(lo + (hi - lo) * (double)i / (MODEL_POINTS - 1));
        y[i] = model_latency(&f->model, x[i]);
    }
    char t[96];
    snprintf(t, sizeof(t), "model fit (%s)", cr->form ? "exclusive" : "inclusive");
    plot_add_series(ps, t, x, y, MODEL_POINTS, true);
}

static void plot_latency(struct ctx *c)
{
    const struct source *s = c->r->src;
    struct plot_spec ps;
    char name[96], title[240], finding[VERDICT_CHARS];
    bool relative = false;
    name_for(c, name, sizeof(name), s->format == FMT_RUN || s->format == FMT_CSV ? "random" : "latency");
    title_for(c, title, sizeof(title), "latency per load against size");
    plot_init(&ps, name, title, "size (bytes, log2 scale)", "ns per load", true);
    for (size_t i = 0; i < s->ncurves; i++)
        if (s->curve[i].role == ROLE_LEVELS || s->curve[i].role == ROLE_EXTRA) {
            plot_add_series(&ps, s->curve[i].label, s->curve[i].size, s->curve[i].ns, s->curve[i].n, false);
            relative |= s->curve[i].relative;
        }
    if (ps.nseries == 0)
        return;
    if (relative) {
        ps.logy = false;
        snprintf(ps.ylabel, sizeof(ps.ylabel), "ns added to an L1 hit");
    }
    add_model(&ps, c->r);
    mark_levels(&ps, c->r);
    mark_cpuid(&ps, s);
    for (size_t i = 0; i < s->ncurves; i++)
        for (size_t k = 0; k < c->r->cr[i].ntlb; k++)
            plot_add_marker(&ps, c->r->cr[i].tlb[k].size_bytes, MARK_TLB, "TLB step");
    const struct detection *d = primary_detection(c->r);
    snprintf(finding, sizeof(finding), "Red lines: the effective sizes of the %zu detected "
             "levels (latency has risen 15%% of the way to the next); blue dashed: CPUID sizes; "
             "grey dashed: the fitted model.", d ? d->nlevels : 0);
    finish(c, &ps, "Latency of a random pointer chase against the size of its buffer: each "
                    "plateau is a cache level, the last one DRAM.", finding);
}

/* One plot of all curves with a role (ring strides, tlb page sizes). */
static void plot_role(struct ctx *c, enum curve_role role, const char *stem, const char *what,
                      const char *caption, const char *finding)
{
    const struct source *s = c->r->src;
    struct plot_spec ps;
    char name[96], title[240];
    name_for(c, name, sizeof(name), stem);
    title_for(c, title, sizeof(title), what);
    plot_init(&ps, name, title, "size (bytes, log2 scale)", "ns per load", true);
    for (size_t i = 0; i < s->ncurves; i++)
        if (s->curve[i].role == role)
            plot_add_series(&ps, s->curve[i].label, s->curve[i].size, s->curve[i].ns, s->curve[i].n, false);
    if (ps.nseries == 0)
        return;
    if (role == ROLE_RING) {
        mark_levels(&ps, c->r);
        mark_cpuid(&ps, s);
    }
    finish(c, &ps, caption, finding);
}

struct xy {
    double x, y;
};

static int cmp_xy(const void *a, const void *b)
{
    double u = ((const struct xy *)a)->x, v = ((const struct xy *)b)->x;
    return (u > v) - (u < v);
}

/* Rows of table t with column gcol equal to g (any row when gcol < 0) as x/y arrays sorted
 * by x. */
static size_t table_xy(struct plot_spec *ps, const struct csv *t, const char *xc, const char *yc,
                       int gcol, double g, double **x, double **y)
{
    int cx = csv_col(t, xc), cy = csv_col(t, yc);
    struct xy *tmp = malloc((t->nrows ? t->nrows : 1) * sizeof(*tmp));
    *x = plot_alloc(ps, t->nrows);
    *y = plot_alloc(ps, t->nrows);
    size_t k = 0;
    for (size_t i = 0; tmp && *x && *y && cx >= 0 && cy >= 0 && i < t->nrows; i++)
        if (gcol < 0 || csv_num(t, i, gcol) == g)
            tmp[k++] = (struct xy){csv_num(t, i, cx), csv_num(t, i, cy)};
    if (tmp)
        qsort(tmp, k, sizeof(*tmp), cmp_xy);
    for (size_t i = 0; i < k; i++) {
        (*x)[i] = tmp[i].x;
        (*y)[i] = tmp[i].y;
    }
    free(tmp);
    return k;
}

/* Distinct finite values of a column, ascending. */
static size_t groups_of(const struct csv *t, int col, double *g, size_t max)
{
    size_t k = 0;
    for (size_t r = 0; col >= 0 && r < t->nrows; r++) {
        double v = csv_num(t, r, col);
        bool seen = !isfinite(v);
        for (size_t i = 0; i < k && !seen; i++)
            seen = g[i] == v;
        if (seen || k >= max)
            continue;
        size_t i = k++;
        for (; i > 0 && g[i - 1] > v; i--)
            g[i] = g[i - 1];
        g[i] = v;
    }
    return k;
}

struct table_plot {
    enum exp_id exp;
    const char *x, *y, *group; /* one curve per value of group (NULL: one curve) */
    const char *xlabel, *ylabel;
    bool x_size, logy;
    const char *what, *caption;
};

static const struct table_plot table_plots[] = {
    {EXP_LINEAR, "stride_bytes", "ns_median", "size_bytes", "stride (bytes, log2 scale)",
     "ns per load", true, true, "linear chase: latency against constant stride",
     "Latency of a chase that steps a constant stride forward, one curve per buffer size: "
     "where it stays low, the prefetchers follow the stride."},
    {EXP_FUSED, "stride_bytes", "gib_per_s", "streams", "stride (bytes, log2 scale)",
     "aggregate GiB/s", true, false, "fused linear chases: bandwidth against stride",
     "Bandwidth of 1..n interleaved constant-stride chains, one curve per count: bandwidth grows "
     "with the count while the prefetchers track every stream."},
    {EXP_SCAN, "small_bytes", "ns_median", NULL, "small array (bytes, log2 scale)",
     "ns per load", true, true, "scan resistance: alternating small and huge chains",
     "Average latency when loads alternate between a small array and a huge scan: the small "
     "array keeps its hits only while the cache resists the scan."},
    {EXP_OFFSET, "offset_bytes", "ns_median", NULL, "offset (bytes)", "ns per load", false,
     false, "set-dueling hunt: offset swept up and down",
     "Latency of a one-set chain as its offset moves through the sets, up then down: sets that "
     "stand out both ways may be dedicated to one policy."},
    {EXP_PARALLEL, "chains", "parallelism", "size_bytes", "independent chains",
     "effective parallelism", false, false, "memory-level parallelism",
     "Effective parallelism t1/(tn/n) of n independent chains chased together, one curve per "
     "buffer size: where it flattens, the memory system has no more misses in flight."},
};

static void plot_table(struct ctx *c, const struct table_plot *tp)
{
    const struct csv *t = c->r->src->table[tp->exp];
    if (!t)
        return;
    struct plot_spec ps;
    char name[96], title[240], label[64], sz[32];
    name_for(c, name, sizeof(name), exp_name(tp->exp));
    title_for(c, title, sizeof(title), tp->what);
    plot_init(&ps, name, title, tp->xlabel, tp->ylabel, tp->x_size);
    ps.logy = tp->logy;
    int gcol = tp->group ? csv_col(t, tp->group) : -1;
    double g[MAX_GROUPS];
    size_t ng = groups_of(t, gcol, g, MAX_GROUPS);
    for (size_t i = 0; i < (ng ? ng : 1); i++) {
        double *x, *y;
        size_t n = table_xy(&ps, t, tp->x, tp->y, ng ? gcol : -1, ng ? g[i] : 0, &x, &y);
        rtext_size(sz, sizeof(sz), ng ? g[i] : NAN);
        if (!ng)
            snprintf(label, sizeof(label), "%s", exp_name(tp->exp));
        else if (strcmp(tp->group, "streams") == 0)
            snprintf(label, sizeof(label), "%.0f stream%s", g[i], g[i] == 1 ? "" : "s");
        else
            snprintf(label, sizeof(label), "buffer %s", sz);
        plot_add_series(&ps, label, x, y, n, false);
    }
    if (tp->exp == EXP_OFFSET) {
        ps.nseries = 0;
        int cd = csv_col(t, "direction");
        for (int dir = 0; dir < 2 && cd >= 0; dir++) {
            const char *want = dir ? "down" : "up";
            double *x = plot_alloc(&ps, t->nrows), *y = plot_alloc(&ps, t->nrows);
            size_t n = 0;
            for (size_t i = 0; x && y && i < t->nrows; i++)
                if (strcmp(csv_text(t, i, cd), want) == 0) {
                    x[n] = csv_num(t, i, csv_col(t, tp->x));
                    y[n++] = csv_num(t, i, csv_col(t, tp->y));
                }
            plot_add_series(&ps, want, x, y, n, false);
        }
    }
    if (tp->exp == EXP_SCAN && c->r->llc_bytes > 0)
        plot_add_marker(&ps, c->r->llc_bytes, MARK_CPUID, "CPUID last cache");
    finish(c, &ps, tp->caption, c->r->verdict[tp->exp].headline);
}

static void plot_dual(struct ctx *c)
{
    const struct csv *t = c->r->src->table[EXP_DUAL];
    if (!t)
        return;
    struct plot_spec ps;
    char name[96], title[240];
    name_for(c, name, sizeof(name), "dual");
    title_for(c, title, sizeof(title), "dual pointers on one cycle against random");
    plot_init(&ps, name, title, "size (bytes, log2 scale)", "ns per load", true);
    double *x, *y;
    size_t n = table_xy(&ps, t, "size_bytes", "ns_median", -1, 0, &x, &y);
    plot_add_series(&ps, "dual", x, y, n, false);
    if (c->r->primary >= 0) {
        const struct curve *rc = c->r->cr[c->r->primary].c;
        plot_add_series(&ps, "random", rc->size, rc->ns, rc->n, false);
    }
    mark_cpuid(&ps, c->r->src);
    finish(c, &ps, "Two pointers walk the same random cycle, the second lagging: below random "
                   "above the last cache when the second touch still hits there.",
           c->r->verdict[EXP_DUAL].headline);
}

static void plots_one(struct ctx *c)
{
    plot_latency(c);
    plot_role(c, ROLE_RING, c->r->src->format == FMT_LMBENCH ? "lat_mem_rd" : "ring",
              "backward-stride ring, one curve per stride",
              "Latency of a ring of pointers one stride apart, one curve per stride (lmbench "
              "lat_mem_rd's figure).", c->r->verdict[EXP_RING].headline);
    plot_role(c, ROLE_TLB, "tlb", "one load per page, per page size",
              "Latency with one slot per page under each page size: where a small page size "
              "pulls away from a larger one, its TLB no longer covers the buffer.",
              c->r->verdict[EXP_TLB].headline);
    plot_dual(c);
    for (size_t i = 0; i < sizeof(table_plots) / sizeof(table_plots[0]); i++)
        plot_table(c, &table_plots[i]);
}

/* All sources' primary curves on one plot: runs, foreign data, measured against simulated. */
static void plot_compare(const struct source_result *r, size_t n, const char *outdir,
                         struct plot_list *pl)
{
    struct ctx c = {&r[0], outdir, "", pl};
    struct plot_spec ps;
    bool sim = false;
    plot_init(&ps, "compare", "latency per load of every input", "size (bytes, log2 scale)",
              "ns per load", true);
    for (size_t i = 0; i < n; i++) {
        if (r[i].primary < 0)
            continue;
        const struct curve *cv = r[i].cr[r[i].primary].c;
        char label[120];
        snprintf(label, sizeof(label), "%s%.50s: %.50s", r[i].src->simulated ? "simulated, " : "",
                 r[i].src->name, cv->label);
        plot_add_series(&ps, label, cv->size, cv->ns, cv->n, false);
        sim |= r[i].src->simulated;
        ps.logy &= !cv->relative;
    }
    if (ps.nseries < 2)
        return;
    if (sim)
        snprintf(ps.title, sizeof(ps.title), "measured and simulated latency per load");
    finish(&c, &ps, "The main curve of every input on one plot.",
           sim ? "Simulated hierarchies against the measured machine." : "");
}

void plots_make(const struct source_result *r, size_t n, const char *outdir,
                struct plot_list *lists)
{
    for (size_t i = 0; i < n; i++) {
        struct ctx c = {&r[i], outdir, "", &lists[i]};
        lists[i].n = 0;
        if (n > 1)
            snprintf(c.prefix, sizeof(c.prefix), "%.40s-", r[i].src->tag);
        plots_one(&c);
    }
    lists[n].n = 0;
    plot_compare(r, n, outdir, &lists[n]);
}
