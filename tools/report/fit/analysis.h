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

struct curve_result {
    const struct curve *c;
    bool analysed;
    bool relative;    /* latencies are time above an L1 hit */
    double ns_offset; /* added before analysis for relative curves */
    struct detection det;
    int reference; /* index of the larger-page curve compared with, -1 if none */
    const struct curve_result *reference_src; /* or the one of another source, NULL if none */
    size_t ntlb;
    struct tlb_step tlb[LEVELS_MAX];
    bool fitted;
    struct fit_result fit[2]; /* [0] inclusive, [1] exclusive form */
    int form;                 /* the form reported first: 0 inclusive, 1 exclusive */
    struct fit_check check;
};

struct source_result {
    struct source *src;
    struct curve_result cr[SOURCE_MAX_CURVES];
    int primary;                 /* curve whose levels are the source's levels, -1 if none */
    int cache_match[LEVELS_MAX]; /* CPUID cache index matched to each primary level, or -1 */
    double llc_bytes;            /* largest data or unified cache CPUID reports, 0 if unknown */
    struct verdict verdict[EXP_COUNT];
    char *summary; /* analysis_summary()'s text, as the console printed it (malloc) */
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
