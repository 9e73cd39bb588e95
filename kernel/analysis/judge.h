// SPDX-License-Identifier: MIT
// What an experiment's verdict function sees, and the helpers the verdicts share.
#ifndef CHASE_JUDGE_H
#define CHASE_JUDGE_H

#include "analysis/interpret.h"

struct an_judge {
    const struct an_input *in;
    const struct an_result *r;
    const struct csv *t; /* the experiment's own table, NULL when it did not run */
    const char *name;    /* the experiment's name */
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

#endif
