// SPDX-License-Identifier: MIT
// What the analysis reads and finds (the curves, a run's input, each curve's result), what an
// experiment's verdict function sees of it, and the helpers the verdicts share (judge.c).
#ifndef CHASE_JUDGE_H
#define CHASE_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/levels.h"
#include "analysis/table.h"
#include "analysis/verdict.h"
#include "lib/csv.h"

#define AN_CACHES_MAX 16 /* CPUID's data and unified caches an input can name */
#define AN_MAX_CURVES 32

/* A curve to analyse: sizes in bytes against ns (and core cycles, NaN or NULL when unknown). */
struct an_curve {
    char label[64];
    enum an_role role;
    double page_bytes;   /* 0 when unknown */
    double stride_bytes; /* 0 when unknown */
    bool relative;       /* latencies are time added to an L1 hit (tinymembench) */
    /* The processor the curve was measured on, where one input holds several (an sbc-bench log's
     * tables, one set per cpu): a curve's pages are compared only within its group; 0 alike. */
    int group;
    size_t n;
    const double *size, *ns, *cycles;
};

/* A step found in a small-page curve and not in a larger-page curve of the same machine. */
struct tlb_step {
    double size_bytes; /* where the step is */
    double penalty_ns; /* how much it adds */
};

struct an_curve_result {
    bool analysed;
    double ns_offset; /* added before analysis for relative curves */
    struct detection det;
    int reference; /* index of the larger-page curve compared with, -1 if none */
    size_t ntlb;
    struct tlb_step tlb[LEVELS_MAX];
};

/* A TLB's reach and cost under one page size (the tlb experiment). */
struct verdict_tlb_step {
    double reach_bytes, page_bytes, penalty_ns;
};

/* What the analysis reads: the experiments' tables (index: analysis_experiment) and curves. */
struct an_input {
    const struct csv *table[AN_EXP_MAX];      /* NULL when that experiment did not run */
    const struct csv *side_table[AN_EXP_MAX]; /* its an_experiment's side_table, NULL: none */
    size_t ncurves;
    const struct an_curve *curve;
    double llc_bytes;  /* largest data or unified cache CPUID reports, 0 when unknown */
    double line_bytes; /* the L1 data line, 64 when unknown */
    bool hypervisor;   /* under a hypervisor: guest huge pages may be split by the host */
    size_t ncaches;    /* CPUID's data and unified caches (0 when unknown: foreign curves) */
    double cache_bytes[AN_CACHES_MAX];
};

struct an_result {
    struct an_curve_result cr[AN_MAX_CURVES];
    int primary; /* the curve whose levels are the run's levels, -1 if none */
    struct verdict verdict[AN_EXP_MAX];
};

struct an_judge {
    const struct an_input *in;
    const struct an_result *r;
    const struct csv *t;    /* the experiment's own table, NULL when it did not run */
    const char *name;       /* the experiment's name */
    const struct csv *side; /* its second table (an_experiment's side_table), NULL: none */
};

/* Most distinct values judge_values collects. */
#define JUDGE_MAX_VALUES 64

/* Distinct finite values of column col of t, ascending; returns how many (<= max). */
size_t judge_values(const struct csv *t, int col, double *out, size_t max);
/* The random chase's latency at size bytes (the primary curve); NaN when unknown. */
double judge_random_at(const struct an_judge *j, double size);
/* The primary curve, or NULL. */
const struct an_curve *judge_primary(const struct an_judge *j);
/* Whether a buffer of bytes fits in the last cache (analysis_llc_bytes: CPUID's, or the share
 * the random chase measured), which a chase of it then times rather than memory; llc gets that
 * cache's size written. */
bool judge_in_llc(const struct an_judge *j, double bytes, char *llc, size_t cap);
/* v with two significant digits (as printf's %.2g for 1e-5 <= |v| < 1e15); "-" if not finite. */
void judge_sig2(char *dst, size_t cap, double v);
/* Append printf-like text to the NUL-terminated dst of capacity cap (kept when full). */
void judge_append(char *dst, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Linear interpolation of y over log2(x) at x0 among n points sorted by x; NaN outside. */
double analysis_interp_log2(const double *x, const double *y, size_t n, double x0);
/* Size of the last cache the verdicts judge against: the measured share when the last level is
 * a shared cache's, else CPUID's, else the last detected level's (0 when unknown). */
double analysis_llc_bytes(const struct an_input *in, const struct an_result *r);
/* Whether analysis_llc_bytes is a shared last cache's measured share (not CPUID's size). */
bool analysis_llc_is_share(const struct an_result *r);

#endif
