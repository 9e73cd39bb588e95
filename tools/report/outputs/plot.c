// SPDX-License-Identifier: MIT
// PNG plots through gnuplot: a plot is described in C, written as data and script, then drawn.
#include "outputs/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "inputs/rtext.h"
#include "lib/fmt.h"

#define MAX_TICS 14
#define PLOT_MAX_POINTS 4000

static const char *const marker_color[] = {"#c00000", "#1f5fbf", "#e08000"};
static const char *const marker_dash[] = {"1", "2", "3"};

void plot_init(struct plot_spec *ps, const char *name, const char *title, const char *xlabel,
               const char *ylabel, bool x_size)
{
    memset(ps, 0, sizeof(*ps));
    rtext_tag(ps->name, sizeof(ps->name), name);
    rtext_sanitize(ps->title, sizeof(ps->title), title);
    rtext_sanitize(ps->xlabel, sizeof(ps->xlabel), xlabel);
    rtext_sanitize(ps->ylabel, sizeof(ps->ylabel), ylabel);
    ps->x_size = x_size;
    ps->logy = true;
}

bool plot_add_series(struct plot_spec *ps, const char *title, const double *x, const double *y,
                     size_t n, bool model)
{
    if (ps->nseries >= PLOT_MAX_SERIES)
        return false;
    struct plot_series *s = &ps->series[ps->nseries++];
    rtext_sanitize(s->title, sizeof(s->title), title);
    s->x = x;
    s->y = y;
    s->n = n;
    s->model = model;
    return true;
}

bool plot_add_marker(struct plot_spec *ps, double x, enum marker_kind kind, const char *label)
{
    if (ps->nmarkers >= PLOT_MAX_MARKERS || !isfinite(x) || x <= 0)
        return false;
    struct plot_marker *m = &ps->marker[ps->nmarkers++];
    m->x = x;
    m->kind = kind;
    rtext_sanitize(m->label, sizeof(m->label), label);
    return true;
}

double *plot_alloc(struct plot_spec *ps, size_t n)
{
    if (ps->nowned >= PLOT_MAX_OWNED)
        return NULL;
    double *p = calloc(n ? n : 1, sizeof(double));
    if (p)
        ps->owned[ps->nowned++] = p;
    return p;
}

void plot_free(struct plot_spec *ps)
{
    for (size_t i = 0; i < ps->nowned; i++)
        free(ps->owned[i]);
    ps->nowned = 0;
}

static bool usable(const struct plot_spec *ps, double x, double y)
{
    return isfinite(x) && isfinite(y) && (!ps->x_size || x > 0) && (!ps->logy || y > 0);
}

static size_t series_points(const struct plot_spec *ps, const struct plot_series *s)
{
    size_t n = 0;
    for (size_t k = 0; k < s->n; k++)
        n += usable(ps, s->x[k], s->y[k]);
    return n;
}

/* Data file: one block per series that has points (gnuplot's index). */
static int write_data(const char *path, const struct plot_spec *ps, double *range, size_t *points)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    range[0] = range[2] = INFINITY;
    range[1] = range[3] = -INFINITY;
    *points = 0;
    for (size_t i = 0; i < ps->nseries; i++) {
        const struct plot_series *s = &ps->series[i];
        if (series_points(ps, s) == 0)
            continue; /* gnuplot's index counts only blocks that hold data */
        fprintf(f, "# %s\n", s->title);
        /* Every point up to PLOT_MAX_POINTS; beyond, evenly spaced ones (gnuplot is slow). */
        size_t step = (s->n + PLOT_MAX_POINTS - 1) / PLOT_MAX_POINTS;
        for (size_t k = 0; k < s->n; k += step ? step : 1) {
            if (!usable(ps, s->x[k], s->y[k]))
                continue;
            fprintf(f, "%.9g %.9g\n", s->x[k], s->y[k]);
            range[0] = fmin(range[0], s->x[k]);
            range[1] = fmax(range[1], s->x[k]);
            range[2] = fmin(range[2], s->y[k]);
            range[3] = fmax(range[3], s->y[k]);
            (*points)++;
        }
        fprintf(f, "\n\n");
    }
    return fclose(f) == 0 ? 0 : -1;
}

/* K/M/G tics on the log2 size axis, every 1, 2 or more octaves to keep them readable. */
static void size_tics(FILE *f, double xmin, double xmax)
{
    int lo = (int)floor(log2(xmin)), hi = (int)ceil(log2(xmax));
    int step = 1;
    while ((hi - lo) / step + 1 > MAX_TICS)
        step++;
    /* A little room at both ends: gnuplot drops a tic that sits exactly on the border. */
    fprintf(f, "set logscale x 2\nset xrange [%.9g:%.9g]\nset xtics (", exp2(lo) / 1.03,
            exp2(hi) * 1.03);
    for (int e = lo; e <= hi; e += step) {
        char sz[32];
        fmt_size(sz, sizeof(sz), exp2(e));
        fprintf(f, "%s'%s' %.9g", e == lo ? "" : ", ", sz, exp2(e));
    }
    fprintf(f, ")\n");
}

/* 1-2-5 tics on a log y axis: the default of one per decade leaves too few numbers. */
static void log_y_tics(FILE *f, double ymin, double ymax)
{
    static const double steps[] = {1, 2, 5};
    int lo = (int)floor(log10(ymin)), hi = (int)ceil(log10(ymax));
    if (hi - lo > 6)
        return;
    fprintf(f, "set ytics (");
    const char *sep = "";
    for (int e = lo; e <= hi; e++)
        for (int k = 0; k < 3; k++) {
            double v = steps[k] * pow(10, e);
            if (v < ymin / 1.5 || v > ymax * 1.5)
                continue;
            fprintf(f, "%s%.6g", sep, v);
            sep = ", ";
        }
    fprintf(f, ")\n");
}

/* Vertical markers at sizes; on a size axis, those outside the plotted range are left out
 * (gnuplot would draw them over the key). */
static void markers(FILE *f, const struct plot_spec *ps, const double *range)
{
    for (size_t i = 0; i < ps->nmarkers; i++) {
        const struct plot_marker *m = &ps->marker[i];
        if (ps->x_size && range[1] > range[0] && (m->x < range[0] || m->x > range[1] * 1.03))
            continue;
        fprintf(f,
                "set arrow from %.9g, graph 0 to %.9g, graph 1 nohead lc rgb '%s' dt %s lw 1.2 "
                "back\n",
                m->x, m->x, marker_color[m->kind], marker_dash[m->kind]);
        if (m->kind == MARK_CPUID)
            fprintf(f,
                    "set label '%s' at %.9g, graph 0.02 rotate by 90 left front tc rgb '%s' "
                    "offset -0.6,0 font ',8'\n",
                    m->label, m->x, marker_color[m->kind]);
        else
            fprintf(f,
                    "set label '%s' at %.9g, graph 0.98 rotate by 90 right front tc rgb '%s' "
                    "offset -0.6,0 font ',8'\n",
                    m->label, m->x, marker_color[m->kind]);
    }
}

static int write_script(const char *path, const struct plot_spec *ps, const double *range)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f,
            "# chase-report: %s\nset terminal pngcairo size 1100,650 noenhanced font "
            "'Sans,10'\nset output '%s.png'\n",
            ps->title, ps->name);
    fprintf(f, "set title '%s'\nset xlabel '%s'\nset ylabel '%s'\n", ps->title, ps->xlabel,
            ps->ylabel);
    fprintf(f, "set grid xtics ytics lc rgb '#e0e0e0'\nset key outside right top\n"
               "set border lc rgb '#404040'\n");
    if (ps->x_size && range[1] > range[0])
        size_tics(f, range[0], range[1]);
    if (ps->logy) {
        fprintf(f, "set logscale y\nset mytics 10\n");
        if (range[3] > range[2])
            log_y_tics(f, range[2], range[3]);
    }
    if (ps->y_zero && !ps->logy)
        fprintf(f, "set yrange [0:*]\n");
    markers(f, ps, range);
    const char *sep = "plot ";
    size_t block = 0;
    for (size_t i = 0; i < ps->nseries; i++) {
        const struct plot_series *s = &ps->series[i];
        if (series_points(ps, s) == 0)
            continue;
        fprintf(f, "%s'gnuplot/%s.dat' index %zu using 1:2 ", sep, ps->name, block++);
        if (s->model)
            fprintf(f, "with lines dt 2 lw 1.5 lc rgb '#606060' title '%s'", s->title);
        else
            fprintf(f, "with linespoints pt 7 ps 0.55 lw 1.4 title '%s'", s->title);
        sep = ", \\\n     ";
    }
    fprintf(f, "\n");
    return fclose(f) == 0 ? 0 : -1;
}

/* Run gnuplot on the script inside outdir, its messages appended to outdir/gnuplot.log. */
int plot_run_gnuplot(const char *outdir, const char *script)
{
    const char *prog = getenv("CHASE_GNUPLOT");
    if (!prog || !*prog)
        prog = "gnuplot";
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (chdir(outdir) != 0)
            _exit(126);
        int fd = open("gnuplot.log", O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execlp(prog, prog, script, (char *)NULL);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int plot_files_make(const char *outdir, const char *name, struct plot_files *pf, char *err,
                    size_t cap)
{
    snprintf(pf->dir, sizeof(pf->dir), "%s/gnuplot", outdir);
    if (mkdir(pf->dir, 0755) != 0 && errno != EEXIST) {
        snprintf(err, cap, "cannot create %s: %s", pf->dir, strerror(errno));
        return -1;
    }
    snprintf(pf->data, sizeof(pf->data), "%s/%s.dat", pf->dir, name);
    snprintf(pf->script, sizeof(pf->script), "%s/%s.gp", pf->dir, name);
    return 0;
}

int plot_draw(const char *outdir, const char *name, char *err, size_t cap)
{
    char rel[200], png[4400];
    snprintf(rel, sizeof(rel), "gnuplot/%s.gp", name);
    snprintf(png, sizeof(png), "%s/%s.png", outdir, name);
    unlink(png);
    int rc = plot_run_gnuplot(outdir, rel);
    struct stat st;
    if (rc == 127) {
        snprintf(err, cap, "gnuplot was not found (Debian package gnuplot-nox)");
        return -1;
    }
    if (rc != 0 || stat(png, &st) != 0 || st.st_size == 0) {
        snprintf(err, cap, "gnuplot failed on %s (see gnuplot.log)", rel);
        return -1;
    }
    return 0;
}

int plot_render(const char *outdir, const struct plot_spec *ps, char *err, size_t cap)
{
    struct plot_files pf;
    double range[4]; /* x min, x max, y min, y max */
    size_t points;
    if (plot_files_make(outdir, ps->name, &pf, err, cap) != 0)
        return -1;
    if (write_data(pf.data, ps, range, &points) != 0 || write_script(pf.script, ps, range) != 0) {
        snprintf(err, cap, "cannot write %s: %s", pf.script, strerror(errno));
        return -1;
    }
    if (points == 0) {
        snprintf(err, cap, "%s: no points to plot", ps->name);
        return -1;
    }
    return plot_draw(outdir, ps->name, err, cap);
}

static const char *const time_unit[] = {"ns", "us", "ms", "s"};

/* ns scaled down by thousands to its unit (an index into time_unit); tics at exactly a thousand
 * allowed a rounding's error. */
static size_t time_scale(double *ns)
{
    size_t u = 0;
    while (u + 1 < sizeof(time_unit) / sizeof(time_unit[0]) && *ns >= 1000 * (1 - 1e-9)) {
        *ns /= 1000;
        u++;
    }
    return u;
}

void plot_time_label(char *buf, size_t cap, double ns)
{
    size_t u = time_scale(&ns);
    snprintf(buf, cap, "%g %s", ns, time_unit[u]);
}

const char *plot_time_text(char *buf, size_t cap, double ns)
{
    if (!isfinite(ns) || ns < 1000) {
        snprintf(buf, cap, "%.1f ns", ns);
        return buf;
    }
    size_t u = time_scale(&ns);
    snprintf(buf, cap, "%.3g %s", ns, time_unit[u]);
    return buf;
}

void plot_log_tics(FILE *f, const char *axis, double lo, double hi)
{
    static const double steps[] = {1, 2, 5};
    int d0 = (int)floor(log10(lo)), d1 = (int)ceil(log10(hi));
    size_t per = d1 - d0 > 4 ? 1 : 3;
    const char *sep = "";
    fprintf(f, "set %stics (", axis);
    for (int e = d0; e <= d1; e++)
        for (size_t k = 0; k < per; k++) {
            double v = steps[k] * pow(10, e);
            if (v >= lo && v <= hi) {
                char label[32];
                plot_time_label(label, sizeof(label), v);
                fprintf(f, "%s'%s' %.9g", sep, label, v);
                sep = ", ";
            }
        }
    fprintf(f, ")\n");
}
