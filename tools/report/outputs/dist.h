// SPDX-License-Identifier: MIT
// A run's latency distributions (the tail experiment's, or any experiment with a histogram side
// file): one point per row of its table, read by column name, for the plots and report.md.
#ifndef REPORT_DIST_H
#define REPORT_DIST_H

#include <stdbool.h>
#include <stddef.h>

#include "fit/analysis.h"

/* Points of one run: the tail experiment has four sizes, twice that with 4K and large pages. */
#define DIST_MAX_POINTS 24
/* Runs set side by side in one comparison: a firmware run, a host run and a few more. */
#define DIST_MAX_RUNS 4
/* Bytes: the base page every architecture chase runs on has (x86-64's, and AArch64's 4K
 * granule); points under larger pages (2M, 1G) are matched across runs as one kind. */
#define DIST_BASE_PAGE 4096.0

struct dist_point {
    char level[16];    /* "L1" ... "DRAM" (the verdict's table an_dist.levels), "" if unknown */
    char label[96];    /* for people: "DRAM 64M", "L2 512K, 4K pages" */
    char size[48];     /* the label without the level: "64M", "512K, 4K pages" */
    double size_bytes; /* the chain's size */
    double page_bytes; /* its pages; 0 when the table has no page column */
    /* the table's columns; NaN when it lacks one */
    double batches, p50_ns, p90_ns, p99_ns, p999_ns, max_ns, slow_batches, stalls;
    double period_ns, stall_ns, confidence, beats, strays;
};

struct dist_run {
    const struct source_result *r;
    size_t e;                /* the experiment */
    const struct an_dist *x; /* its columns */
    const struct csv *hist, *samples;
    size_t n;
    struct dist_point p[DIST_MAX_POINTS];
};

/* The first experiment of r with a distribution (an_dist), its table and its histogram side file
 * into d; false when none. */
bool dist_of(const struct source_result *r, struct dist_run *d);
/* Whether row of d's side table t (hist or samples) belongs to point p (its size, and its pages
 * when t has the page column). */
bool dist_row_is(const struct dist_run *d, const struct csv *t, size_t row,
                 const struct dist_point *p);
/* The points of several runs that measured the same thing: one level (or size, where the
 * kernel named no level) and, when both runs give them, the same pages, or else pages of the
 * same kind (base pages, or larger ones: each run's small sizes run under its own large pages). */
struct dist_group {
    size_t n;
    size_t run[DIST_MAX_RUNS]; /* index of the run in the caller's array */
    const struct dist_point *pt[DIST_MAX_RUNS];
};

/* Group the points of runs d[0..runs) into g (capacity cap), in the order of the first run that
 * has each; a point joins the first group of the same pages that holds none of its run's, else
 * the first of the same kind of pages. Returns how many groups. */
size_t dist_groups(const struct dist_run *d, size_t runs, struct dist_group *g, size_t cap);
/* The point the refresh line is read from: the table's last row (the largest size under its
 * largest pages, beyond the last cache), as the kernel's verdict reads it. */
const struct dist_point *dist_refresh_row(const struct dist_run *d);
/* The index of that point when it holds a refresh period; -1 when no period stood out. */
int dist_refresh_point(const struct dist_run *d);
/* Where r ran, in a word: "firmware" (platform uefi), "host" (linux), "simulated", "unknown"
 * (no run.json platform) or "other". */
const char *dist_platform(const struct source_result *r);

#endif
