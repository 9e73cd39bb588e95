// SPDX-License-Identifier: MIT
// The plots chase-report draws for each source, as kernel/analysis's plot descriptions say.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/judge.h"
#include "lib/fmt.h"
#include "fit/model.h"
#include "outputs/output.h"
#include "outputs/plot.h"
#include "outputs/plot_dram.h"
#include "inputs/rtext.h"

#define MODEL_POINTS 240
#define MAX_GROUPS 16

struct ctx {
    const struct source_result *r;
    const char *outdir;
    char prefix[64];
    struct plot_list *pl;
};

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
        fmt_size(sz, sizeof(sz), d->level[i].size_bytes);
        level_name_of(nm, sizeof(nm), d, i);
        snprintf(label, sizeof(label), "%s %s", nm, sz);
        plot_add_marker(ps, d->level[i].size_bytes,
                        d->level[i].kind == LEVEL_TLB ? MARK_TLB : MARK_LEVEL, label);
    }
}

static void mark_cpuid(struct plot_spec *ps, const struct source *s)
{
    char label[96], sz[32];
    for (size_t i = 0; i < s->ncaches; i++) {
        if (strcmp(s->cache[i].type, "instruction") == 0)
            continue;
        fmt_size(sz, sizeof(sz), s->cache[i].size_bytes);
        snprintf(label, sizeof(label), "%s L%d %s", s->cache_from[0] ? s->cache_from : "described",
                 s->cache[i].level, sz);
        plot_add_marker(ps, s->cache[i].size_bytes, MARK_CPUID, label);
    }
}

/* The fitted model of the primary curve as a dashed line over its size range. */
static void add_model(struct plot_spec *ps, const struct source_result *r)
{
    if (r->an.primary < 0 || !r->cr[r->an.primary].fitted)
        return;
    const struct curve_result *cr = &r->cr[r->an.primary];
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

/* The file stem of an experiment's plot: foreign tools' curves keep their own names. */
static const char *stem_for(const struct ctx *c, const struct an_experiment *x)
{
    enum source_format f = c->r->src->format;
    if (x->curves.role == AN_ROLE_LEVELS && f != FMT_RUN && f != FMT_CSV)
        return "latency";
    if (x->curves.role == AN_ROLE_RING && f == FMT_LMBENCH)
        return "lat_mem_rd";
    return x->plot.stem;
}

/* The levels curves' extras: tinymembench's relative axis (named so when whole latencies, an
 * sbc-bench log's ramlat tables, share it), the model, TLB steps. */
static void levels_extras(struct ctx *c, struct plot_spec *ps, bool relative, char *finding,
                          size_t cap)
{
    const struct detection *d = primary_detection(c->r);
    bool whole = false;
    for (size_t i = 0; i < c->r->src->ncurves; i++)
        whole |= !c->r->src->curve[i].relative;
    if (relative) {
        ps->logy = false;
        snprintf(ps->ylabel, sizeof(ps->ylabel), "%s",
                 whole ? "ns (tinymembench curves: added to an L1 hit)" : "ns added to an L1 hit");
    }
    add_model(ps, c->r);
    for (size_t i = 0; i < c->r->src->ncurves; i++)
        for (size_t k = 0; k < c->r->an.cr[i].ntlb; k++)
            plot_add_marker(ps, c->r->an.cr[i].tlb[k].size_bytes, MARK_TLB, "TLB step");
    char means[LEVELS_SIZE_MEANING_CHARS];
    levels_size_meaning(means, sizeof(means), d);
    snprintf(finding, cap,
             "Red lines: the sizes of the %zu detected levels (%s); blue dashed: the "
             "sizes the machine's cache description (%s) gives; grey dashed: the fitted model.",
             d ? d->nlevels : 0, means,
             c->r->src->cache_from[0] ? c->r->src->cache_from : "none given");
}

/* The curves of the experiment's role and, for levels, the plotted-only extras when all fit in
 * PLOT_DISTINCT_CURVES; *left (0 on entry) counts the curves not drawn. */
static bool series_from_curves(struct ctx *c, struct plot_spec *ps, enum an_role role, size_t *left)
{
    const struct source *s = c->r->src;
    bool relative = false;
    size_t all = 0;
    for (size_t i = 0; i < s->ncurves; i++)
        all += s->curve[i].role == role || s->curve[i].role == AN_ROLE_EXTRA;
    bool extras = role == AN_ROLE_LEVELS && all <= PLOT_DISTINCT_CURVES;
    for (size_t i = 0; i < s->ncurves; i++) {
        const struct an_curve *k = &s->curve[i];
        bool extra = role == AN_ROLE_LEVELS && k->role == AN_ROLE_EXTRA;
        if (k->role != role && !extra)
            continue;
        if ((extra && !extras) || !plot_add_series(ps, k->label, k->size, k->ns, k->n, false))
            ++*left;
        else
            relative |= k->relative;
    }
    return relative;
}

/* Whether row r of t holds the text `value` in column cs (value NULL: never). */
static bool row_is(const struct csv *t, size_t r, int cs, const char *value)
{
    return value && strcmp(csv_text(t, r, cs), value) == 0;
}

/* Rows of t with text value want in column split, in table order; the rows of p->shared begin
   every curve instead of making one. */
static void series_split(struct plot_spec *ps, const struct csv *t, const struct an_plot *p)
{
    int cs = csv_col(t, p->split), cx = csv_col(t, p->x), cy = csv_col(t, p->y);
    const char *seen[MAX_GROUPS];
    size_t ns = 0;
    for (size_t r = 0; cs >= 0 && r < t->nrows; r++) {
        const char *want = csv_text(t, r, cs);
        bool old = row_is(t, r, cs, p->shared);
        for (size_t i = 0; i < ns && !old; i++)
            old = strcmp(seen[i], want) == 0;
        if (old || ns >= MAX_GROUPS)
            continue;
        seen[ns++] = want;
        double *x = plot_alloc(ps, t->nrows), *y = plot_alloc(ps, t->nrows);
        size_t n = 0;
        for (size_t i = 0; x && y && i < t->nrows; i++)
            if (row_is(t, i, cs, p->shared) || (i >= r && row_is(t, i, cs, want))) {
                x[n] = csv_num(t, i, cx);
                y[n++] = csv_num(t, i, cy);
            }
        plot_add_series(ps, want, x, y, n, false);
    }
}

/* A plot with named series also draws its group column's values up to this many. */
#define FEW_GROUP_VALUES 8

/* The median of the ys of the n points from p (sorted by x) that share p[0]'s x; *used. */
static double median_at_x(struct xy *p, size_t n, size_t *used)
{
    size_t k = 1;
    while (k < n && p[k].x == p[0].x)
        k++;
    for (size_t i = 1; i < k; i++)
        for (size_t m = i; m > 0 && p[m - 1].y > p[m].y; m--) {
            struct xy s = p[m];
            p[m] = p[m - 1];
            p[m - 1] = s;
        }
    *used = k;
    return k % 2 ? p[k / 2].y : (p[k / 2 - 1].y + p[k / 2].y) / 2;
}

/* One series per name p->row_series gives the rows: the median y of its rows at each x.
   Returns how many. */
static size_t series_named(struct plot_spec *ps, const struct csv *t, const struct an_plot *p)
{
    int cx = csv_col(t, p->x), cy = csv_col(t, p->y);
    char seen[MAX_GROUPS][80], name[80];
    size_t ns = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        p->row_series(t, r, name, sizeof(name));
        bool old = false;
        for (size_t i = 0; i < ns && !old; i++)
            old = strcmp(seen[i], name) == 0;
        if (old || ns >= MAX_GROUPS)
            continue;
        snprintf(seen[ns++], sizeof(seen[0]), "%s", name);
        struct xy *pts = calloc(t->nrows, sizeof(*pts));
        double *x = plot_alloc(ps, t->nrows), *y = plot_alloc(ps, t->nrows);
        size_t k = 0, n = 0;
        for (size_t i = r; pts && i < t->nrows; i++) {
            char other[80];
            p->row_series(t, i, other, sizeof(other));
            if (strcmp(other, name) == 0)
                pts[k++] = (struct xy){csv_num(t, i, cx), csv_num(t, i, cy)};
        }
        if (pts)
            qsort(pts, k, sizeof(*pts), cmp_xy);
        for (size_t i = 0, used; x && y && i < k; i += used) {
            y[n] = median_at_x(pts + i, k - i, &used);
            x[n++] = pts[i].x;
        }
        free(pts);
        char label[96];
        snprintf(label, sizeof(label), "%s (median)", name);
        plot_add_series(ps, label, x, y, n, false);
    }
    return ns;
}

/* One series per value of the group column (one series without it), sorted by x. */
static void series_groups(struct plot_spec *ps, const struct csv *t, const struct an_experiment *x,
                          const struct an_plot *p)
{
    int gcol = p->group ? csv_col(t, p->group) : -1;
    double g[MAX_GROUPS];
    size_t ng = judge_values(t, gcol, g, MAX_GROUPS);
    for (size_t i = 0; i < (ng ? ng : 1); i++) {
        double *xs, *ys;
        char label[64], sz[32];
        size_t n = table_xy(ps, t, p->x, p->y, ng ? gcol : -1, ng ? g[i] : 0, &xs, &ys);
        fmt_size(sz, sizeof(sz), ng ? g[i] : NAN);
        if (!ng || p->label == AN_LABEL_NAME)
            snprintf(label, sizeof(label), "%s", x->name);
        else if (p->label == AN_LABEL_STREAMS)
            snprintf(label, sizeof(label), "%.0f stream%s", g[i], g[i] == 1 ? "" : "s");
        else if (p->label == AN_LABEL_STRIDE)
            snprintf(label, sizeof(label), "stride %.0f", g[i]);
        else if (p->label == AN_LABEL_GROUP_VALUE)
            snprintf(label, sizeof(label), "%s %.0f", p->group, g[i]);
        else if (p->label == AN_LABEL_PAGES)
            snprintf(label, sizeof(label), "%s pages", sz);
        else
            snprintf(label, sizeof(label), "buffer %s", sz);
        plot_add_series(ps, label, xs, ys, n, false);
    }
}

static void add_markers(struct ctx *c, struct plot_spec *ps, const struct an_plot *p)
{
    if (p->over_random && c->r->an.primary >= 0) {
        const struct an_curve *rc = c->r->cr[c->r->an.primary].c;
        plot_add_series(ps, rc->label, rc->size, rc->ns, rc->n, false);
    }
    if (p->mark_levels)
        mark_levels(ps, c->r);
    if (p->mark_cpuid)
        mark_cpuid(ps, c->r->src);
    if (p->mark_llc && c->r->llc_bytes > 0)
        plot_add_marker(ps, c->r->llc_bytes, MARK_CPUID, "described last cache");
    if (p->mark_dram)
        plot_mark_dram(ps, c->r->src->run);
}

/* One heatmap h of experiment e's table, recorded like the other plots (none when no row of
   it holds a value). */
static void heatmap_one(struct ctx *c, size_t e, const struct an_plot *p,
                        const struct plot_heatmap *h)
{
    const struct csv *t = c->r->src->table[e];
    int zc = csv_col(t, p->z), sc = h->split ? csv_col(t, h->split) : -1;
    int wc = h->where ? csv_col(t, h->where) : -1;
    bool any = false;
    for (size_t i = 0; zc >= 0 && i < t->nrows; i++)
        any |=
            isfinite(csv_num(t, i, zc)) &&
            (sc < 0 || strcmp(csv_text(t, i, sc) ? csv_text(t, i, sc) : "", h->split_value) == 0) &&
            (wc < 0 || strcmp(csv_text(t, i, wc) ? csv_text(t, i, wc) : "", h->equals) == 0);
    if (c->pl->n >= PLOTS_PER_SOURCE || !any) /* nothing measured: no plot (run.json says why) */
        return;
    struct plot_made *m = &c->pl->p[c->pl->n++];
    snprintf(m->file, sizeof(m->file), "%s.png", h->name);
    snprintf(m->caption[0], sizeof(m->caption[0]), "%s%s%s", p->caption,
             h->split_value ? " Line state: " : "", h->split_value ? h->split_value : "");
    snprintf(m->caption[1], sizeof(m->caption[1]), "%s", c->r->an.verdict[e].headline);
    m->ok = plot_heatmap_render(c->outdir, h, t, m->err, sizeof(m->err)) == 0;
}

/* Experiment e's heatmap (plot p has a z column); with a split column one per its text value,
   in table order (the first under the plot's own name, the others NAME_VALUE). */
static void heatmap(struct ctx *c, size_t e, const struct an_plot *p, const char *name,
                    const char *title)
{
    struct plot_heatmap h = {name, title, p->xlabel, p->ylabel, p->zlabel, p->x,
                             p->y, p->z,  NULL,      NULL,      p->where,  p->equals};
    const struct csv *t = c->r->src->table[e];
    int sc = p->split ? csv_col(t, p->split) : -1;
    if (sc < 0) { /* a table from before the split column: one heatmap of every row */
        h.where = h.equals = NULL;
        heatmap_one(c, e, p, &h);
        return;
    }
    const char *seen[MAX_GROUPS];
    size_t n = 0;
    for (size_t i = 0; i < t->nrows && n < MAX_GROUPS; i++) {
        const char *v = csv_text(t, i, sc);
        size_t k = 0;
        while (v && k < n && strcmp(seen[k], v) != 0)
            k++;
        if (!v || !v[0] || k < n)
            continue;
        seen[n++] = v;
        char nm[160], tt[300];
        snprintf(nm, sizeof(nm), n == 1 ? "%s" : "%s_%s", name, v);
        snprintf(tt, sizeof(tt), "%s: %s", title, v);
        h.name = nm, h.title = tt, h.split = p->split, h.split_value = v;
        heatmap_one(c, e, p, &h);
    }
}

/* Experiment e's bar chart (plot p has a bar column), recorded like the other plots. */
static void bars(struct ctx *c, size_t e, const struct an_plot *p, const char *name,
                 const char *title)
{
    struct plot_bars b = {name, title, p->xlabel, p->ylabel, p->bar, p->y, p->where, p->equals};
    const struct csv *t = c->r->src->table[e];
    if (c->pl->n >= PLOTS_PER_SOURCE || !t->nrows)
        return;
    struct plot_made *m = &c->pl->p[c->pl->n++];
    snprintf(m->file, sizeof(m->file), "%s.png", name);
    snprintf(m->caption[0], sizeof(m->caption[0]), "%s", p->caption);
    snprintf(m->caption[1], sizeof(m->caption[1]), "%s", c->r->an.verdict[e].headline);
    m->ok = plot_bars_render(c->outdir, &b, t, m->err, sizeof(m->err)) == 0;
}

/* Plot p of experiment e (its plot or its second one) as its description in kernel/analysis
   says. */
static void plot_experiment(struct ctx *c, size_t e, const struct an_plot *p)
{
    const struct an_experiment *x = analysis_experiment(e);
    const struct csv *t = c->r->src->table[e];
    char name[96], title[240], finding[PLOT_CAPTION_CHARS];
    struct plot_spec ps;
    if (!p->stem || (!p->from_curves && !t))
        return;
    name_for(c, name, sizeof(name), p == &x->plot ? stem_for(c, x) : p->stem);
    title_for(c, title, sizeof(title), p->what);
    if (p->z) {
        heatmap(c, e, p, name, title);
        return;
    }
    if (p->bar) {
        bars(c, e, p, name, title);
        return;
    }
    plot_init(&ps, name, title, p->xlabel, p->ylabel, p->x_size);
    ps.logy = p->logy;
    ps.y_zero = p->y_zero;
    snprintf(finding, sizeof(finding), "%s", c->r->an.verdict[e].headline);
    size_t left = 0;
    bool relative = p->from_curves && series_from_curves(c, &ps, x->curves.role, &left);
    if (!p->from_curves && p->row_series) {
        size_t named = series_named(&ps, t, p);
        /* a few processors, some sharing a group: each one's own curve too, beside its group's */
        double g[MAX_GROUPS];
        size_t values = p->group ? judge_values(t, csv_col(t, p->group), g, MAX_GROUPS) : 0;
        if (values > named && values <= FEW_GROUP_VALUES)
            series_groups(&ps, t, x, p);
    } else if (!p->from_curves && p->split)
        series_split(&ps, t, p);
    else if (!p->from_curves)
        series_groups(&ps, t, x, p);
    if (ps.nseries == 0) {
        plot_free(&ps);
        return;
    }
    if (x->curves.role == AN_ROLE_LEVELS)
        levels_extras(c, &ps, relative, finding, sizeof(finding));
    if (left) /* appended to the caption */
        snprintf(finding + strlen(finding), sizeof(finding) - strlen(finding),
                 " Not drawn: %zu of the input's curves, too many to tell apart (the table of "
                 "curves lists every levels curve).",
                 left);
    add_markers(c, &ps, p);
    finish(c, &ps, p->caption, finding);
}

static void plots_one(struct ctx *c)
{
    for (size_t e = 0; e < analysis_experiment_count(); e++) {
        plot_experiment(c, e, &analysis_experiment(e)->plot);
        plot_experiment(c, e, &analysis_experiment(e)->also);
    }
    plots_dist(c->r, c->outdir, c->prefix, c->pl);
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
        if (r[i].an.primary < 0)
            continue;
        const struct an_curve *cv = r[i].cr[r[i].an.primary].c;
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
    plots_dist_compare(r, n, outdir, &lists[n]);
}
