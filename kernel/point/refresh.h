// SPDX-License-Identifier: MIT
// The refresh finder (refresh.c): the period of a train of slow batches, and the stall it costs.
#ifndef CHASE_REFRESH_H
#define CHASE_REFRESH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The method, in a paragraph. Slow batches that meet a refresh fall on a comb: t = t0 + k*P
 * plus the jitter of where in a batch the refresh lands, with beats missing (a refresh that
 * met no access) and strays off the comb (an interrupt, a TLB walk). Each of the first
 * REFRESH_CANDIDATES gaps between consecutive slow batches that lies in the period range is a
 * candidate P. A candidate is scored by walking the train once: an event within the tolerance
 * of a whole number of P after the last event on the comb joins the comb (missing beats are
 * whole multiples); one that is not is a stray. The score is the share of events that joined,
 * less the share a train without any period would give by chance (2 * tolerance / P, the
 * tolerance a batch and a half whatever P), so a half or a third of the true period, which every
 * beat also fits, scores lower than the period itself. The best candidate is refined by least
 * squares of the comb's times against their beat numbers. Its confidence is the score over the most
 * a candidate can score (1 - chance); below REFRESH_MIN_CONFIDENCE, or with fewer than
 * REFRESH_MIN_BEATS on the comb, no period stands out. The stall is the median excess of the
 * batches on the comb plus half a hop: an access arrives on average half a hop after the refresh
 * began, and waits the rest of it. (Autocorrelation would serve as well; folding the gaps needs no
 * bins, no FFT and no memory.)
 */

/* Refresh intervals run from 1.95 us (DDR4 at 4x fine granularity) to 7.8 us (DDR3/DDR4 at
 * normal temperature); the range leaves room on both sides for other periodic stalls (the
 * SMI note reads the same train) without reaching the batch's own length. */
#define REFRESH_PERIOD_MIN_NS 1000.0
#define REFRESH_PERIOD_MAX_NS 100000.0
/* Candidates tried: enough that a period met by a third of the gaps is among them. */
#define REFRESH_CANDIDATES 64
/* The comb's tolerance in batches: each slow batch's start lies up to one batch before the
 * refresh it met, so two on the comb differ by up to a batch either way from whole periods; half
 * a batch more for the timer's noise. It does not grow with the candidate, so half the period
 * (which every beat fits too) pays twice the chance and scores below the period itself. */
#define REFRESH_TOLERANCE_BATCHES 1.5
/* Beyond this many periods in one gap, counting beats is left to the refinement: the walk
 * starts again from the next event. */
#define REFRESH_MAX_MISSING 16
/* Fewer beats than this on the comb cannot show a period against chance. */
#define REFRESH_MIN_BEATS 20
/* Half the events on the comb beyond chance: a period stands out. */
#define REFRESH_MIN_CONFIDENCE 0.5

/* The slow batches of one chase, in time order. */
struct refresh_series {
    const uint64_t *tsc;     /* each slow batch's start, timer ticks, ascending */
    const double *excess_ns; /* its time over the typical batch's, ns */
    size_t n;
    double tsc_hz;   /* the timer's rate */
    double batch_ns; /* the typical (median) batch's time */
    double hop_ns;   /* one hop's time (batch_ns over the hops in a batch) */
};

struct refresh_result {
    bool found;        /* a period stands out */
    double period_ns;  /* the refresh interval (0 when none) */
    double stall_ns;   /* what one refresh costs a batch that meets it (0 when none) */
    double confidence; /* 0..1, as the method above says */
    size_t beats;      /* slow batches on the comb */
    size_t strays;     /* slow batches off it */
};

/* Find the period and stall of the series s into out; false (out->found false) when no
 * period stands out or the series is unusable (no rate, fewer than REFRESH_MIN_BEATS). */
bool refresh_find(const struct refresh_series *s, struct refresh_result *out);

#endif
