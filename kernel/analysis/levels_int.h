// SPDX-License-Identifier: MIT
// Internals of the level detector: the cleaned, sorted points and their monotone fit.
#ifndef CHASE_LEVELS_INT_H
#define CHASE_LEVELS_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/levels.h"

struct lpoints {
    size_t n;
    double x[LEVELS_MAX_POINTS];   /* log2(size in bytes), ascending, distinct */
    double ns[LEVELS_MAX_POINTS];  /* latency + offset, > 0 */
    double cyc[LEVELS_MAX_POINTS]; /* core cycles or NaN */
    double y[LEVELS_MAX_POINTS];   /* ln(ns) */
    double f[LEVELS_MAX_POINTS];   /* the non-decreasing L1 fit of y (lpoints_fit_monotone) */
};

/* Fill p from the raw curve: drop bad points, sort, merge equal sizes, bin long curves into
 * medians of narrow log2 bins. */
void lpoints_build(struct lpoints *p, const double *size, const double *ns, const double *cycles,
                   size_t n, double offset);
/* p->f: the non-decreasing sequence nearest p->y in the sum of absolute differences (pool
 * adjacent violators with block medians). A lone spike or dip is outvoted by its block. */
void lpoints_fit_monotone(struct lpoints *p);
/* Points per octave of p (its mean spacing), 0 with fewer than two points. */
double lpoints_per_octave(const struct lpoints *p);
/* The fit p->f at 2^x bytes, linear in x between points, held beyond the ends. */
double lpoints_fit_at(const struct lpoints *p, double x);

/* The latency model of a cache's step (levels_model.c). Median latency of the fit over points
 * a..b (a plateau), NaN when none. */
double lmodel_plateau(const struct lpoints *p, size_t a, size_t b);
/* The capacity (bytes) of the one cache whose model (levels_model.c) the step's points a..e lie
 * nearest to, plateaus at latencies lh and lm; *misfit: the largest distance (ln latency) of a
 * point from it. NaN for both when lm is not above lh. */
double lmodel_capacity(const struct lpoints *p, size_t a, size_t e, double lh, double lm,
                       double *misfit);

/* The notes of levels_notes.c. Why level lv's gentle step (steepest octave x e^peak) is not
 * taken for a cache. */
void levels_note_gentle(struct detection *d, const struct level *lv, double peak);
/* Level lv's step follows the one before with no flat point between: uncertain, confidence
 * halved, noted. */
void levels_note_unseen(struct detection *d, struct level *lv);
/* CPUID's last cache as the bound on where memory may start (0: none); noted where under a
 * hypervisor a curve ended inside it without finding every cache CPUID lists. */
double levels_llc_bound(const struct lpoints *p, const struct detect_opts *o, struct detection *d);

#endif
