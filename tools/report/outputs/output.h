// SPDX-License-Identifier: MIT
// chase-report's outputs: the plots of every source, report.md and the --json document.
#ifndef REPORT_OUTPUT_H
#define REPORT_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "fit/analysis.h"

#define PLOTS_PER_SOURCE 32 /* every experiment's plot, two for some, c2c's one per state */

struct plot_made {
    char file[128];                      /* PNG file name inside the output folder */
    char caption[2][PLOT_CAPTION_CHARS]; /* what it shows; what to see in it */
    bool ok;
    char err[VERDICT_CHARS]; /* why it is missing, when !ok */
};

struct plot_list {
    size_t n;
    struct plot_made p[PLOTS_PER_SOURCE];
};

/*
 * Draw every plot for the n analysed sources into outdir: lists[i] gets those of source i
 * (file names prefixed by its tag when n > 1) and lists[n] the comparison of all sources.
 */
void plots_make(const struct source_result *r, size_t n, const char *outdir,
                struct plot_list *lists);

/* The distribution plots of one source (plot_dist.c): the histogram per level and the slow
 * batches over time, named <prefix><exp>-hist.png and <prefix><exp>-slow.png, into pl. */
void plots_dist(const struct source_result *r, const char *outdir, const char *prefix,
                struct plot_list *pl);
/* Every source's histograms side by side per level (<exp>-hist-compare.png) into pl, when two
 * or more sources have them. */
void plots_dist_compare(const struct source_result *r, size_t n, const char *outdir,
                        struct plot_list *pl);

/* report.md's distribution section of one source (linking its plots among pl), and the sources'
 * distributions side by side when two or more have them (report_md_dist.c). report_md_dist
 * returns the experiment whose distribution it wrote (its verdict's table of points need not
 * be written again), or -1. */
int report_md_dist(FILE *f, const struct source_result *r, const struct plot_list *pl);
void report_md_dist_compare(FILE *f, const struct source_result *r, size_t n);

/* Write outdir/report.md. Returns 0, or -1 with err (capacity cap) when it cannot be written. */
int report_md_write(const char *outdir, const struct source_result *r, size_t n,
                    const struct plot_list *lists, char *err, size_t cap);
/* The Markdown sections on one source's machine and configuration (report_md_run.c). */
void report_md_machine(FILE *f, const struct source_result *r);
void report_md_config(FILE *f, const struct source_result *r);

/* A verdict's items, whatever the experiment (report_verdict.c): as members of the JSON object
 * being written (verdicts.<experiment>), and as Markdown tables under its lines, but for the
 * table called shown (NULL: none), which report.md shows elsewhere: a line points there. */
struct json;
void verdict_items_json(struct json *j, const struct verdict *v);
void verdict_items_md(FILE *f, const struct verdict *v, const char *shown);

/* Print the analysis as one JSON document to f (levels of the first source at the top). */
void report_json_print(FILE *f, const struct source_result *r, size_t n);

#endif
