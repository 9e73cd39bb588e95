// SPDX-License-Identifier: MIT
// A heatmap PNG through gnuplot: one cell per (x, y) pair of a table, coloured by a value.
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "outputs/plot.h"

#define HEATMAP_MAX 64 /* processors per side */

/* The distinct values of column col, ascending; how many (at most HEATMAP_MAX). */
static size_t axis_values(const struct csv *t, int col, double *v)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        double x = csv_num(t, i, col);
        size_t k = 0;
        while (k < n && v[k] != x)
            k++;
        if (k == n && n < HEATMAP_MAX && isfinite(x))
            v[n++] = x;
    }
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && v[k - 1] > v[k]; k--) {
            double s = v[k];
            v[k] = v[k - 1];
            v[k - 1] = s;
        }
    return n;
}

/* Whether text column col of row i holds want (col < 0 or want NULL: no condition). */
static bool text_is(const struct csv *t, size_t i, int col, const char *want)
{
    const char *v = col >= 0 && want ? csv_text(t, i, col) : NULL;
    return col < 0 || !want || (v && strcmp(v, want) == 0);
}

/* Data: "column row value" lines, a blank line after each row; missing pairs left out. The
   largest value goes to *zmax (0 when none). */
static int write_matrix(const char *path, const struct plot_heatmap *h, const struct csv *t,
                        const int *cols, const double *ax, size_t n, double *zmax)
{
    *zmax = 0;
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    for (size_t a = 0; a < n; a++) {
        for (size_t b = 0; b < n; b++) {
            double z = NAN;
            for (size_t i = 0; i < t->nrows; i++)
                if (csv_num(t, i, cols[0]) == ax[a] && csv_num(t, i, cols[1]) == ax[b] &&
                    text_is(t, i, cols[3], h->split_value) && text_is(t, i, cols[4], h->equals))
                    z = csv_num(t, i, cols[2]);
            if (isfinite(z)) { /* the diagonal and lost pairs stay blank */
                fprintf(f, "%zu %zu %g\n", b, a, z);
                *zmax = z > *zmax ? z : *zmax;
            }
        }
        fprintf(f, "\n");
    }
    return fclose(f) == 0 ? 0 : -1;
}

/*
 * Script: the cells as filled boxes, each labelled with its value, the processors on both axes.
 * The colour scale runs from 0 to the largest value, light to dark: a colour is proportional
 * to the latency, so cells a few percent apart look alike (a scale over only the measured
 * range would paint 64.6 and 65.4 ns as opposite ends), and real groups still stand apart.
 */
static int write_heatmap_script(const char *path, const struct plot_heatmap *h, const double *ax,
                                size_t n, double zmax)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "set terminal pngcairo size 900,760 font ',10'\nset output '%s.png'\n", h->name);
    fprintf(f, "set title \"%s\" noenhanced\nset xlabel \"%s\"\nset ylabel \"%s\"\n", h->title,
            h->xlabel, h->ylabel);
    fprintf(f,
            "set cblabel \"%s\"\nset palette defined (0 '#fff7ec', 0.35 '#fdd49e', 0.7 '#fc8d59', "
            "1 '#d7301f')\nset xrange [-0.5:%zu.5]\nset yrange [%zu.5:-0.5]\n",
            h->zlabel, n - 1, n - 1);
    if (zmax > 0)
        fprintf(f, "set cbrange [0:%g]\n", zmax);
    /* the diagonal and lost pairs grey, not the scale's 0 */
    fprintf(f, "set object 1 rectangle from graph 0,0 to graph 1,1 behind fc rgb '#d9d9d9' "
               "fs solid noborder\n");
    fprintf(f, "set xtics (");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s\"%g\" %zu", i ? ", " : "", ax[i], i);
    fprintf(f, ")\nset ytics (");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s\"%g\" %zu", i ? ", " : "", ax[i], i);
    fprintf(f,
            ")\nplot 'gnuplot/%s.dat' using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 "
            "noborder lc palette notitle, \\\n"
            "     '' using 1:2:(sprintf('%%.1f', $3)) with labels notitle\n",
            h->name);
    return fclose(f) == 0 ? 0 : -1;
}

int plot_heatmap_render(const char *outdir, const struct plot_heatmap *h, const struct csv *t,
                        char *err, size_t cap)
{
    int cols[5] = {csv_col(t, h->x), csv_col(t, h->y), csv_col(t, h->z),
                   h->split ? csv_col(t, h->split) : -1, h->where ? csv_col(t, h->where) : -1};
    double ax[HEATMAP_MAX];
    if (cols[0] < 0 || cols[1] < 0 || cols[2] < 0) {
        snprintf(err, cap, "%s: the table lacks %s, %s or %s", h->name, h->x, h->y, h->z);
        return -1;
    }
    size_t n = axis_values(t, cols[0], ax);
    if (n == 0) {
        snprintf(err, cap, "%s: no pairs to plot", h->name);
        return -1;
    }
    struct plot_files pf;
    if (plot_files_make(outdir, h->name, &pf, err, cap) != 0)
        return -1;
    double zmax;
    if (write_matrix(pf.data, h, t, cols, ax, n, &zmax) != 0 ||
        write_heatmap_script(pf.script, h, ax, n, zmax) != 0) {
        snprintf(err, cap, "cannot write %s: %s", pf.script, strerror(errno));
        return -1;
    }
    return plot_draw(outdir, h->name, err, cap);
}
