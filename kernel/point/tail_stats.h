// SPDX-License-Identifier: MIT
// The tail's statistics (tail_stats.c): batch times on log bins, percentiles, the slow batches'
// train for the refresh finder, and stalls far beyond any memory latency.
#ifndef CHASE_TAIL_STATS_H
#define CHASE_TAIL_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Ten bins a decade (each 26% wider than the last): a tail's shape shows from the fastest
 * batch to the longest stall without thousands of empty bins. */
#define TAIL_BINS_PER_DECADE 10
/* Six decades: from a batch of L1 hits to a millisecond stall. */
#define TAIL_BINS_MAX (6 * TAIL_BINS_PER_DECADE)
/* A batch is slow when it exceeds the median by this many median absolute deviations (a
 * batch's ordinary spread) and by TAIL_SLOW_HOP_SHARE of a hop at least: a refresh or a
 * stall costs a batch more than both; a cache's own variation costs less. */
#define TAIL_SLOW_MADS 4.0
#define TAIL_SLOW_HOP_SHARE 0.25
/* Beyond this a batch's excess is no memory's: a DRAM miss with a page walk is well under a
 * microsecond, a refresh under one; an SMI, an interrupt or a hypervisor's exit is longer. */
#define TAIL_STALL_BEYOND_NS 10000.0

/* Batch times counted on log-spaced bins from lo_ns. */
struct tail_hist {
    double lo_ns;
    unsigned nbins;
    uint64_t count[TAIL_BINS_MAX];
    uint64_t below, above; /* outside the bins */
};

/* Empty bins from lo_ns (> 0) up to at least hi_ns (at most TAIL_BINS_MAX bins). */
void tail_hist_init(struct tail_hist *h, double lo_ns, double hi_ns);
/* Count one batch time. */
void tail_hist_add(struct tail_hist *h, double ns);
/* Bin i's low edge in ns (its high edge is bin i + 1's low edge). */
double tail_bin_low_ns(const struct tail_hist *h, unsigned i);

struct tail_percentiles {
    double p50_ns, p90_ns, p99_ns, p999_ns, max_ns;
};

/* The percentiles of n batch times (sorted in place); all 0 when n == 0. */
void tail_percentiles(double *ns, size_t n, struct tail_percentiles *out);

/*
 * The slow batches of a chase timed in n batches (start: each batch's timer value; ns: its
 * time, overhead subtracted), as TAIL_SLOW_* say against the median batch (median_ns, its
 * median absolute deviation mad_ns) and one hop (hop_ns): their starts into slow_start and
 * excesses over the median into slow_excess_ns, in order. Returns how many.
 */
size_t tail_slow_train(const uint64_t *start, const double *ns, size_t n, double median_ns,
                       double mad_ns, double hop_ns, uint64_t *slow_start, double *slow_excess_ns);

/* Stalls no memory explains: batches over the median by more than TAIL_STALL_BEYOND_NS. */
struct tail_stalls {
    size_t count;
    double longest_ns; /* the longest excess */
    double total_ns;   /* all their excess */
    double per_minute; /* count over the time the batches spanned */
    double span_ns;    /* the time the batches spanned, first start to last end */
};

/* The stalls among n batches (start in ticks of a timer of tsc_hz, ns their times) against
 * the median batch median_ns. */
void tail_stalls_find(const uint64_t *start, const double *ns, size_t n, double tsc_hz,
                      double median_ns, struct tail_stalls *out);

#endif
