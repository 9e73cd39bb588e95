// SPDX-License-Identifier: MIT
// Internals shared by the level detector's files: the cleaned, sorted points it works on.
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
    double z[LEVELS_MAX_POINTS];   /* y after a running median of three */
    double quantum_ns; /* the latencies' print resolution (sparse model only; 0: unknown) */
};

/* A straight piece of the curve: points a..b (inclusive); flat once classified. */
struct piece {
    size_t a, b;
    bool flat;
};

/* A level's plateau: points a..b (inclusive) and their median ln latency. */
struct plateau {
    size_t a, b;
    double level;
    double step_log2; /* where the step after it is (log2 bytes), NaN: found from the points */
    double conf;      /* the sparse model's confidence in the step after it, NaN: from the step */
};

/* Curves with fewer points per octave than this are read by the latency model
 * (levels_model.c): their plateaus are too short for straight pieces. */
#define SPARSE_POINTS_PER_OCTAVE 1.5

/* Points per octave of p (its mean spacing), 0 with fewer than two points. */
double lpoints_per_octave(const struct lpoints *p);
/* The plateaus of p's levels and memory (last) from the latency model with the number of
 * levels the information criterion prefers, each step at least min_step (ln); returns how
 * many (at least one when p has points). The points left out of the fit as wild are noted in d
 * (latencies less ns_offset). */
size_t lpoints_model_plateaus(const struct lpoints *p, double min_step, struct plateau *pl,
                              double ns_offset, struct detection *d);

/* Cut p's smoothed curve into straight pieces for noise sigma; returns how many (<= p->n). */
size_t lpoints_segment(const struct lpoints *p, double sigma, struct piece *out);
/* Noise around the pieces: robust spread of the raw points about the pieces' lines. */
double lpoints_residual_noise(const struct lpoints *p, const struct piece *pc, size_t npc);
/* Slope of a piece in ln latency per octave (a single point: the slope across it). */
double lpoints_piece_slope(const struct lpoints *p, const struct piece *q);

/* Fill p from the raw curve: drop bad points, sort, merge equal sizes, bin long curves. */
void lpoints_build(struct lpoints *p, const double *size, const double *ns, const double *cycles,
                   size_t n, double offset);
/* p->z from p->y: a running median of three, Tukey's end rule at the ends. */
void lpoints_smooth(struct lpoints *p);
/* Give each point beyond both its neighbours by more than margin (ln), whose neighbours are not
 * such points, the line through its neighbours as its smoothed value (p->z). */
void lpoints_interpolate_extremes(struct lpoints *p, double margin);
/* Robust estimate of the noise of p->y (standard deviation of ln latency), within [0.01, 0.25]. */
double lpoints_noise(const struct lpoints *p);
/* Median of the n values at v (n > 0); v is not changed. */
double lpoints_median(const double *v, size_t n);

#endif
