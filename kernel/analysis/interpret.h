// SPDX-License-Identifier: MIT
// One interpretation of a run: levels, DRAM, TLB steps and every experiment's verdict.
//
// The console summary (kernel/run/summary.c) and chase-report both call analysis_run() on the
// same CSV text read by the same reader (lib/csv.h), and print analysis_summary()'s block, so
// what the console says and what report.md says cannot drift apart.
#ifndef CHASE_INTERPRET_H
#define CHASE_INTERPRET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/levels.h"
#include "analysis/verdict.h"
#include "lib/csv.h"
#include "lib/fmt.h"
#include "lib/strbuf.h"

#define AN_EXP_MAX 16    /* room for the table (kernel/analysis/table.c asserts it fits) */
#define AN_CACHES_MAX 16 /* CPUID's data and unified caches an input can name */
#define AN_MAX_CURVES 32
/* The longest plot caption (an_plot.caption) a report can hold, its terminating 0 included. */
#define PLOT_CAPTION_CHARS 480

/* What a latency-vs-size curve is for. */
enum an_role {
    AN_ROLE_NONE,   /* the experiment gives no curve to detect levels on */
    AN_ROLE_LEVELS, /* a random chase: the source of cache levels */
    AN_ROLE_RING,   /* lat_mem_rd-like backward stride: levels per stride */
    AN_ROLE_TLB,    /* one slot per page under one page size */
    AN_ROLE_EXTRA,  /* plotted only (tinymembench dual reads) */
};

/* A curve to analyse: sizes in bytes against ns (and core cycles, NaN or NULL when unknown). */
struct an_curve {
    char label[64];
    enum an_role role;
    double page_bytes;   /* 0 when unknown */
    double stride_bytes; /* 0 when unknown */
    bool relative;       /* latencies are time added to an L1 hit (tinymembench) */
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
    const struct csv *table[AN_EXP_MAX]; /* NULL when that experiment did not run */
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

struct an_judge; /* what a verdict function sees (analysis/judge.h) */

/* One row of the analysis table: an experiment's report side. */
struct an_experiment {
    const char *name;
    struct an_curve_spec curves;
    struct an_plot plot;
    struct an_plot also; /* a second plot of the same table (stem NULL: none) */
    void (*judge)(const struct an_judge *j, struct verdict *v);
};

/* The experiments in the order reports list them, and how many. */
const struct an_experiment *analysis_experiment(size_t index);
size_t analysis_experiment_count(void);
/* Index of the experiment called name, or -1. */
int analysis_experiment_index(const char *name);

/*
 * Curves of an experiment's table as its curve spec says (one per group value); sizes are
 * copied into arrays from plat_alloc that analysis_curves_free releases. default_page is
 * used when the table has no page_bytes column. Returns the number of curves added to
 * out (at most cap - *n), advancing *n.
 */
size_t analysis_curves_from_table(const struct an_experiment *e, const struct csv *t,
                                  double default_page, struct an_curve *out, size_t *n, size_t cap);
/* Release the arrays of curves made by analysis_curves_from_table. */
void analysis_curves_free(struct an_curve *c, size_t n);

/*
 * Analyse a run: detect levels on every curve, move TLB steps out of the levels of
 * small-page random curves (against the largest-page one), choose the primary curve and
 * judge every experiment. Never fails; r is filled completely.
 */
void analysis_run(const struct an_input *in, struct an_result *r);

/*
 * Compare the small-page curve c (its result cr) with the larger-page curve ref (result
 * rr): steps of c that ref does not have are TLB steps, moved out of cr's levels.
 */
void analysis_tlb_classify(const struct an_curve *c, struct an_curve_result *cr,
                           const struct an_curve *ref, const struct an_curve_result *rr);

/*
 * Mark the primary curve's levels: kind (cache; tlb at a reach the run's tlb experiment measured
 * with no CPUID cache near it; uncertain where a step could be a TLB's reach, confidence halved)
 * and a note when the last cache is well below CPUID's (shared).
 */
void analysis_level_kinds(const struct an_input *in, struct an_result *r);
/* The tlb experiment's steps (reach, page size, penalty) over every page size it measured,
 * against its largest page size; 0 when it did not run. */
size_t analysis_tlb_steps(const struct an_input *in, const struct an_result *r,
                          struct verdict_tlb_step *out, size_t cap);
/* Size beyond which curve c may pay a page walk on every load: the largest common TLB reach
 * with 4K pages when c's pages are 4K or a hypervisor may back them with 4K pages; 0 when
 * c's pages are larger (or unknown, foreign curves) and no hypervisor is known. */
double analysis_walk_bytes(const struct an_input *in, const struct an_curve *c);

/*
 * The summary of a run as plain text lines: the levels (size, ns, cycles), DRAM, and each
 * experiment's verdict headline. The console prints it; report.md and --json carry it.
 */
void analysis_summary(struct strbuf *sb, const struct an_input *in, const struct an_result *r);

/* Linear interpolation of y over log2(x) at x0 among n points sorted by x; NaN outside. */
double analysis_interp_log2(const double *x, const double *y, size_t n, double x0);
/* Size of the last cache the verdicts judge against: the measured share when the last level is
 * a shared cache's, else CPUID's, else the last detected level's (0 when unknown). */
double analysis_llc_bytes(const struct an_input *in, const struct an_result *r);
/* Whether analysis_llc_bytes is a shared last cache's measured share (not CPUID's size). */
bool analysis_llc_is_share(const struct an_result *r);

#endif
