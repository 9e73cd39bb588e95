// SPDX-License-Identifier: MIT
// Internals of the sparse-curve detector: the latency model, its fits and their significance.
#ifndef CHASE_LEVELS_MODEL_INT_H
#define CHASE_LEVELS_MODEL_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/levels_int.h"

/* Most cache levels tried. */
#define MODEL_MAX_LEVELS 6
/* Residuals below this (ln latency) are not resolved: no curve is measured more exactly, and
 * without a floor the criterion would reward fitting the last digits. */
#define RESIDUAL_FLOOR_LN 0.02
/* Degrees of freedom a level takes from the noise estimate: its size and latency (plus 3 for the
 * model: memory's latency and ramp, and one sharpness, as when all levels shared one). */
#define MODEL_PARAMS_PER_LEVEL 2
/* Criterion cost of a level in units of ln n: its latency (1) and its size (2). */
#define LEVEL_PENALTY 3.0

struct model {
    size_t k;
    double s[MODEL_MAX_LEVELS];     /* sizes, log2 bytes, ascending */
    double l[MODEL_MAX_LEVELS + 1]; /* latencies (ns), memory last */
    double p[MODEL_MAX_LEVELS]; /* each level's sharpness: an LRU L1 is sharp, a random L3 soft */
    double ramp; /* memory's rise per octave beyond the last level (ln): contention, page walks */
    double rss;  /* sum of squared ln residuals, KM_INF when the model is not valid */
};

/* Refit m on p starting from its sizes: sharpness, then sizes on the grid, then off it. */
void model_refit(const struct lpoints *p, struct model *m, double min_step);
/* The best model with one level more than m on p (out->rss is KM_INF when none is valid). */
void model_add_level(const struct lpoints *p, const struct model *m, struct model *out,
                     double min_step);
/* Refine m by the pattern search with each size also slid along its valley (its sharpness
 * changed to keep its share at the first point past it). */
void model_polish(const struct lpoints *p, struct model *m, double min_step);
/* Fit m's latencies with the best sharpness (the grid's, for all levels and for each) and ramp;
 * returns its rss (KM_INF: sizes that leave a level without a point, or no valid latencies). */
double model_fit_sharpness(const struct lpoints *p, struct model *m, double min_step);
/* m without its level i: the level's points go to the level after it. */
void model_drop_level(struct model *m, size_t i);
/* Where level i's size is reported (log2 bytes): the middle of the gap between p's two points
 * around the place where the model leaves the level. */
double model_step_place(const struct lpoints *p, const struct model *m, size_t i);
/* How sure level i of m (fitted to q, p without its wild points) is, 0..1: that the curve has it,
 * and that its step lies in the gap of p it is reported in (levels_confidence.c). */
double model_level_confidence(const struct lpoints *p, const struct lpoints *q,
                              const struct model *m, size_t i, double min_step);
/* Fit k = 0, 1, ... levels (each from the best with one fewer, then a backward pass) into all;
 * returns how many models. */
size_t model_fit_all(const struct lpoints *q, double min_step, struct model *all);
/* The noise the models leave: the smallest residual variance per degree of freedom among the
 * models with at least two degrees of freedom left, at least RESIDUAL_FLOOR_LN squared
 * (levels_null.c). */
double model_residual_variance(const struct model *all, size_t nall, size_t n);
/* The level-count criterion's lowest cost among all[0..nall) at noise variance var. */
double model_criterion_cost(const struct model *all, size_t nall, size_t n, double var);
/* Fit p without its wild points into all (q: the points fitted); returns how many models
 * (levels_wild.c). */
size_t model_fit_without_wild(const struct lpoints *p, struct lpoints *q, double min_step,
                              struct model *all);
/* How far (ln) point j of p is wild against its neighbours, none flagged: beyond WILD_LN off both,
 * or beyond the fall rule against the rise; 0 when it is not (levels_wild.c). */
double lpoints_wild_by(const struct lpoints *p, size_t j);
/* How far (ln) the curve y (n points, printed to quantum ns) falls against the rise: over
 * neighbouring points, how far the second lies under the first beyond the fall rule's FALL_LN,
 * counted when it lies two print steps under it too, summed (levels_wild.c). */
double lpoints_fall(const double *y, size_t n, double quantum);
/* Replace the points of p that the witness w (the same sizes measured apart) shows wild by w
 * times the ratio of p to w at their nearest undisputed neighbours, and note them in d
 * (latencies less ns_offset) (levels_witness.c). */
void lpoints_apply_witness(struct lpoints *p, const struct lpoints *w, double ns_offset,
                           struct detection *d);
/* Note in d the points of p that q, p without its wild points, left out, with their latencies
 * less ns_offset (levels_wild.c). */
void model_note_wild(const struct lpoints *p, const struct lpoints *q, double ns_offset,
                     struct detection *d);
/* ln of the model's latency at 2^x bytes. */
double model_ln(const struct model *m, double x);
/* Residual degrees of freedom of m fitted to n points (levels_null.c). */
double model_dof(const struct model *m, size_t n);
/* The noise m leaves per degree of freedom on n points (variance of ln latency), at least
 * RESIDUAL_FLOOR_LN squared (levels_null.c). */
double model_noise_variance(const struct model *m, size_t n);

/* Whether `more` (all[k]) explains p better than `fewer` (all[k-1]) by more than noise would:
 * the drop in rss over the noise left, against its distribution when fewer is the truth,
 * simulated with the fitted noise and the print resolution (a parametric bootstrap). */
bool model_level_significant(const struct lpoints *p, const struct model *fewer,
                             const struct model *more, double min_step);

/* The coarsest decimal step (1, 0.1, ... ns) every latency of p is a multiple of; 0: none. */
double lpoints_print_resolution(const struct lpoints *p);
/* Whether neighbouring plateaus of m (the medians of their points) are at least twice p's print
 * resolution and min_step (ln) apart: closer ones are one level read twice (rounding, a slope). */
bool model_resolved(const struct lpoints *p, const struct model *m, double min_step);

#endif
