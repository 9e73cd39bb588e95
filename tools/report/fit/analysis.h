// SPDX-License-Identifier: MIT
// Everything chase-report concludes from its inputs: levels, fits, TLB steps, verdicts.
#ifndef REPORT_ANALYSIS_H
#define REPORT_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "fit/fit.h"
#include "analysis/interpret.h"
#include "analysis/levels.h"
#include "inputs/source.h"

/* One curve's result: kernel/analysis's (levels, TLB steps) and what chase-report adds to it. */
struct curve_result {
    const struct an_curve *c;         /* the curve: its source's curve[i] */
    const struct an_curve_result *an; /* kernel/analysis's result for it: an.cr[i] */
    /* The larger-page curve of another source of the same machine it was compared with when its
     * own source has none (an->reference is -1 then), NULL if none */
    const struct curve_result *reference_src;
    bool fitted;
    struct fit_result fit[2]; /* [0] inclusive, [1] exclusive form */
    int form;                 /* the form reported first: 0 inclusive, 1 exclusive */
    struct fit_check check;
};

struct source_result {
    struct source *src;
    /* kernel/analysis's result: each curve's levels and TLB steps, the primary curve (whose
     * levels are the source's, -1 if none) and the verdicts */
    struct an_result an;
    struct curve_result cr[SOURCE_MAX_CURVES];
    int cache_match[LEVELS_MAX]; /* CPUID cache index matched to each primary level, or -1 */
    double llc_bytes;            /* largest data or unified cache CPUID reports, 0 if unknown */
    char *summary;               /* analysis_summary()'s text, as the console printed it (malloc) */
};

struct analysis_opts {
    double l1_ns; /* L1 hit latency to add to tinymembench's times; 0 when not given */
};

/*
 * Analyse every source with kernel/analysis (levels, TLB steps within the source, verdicts,
 * the summary text), then fit the latency model and match CPUID caches. r must hold n
 * entries; sources may be changed (--l1-ns applied). Release with analyse_free.
 */
void analyse_all(struct source_result *r, struct source *src, size_t n,
                 const struct analysis_opts *o);
/* Release what analyse_all allocated. */
void analyse_free(struct source_result *r, size_t n);

/* The primary curve's detection, or NULL. */
const struct detection *primary_detection(const struct source_result *r);
/* Latency of the last cache level of the primary curve (NaN when unknown). */
double llc_latency_ns(const struct source_result *r);

#endif
