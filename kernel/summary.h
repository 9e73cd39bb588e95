// SPDX-License-Identifier: MIT
// The end-of-run summary: plateaus of the random curve, and where the files are.
#ifndef CHASE_SUMMARY_H
#define CHASE_SUMMARY_H

#include <stdint.h>

#include "run.h"

#define SUMMARY_MAX_LEVELS 8

struct plateau {
    uint64_t first_size, last_size; /* sizes inside the plateau */
    double ns, cycles;              /* median over its points */
};

/*
 * Split a latency-vs-size curve (sizes ascending) into plateaus: a new plateau starts
 * where latency rises by more than 25% over the current one and the rise holds for the
 * next point too. Returns the number found (at most cap).
 */
unsigned summary_plateaus(const uint64_t *size, const double *ns, const double *cycles,
                          unsigned n, struct plateau *out, unsigned cap);

/* Print the summary table of the run and where its files are. */
void summary_print(const struct run_ctx *ctx, const char *where);

#endif
