// SPDX-License-Identifier: MIT
// Cache level detection from a latency-vs-size curve: one monotone fit, one step rule, DRAM.
//
// The method, for every curve, dense or one point per octave:
//  1. ln latency is fitted by the non-decreasing step function nearest to it in absolute
//     differences (isotonic L1 regression): a cache hierarchy's latency does not fall with
//     size, and a lone wild point is outvoted by the points pooled with it.
//  2. At each size the fit's rise over the next octave is measured (RISE_WINDOW_OCTAVES).
//  3. A step is a run of sizes whose rise is at least STEP_RISE_LN; inside a run, after an
//     octave without a point of its own that rose SPLIT_RISE_LN, or two octaves past the run's
//     steepest, an octave that rises more starts the next step (starts_next). A rise from the
//     first point alone, or into the last point alone, is no step. Two steps split so, whose
//     points lie within a step's rise of one cache's latency model (levels_model.c) up to the
//     plateau after them (or where the second's rise ends), are one cache's step: merged.
//  4. Each step ends a level. Its size is where the fit has made LEVELS_SIZE_FRACTION (half) of
//     the step's rise, its effective size where it has made LEVELS_STEP_FRACTION, each reported
//     with the two measured sizes around it (the interval the data place it in; on a sparse
//     curve both are the geometric middle of the interval the LEVELS_STEP_FRACTION point lies
//     in; an interval astride o->walk_bytes moves one point up, its points then paying page
//     walks alike); its
//     latency is the median of the points between the previous step and this one. The level is a
//     cache when its step rises CACHE_RISE_LN from its plateau to the plateau after it (its
//     steepest octave, where the curve shows no plateau after it) and a point between the previous
//     step and its own is flat (its step did not start where the last ended: starts_next) or the
//     latency model judged the two steps two caches (apart); otherwise uncertain, with the reason
//     noted. On a curve of time over an L1 hit the first level, from the first point, is the L1.
//  5. What follows the last step is memory, unless the curve ended inside CPUID's last cache
//     (then that cache, open-ended) or still rising (then memory's latency is a lower bound).
#include "analysis/levels_int.h"
#include "analysis/detect_params.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/stats.h"
#include "lib/kstring.h"
#include "platform.h"

/* One step: points a..b (inclusive) start octaves that rise by at least STEP_RISE_LN; its rise
 * runs from point a to the size one window past point b. */
struct step {
    size_t a, b;
    double peak;         /* the steepest octave's rise (ln) */
    bool ended_by_split; /* the next step began right after it (starts_next) */
    bool apart;          /* split from the step before, which one cache's model rejects */
    bool merged;         /* two split steps one cache's model joined (merge_split) */
};

/* The fit's rise over the octave after point j. */
static double rise_after(const struct lpoints *p, size_t j)
{
    return lpoints_fit_at(p, p->x[j] + RISE_WINDOW_OCTAVES) - p->f[j];
}

/* Whether point j starts a full window inside the curve (its rise is measured, not held). */
static bool window_inside(const struct lpoints *p, size_t j)
{
    return p->x[j] + RISE_WINDOW_OCTAVES <= p->x[p->n - 1] + 1e-9;
}

/* The fit's rise over the octave before point j. */
static double rise_before(const struct lpoints *p, size_t j)
{
    return p->f[j] - lpoints_fit_at(p, p->x[j] - RISE_WINDOW_OCTAVES);
}

/* Whether point j, inside step s, starts the next level's step: the octave after it rises more
 * than the octave before it, which lies inside s and either was a step of its own
 * (SPLIT_RISE_LN) or came a whole octave after s's steepest one (one cache's rise is steepest
 * in its first octave and only falls after it). */
static bool starts_next(const struct lpoints *p, const struct step *s, double peak_x, size_t j)
{
    double before = rise_before(p, j);
    if (p->x[j] < p->x[s->a] + RISE_WINDOW_OCTAVES - 1e-9 || rise_after(p, j) <= before)
        return false;
    /* A steep octave before splits only where it holds no point of its own: where it does, the
     * curve shows whether it flattened between the two rises, and one that did not is one step. */
    bool gap = j > 0 && p->x[j] - p->x[j - 1] >= RISE_WINDOW_OCTAVES - 1e-9;
    return (gap && before >= SPLIT_RISE_LN) || p->x[j] >= peak_x + 2 * RISE_WINDOW_OCTAVES - 1e-9;
}

/* The steps of p, at most max; returns how many. */
static size_t find_steps(const struct lpoints *p, struct step *st, size_t max)
{
    size_t ns = 0, j = 0;
    while (j < p->n && window_inside(p, j) && ns < max) {
        double r = rise_after(p, j);
        if (r < STEP_RISE_LN) {
            j++;
            continue;
        }
        struct step s = {j, j, r, false, false, false};
        double peak_x = p->x[j];
        while (s.b + 1 < p->n && window_inside(p, s.b + 1)) {
            double next = rise_after(p, s.b + 1);
            if (next < STEP_RISE_LN)
                break;
            if (starts_next(p, &s, peak_x, s.b + 1)) {
                s.ended_by_split = true;
                break;
            }
            s.b++;
            if (next > s.peak) {
                s.peak = next;
                peak_x = p->x[s.b];
            }
        }
        /* A rise that resumes within a window of the last step's end and is nowhere steeper
         * than the octave before it is that step's: noise (a dip) broke the run inside it. */
        bool resumes = ns && !st[ns - 1].ended_by_split &&
                       p->x[s.a] < p->x[st[ns - 1].b] + RISE_WINDOW_OCTAVES - 1e-9 &&
                       s.peak <= rise_before(p, s.a);
        if (resumes) {
            st[ns - 1].b = s.b;
            st[ns - 1].ended_by_split = s.ended_by_split;
        } else {
            st[ns++] = s;
        }
        j = s.b + 1;
    }
    return ns;
}

/* The point where step s's rise ends: the last within one window of its last point. */
static size_t step_end(const struct lpoints *p, const struct step *s)
{
    size_t e = s->b;
    while (e + 1 < p->n && p->x[e + 1] <= p->x[s->b] + RISE_WINDOW_OCTAVES + 1e-9)
        e++;
    return e;
}

/* Median of the finite values of v[a..b] (inclusive), NaN when none. */
static double median_of(const double *v, size_t a, size_t b)
{
    double tmp[LEVELS_MAX_POINTS];
    size_t n = 0;
    for (size_t i = a; i <= b; i++)
        if (kisfinite(v[i]))
            tmp[n++] = v[i];
    return n ? stats_median(tmp, n) : KM_NAN;
}

/* Whether the fit overrules point j by at least a step's rise. */
static bool overruled(const struct lpoints *p, size_t j)
{
    return kfabs(p->y[j] - p->f[j]) >= STEP_RISE_LN;
}

/* Where the fit makes share frac of step s's rise: between points c and h, t of the way (in
 * octaves) from c to h. */
struct reading {
    size_t c, h;
    double t;
};

static struct reading read_step(const struct lpoints *p, size_t a, const struct step *s,
                                double frac, const struct detect_opts *o)
{
    size_t e = step_end(p, s), c = s->a, h;
    double thr = p->f[s->a] + frac * (p->f[e] - p->f[s->a]);
    while (c + 1 < e && p->f[c + 1] < thr)
        c++;
    /* A bracket whose upper point lies beyond o->walk_bytes and its lower one below: the upper
     * pays a page walk on most loads and the lower does not, which alone may make the rise the
     * threshold asks; the cache's capacity lies where both points of a bracket pay alike. */
    if (o->walk_bytes > 0 && c + 1 < e && kexp2(p->x[c]) < o->walk_bytes &&
        kexp2(p->x[c + 1]) >= o->walk_bytes)
        c++;
    /* A point the fit overrules by a step's rise (a wild dip or spike beside the step) does not
     * place it: the bracket runs on to the next point the fit agrees with. */
    h = c + 1;
    while (c > a && overruled(p, c))
        c--;
    while (h < e && overruled(p, h))
        h++;
    double df = p->f[h] - p->f[c];
    double t = df > 1e-12 ? kfmin(kfmax((thr - p->f[c]) / df, 0), 1) : 0;
    return (struct reading){c, h, t};
}

/* The size a reading gives: on a sparse curve the bracket's geometric middle, which lies within
 * the square root of its width of any capacity in it (1.41x at one point per octave), the
 * smallest worst case, since the step's place between the points is not seen. */
static double reading_size(const struct lpoints *p, struct reading r, bool sparse)
{
    return kexp2(p->x[r.c] + (sparse ? 0.5 : r.t) * (p->x[r.h] - p->x[r.c]));
}

/* Level lv ending at step s, its plateau from point a, the plateau after the step at latency lm
 * (fit, with offset; NaN where the curve shows no plateau after it): its effective size where
 * the fit makes LEVELS_STEP_FRACTION of the step's rise, its size (capacity) where it makes
 * LEVELS_SIZE_FRACTION on a dense curve, and between which two points that is. */
static void set_level(const struct lpoints *p, size_t a, const struct step *s, double lm,
                      const struct detect_opts *o, bool sparse, struct level *lv)
{
    struct reading eff = read_step(p, a, s, LEVELS_STEP_FRACTION, o);
    /* A step with a plateau after it is judged whole, plateau to plateau: a cache's rises x2 or
     * more however many octaves it takes, a page walk's less (CACHE_RISE_LN); without one, by
     * its steepest octave. */
    double lh = kexp(p->f[s->a]);
    double rise = kisfinite(lm) && lm > lh ? kln(lm / lh) : s->peak;
    /* The middle is a cache's capacity: a gentler step (a TLB's reach, a ramp) is read where it
     * starts, as is one whose points one cache's latency model does not fit (a step's rise off
     * it: it may hold two caches' rises, whose middle lies between them), as on a sparse curve. */
    size_t e = step_end(p, s);
    double misfit = KM_NAN;
    bool start = sparse || s->merged || rise < CACHE_RISE_LN;
    if (!start) {
        lmodel_capacity(p, s->a, e, lh, kisfinite(lm) ? lm : kexp(p->f[e]), &misfit);
        start = !(misfit < STEP_RISE_LN);
    }
    struct reading cap = start ? eff : read_step(p, a, s, LEVELS_SIZE_FRACTION, o);
    double offset = o->ns_offset;
    /* The plateau runs to the last point below the effective size: where the step's window
     * begins (s->a) the curve may not have started to rise yet. */
    size_t last = eff.c > a ? eff.c : a;
    lv->first = a;
    lv->last = last;
    lv->from_bytes = kexp2(p->x[a]);
    lv->to_bytes = kexp2(p->x[last]);
    lv->latency_ns = median_of(p->ns, a, last) - offset;
    lv->cycles = median_of(p->cyc, a, last);
    lv->size_known = true;
    lv->size_bytes = reading_size(p, cap, sparse);
    lv->effective_bytes = reading_size(p, eff, sparse);
    lv->effective_lo_bytes = kexp2(p->x[eff.c]);
    lv->effective_hi_bytes = kexp2(p->x[eff.h]);
    lv->size_lo_bytes = kexp2(p->x[cap.c]);
    lv->size_hi_bytes = kexp2(p->x[cap.h]);
    lv->step_end_bytes = kexp2(p->x[e]);
    /* Confidence 0.5 at the cache threshold, 0.93 at x4. */
    double q = rise / CACHE_RISE_LN;
    lv->confidence = 1 - kexp2(-q * q);
    lv->evidence = KM_NAN;
    lv->kind = rise >= CACHE_RISE_LN ? LEVEL_CACHE : LEVEL_UNCERTAIN;
}

/* The level after the last step as an open cache (the curve never left it): points a..n-1. */
static void open_level(const struct lpoints *p, size_t a, double offset, struct detection *d)
{
    struct level *lv = &d->level[d->nlevels++];
    *lv = (struct level){.size_bytes = KM_NAN,
                         .evidence = KM_NAN,
                         .effective_bytes = KM_NAN,
                         .effective_lo_bytes = KM_NAN,
                         .effective_hi_bytes = KM_NAN,
                         .size_lo_bytes = KM_NAN,
                         .size_hi_bytes = KM_NAN,
                         .step_end_bytes = KM_NAN,
                         .first = a,
                         .last = p->n - 1,
                         .from_bytes = kexp2(p->x[a]),
                         .to_bytes = kexp2(p->x[p->n - 1]),
                         .latency_ns = median_of(p->ns, a, p->n - 1) - offset,
                         .cycles = median_of(p->cyc, a, p->n - 1),
                         .confidence = OPEN_LEVEL_CONFIDENCE,
                         .kind = LEVEL_CACHE};
}

/* Whether the last step's rise reaches the curve's end with the fit still climbing there at a
 * step's rate (STEP_RISE_LN per window) over the last gap. */
static bool rising_end(const struct lpoints *p, const struct step *st, size_t ns)
{
    size_t n = p->n;
    double rate = (p->f[n - 1] - p->f[n - 2]) / (p->x[n - 1] - p->x[n - 2]);
    return ns && step_end(p, &st[ns - 1]) == n - 1 && rate >= STEP_RISE_LN / RISE_WINDOW_OCTAVES;
}

/* Trailing gentle steps from plateaus that start beyond o->walk_bytes, where every load may pay
 * a page walk: memory plus walks, not caches. Drops them from d and returns the first point of
 * memory. */
static size_t drop_walk_steps(const struct lpoints *p, const struct detect_opts *o, size_t a,
                              size_t *mem_last, struct detection *d)
{
    size_t k = d->nlevels;
    while (o->walk_bytes > 0 && k > 1 && d->level[k - 1].kind == LEVEL_UNCERTAIN &&
           d->level[k - 1].from_bytes >= o->walk_bytes)
        k--;
    if (k == d->nlevels)
        return a;
    double end = median_of(p->ns, a, p->n - 1) - o->ns_offset;
    d->walk_from_bytes = d->level[k].size_bytes;
    d->walk_ns = end - d->level[k].latency_ns;
    char from[32], at[32];
    fmt_size(from, sizeof(from), d->walk_from_bytes);
    fmt_size(at, sizeof(at), o->walk_bytes);
    levels_note(d,
                "from %s memory costs up to %.1f ns more: page walks, the buffer is beyond the "
                "TLB's reach (%s with 4K pages), not a cache",
                from, d->walk_ns, at);
    a = d->level[k].first;
    *mem_last = d->level[k].last;
    d->nlevels = k;
    return a;
}

/* Name the points the fit overrules by a step's rise (at most three, latencies less offset). */
static void note_overruled(const struct lpoints *p, double offset, struct detection *d)
{
    char list[LEVELS_NOTE_CHARS] = "", sz[32];
    size_t len = 0, count = 0;
    for (size_t j = 0; j < p->n; j++) {
        if (!overruled(p, j))
            continue;
        fmt_size(sz, sizeof(sz), kexp2(p->x[j]));
        if (count++ < 3)
            len += (size_t)ksnprintf(list + len, sizeof(list) - len, "%s%s (%.1f ns)",
                                     count > 1 ? ", " : "", sz, p->ns[j] - offset);
    }
    if (count > 3)
        ksnprintf(list + len, sizeof(list) - len, " and %zu more", count - 3);
    if (count)
        levels_note(d, "left out of the fit as wild (off the monotone fit by a step or more): %s",
                    list);
}

/* The latency of the plateau after step i of st[0..ns): from where its rise ends to where the
 * next step begins (the curve's end after the last). */
static double plateau_after(const struct lpoints *p, const struct step *st, size_t ns, size_t i)
{
    size_t a = step_end(p, &st[i]), b = i + 1 < ns ? st[i + 1].a : p->n - 1;
    return lmodel_plateau(p, a, b > a ? b : a);
}

/* The same where the curve shows that plateau, two points or more. Where the next step's window
 * begins before this one's rise ends, the plateau is not seen; the monotone fit is then at least
 * its value where that window begins, a floor on the plateau; NaN where the curve ends there. */
static double plateau_seen(const struct lpoints *p, const struct step *st, size_t ns, size_t i)
{
    size_t a = step_end(p, &st[i]), b = i + 1 < ns ? st[i + 1].a : p->n - 1;
    if (b > a)
        return lmodel_plateau(p, a, b);
    return i + 1 < ns && !st[i].ended_by_split ? kexp(p->f[b]) : KM_NAN;
}

/* Two steps found back to back (split: no flat point between) whose points lie within a step's
 * rise of the latency model of one cache (levels_model.c) are that cache's step over two
 * octaves: merged; those it puts further are two caches (apart). The model's plateau after the
 * pair is where the second step's rise ends up to where the next step begins (plateau_after):
 * where the second is split in turn, the least that plateau can be. From the last pair back, so
 * a merged step may merge again with the one before. Returns the steps left. */
static size_t merge_split(const struct lpoints *p, struct step *st, size_t ns)
{
    for (size_t i = ns - 1; i-- > 0;) {
        double misfit = KM_NAN;
        if (st[i].ended_by_split) {
            double lh = kexp(p->f[st[i].a]), lm = plateau_after(p, st, ns, i + 1);
            lmodel_capacity(p, st[i].a, step_end(p, &st[i + 1]), lh, lm, &misfit);
        }
        if (!(misfit < STEP_RISE_LN)) {
            st[i + 1].apart = misfit >= STEP_RISE_LN;
            continue;
        }
        st[i].b = st[i + 1].b;
        st[i].peak = kfmax(st[i].peak, st[i + 1].peak);
        st[i].ended_by_split = st[i + 1].ended_by_split;
        st[i].merged = true;
        for (size_t k = i + 1; k + 1 < ns; k++)
            st[k] = st[k + 1];
        ns--;
    }
    return ns;
}

/* Levels and memory from the steps of p, the first level's plateau from point a. */
static void build_levels(const struct lpoints *p, const struct step *st, size_t ns, size_t a,
                         const struct detect_opts *o, struct detection *d)
{
    double largest = kexp2(p->x[p->n - 1]);
    for (size_t i = 0; i < ns && d->nlevels + 1 < LEVELS_MAX; i++) {
        struct level *lv = &d->level[d->nlevels++];
        set_level(p, a < st[i].a ? a : st[i].a, &st[i], plateau_seen(p, st, ns, i), o, d->sparse,
                  lv);
        /* A curve of time added to an L1 hit (o->ns_offset) starts in the L1 by its definition:
         * its first level, from the first point, is the L1, and that step's ratio is the nominal
         * L1's (NOMINAL_L1_NS), not the machine's, so it cannot make the L1 a doubt. */
        if (i == 0 && a == 0 && o->ns_offset > 0)
            lv->kind = LEVEL_CACHE;
        if (lv->kind == LEVEL_UNCERTAIN)
            levels_note_gentle(d, lv, st[i].peak);
        a = step_end(p, &st[i]);
    }
    size_t mem_last = p->n - 1; /* memory's plateau: a..mem_last, page walks beyond */
    a = drop_walk_steps(p, o, a, &mem_last, d);
    /* After the walks: those are gentle steps, an unseen plateau's level may be steep. */
    for (size_t i = 1; i < d->nlevels; i++)
        if (d->level[i].kind == LEVEL_CACHE && st[i - 1].ended_by_split && !st[i].apart)
            levels_note_unseen(d, &d->level[i]);
    /* The last step's rise reaches the curve's end and the fit still climbs there. */
    bool rising = rising_end(p, st, ns) && d->nlevels == ns;
    /* The curve stayed in the last cache: it ends inside it, or shortly past it without a step
     * from a plateau that starts inside it. */
    double llc = levels_llc_bound(p, o, d);
    bool in_llc = llc > 0 && largest < INSIDE_LLC * llc;
    bool open = llc > 0 && kexp2(p->x[a]) < INSIDE_LLC * llc && largest < LLC_REACH_FACTOR * llc;
    if (rising && in_llc) {
        open_level(p, a, o->ns_offset, d);
        levels_note(d, "the curve ends rising inside the last cache (CPUID): no DRAM plateau");
    } else if (rising) {
        d->dram_ns = p->ns[p->n - 1] - o->ns_offset;
        d->dram_lower_bound = true;
        d->dram_from_bytes = largest;
        levels_note(d, "the curve ends still rising: DRAM latency is at least %.1f ns", d->dram_ns);
    } else if (open && d->nlevels < LEVELS_MAX) {
        open_level(p, a, o->ns_offset, d);
        levels_note(d, "the largest size is inside the last cache (CPUID): no DRAM plateau");
    } else {
        d->dram_ns = median_of(p->ns, a, mem_last) - o->ns_offset;
        d->dram_cycles = median_of(p->cyc, a, mem_last);
        d->dram_from_bytes = kexp2(p->x[a]);
    }
}

void levels_detect(const double *size, const double *ns, const double *cycles, size_t n,
                   const struct detect_opts *o, struct detection *d)
{
    kmemset(d, 0, sizeof(*d));
    d->dram_ns = d->dram_cycles = d->dram_from_bytes = KM_NAN;
    d->walk_from_bytes = d->walk_ns = KM_NAN;
    struct lpoints *p = plat_alloc(sizeof(*p));
    if (!p) {
        levels_note(d, "out of memory");
        return;
    }
    lpoints_build(p, size, ns, cycles, n, o->ns_offset);
    d->npoints = p->n;
    if (p->n < 4) {
        levels_note(d, "too few valid points (%zu) to find levels", p->n);
        plat_free(p);
        return;
    }
    d->sparse = lpoints_per_octave(p) < SPARSE_POINTS_PER_OCTAVE;
    note_overruled(p, o->ns_offset, d);
    struct step st[LEVELS_MAX];
    size_t nsteps = find_steps(p, st, LEVELS_MAX);
    /* A rise from the very first point has no plateau before it: one point cannot tell a level
     * from a wild point or a curve that starts inside a step. */
    size_t first = 0;
    if (nsteps && st[0].a == 0) {
        levels_note(d, "the curve starts inside a step: its smallest size is above a level");
        first = step_end(p, &st[0]);
        for (size_t i = 0; i + 1 < nsteps; i++)
            st[i] = st[i + 1];
        nsteps--;
    }
    /* Likewise a rise into the last point alone, where the points between rise less than a step. */
    if (nsteps && step_end(p, &st[nsteps - 1]) == p->n - 1 && p->n - 2 > st[nsteps - 1].a &&
        p->f[p->n - 2] - p->f[st[nsteps - 1].a] < STEP_RISE_LN) {
        levels_note(d, "the last point alone rises: not a level");
        nsteps--;
    }
    if (nsteps)
        nsteps = merge_split(p, st, nsteps);
    build_levels(p, st, nsteps, first, o, d);
    plat_free(p);
}
