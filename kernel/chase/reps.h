// SPDX-License-Identifier: MIT
// How many repetitions a point needs: disturbed ones set aside, the median's precision, stopping.
#ifndef CHASE_REPS_H
#define CHASE_REPS_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/stats.h"

/*
 * A repetition is disturbed (an interrupt, an SMI, another program on the core or its
 * sibling) when it lies above the median of all repetitions by more than
 * REPS_OUTLIER_MADS median absolute deviations, scaled by REPS_MAD_TO_SIGMA to estimate
 * a standard deviation. For undisturbed noise that is near normal, 5 sigma is exceeded
 * once in 3.5 million repetitions, so no honest repetition of a run is dropped; a
 * disturbance adds a whole handler or time slice (from a few tenths of a percent of a
 * 1 ms repetition to several times it) and, at cache sizes where the undisturbed spread
 * is a few hundredths of a percent, lands far beyond. Only the upper side: nothing
 * makes a chase faster than it is. The median and MAD break down only past half the
 * repetitions disturbed.
 */
#define REPS_OUTLIER_MADS 5.0
#define REPS_MAD_TO_SIGMA 1.4826
/*
 * ... and by more than this fraction of the median, so that a spread of zero (a
 * deterministic model, a coarse clock) does not make a difference of one tick an outlier.
 */
#define REPS_OUTLIER_FLOOR 0.001
/* The fewest repetitions whose median has a 95% confidence interval (stats_median_ci_ranks). */
#define REPS_CI_MIN 6

/* Why the repetitions of a point stopped. */
enum reps_stop {
    REPS_GO_ON,          /* not yet */
    REPS_STOP_FIXED,     /* precision 0: the fixed count was reached */
    REPS_STOP_PRECISION, /* the median is known to the precision asked for */
    REPS_STOP_TIME,      /* the point's time cap was reached first */
    REPS_STOP_CAPACITY,  /* the most repetitions a point may have */
    REPS_STOP_PASSES     /* interleaved passes: every slice was done, the whole not precise */
};

/* "", "fixed", "precision", "time", "max_reps", "passes": the stop column of the CSVs. */
extern const char *const reps_stop_names[];

/* When a point's repetitions stop. */
struct reps_rule {
    unsigned min_reps;  /* always at least this many (the reps key) */
    unsigned max_reps;  /* never more */
    double precision;   /* target relative half-width of the median's CI; 0: min_reps exactly */
    uint64_t max_ticks; /* time cap of the repetitions in TSC ticks (0: none); min_reps first */
};

/* What n repetitions say, outliers set aside. */
struct reps_verdict {
    unsigned n;                      /* repetitions */
    unsigned kept;                   /* repetitions that are not outliers (at least half) */
    double threshold;                /* repetitions above this value are outliers */
    struct stats_summary kept_stats; /* min, median, p90, max of the kept ones */
    bool ci_valid;                   /* the kept ones are enough for a 95% interval */
    double ci_lo, ci_hi;             /* the median's confidence interval, when ci_valid */
    double precision;                /* (ci_hi - ci_lo) / 2 / median; 0 unless ci_valid */
};

/* Insert v into the ascending sorted[0..n) (room for n + 1 values). */
void reps_insert_sorted(double *sorted, unsigned n, double v);

/*
 * The outlier threshold of n ascending values: median + max(REPS_OUTLIER_MADS *
 * REPS_MAD_TO_SIGMA * MAD, REPS_OUTLIER_FLOOR * median). 0 for n == 0.
 */
double reps_outlier_threshold(const double *sorted, unsigned n);

/*
 * Assess n ascending repetitions: the outliers (above the threshold) set aside, the
 * summary of the rest and its median's confidence interval and precision.
 */
void reps_assess(const double *sorted, unsigned n, struct reps_verdict *v);

/*
 * Whether to stop after the repetitions v describes, elapsed_ticks after the first one
 * began: min_reps always; then at the fixed count (precision 0), at the precision, at
 * the time cap or at max_reps, whichever comes first. REPS_GO_ON to go on.
 */
enum reps_stop reps_should_stop(const struct reps_rule *rule, const struct reps_verdict *v,
                                uint64_t elapsed_ticks);

/*
 * The headline of a point, robust to bursts: the REPS_HEADLINE_QUANTILE quantile of all its
 * repetitions. It stays among the quiet repetitions as long as fewer than 3/4 of them are
 * disturbed (a burst only ever makes a repetition slower), and for undisturbed normal noise
 * it lies 0.67 standard deviations below the median.
 */
#define REPS_HEADLINE_QUANTILE 0.25

/* What reps_disturbance found in a point's repetitions (bits of its result). */
#define REPS_DISTURB_TAIL (1u << 0)  /* more than REPS_TAIL_SHARE of them are outliers */
#define REPS_DISTURB_MODES (1u << 1) /* two clusters with a gap between them */
#define REPS_DISTURB_DRIFT (1u << 2) /* the first third and the last third differ */
/* The fewest repetitions the detector judges (fewer: never disturbed). */
#define REPS_DISTURB_MIN 10
#define REPS_TAIL_SHARE 0.05
/* Modes: the widest gap between neighbours, each side holding REPS_MODE_SIDE of them at
   least, wider than REPS_MODE_GAP_SIGMAS of either side's own deviation and than
   REPS_MODE_GAP_FLOOR of the median. */
#define REPS_MODE_SIDE 0.10
#define REPS_MODE_GAP_SIGMAS 4.0
#define REPS_MODE_GAP_FLOOR 0.005
/* Drift: the thirds' medians differ by more than REPS_DRIFT_SIGMAS standard errors of that
   difference and by more than REPS_DRIFT_FLOOR of the median. */
#define REPS_DRIFT_SIGMAS 4.0
#define REPS_DRIFT_FLOOR 0.01

/*
 * Judge n repetitions given in the order they were taken: a long tail, several modes, a
 * drift (REPS_DISTURB_* bits; 0 when clean or n < REPS_DISTURB_MIN). scratch has room for n.
 */
unsigned reps_disturbance(const double *in_order, unsigned n, double *scratch);

/* The disturbance bits as the CSV's disturbed column writes them ("tail+modes", "" if none). */
void reps_disturbance_text(unsigned bits, char *buf, unsigned cap);

#endif
