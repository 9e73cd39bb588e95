// SPDX-License-Identifier: MIT
// A bar chart PNG through gnuplot: one bar per chosen row of a table, named by a text column.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "inputs/rtext.h"
#include "outputs/plot.h"

#define BARS_MAX 32

/* Whether row r is one of the chart's: its `where` column holds `equals` (or no filter). */
static bool chosen(const struct csv *t, size_t r, int where, const char *equals)
{
    return where < 0 || strcmp(csv_text(t, r, where), equals) == 0;
}

/* Data: "index \"label\" value" per chosen row with a finite value; how many (at most
   BARS_MAX); the largest value to *ymax. */
static size_t write_bars(const char *path, const struct csv *t, const int *cols, const char *equals,
                         double *ymax)
{
    size_t n = 0;
    *ymax = 0;
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    for (size_t r = 0; r < t->nrows && n < BARS_MAX; r++) {
        double y = csv_num(t, r, cols[1]);
        char label[64];
        if (!chosen(t, r, cols[2], equals) || !isfinite(y))
            continue;
        rtext_sanitize(label, sizeof(label), csv_text(t, r, cols[0]));
        fprintf(f, "%zu \"%s\" %g\n", n++, label, y);
        *ymax = y > *ymax ? y : *ymax;
    }
    return fclose(f) == 0 ? n : 0;
}

/* Script: filled boxes from 0, each labelled with its value above it, names under them. */
static int write_bars_script(const char *path, const struct plot_bars *b, size_t n, double ymax)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "set terminal pngcairo size 900,560 font ',10'\nset output '%s.png'\n", b->name);
    fprintf(f, "set title \"%s\" noenhanced\nset xlabel \"%s\" noenhanced\n", b->title, b->xlabel);
    fprintf(f, "set ylabel \"%s\" noenhanced\nset xrange [-0.6:%zu.6]\nset yrange [0:%g]\n",
            b->ylabel, n - 1, ymax > 0 ? ymax * 1.15 : 1);
    fprintf(f, "set boxwidth 0.6\nset style fill solid 0.8 noborder\nset grid ytics\n"
               "set xtics noenhanced\n");
    fprintf(f,
            "plot 'gnuplot/%s.dat' using 1:3:xtic(2) with boxes lc rgb '#1f5fbf' notitle, \\\n"
            "     '' using 1:3:(sprintf('%%.1f', $3)) with labels offset 0,0.8 notitle\n",
            b->name);
    return fclose(f) == 0 ? 0 : -1;
}

int plot_bars_render(const char *outdir, const struct plot_bars *b, const struct csv *t, char *err,
                     size_t cap)
{
    int cols[3] = {csv_col(t, b->label), csv_col(t, b->y), b->where ? csv_col(t, b->where) : -1};
    if (cols[0] < 0 || cols[1] < 0 || (b->where && cols[2] < 0)) {
        snprintf(err, cap, "%s: the table lacks %s, %s or %s", b->name, b->label, b->y,
                 b->where ? b->where : "-");
        return -1;
    }
    struct plot_files pf;
    if (plot_files_make(outdir, b->name, &pf, err, cap) != 0)
        return -1;
    double ymax;
    size_t n = write_bars(pf.data, t, cols, b->equals, &ymax);
    if (n == 0) {
        snprintf(err, cap, "%s: no bars to draw", b->name);
        return -1;
    }
    if (write_bars_script(pf.script, b, n, ymax) != 0) {
        snprintf(err, cap, "cannot write %s: %s", pf.script, strerror(errno));
        return -1;
    }
    return plot_draw(outdir, b->name, err, cap);
}
