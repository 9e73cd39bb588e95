// SPDX-License-Identifier: MIT
// The refresh finder: the period of a train of slow batches, and the stall it costs (refresh.h).
#include "point/refresh.h"

#include "lib/kmath.h"

/* One walk of the train against a candidate period. */
struct comb {
    size_t joined;     /* events that fell on the comb */
    size_t considered; /* events after the first */
    double span_ns;    /* the time the joined links span */
    double beats;      /* the periods they span */
    size_t at_most;    /* joined events whose excess is at most the walk's bound */
};

static double event_ns(const struct refresh_series *s, size_t i)
{
    return (double)(s->tsc[i] - s->tsc[0]) * 1e9 / s->tsc_hz;
}

static double comb_tolerance_ns(const struct refresh_series *s)
{
    return REFRESH_TOLERANCE_BATCHES * s->batch_ns;
}

/* The whole number of periods p in d (>= 0), or -1 when d is not within tol of one (or spans
 * more than REFRESH_MAX_MISSING). */
static long long comb_beats(double d, double p, double tol)
{
    if (d / p > REFRESH_MAX_MISSING + 0.5)
        return -1;
    long long k = (long long)(d / p + 0.5);
    if (k < 1 || kfabs(d - (double)k * p) > tol)
        return -1;
    return k;
}

/* Walk s against period p: an event joins the comb when it lies a whole number of periods
 * after the last event on it, or (a new chain, the last one having been a stray) after the
 * event before it. Excesses at most bound are counted among the joined. */
static void comb_walk(const struct refresh_series *s, double p, double bound, struct comb *c)
{
    *c = (struct comb){0};
    double tol = comb_tolerance_ns(s);
    double anchor = 0, prev = 0;
    for (size_t i = 1; i < s->n; i++) {
        double t = event_ns(s, i);
        long long k = comb_beats(t - anchor, p, tol);
        double from = anchor;
        if (k < 0) {
            k = comb_beats(t - prev, p, tol);
            from = prev;
        }
        c->considered++;
        if (k > 0) {
            c->joined++;
            c->span_ns += t - from;
            c->beats += (double)k;
            c->at_most += s->excess_ns[i] <= bound;
            anchor = t;
        } else if (t - anchor > REFRESH_MAX_MISSING * p) {
            anchor = t; /* too long to count beats across: start again here */
        }
        prev = t;
    }
}

/* The share of events a train without a period puts on the comb: two tries (last comb event,
 * event before), each within tol of a multiple of p with chance 2 * tol / p. */
static double comb_chance(const struct refresh_series *s, double p)
{
    double one = kfmin(1.0, 2.0 * comb_tolerance_ns(s) / p);
    return 1.0 - (1.0 - one) * (1.0 - one);
}

static double comb_score(const struct refresh_series *s, double p, struct comb *c)
{
    comb_walk(s, p, KM_INF, c);
    if (c->considered == 0)
        return -1.0;
    return (double)c->joined / (double)c->considered - comb_chance(s, p);
}

/* The best of the candidates (the first REFRESH_CANDIDATES gaps in range); 0 when none. */
static double comb_best_candidate(const struct refresh_series *s)
{
    double best = 0, best_score = -1.0;
    size_t tried = 0;
    for (size_t i = 1; i < s->n && tried < REFRESH_CANDIDATES; i++) {
        double p = event_ns(s, i) - event_ns(s, i - 1);
        if (p < REFRESH_PERIOD_MIN_NS || p > REFRESH_PERIOD_MAX_NS)
            continue;
        tried++;
        struct comb c;
        double score = comb_score(s, p, &c);
        if (score > best_score || (score == best_score && p > best)) {
            best_score = score;
            best = p;
        }
    }
    return best;
}

/* The median excess of the events on the comb of period p, by bisection over counts (no
 * memory beyond the walk). */
static double comb_median_excess(const struct refresh_series *s, double p, size_t joined)
{
    double lo = 0, hi = 0;
    for (size_t i = 0; i < s->n; i++)
        hi = kfmax(hi, s->excess_ns[i]);
    for (int step = 0; step < 48 && hi - lo > 0.01; step++) {
        double mid = 0.5 * (lo + hi);
        struct comb c;
        comb_walk(s, p, mid, &c);
        if (2 * c.at_most >= joined)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

bool refresh_find(const struct refresh_series *s, struct refresh_result *out)
{
    *out = (struct refresh_result){0};
    if (!s || s->n < REFRESH_MIN_BEATS || !(s->tsc_hz > 0) || !(s->batch_ns > 0))
        return false;
    double p = comb_best_candidate(s);
    if (p <= 0)
        return false;
    struct comb c;
    for (int round = 0; round < 2; round++) { /* refine: the span over the beats it holds */
        comb_score(s, p, &c);
        if (c.beats > 0)
            p = c.span_ns / c.beats;
    }
    double score = comb_score(s, p, &c);
    double chance = comb_chance(s, p);
    out->confidence = chance < 1.0 ? kfmax(0.0, score / (1.0 - chance)) : 0.0;
    out->beats = c.joined;
    out->strays = c.considered - c.joined;
    if (c.joined < REFRESH_MIN_BEATS || out->confidence < REFRESH_MIN_CONFIDENCE)
        return false;
    out->found = true;
    out->period_ns = p;
    out->stall_ns = comb_median_excess(s, p, c.joined) + 0.5 * s->hop_ns;
    return true;
}
