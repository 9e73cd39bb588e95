// SPDX-License-Identifier: MIT
// Least-squares fit of the latency model to a curve (GSL), with uncertainties and checks.
#ifndef REPORT_FIT_H
#define REPORT_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/levels.h"
#include "fit/model.h"

#define FIT_NOTES 6
#define FIT_NOTE_CHARS 200

struct fit_result {
    bool ok;
    char why[FIT_NOTE_CHARS];      /* why the fit failed, when !ok */
    struct lat_model model;        /* fitted parameters */
    double lat_sd[LEVELS_MAX + 1]; /* standard uncertainty of each latency, ns */
    double size_sd[LEVELS_MAX];    /* standard uncertainty of each size, bytes */
    double sharpness_sd;
    double rms; /* root mean square of the ln residuals (0.05 ~ 5%) */
    double bic; /* Bayesian information criterion, for comparing fits */
    size_t n;   /* points fitted */
};

/*
 * Fit the model (inclusive or exclusive form) to the curve, starting from the plateaus of the
 * detection d: as many latencies as d has levels plus DRAM, its level sizes as first sizes.
 * ns_offset is added to each latency first (and removed from the fitted ones). Residuals are
 * in ln latency, so every point weighs by its relative error. Returns r->ok; on failure
 * r->why says why (too few points, no levels, GSL did not converge, sizes out of order).
 */
bool fit_model(const double *size, const double *ns, size_t n, const struct detection *d,
               bool exclusive, double ns_offset, struct fit_result *r);

/*
 * Fit the model to the curve from explicit starting values (start->m latencies and sizes,
 * start->exclusive). Used by fit_model and to try other level counts.
 */
bool fit_from(const double *size, const double *ns, size_t n, const struct lat_model *start,
              double ns_offset, struct fit_result *r);

/* What comparing the detection with the fit found, in sentences for the report. */
struct fit_check {
    size_t nnotes;
    char note[FIT_NOTES][FIT_NOTE_CHARS];
    bool agrees;          /* no disagreement worth a note */
    int preferred_levels; /* level count (without DRAM) the information criterion prefers */
};

/*
 * Compare the detection d with the fit f of the same curve: sizes more than a factor 1.5 and
 * 3 uncertainties apart, latencies more than 15% and 3 uncertainties apart, and whether a fit
 * with one level fewer or more is clearly better (BIC lower by 10).
 */
void fit_check(const double *size, const double *ns, size_t n, const struct detection *d,
               const struct fit_result *f, double ns_offset, struct fit_check *c);

#endif
