// SPDX-License-Identifier: MIT
// The distribution plots: a histogram panel per level (log axes, p50/p99/p99.9 marked), the slow
// batches over time with the refresh comb, and several runs' histograms side by side.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/fmt.h"
#include "outputs/dist.h"
#include "outputs/output.h"
#include "outputs/plot.h"

/* Periods of the refresh comb shown in the zoomed panel: enough to see the beat and its gaps. */
#define COMB_PERIODS 12
/* Pixels: the width of every plot; a histogram panel's height. */
#define DIST_WIDTH_PX 1100
#define PANEL_HEIGHT_PX 300
/* Slow batches over this many us are drawn against ms. */
#define MS_AXIS_FROM_US 5000.0

/* One colour per run (the first is the single-run colour); the percentiles' own three. */
static const char *const run_color[DIST_MAX_RUNS] = {"#1f5fbf", "#e08000", "#2ca02c", "#9467bd"};
static const char *const pct_color[3] = {"#2ca02c", "#e08000", "#c00000"};
static const char *const pct_name[3] = {"p50", "p99", "p99.9"};

/* A histogram panel: the points of one level in one or more runs. */
struct panel {
    char title[160];
    size_t n;
    const struct dist_run *run[DIST_MAX_RUNS];
    const struct dist_point *pt[DIST_MAX_RUNS];
    size_t color[DIST_MAX_RUNS];
};

struct hist_plot {
    const char *name, *title;
    bool share; /* y is the share of the point's batches (runs of different lengths compared) */
    size_t n;
    struct panel panel[DIST_MAX_POINTS];
};

static double point_total(const struct dist_run *d, const struct dist_point *p)
{
    const struct csv *h = d->hist;
    int cc = csv_col(h, d->x->count);
    double sum = 0;
    for (size_t i = 0; i < h->nrows; i++)
        if (dist_row_is(d, h, i, p) && isfinite(csv_num(h, i, cc)))
            sum += csv_num(h, i, cc);
    return sum;
}

/* The panel entry's block: "low high y" for its bins with a count (y the count, or its share
 * of the point's batches); the ranges it spans into range (x lo, x hi, y lo, y hi). Returns the
 * bins written (a block without any holds one undefined row, keeping the blocks' indexes). */
static size_t write_hist_block(FILE *f, const struct hist_plot *hp, const struct dist_run *d,
                               const struct dist_point *p, double *range)
{
    const struct csv *h = d->hist;
    int cl = csv_col(h, d->x->bin_low), ch = csv_col(h, d->x->bin_high),
        cc = csv_col(h, d->x->count);
    double total = hp->share ? point_total(d, p) : 1;
    size_t rows = 0;
    for (size_t i = 0; i < h->nrows && total > 0; i++) {
        double lo = csv_num(h, i, cl), hi = csv_num(h, i, ch), y = csv_num(h, i, cc) / total;
        if (!dist_row_is(d, h, i, p) || !(lo > 0) || !(hi > lo) || !(y > 0))
            continue;
        fprintf(f, "%.9g %.9g %.9g\n", lo, hi, y);
        range[0] = fmin(range[0], lo);
        range[1] = fmax(range[1], hi);
        range[2] = fmin(range[2], y);
        range[3] = fmax(range[3], y);
        rows++;
    }
    if (rows == 0)
        fprintf(f, "nan nan nan\n");
    fprintf(f, "\n\n");
    return rows;
}

/* The percentile lines of one entry, in its run's colour when runs are compared. */
static void percentile_marks(FILE *f, const struct panel *pn, size_t k, bool compare)
{
    const struct dist_point *p = pn->pt[k];
    const double x[3] = {p->p50_ns, p->p99_ns, p->p999_ns};
    for (size_t q = 0; q < 3; q++) {
        if (!(x[q] > 0))
            continue;
        const char *c = compare ? run_color[pn->color[k]] : pct_color[q];
        fprintf(f,
                "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead lc rgb '%s' dt %zu lw 1.4 "
                "front\n",
                x[q], x[q], c, compare ? q + 1 : 2);
        if (compare) /* a single run's three lines are named in the key instead */
            fprintf(f,
                    "set label '%s %s' at %.9g, graph %.2f left front tc rgb '%s' offset 0.4,0 "
                    "font ',8'\n",
                    pct_name[q], dist_platform(pn->run[k]->r), x[q],
                    0.94 - 0.07 * (double)(q + 3 * k), c);
    }
}

static void panel_script(FILE *f, const struct hist_plot *hp, const struct panel *pn,
                         const double *range, size_t *block)
{
    double xlo = range[0], xhi = range[1];
    for (size_t k = 0; k < pn->n; k++) { /* the percentile lines inside the frame */
        xlo = pn->pt[k]->p50_ns > 0 ? fmin(xlo, pn->pt[k]->p50_ns) : xlo;
        xhi = isfinite(pn->pt[k]->max_ns) ? fmax(xhi, pn->pt[k]->max_ns) : xhi;
    }
    fprintf(f, "unset arrow\nunset label\nset title '%s'\n", pn->title);
    fprintf(f, "set xrange [%.9g:%.9g]\nset yrange [%.9g:%.9g]\n", xlo / 1.4, xhi * 1.4,
            hp->share ? range[2] / 3 : 0.5, range[3] * 4);
    plot_log_tics(f, "x", xlo / 1.4, xhi * 1.4);
    for (size_t k = 0; k < pn->n; k++)
        percentile_marks(f, pn, k, hp->share);
    const char *sep = "plot ";
    for (size_t k = 0; k < pn->n; k++, (*block)++) {
        char key[160];
        snprintf(key, sizeof(key), "%s: %.140s", dist_platform(pn->run[k]->r),
                 pn->run[k]->r->src->name);
        fprintf(f,
                "%s'gnuplot/%s.dat' index %zu using (sqrt($1*$2)):3:1:2:(%.9g):3 with boxxyerror "
                "lc rgb '%s' %s%s%s",
                sep, hp->name, *block, hp->share ? range[2] / 3 : 0.5, run_color[pn->color[k]],
                hp->share ? "title '" : "notitle", hp->share ? key : "", hp->share ? "'" : "");
        sep = ", \\\n     ";
    }
    for (size_t q = 0; !hp->share && q < 3; q++) /* the key names a single run's three lines */
        fprintf(f, ", \\\n     NaN with lines lc rgb '%s' dt 2 lw 1.4 title '%s'", pct_color[q],
                pct_name[q]);
    fprintf(f, "\n");
}

/* Draw hp: a panel per level, two columns when there are several. */
/* Close a plot's data and script files: 0, or -1 with err saying which could not be written
 * (either may be NULL, when it never opened). */
static int close_pair(FILE *dat, FILE *gp, const char *script, char *err, size_t cap)
{
    bool bad = !dat || !gp;
    bad |= dat && fclose(dat) != 0;
    bad |= gp && fclose(gp) != 0;
    if (bad)
        snprintf(err, cap, "cannot write %.160s: %s", script, strerror(errno));
    return bad ? -1 : 0;
}

static int hist_render(const char *outdir, const struct hist_plot *hp, char *err, size_t cap)
{
    struct plot_files pf;
    if (plot_files_make(outdir, hp->name, &pf, err, cap) != 0)
        return -1;
    FILE *dat = fopen(pf.data, "w"), *gp = fopen(pf.script, "w");
    size_t cols = hp->n > 1 ? 2 : 1, rows = (hp->n + cols - 1) / cols, block = 0, bins = 0;
    if (dat && gp)
        fprintf(gp,
                "set terminal pngcairo size %d,%zu noenhanced font 'Sans,10'\nset output "
                "'%s.png'\nset multiplot layout %zu,%zu title '%s'\nset logscale xy 10\nset format "
                "y '%%g'\n"
                "set grid xtics ytics lc rgb '#e0e0e0'\nset style fill transparent solid 0.45 "
                "border\nset key top right font ',8'\nset xlabel 'batch time (log scale)'\n"
                "set ylabel '%s'\nset title font ',%d'\n",
                DIST_WIDTH_PX, PANEL_HEIGHT_PX * rows + 40, hp->name, rows, cols, hp->title,
                hp->share ? "share of the batches (log scale)" : "batches (log scale)",
                hp->share ? 8 : 9); /* a comparison's titles name every run */
    for (size_t i = 0; dat && gp && i < hp->n; i++) {
        double range[4] = {INFINITY, -INFINITY, INFINITY, -INFINITY};
        for (size_t k = 0; k < hp->panel[i].n; k++)
            bins += write_hist_block(dat, hp, hp->panel[i].run[k], hp->panel[i].pt[k], range);
        if (isfinite(range[0]))
            panel_script(gp, hp, &hp->panel[i], range, &block);
        else
            block += hp->panel[i].n;
    }
    if (gp)
        fprintf(gp, "unset multiplot\n");
    if (close_pair(dat, gp, pf.script, err, cap) != 0)
        return -1;
    if (bins == 0) {
        snprintf(err, cap, "%s: no histogram bins to plot", hp->name);
        return -1;
    }
    return plot_draw(outdir, hp->name, err, cap);
}

/* Record a plot made (or why not) in pl. */
static struct plot_made *plot_record(struct plot_list *pl, const char *name, const char *what,
                                     const char *finding)
{
    if (pl->n >= PLOTS_PER_SOURCE)
        return NULL;
    struct plot_made *m = &pl->p[pl->n++];
    snprintf(m->file, sizeof(m->file), "%s.png", name);
    snprintf(m->caption[0], sizeof(m->caption[0]), "%s", what);
    snprintf(m->caption[1], sizeof(m->caption[1]), "%s", finding ? finding : "");
    return m;
}

static void hist_one(const struct dist_run *d, const char *outdir, const char *prefix,
                     struct plot_list *pl)
{
    static struct hist_plot hp;
    char name[96], title[240];
    snprintf(name, sizeof(name), "%s%s-hist", prefix, exp_name(d->e));
    snprintf(title, sizeof(title), "%.90s - %.60s: %s batch times per level", d->r->src->machine,
             d->r->src->name, exp_name(d->e));
    memset(&hp, 0, sizeof(hp));
    hp.name = name;
    hp.title = title;
    for (size_t i = 0; i < d->n; i++) {
        struct panel *pn = &hp.panel[hp.n++];
        const struct dist_point *p = &d->p[i];
        char t[4][24];
        snprintf(pn->title, sizeof(pn->title), "%s: p50 %s, p99 %s, p99.9 %s, max %s", p->label,
                 plot_time_text(t[0], sizeof(t[0]), p->p50_ns),
                 plot_time_text(t[1], sizeof(t[1]), p->p99_ns),
                 plot_time_text(t[2], sizeof(t[2]), p->p999_ns),
                 plot_time_text(t[3], sizeof(t[3]), p->max_ns));
        pn->n = 1;
        pn->run[0] = d;
        pn->pt[0] = p;
    }
    struct plot_made *m = plot_record(
        pl, name,
        "The batch times of each level as a histogram (log axes, ten bins a decade); dashed lines "
        "at p50 (green), p99 (orange) and p99.9 (red).",
        d->r->an.verdict[d->e].headline);
    if (m)
        m->ok = hist_render(outdir, &hp, m->err, sizeof(m->err)) == 0;
}

/* The slow batches of point p as "time excess" lines (time over scale us); how many, and their
 * time span into *tmin, *tmax (us). Within [from, to) us only when to > from. */
static size_t write_samples(FILE *f, const struct dist_run *d, const struct dist_point *p,
                            double scale, double from, double to, double *tmin, double *tmax)
{
    const struct csv *t = d->samples;
    int ct = csv_col(t, d->x->time_us), cx = csv_col(t, d->x->excess_ns);
    size_t n = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        double us = csv_num(t, i, ct), ex = csv_num(t, i, cx);
        if (!dist_row_is(d, t, i, p) || !isfinite(us) || !(ex > 0) ||
            (to > from && (us < from || us >= to)))
            continue;
        fprintf(f, "%.9g %.9g\n", us / scale, ex);
        *tmin = fmin(*tmin, us);
        *tmax = fmax(*tmax, us);
        n++;
    }
    fprintf(f, n ? "\n\n" : "nan nan\n\n\n");
    return n;
}

/* Where the comb of period_ns lies among point p's slow batches: the circular mean of their times
 * modulo the period, in us. */
static double comb_phase_us(const struct dist_run *d, const struct dist_point *p, double period_us)
{
    const struct csv *t = d->samples;
    int ct = csv_col(t, d->x->time_us);
    double sx = 0, cx = 0;
    for (size_t i = 0; i < t->nrows; i++)
        if (dist_row_is(d, t, i, p) && isfinite(csv_num(t, i, ct))) {
            double a = 2 * M_PI * csv_num(t, i, ct) / period_us;
            sx += sin(a);
            cx += cos(a);
        }
    double ph = atan2(sx, cx) / (2 * M_PI) * period_us;
    return ph < 0 ? ph + period_us : ph;
}

/* The zoomed panel (data block `block`): COMB_PERIODS periods of the refresh point's slow
 * batches from the first (at first us) on their comb, on a linear excess axis. */
static void comb_panel(FILE *dat, FILE *gp, const struct dist_run *d, const char *name,
                       size_t block, double first)
{
    const struct dist_point *p = &d->p[dist_refresh_point(d)];
    double per = p->period_ns / 1e3, lo = INFINITY, hi = -INFINITY;
    double ph = comb_phase_us(d, p, per);
    double start = first - fmod(first - ph + 1000 * per, per), end = start + COMB_PERIODS * per;
    write_samples(dat, d, p, 1, start, end, &lo, &hi);
    fprintf(gp,
            "unset arrow\nunset logscale y\nset ytics auto\nset yrange [0:*]\nset ylabel 'time "
            "over the "
            "typical batch (ns)'\nset title 'the first %d periods of "
            "%s: its slow batches against a comb every %.3f us (grey)'\nset xlabel 'time (us "
            "from the first batch of its size)'\nset xrange [%.9g:%.9g]\n",
            COMB_PERIODS, p->label, per, start, end);
    for (int k = 0; k <= COMB_PERIODS; k++)
        fprintf(gp, "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead lc rgb '#909090' dt 2\n",
                start + k * per, start + k * per);
    fprintf(gp,
            "plot 'gnuplot/%s.dat' index %zu using 1:2 with impulses lw 2 lc rgb '#c00000' "
            "notitle, '' index %zu using 1:2 with points pt 7 ps 0.8 lc rgb '#c00000' notitle\n",
            name, block, block);
}

/* The main panel's script header: the time axis in ms for long runs. */
static double slow_header(FILE *gp, const struct dist_run *d, const char *name, const char *title,
                          bool comb)
{
    int ct = csv_col(d->samples, d->x->time_us), cx = csv_col(d->samples, d->x->excess_ns);
    double tmax = 0, xlo = INFINITY, xhi = 0;
    for (size_t i = 0; i < d->samples->nrows; i++) {
        double ex = csv_num(d->samples, i, cx);
        tmax = fmax(tmax, csv_num(d->samples, i, ct));
        xlo = ex > 0 ? fmin(xlo, ex) : xlo;
        xhi = ex > 0 ? fmax(xhi, ex) : xhi;
    }
    double scale = tmax > MS_AXIS_FROM_US ? 1000 : 1;
    fprintf(
        gp,
        "set terminal pngcairo size %d,%d noenhanced font 'Sans,10'\nset output '%s.png'\n"
        "set multiplot layout %d,1 title '%s'\nset grid xtics ytics lc rgb '#e0e0e0'\n"
        "set key below font ',9'\nset logscale y\nset title 'the slow batches the samples file "
        "keeps, of every "
        "size'\nset xlabel 'time (%s from the first batch of its size)'\nset ylabel 'time over the "
        "typical batch (log scale)'\n",
        DIST_WIDTH_PX, comb ? 2 * PANEL_HEIGHT_PX + 100 : PANEL_HEIGHT_PX + 160, name, comb ? 2 : 1,
        title, scale > 1 ? "ms" : "us");
    if (xhi > 0) { /* whole decades, labelled with their unit */
        xlo = pow(10, floor(log10(xlo)));
        xhi = pow(10, ceil(log10(xhi)));
        fprintf(gp, "set yrange [%.9g:%.9g]\n", xlo / 1.5, xhi * 1.5); /* off the frame */
        plot_log_tics(gp, "y", xlo, xhi);
    }
    return scale;
}

/* " (of N)" when the samples file kept fewer slow batches than the table counts, else "". */
static const char *slow_of(double slow, size_t kept, char *buf, size_t cap)
{
    if (isfinite(slow) && slow > (double)kept)
        snprintf(buf, cap, " (of %.0f)", slow);
    else
        buf[0] = 0;
    return buf;
}

static int slow_render(const char *outdir, const struct dist_run *d, const char *name,
                       const char *title, char *err, size_t cap)
{
    struct plot_files pf;
    double first[DIST_MAX_POINTS], none;
    char of[48];
    size_t count[DIST_MAX_POINTS] = {0}, all = 0;
    int rp = dist_refresh_point(d);
    if (plot_files_make(outdir, name, &pf, err, cap) != 0)
        return -1;
    FILE *dat = fopen(pf.data, "w"), *gp = fopen(pf.script, "w");
    if (dat && gp) {
        double scale = slow_header(gp, d, name, title, rp >= 0);
        const char *sep = "plot ";
        size_t drawn = 0; /* the series drawn take gnuplot's line types in turn: apart colours */
        for (size_t i = 0; i < d->n; i++) {
            first[i] = INFINITY;
            none = -INFINITY;
            all += count[i] = write_samples(dat, d, &d->p[i], scale, 0, 0, &first[i], &none);
            if (count[i])
                fprintf(gp,
                        "%s'gnuplot/%s.dat' index %zu using 1:2 with points pt 7 ps 0.45 lt %zu "
                        "title '%s: %zu slow%s'",
                        sep, name, i, ++drawn, d->p[i].label, count[i],
                        slow_of(d->p[i].slow_batches, count[i], of, sizeof(of)));
            sep = count[i] ? ", \\\n     " : sep;
        }
        fprintf(gp, "\n");
        if (rp >= 0 && count[rp])
            comb_panel(dat, gp, d, name, d->n, first[rp]);
        fprintf(gp, "unset multiplot\n");
    }
    if (close_pair(dat, gp, pf.script, err, cap) != 0)
        return -1;
    if (all == 0) {
        snprintf(err, cap, "no slow batches at any size, so nothing to plot over time");
        return -1;
    }
    return plot_draw(outdir, name, err, cap);
}

static void slow_one(const struct dist_run *d, const char *outdir, const char *prefix,
                     struct plot_list *pl)
{
    char name[96], title[240], finding[PLOT_CAPTION_CHARS];
    if (!d->samples)
        return;
    snprintf(name, sizeof(name), "%s%s-slow", prefix, exp_name(d->e));
    snprintf(title, sizeof(title), "%.90s - %.60s: %s slow batches over time", d->r->src->machine,
             d->r->src->name, exp_name(d->e));
    int rp = dist_refresh_point(d);
    if (rp >= 0)
        snprintf(finding, sizeof(finding),
                 "%s. Below: the first %d periods of %s, each slow batch on the comb the period "
                 "draws.",
                 d->r->an.verdict[d->e].headline, COMB_PERIODS, d->p[rp].label);
    else
        snprintf(finding, sizeof(finding), "%s.", d->r->an.verdict[d->e].headline);
    struct plot_made *m =
        plot_record(pl, name,
                    "Each batch slower than the typical one, at its time in the run (ns over the "
                    "typical batch, log scale), one colour per size.",
                    finding);
    if (m)
        m->ok = slow_render(outdir, d, name, title, m->err, sizeof(m->err)) == 0;
}

void plots_dist(const struct source_result *r, const char *outdir, const char *prefix,
                struct plot_list *pl)
{
    static struct dist_run d;
    if (!dist_of(r, &d))
        return;
    hist_one(&d, outdir, prefix, pl);
    slow_one(&d, outdir, prefix, pl);
}

/* Group g as a panel of hp: titled by its level, each run's size and p99.9. */
static void panel_of_group(struct hist_plot *hp, const struct dist_run *d,
                           const struct dist_group *g)
{
    struct panel *pn = &hp->panel[hp->n++];
    snprintf(pn->title, sizeof(pn->title), "%s", g->pt[0]->level[0] ? g->pt[0]->level : "size");
    for (size_t k = 0; k < g->n; k++) {
        size_t len = strlen(pn->title);
        char t[24];
        snprintf(pn->title + len, sizeof(pn->title) - len, "%s %s %s p99.9 %s", k ? ";" : ":",
                 dist_platform(d[g->run[k]].r), g->pt[k]->size,
                 plot_time_text(t, sizeof(t), g->pt[k]->p999_ns));
        pn->run[k] = &d[g->run[k]];
        pn->pt[k] = g->pt[k];
        pn->color[k] = g->run[k];
    }
    pn->n = g->n;
}

void plots_dist_compare(const struct source_result *r, size_t n, const char *outdir,
                        struct plot_list *pl)
{
    static struct dist_run d[DIST_MAX_RUNS];
    static struct hist_plot hp;
    size_t runs = 0;
    for (size_t i = 0; i < n && runs < DIST_MAX_RUNS; i++)
        runs += dist_of(&r[i], &d[runs]);
    if (runs < 2)
        return;
    memset(&hp, 0, sizeof(hp));
    char name[96];
    snprintf(name, sizeof(name), "%s-hist-compare", exp_name(d[0].e));
    hp.name = name;
    hp.title = "batch times per level, the runs side by side (share of the batches of each run)";
    hp.share = true;
    static struct dist_group g[DIST_MAX_POINTS];
    size_t ng = dist_groups(d, runs, g, DIST_MAX_POINTS);
    for (size_t i = 0; i < ng; i++)
        panel_of_group(&hp, d, &g[i]);
    struct plot_made *m = plot_record(
        pl, name,
        "Each level's batch times in every run given, one colour per run (log axes; the share of "
        "the run's batches, so runs of different lengths compare); solid, dashed and dotted "
        "lines at each run's p50, p99 and p99.9.",
        "What the host adds over the firmware shows as a longer right tail at the same level.");
    if (m)
        m->ok = hist_render(outdir, &hp, m->err, sizeof(m->err)) == 0;
}
