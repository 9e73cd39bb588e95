// SPDX-License-Identifier: MIT
// PNG plots through gnuplot: a plot is described in C, written as data and script, then drawn.
#ifndef REPORT_PLOT_H
#define REPORT_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lib/csv.h"

#define PLOT_MAX_SERIES 24
/* Curves a latency plot draws its plotted-only curves beside (a tinymembench dual read, ramlat's
 * parallel walks): gnuplot's eight line colours, so that each curve keeps its own; with more
 * (a whole sbc-bench log's tables) only the levels curves are drawn. */
#define PLOT_DISTINCT_CURVES 8
#define PLOT_MAX_MARKERS 24
#define PLOT_MAX_OWNED 32

enum marker_kind {
    MARK_LEVEL, /* a detected cache level (solid red, labelled at the top) */
    MARK_CPUID, /* a size CPUID reports (dashed blue, labelled at the bottom) */
    MARK_TLB,   /* a TLB step (dotted orange) */
};

struct plot_series {
    char title[120];
    const double *x, *y;
    size_t n;
    bool model; /* a computed curve: a dashed line without points */
};

struct plot_marker {
    double x;
    char label[64];
    enum marker_kind kind;
};

struct plot_spec {
    char name[96]; /* file stem: NAME.png, gnuplot/NAME.gp, gnuplot/NAME.dat */
    char title[240];
    char xlabel[96];
    char ylabel[96];
    bool x_size; /* x is a size in bytes: log2 axis with K/M/G tics */
    bool logy;   /* log y axis (when every value is positive) */
    bool y_zero; /* a linear y axis from 0 (a small rise is not drawn as a large one) */
    size_t nseries;
    struct plot_series series[PLOT_MAX_SERIES];
    size_t nmarkers;
    struct plot_marker marker[PLOT_MAX_MARKERS];
    size_t nowned;
    double *owned[PLOT_MAX_OWNED];
};

/* Start an empty plot description. */
void plot_init(struct plot_spec *ps, const char *name, const char *title, const char *xlabel,
               const char *ylabel, bool x_size);
/* Add a series (arrays are not copied: keep them alive until plot_render); false when full. */
bool plot_add_series(struct plot_spec *ps, const char *title, const double *x, const double *y,
                     size_t n, bool model);
/* Add a vertical marker at x; false when full. */
bool plot_add_marker(struct plot_spec *ps, double x, enum marker_kind kind, const char *label);
/* An array of n doubles freed with the plot; NULL when out of memory or full. */
double *plot_alloc(struct plot_spec *ps, size_t n);
/* Release what plot_alloc gave. */
void plot_free(struct plot_spec *ps);

/*
 * Write outdir/gnuplot/NAME.dat and NAME.gp and run gnuplot (or $CHASE_GNUPLOT) in outdir to
 * draw outdir/NAME.png. Returns 0 when a non-empty PNG exists afterwards, else -1 with err
 * (capacity cap) saying why (no points, gnuplot missing or failing: see outdir/gnuplot.log).
 */
int plot_render(const char *outdir, const struct plot_spec *ps, char *err, size_t cap);

/* Run gnuplot (or $CHASE_GNUPLOT) on script, a path inside outdir; its exit status (127: none). */
int plot_run_gnuplot(const char *outdir, const char *script);

/* Where a plot's files go: outdir/gnuplot, and NAME.dat and NAME.gp in it. */
struct plot_files {
    char dir[4200], data[4400], script[4400];
};

/* Make outdir/gnuplot and name the files of plot name in it; 0, or -1 with err saying why. */
int plot_files_make(const char *outdir, const char *name, struct plot_files *pf, char *err,
                    size_t cap);

/*
 * Run gnuplot on plot name's script (written in the files plot_files_make named). Returns 0
 * when a non-empty outdir/NAME.png exists afterwards, else -1 with err saying why (gnuplot
 * missing or failing: see outdir/gnuplot.log).
 */
int plot_draw(const char *outdir, const char *name, char *err, size_t cap);

/* A heatmap: one cell per (x, y) value pair of a table, coloured and labelled by column z. */
struct plot_heatmap {
    const char *name, *title, *xlabel, *ylabel, *zlabel;
    const char *x, *y, *z; /* columns */
    /* Only the rows whose text column split holds split_value and column where holds equals
       (each NULL: no such condition), as c2c's heatmap per line state. */
    const char *split, *split_value, *where, *equals;
};
/* Draw outdir/NAME.png from table t; 0, or -1 with err saying why (as plot_render). */
int plot_heatmap_render(const char *outdir, const struct plot_heatmap *h, const struct csv *t,
                        char *err, size_t cap);

/* A bar chart: one bar per row of a table (those whose `where` column holds `equals`, all when
   where is NULL), named by text column label, of height column y. */
struct plot_bars {
    const char *name, *title, *xlabel, *ylabel;
    const char *label, *y;
    const char *where, *equals;
};
/* Draw outdir/NAME.png from table t; 0, or -1 with err saying why (as plot_render). */
int plot_bars_render(const char *outdir, const struct plot_bars *b, const struct csv *t, char *err,
                     size_t cap);

/* Times on a plot, given in ns: a tic's label ("500 ns", "2 us", "10 ms"); a value in words
 * with its unit ("590.8 ns" below a microsecond, else three digits: "7.22 ms"), returning buf;
 * tics at 1, 2 and 5 of each decade of [lo, hi] on axis ("x" or "y"), only 1s when those are too
 * many (a narrow log range has no decade inside it, and gnuplot would then show none). */
void plot_time_label(char *buf, size_t cap, double ns);
const char *plot_time_text(char *buf, size_t cap, double ns);
void plot_log_tics(FILE *f, const char *axis, double lo, double hi);

#endif
