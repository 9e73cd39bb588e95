// SPDX-License-Identifier: MIT
// Everything chase-report concludes from its inputs: levels, fits, TLB steps, verdicts.
#ifndef REPORT_ANALYSIS_H
#define REPORT_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/fit.h"
#include "analysis/levels.h"
#include "inputs/source.h"

#define VERDICT_LINES 40
#define VERDICT_ITEMS 24
#define VERDICT_CHARS 240
#define TLB_PAGES 8

/* A step found in a small-page curve and not in a larger-page curve of the same machine. */
struct tlb_step {
    double size_bytes; /* where the step is */
    double penalty_ns; /* how much it adds */
};

struct curve_result {
    const struct curve *c;
    bool analysed;
    bool relative;           /* latencies are time above an L1 hit */
    double ns_offset;        /* added before analysis for relative curves */
    struct detection det;
    int reference;           /* index of the larger-page curve compared with, -1 if none */
    const struct source *reference_src;
    size_t ntlb;
    struct tlb_step tlb[LEVELS_MAX];
    bool fitted;
    struct fit_result fit[2]; /* [0] inclusive, [1] exclusive form */
    int form;                 /* the form reported first: 0 inclusive, 1 exclusive */
    struct fit_check check;
};

struct vitem {
    char key[48];
    double value;
};

/* What one experiment shows, in words and numbers. */
struct verdict {
    bool present;
    char headline[VERDICT_CHARS];
    size_t nlines;
    char line[VERDICT_LINES][VERDICT_CHARS]; /* Markdown lines (table rows or bullets) */
    size_t nitems;
    struct vitem item[VERDICT_ITEMS];
};

struct source_result {
    struct source *src;
    struct curve_result cr[SOURCE_MAX_CURVES];
    int primary;                /* curve whose levels are the source's levels, -1 if none */
    int cache_match[LEVELS_MAX]; /* CPUID cache index matched to each primary level, or -1 */
    double llc_bytes;           /* largest data or unified cache CPUID reports, 0 if unknown */
    struct verdict verdict[EXP_COUNT];
};

struct analysis_opts {
    double l1_ns; /* L1 hit latency to add to tinymembench's times; 0 when not given */
};

/*
 * Analyse every source: detect levels on each curve, compare small-page with larger-page
 * curves of the same machine (TLB steps), fit the latency model, match CPUID caches and
 * judge each experiment. r must hold n entries; sources may be changed (--l1-ns applied).
 */
void analyse_all(struct source_result *r, struct source *src, size_t n,
                 const struct analysis_opts *o);

/* Compare curves of different page sizes of the same machine and move TLB steps out of the
 * levels of the smaller-page curves (tlb.c). */
void tlb_pair_curves(struct source_result *r, size_t n);
/* The tlb experiment: TLB penalty per page size and the reach where it starts (tlb.c). */
void verdict_tlb(struct source_result *r);

/* Verdicts of the other experiments (verdict_*.c). */
void verdict_linear(struct source_result *r);
void verdict_fused(struct source_result *r);
void verdict_parallel(struct source_result *r);
void verdict_dual(struct source_result *r);
void verdict_scan(struct source_result *r);
void verdict_offset(struct source_result *r);
void verdict_ring(struct source_result *r);

/* Add a Markdown line or a number to a verdict (dropped when full). */
void verdict_line(struct verdict *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void verdict_item(struct verdict *v, const char *key, double value);

/* The primary curve's detection, or NULL. */
const struct detection *primary_detection(const struct source_result *r);
/* Latency of the last cache level of the primary curve (NaN when unknown). */
double llc_latency_ns(const struct source_result *r);
/* Size of the last cache: CPUID's largest, else the last detected level (0 when unknown). */
double llc_size_bytes(const struct source_result *r);
/* Linear interpolation of y over log2(x) at x0 among n points sorted by x; NaN outside. */
double interp_log2(const double *x, const double *y, size_t n, double x0);

#endif
