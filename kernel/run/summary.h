// SPDX-License-Identifier: MIT
// The end-of-run summary: levels, DRAM, TLB penalty, verdicts, and where the files are.
#ifndef CHASE_SUMMARY_H
#define CHASE_SUMMARY_H

#include <stdint.h>

#include "run/findings.h"
#include "run/run.h"

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
unsigned summary_plateaus(const uint64_t *size, const double *ns, const double *cycles, unsigned n,
                          struct plateau *out, unsigned cap);

/*
 * The cache levels of a random curve: its plateaus of two points or more (single points
 * are transitions), without the last one when it lies beyond the LLC (that is memory).
 * Returns the number of levels written to out (at most cap).
 */
unsigned summary_levels(const uint64_t *size, const double *ns, const double *cycles, unsigned n,
                        uint64_t llc_bytes, struct plateau *out, unsigned cap);

/*
 * The dual-vs-random ratio: the median over sizes beyond llc_bytes found in both curves
 * of dual ns / random ns. Returns the number of sizes compared (0: no verdict).
 */
unsigned summary_dual_ratio(const struct curve *dual, const uint64_t *size, const double *ns,
                            unsigned n, uint64_t llc_bytes, double *ratio);

/*
 * The scan verdict: the first small size whose latency is 1.5 times the smallest
 * size's (the small region has left the LLC). Returns that size, or 0 when the latency
 * never rose that far.
 */
uint64_t summary_scan_loss(const struct curve *scan);

/* What the summary reads: the experiments that ran, each with the CSV text it wrote. */
struct summary_input {
    const struct machine *m;
    const char *names[EXPERIMENTS_MAX];        /* in run order */
    const struct strbuf *csv[EXPERIMENTS_MAX]; /* <name>.csv as written */
    unsigned n;
    uint64_t page_bytes; /* the buffer's page size at the end of the run */
    const char *where;   /* where the files are, for people */
};

/* Print the summary of the run and where its files are. */
void summary_print(const struct run_ctx *ctx, const struct summary_input *in);

#endif
