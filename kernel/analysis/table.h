// SPDX-License-Identifier: MIT
// The analysis table's row, an experiment's report side (its curves, plots and verdict), and the
// table's lookups: table.c lists the rows, each defined in kernel/analysis/<name>.c.
#ifndef CHASE_ANALYSIS_TABLE_H
#define CHASE_ANALYSIS_TABLE_H

#include <stdbool.h>
#include <stddef.h>

/* Rows the table may hold: the analysis keeps one table and one verdict per row, as many as the
   Makefile's EXPERIMENTS list names (the build passes its count as CHASE_EXPERIMENTS; table.c
   asserts the table fits), so the room grows with the table. */
#ifndef CHASE_EXPERIMENTS
#error "CHASE_EXPERIMENTS (the count of the Makefile's EXPERIMENTS list) is not defined"
#endif
#define AN_EXP_MAX CHASE_EXPERIMENTS
/* The longest plot caption (an_plot.caption) a report can hold, its terminating 0 included. */
#define PLOT_CAPTION_CHARS 480

struct csv;
struct verdict;
struct an_judge; /* what a verdict function sees (analysis/judge.h) */

/* What a latency-vs-size curve is for. */
enum an_role {
    AN_ROLE_NONE,   /* the experiment gives no curve to detect levels on */
    AN_ROLE_LEVELS, /* a random chase: the source of cache levels */
    AN_ROLE_RING,   /* lat_mem_rd-like backward stride: levels per stride */
    AN_ROLE_TLB,    /* one slot per page under one page size */
    AN_ROLE_EXTRA,  /* plotted only (tinymembench dual reads) */
};

/* How the plot of one experiment is drawn from its CSV (tools/report draws it). */
enum an_label {
    AN_LABEL_NAME,
    AN_LABEL_BUFFER,
    AN_LABEL_STREAMS,
    AN_LABEL_STRIDE,
    AN_LABEL_PAGES,
    AN_LABEL_GROUP_VALUE /* "<group column> <value>", e.g. "cpu 3" */
};

struct an_plot {
    const char *stem;    /* file name stem; NULL: no plot */
    bool from_curves;    /* plot the curves of the experiment's role, not its table */
    const char *x, *y;   /* CSV columns */
    const char *group;   /* one curve per value of this numeric column, or NULL */
    const char *split;   /* one curve per text value of this column, or NULL */
    const char *shared;  /* a split value whose rows begin every curve (loaded's idle), or NULL */
    bool mark_dram;      /* x in GB/s: mark the theoretical DRAM bandwidth SMBIOS gives */
    bool y_zero;         /* the y axis from 0 */
    enum an_label label; /* how a group's curve is named */
    const char *xlabel, *ylabel;
    bool x_size, logy;   /* x is a size in bytes (log2 axis); log y axis */
    bool over_random;    /* draw the run's random chase over it */
    bool mark_levels;    /* mark the detected levels */
    bool mark_cpuid;     /* mark the caches CPUID reports */
    bool mark_llc;       /* mark only the last cache CPUID reports */
    const char *what;    /* the title */
    const char *caption; /* what the plot shows */
    /* Names the curve row r belongs to (rows of one name make one curve, the median y at each
       x: cores' groups of processors), or NULL. */
    void (*row_series)(const struct csv *t, size_t r, char *name, size_t cap);
    const char *z; /* a heatmap of z over (x, y) pairs instead of curves, or NULL */
    const char *zlabel;
    /* A bar chart of y instead of curves: one bar per row named by this text column (NULL: no
       bars), of the rows whose column `where` holds the text `equals` (where NULL: all). */
    const char *bar;
    const char *where, *equals;
};

/* Which curves a table holds: one per value of group, x against ns_median. */
struct an_curve_spec {
    enum an_role role;
    const char *group;
    const char *x;
};

/* A latency distribution beside an experiment's table, the columns tools/report reads it by: a
 * histogram per point (<exp>.hist.csv), its slow batches (<exp>.samples.csv) and the table's
 * percentiles, drawn per point and set side by side across runs. A column a run lacks is
 * unknown; page is optional (each page size then makes points of its own). */
struct an_dist {
    const char *size, *page, *batches; /* a point: its size, pages; the batches timed */
    const char *pct[5];                /* p50, p90, p99, p99.9 and the maximum, ns */
    const char *slow, *stalls;         /* slow batches, stalls no memory explains */
    const char *period, *stall, *confidence, *beats, *strays; /* a period found at a point */
    const char *bin_low, *bin_high, *count;                   /* the histogram's columns */
    const char *time_us, *excess_ns;                          /* the slow batches' columns */
    const char *levels, *level; /* the verdict's table naming each point's level, its column */
    const char *walk_p50, *walk_p999; /* the verdict's items: what page walks add (ns), or NULL */
};

/* One row of the analysis table: an experiment's report side. */
struct an_experiment {
    const char *name;
    struct an_curve_spec curves;
    struct an_plot plot;
    struct an_plot also;        /* a second plot of the same table (stem NULL: none) */
    const struct an_dist *dist; /* its latency distribution, NULL: none */
    /* A second table its verdict reads (an_judge's side), <exp>.<side_table>.csv in a run
       folder ("msc": numa.msc.csv); NULL: none. */
    const char *side_table;
    void (*judge)(const struct an_judge *j, struct verdict *v);
};

/* The experiments in the order reports list them, and how many. */
const struct an_experiment *analysis_experiment(size_t index);
size_t analysis_experiment_count(void);
/* Index of the experiment called name, or -1. */
int analysis_experiment_index(const char *name);

#endif
