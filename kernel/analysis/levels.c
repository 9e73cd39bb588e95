// SPDX-License-Identifier: MIT
// Cache level detection from a latency-vs-size curve: plateaus, the steps between them, DRAM.
//
// The smoothed curve (ln latency over log2 size) is cut into straight pieces (levels_segment.c).
// Pieces that are nearly flat are plateaus; the rest are steps. Neighbouring plateaus that
// are not a significant, local, steep enough step apart are merged, so noise, drifts and soft
// transitions add no levels.
#include <stdarg.h>
#include <stdint.h>

#include "analysis/interpret.h"
#include "analysis/levels_int.h"
#include "analysis/levels_model_int.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "platform.h"

/* A plateau rises by less than this per octave (in ln latency: about 9% per octave). */
#define FLAT_SLOPE_PER_OCTAVE 0.12
/* The smallest step that makes a level: 12% in latency, and well above the noise. */
#define MIN_STEP_LN 0.113
#define MIN_STEP_SIGMAS 5.0
/* An inner plateau must stand for at least this many octaves of sizes (span_octaves: each
 * point reaches half-way to its neighbours): a short flat stretch inside a step is noise. On
 * an even grid of 2, 3 or 4 points per octave that is 2, 3 or 3 points, as 0.45 octave from
 * first to last point was; on an uneven one (random-chase's 1.5x, 1.33x steps) it no longer
 * depends on which gap a plateau's two points straddle. */
#define MIN_PLATEAU_OCTAVES 0.7
/* Plateaus narrower than this (first to last point) need steps this many times the
 * significant step. */
#define NARROW_OCTAVES 1.0
#define NARROW_STEP_FACTOR 2.0
/* A gentler piece between two much steeper ones is a level whose plateau the steps hide
 * (soft transitions of random and RRIP caches, levels close in size): the slope of ln latency
 * has a minimum there. It must be as wide as any inner plateau (MIN_PLATEAU_OCTAVES), rise at
 * most as steeply as twice the slope that makes a step (MIN_STEP_SLOPE), and each neighbour
 * must be this many times steeper and steeper by SHOULDER_SIGMAS standard errors of the
 * piece's fitted slope (noise / sqrt(Sxx)): a single soft step's slope has one maximum and
 * then only falls, so only noise makes such a minimum inside one step. */
#define SHOULDER_MAX_SLOPE (2 * MIN_STEP_SLOPE)
#define SHOULDER_STEEPER 2.0
#define SHOULDER_SIGMAS 3.0
/* Two plateaus are separate levels only if the curve climbs this steeply somewhere between
 * them: the long, ever flatter approach of a soft transition to its next level is no level. */
#define MIN_STEP_SLOPE 0.25
#define MOST_OF_THE_RISE 0.6
/* ... and the curve must rise between the plateaus by this share of a significant step. */
#define LOCAL_STEP_SHARE 0.75
/* Sizes up to this multiple of CPUID's last cache can still be inside it (sharing, slices). */
#define LLC_REACH_FACTOR 2.0
/* A plateau whose latency is within this factor of the memory plateau after it is memory seen
 * through noise or contention, never a cache: caches are at least about 1.5x faster. */
#define MEMORY_FACTOR 1.3
/* A step that multiplies latency by at most this is no more than a page walk can add. */
#define WALK_STEP_MAX_RATIO 2.0
/* Confidence: a step of exactly the significant size scores 1 - e^-CONF_BASE, each further
 * significant step's worth adds CONF_RATE to the exponent; a plateau this wide is fully seen. */
#define CONF_BASE 0.5
#define CONF_RATE 2.0
#define CONF_FULL_OCTAVES 1.5

static double median_range(const double *v, size_t a, size_t b)
{
    return lpoints_median(v + a, b - a + 1);
}

/* Slope of the smoothed curve from point i to point i + 1, per octave. */
static double gap_slope(const struct lpoints *p, size_t i)
{
    double dx = p->x[i + 1] - p->x[i];
    return dx > 1e-12 ? (p->z[i + 1] - p->z[i]) / dx : 0;
}

/* Octaves of sizes that points a..b stand for: each reaches half-way to its neighbours (at an
 * end of the curve, half the gap on its inner side). A step between two points takes neither,
 * so a plateau of two points between sharp steps at 2 per octave stands for one octave. */
static double span_octaves(const struct lpoints *p, size_t a, size_t b)
{
    double before = a > 0 ? p->x[a] - p->x[a - 1] : (a + 1 < p->n ? p->x[a + 1] - p->x[a] : 0);
    double after = b + 1 < p->n ? p->x[b + 1] - p->x[b] : (b > 0 ? p->x[b] - p->x[b - 1] : 0);
    return p->x[b] - p->x[a] + 0.5 * (before + after);
}

/* Standard error of the least-squares slope of points a..b per unit of noise: 1 / sqrt(Sxx). */
static double slope_error(const struct lpoints *p, size_t a, size_t b)
{
    double mean = 0, sxx = 0;
    for (size_t i = a; i <= b; i++)
        mean += p->x[i];
    mean /= (double)(b - a + 1);
    for (size_t i = a; i <= b; i++)
        sxx += (p->x[i] - mean) * (p->x[i] - mean);
    return sxx > 1e-12 ? 1 / ksqrt(sxx) : KM_INF;
}

/* Whether piece i is a soft level's plateau: a significant minimum of the slope. */
static bool is_shoulder(const struct lpoints *p, const struct piece *pc, const double *slope,
                        size_t npc, size_t i, double sigma)
{
    if (i == 0 || i + 1 >= npc || slope[i] > SHOULDER_MAX_SLOPE)
        return false;
    if (span_octaves(p, pc[i].a, pc[i].b) < MIN_PLATEAU_OCTAVES)
        return false;
    /* Steepness on each side: the neighbouring piece, or the jump onto and off this one. */
    double in = kfmax(pc[i - 1].flat ? 0 : slope[i - 1], gap_slope(p, pc[i].a - 1));
    double out = kfmax(slope[i + 1], gap_slope(p, pc[i].b));
    double s = kfmax(kfmax(slope[i], 0.01) * SHOULDER_STEEPER, FLAT_SLOPE_PER_OCTAVE);
    s = kfmax(s, slope[i] + SHOULDER_SIGMAS * sigma * slope_error(p, pc[i].a, pc[i].b));
    return in >= s && out >= s;
}

/* Whether at least two of the raw points a..b (or its only one) lie within min_step (ln) of the
 * smoothed level: a wild point beside a step makes two equal smoothed values (the running
 * median repeats its neighbour), a flat piece that no two measured points show. */
static bool raw_points_agree(const struct lpoints *p, size_t a, size_t b, double min_step)
{
    double level = median_range(p->z, a, b);
    size_t near = 0;
    for (size_t i = a; i <= b; i++)
        near += kfabs(p->y[i] - level) < min_step;
    return a == b || near >= 2;
}

/* Each flat piece (or shoulder) becomes a plateau (sigma: the noise); returns how many. */
static size_t plateaus_from_pieces(const struct lpoints *p, struct piece *pc, size_t npc,
                                   double min_step, double sigma, struct plateau *pl)
{
    size_t m = 0;
    double *slope = plat_alloc(npc * sizeof(double));
    if (!slope)
        return 0;
    for (size_t i = 0; i < npc; i++) {
        slope[i] = lpoints_piece_slope(p, &pc[i]);
        pc[i].flat = slope[i] < FLAT_SLOPE_PER_OCTAVE;
    }
    for (size_t i = 0; i < npc; i++) {
        if (!pc[i].flat && is_shoulder(p, pc, slope, npc, i, sigma))
            pc[i].flat = true;
        bool inner = i > 0 && i + 1 < npc;
        if (pc[i].flat && inner && span_octaves(p, pc[i].a, pc[i].b) < MIN_PLATEAU_OCTAVES)
            pc[i].flat = false;
        if (pc[i].flat && !raw_points_agree(p, pc[i].a, pc[i].b, min_step))
            pc[i].flat = false;
        if (pc[i].flat)
            pl[m++] = (struct plateau){pc[i].a, pc[i].b, 0, KM_NAN, KM_NAN};
    }
    plat_free(slope);
    for (size_t i = 0; i < m; i++)
        pl[i].level = median_range(p->z, pl[i].a, pl[i].b);
    return m;
}

/* Merge plateau k with k + 1 (and the step between them). */
static void merge_at(const struct lpoints *p, struct plateau *pl, size_t *m, size_t k)
{
    pl[k].b = pl[k + 1].b;
    pl[k].step_log2 = pl[k + 1].step_log2;
    pl[k].conf = pl[k + 1].conf;
    pl[k].level = median_range(p->z, pl[k].a, pl[k].b);
    for (size_t i = k + 1; i + 1 < *m; i++)
        pl[i] = pl[i + 1];
    (*m)--;
}

/* Local level of the smoothed curve at the start or end of a plateau: its first or last
 * three points. */
static double plateau_start(const struct lpoints *p, const struct plateau *u)
{
    return median_range(p->z, u->a, u->a + 2 <= u->b ? u->a + 2 : u->b);
}

static double plateau_end(const struct lpoints *p, const struct plateau *u)
{
    return median_range(p->z, u->b >= u->a + 2 ? u->b - 2 : u->a, u->b);
}

/* Median core cycles of points a..b, NaN when none is known. */
static double median_cycles(const struct lpoints *p, size_t a, size_t b)
{
    double v[LEVELS_MAX_POINTS];
    size_t n = 0;
    for (size_t i = a; i <= b; i++)
        if (kisfinite(p->cyc[i]))
            v[n++] = p->cyc[i];
    return n ? lpoints_median(v, n) : KM_NAN;
}

/* Whether the curve climbs from plateau u to v as a step: it rises from the end of u to the
 * start of v (a drift that runs through both does not), steeply somewhere or with most of
 * the rise between two neighbouring points (coarse sampling hides a sharp step's slope). */
static bool step_between(const struct lpoints *p, const struct plateau *u, const struct plateau *v,
                         double min_step)
{
    /* A narrow inner plateau must stand out more: noise makes short flat runs in ramps. */
    if ((u->a > 0 && p->x[u->b] - p->x[u->a] < NARROW_OCTAVES) ||
        (v->b + 1 < p->n && p->x[v->b] - p->x[v->a] < NARROW_OCTAVES))
        min_step *= NARROW_STEP_FACTOR;
    double local = plateau_start(p, v) - plateau_end(p, u);
    if (v->level - u->level < min_step || local < LOCAL_STEP_SHARE * min_step)
        return false;
    /* A cache's latency is fixed in core cycles; a step in ns that the cycles (measured next
     * to each point) do not show is the core clock changing. */
    double cu = median_cycles(p, u->a, u->b), cv = median_cycles(p, v->a, v->b);
    if (kisfinite(cu) && kisfinite(cv) && cu > 0 && kln(cv / cu) < MIN_STEP_LN)
        return false;
    double steepest = -KM_INF, biggest = 0;
    for (size_t i = u->b; i < v->a; i++) {
        steepest = kfmax(steepest, gap_slope(p, i));
        biggest = kfmax(biggest, p->z[i + 1] - p->z[i]);
    }
    return steepest >= MIN_STEP_SLOPE || biggest >= MOST_OF_THE_RISE * local;
}

/* Join neighbours that are not a significant step apart, smallest difference first. */
static void merge_small_steps(const struct lpoints *p, struct plateau *pl, size_t *m,
                              double min_step, struct detection *d)
{
    for (;;) {
        size_t k = SIZE_MAX;
        double smallest = KM_INF;
        for (size_t i = 0; i + 1 < *m; i++) {
            double rise = pl[i + 1].level - pl[i].level;
            if (step_between(p, &pl[i], &pl[i + 1], min_step))
                continue;
            if (rise < smallest) {
                smallest = rise;
                k = i;
            }
        }
        if (k == SIZE_MAX)
            return;
        if (smallest < -min_step)
            levels_note(d, "latency falls by %.0f%% near %.0f bytes: not a cache level",
                        100 * (1 - kexp(smallest)), kexp2(p->x[pl[k + 1].a]));
        merge_at(p, pl, m, k);
    }
}

void levels_size_meaning(char *dst, size_t cap, const struct detection *d)
{
    if (d && d->sparse)
        ksnprintf(dst, cap,
                  "the middle of the gap between the two points where latency starts to rise; at "
                  "one point per octave, where in the gap is not known");
    else
        ksnprintf(dst, cap, "where latency has risen %.0f%% of the way to the next level",
                  100 * LEVELS_STEP_FRACTION);
}

void levels_note(struct detection *d, const char *fmt, ...)
{
    if (d->nnotes >= LEVELS_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    kvsnprintf(d->note[d->nnotes++], LEVELS_NOTE_CHARS, fmt, ap);
    va_end(ap);
}

/* Size (log2) where the smoothed curve crosses from plateau u towards plateau v. */
static double step_position(const struct lpoints *p, const struct plateau *u,
                            const struct plateau *v)
{
    size_t ka = u->b + 1 > u->a + 3 ? u->b - 2 : u->a;
    size_t kb = v->a + 2 < v->b ? v->a + 2 : v->b;
    double base = median_range(p->z, ka, u->b), top = median_range(p->z, v->a, kb);
    base = kfmax(base, kfmin(p->z[u->b], top));
    double thr = base + LEVELS_STEP_FRACTION * (top - base);
    for (size_t i = u->b + 1; i <= v->a; i++) {
        if (p->z[i] < thr)
            continue;
        double dz = p->z[i] - p->z[i - 1];
        double t = dz > 1e-12 ? (thr - p->z[i - 1]) / dz : 0;
        return p->x[i - 1] + kfmin(kfmax(t, 0), 1) * (p->x[i] - p->x[i - 1]);
    }
    return p->x[u->b];
}

/* How sure level u is: the step to v against the significant step, and u's width. */
static double confidence(const struct lpoints *p, const struct plateau *u, const struct plateau *v,
                         double min_step)
{
    double c_step = 0.5;
    if (v) {
        double margin = kfmax(v->level - u->level, 0) / min_step;
        c_step = 1 - kexp(-CONF_BASE - CONF_RATE * kfmax(margin - 1, 0));
        if (margin < 1)
            c_step *= margin;
    }
    double octaves = p->x[u->b] - p->x[u->a];
    double c_width = kfmin(1, 0.4 + 0.6 * octaves / CONF_FULL_OCTAVES);
    return c_step * c_width;
}

static void set_level(const struct lpoints *p, const struct plateau *u, const struct plateau *v,
                      double offset, double min_step, struct level *lv)
{
    lv->confidence = v && kisfinite(u->conf) ? u->conf : confidence(p, u, v, min_step);
    lv->kind = LEVEL_CACHE;
    lv->first = u->a;
    lv->last = u->b;
    lv->from_bytes = kexp2(p->x[u->a]);
    lv->to_bytes = kexp2(p->x[u->b]);
    lv->latency_ns = median_range(p->ns, u->a, u->b) - offset;
    lv->cycles = median_cycles(p, u->a, u->b);
    lv->size_known = v != NULL;
    double x = kisfinite(u->step_log2) ? u->step_log2 : v ? step_position(p, u, v) : KM_NAN;
    lv->size_bytes = v ? kexp2(x) : KM_NAN;
    lv->step_end_bytes = v ? kexp2(p->x[v->a]) : KM_NAN;
}

/* The last plateau is an open cache level: the curve never left it. */
static void open_level(const struct lpoints *p, const struct plateau *u, double offset,
                       double min_step, struct detection *d)
{
    if (d->nlevels < LEVELS_MAX)
        set_level(p, u, NULL, offset, min_step, &d->level[d->nlevels++]);
}

/* The curve ends still rising after its last plateau u. */
static void rising_end(const struct lpoints *p, const struct plateau *u, bool in_llc, double offset,
                       double min_step, struct detection *d)
{
    struct plateau end = {p->n - 1, p->n - 1, p->z[p->n - 1], KM_NAN, KM_NAN};
    if (d->nlevels >= LEVELS_MAX)
        return;
    set_level(p, u, &end, offset, min_step, &d->level[d->nlevels++]);
    if (in_llc) {
        /* The rise leads into a cache CPUID reports beyond the sizes tried. */
        open_level(p, &end, offset, min_step, d);
        levels_note(d,
                    "the curve ends rising inside the last cache (CPUID): its latency is "
                    "at least %.1f ns, no DRAM plateau",
                    p->ns[p->n - 1] - offset);
        return;
    }
    d->dram_ns = p->ns[p->n - 1] - offset;
    d->dram_lower_bound = true;
    levels_note(d, "the curve ends still rising: DRAM latency is at least %.1f ns", d->dram_ns);
}

/* Merge into the memory plateau (the last, pl[m - 1]) every plateau before it whose latency is
 * within MEMORY_FACTOR of it: memory with noise or contention, not a cache. */
static void absorb_into_memory(const struct lpoints *p, struct plateau *pl, size_t *m,
                               struct detection *d)
{
    while (*m >= 2 && pl[*m - 1].level - pl[*m - 2].level < kln(MEMORY_FACTOR)) {
        char from[32];
        analysis_size(from, sizeof(from), kexp2(p->x[pl[*m - 2].a]));
        levels_note(d,
                    "the plateau from %s at %.1f ns is within %.0f%% of memory's latency: "
                    "memory with noise, not a cache",
                    from, kexp(pl[*m - 2].level), 100 * (MEMORY_FACTOR - 1));
        merge_at(p, pl, m, *m - 2);
    }
}

/* Plateaus at the end that start beyond the page-walk size, each reached from one that also
 * starts there by a step a walk could cost: memory plus page walks (the tables outgrow the
 * caches as the buffer grows), not caches. Returns how many; notes them. */
static size_t walk_plateaus(const struct lpoints *p, const struct plateau *pl, size_t m,
                            const struct detect_opts *o, struct detection *d)
{
    size_t w = 0;
    while (o->walk_bytes > 0 && m - w >= 2 && kexp2(p->x[pl[m - 2 - w].a]) >= o->walk_bytes &&
           pl[m - 1 - w].level - pl[m - 2 - w].level <= kln(WALK_STEP_MAX_RATIO))
        w++;
    if (w) {
        d->walk_from_bytes = kexp2(step_position(p, &pl[m - 1 - w], &pl[m - w]));
        d->walk_ns = kexp(pl[m - 1].level) - kexp(pl[m - 1 - w].level);
        char from[32], at[32];
        analysis_size(from, sizeof(from), kexp2(p->x[pl[m - w].a]));
        analysis_size(at, sizeof(at), o->walk_bytes);
        levels_note(d,
                    "from %s memory costs up to %.1f ns (x%.2f): page walks, the buffer is far "
                    "beyond the TLB's reach (%s with 4K pages), not a cache",
                    from, kexp(pl[m - 1].level) - o->ns_offset,
                    kexp(pl[m - 1].level - pl[m - 1 - w].level), at);
    }
    return w;
}

/* Whether the rise at the end after plateau u, which starts beyond the page-walk size, is
 * one a walk could cost: then u is memory and the end memory plus walks (noted). */
static bool walk_rise(const struct lpoints *p, const struct plateau *u, double rise,
                      const struct detect_opts *o, struct detection *d)
{
    if (!(o->walk_bytes > 0) || kexp2(p->x[u->a]) < o->walk_bytes ||
        rise > kln(WALK_STEP_MAX_RATIO))
        return false;
    struct plateau end = {p->n - 1, p->n - 1, p->z[p->n - 1], KM_NAN, KM_NAN};
    d->walk_from_bytes = kexp2(step_position(p, u, &end));
    d->walk_ns = p->ns[p->n - 1] - kexp(u->level);
    char from[32];
    analysis_size(from, sizeof(from), kexp2(p->x[u->b]));
    levels_note(d, "beyond %s memory costs up to %.1f ns (x%.2f): page walks, not a cache", from,
                p->ns[p->n - 1] - o->ns_offset, kexp(rise));
    return true;
}

/* Turn the final plateaus into levels and DRAM. */
static void build_levels(const struct lpoints *p, struct plateau *pl, size_t m, double min_step,
                         const struct detect_opts *o, struct detection *d)
{
    if (m == 0) {
        levels_note(d, "no plateau found: the curve rises throughout");
        d->dram_ns = p->ns[p->n - 1] - o->ns_offset;
        d->dram_lower_bound = true;
        return;
    }
    if (pl[0].a > 0 && pl[0].level - p->z[0] >= min_step)
        levels_note(d, "the curve starts inside a step: its smallest size is above a level");
    double largest = kexp2(p->x[p->n - 1]);
    bool in_llc = o->llc_bytes > 0 && largest < 0.9 * o->llc_bytes;
    /* The curve stayed in the last cache if its last plateau starts inside it and the sizes
     * did not go far beyond it (far beyond without a step, the cache is out of reach). */
    bool open = o->llc_bytes > 0 && kexp2(p->x[pl[m - 1].a]) < 0.9 * o->llc_bytes &&
                largest < LLC_REACH_FACTOR * o->llc_bytes;
    double rise = p->z[p->n - 1] - plateau_end(p, &pl[m - 1]);
    bool rising = pl[m - 1].b + 1 < p->n && rise >= min_step;
    if (rising && walk_rise(p, &pl[m - 1], rise, o, d))
        rising = false;
    if (!rising && !open) {
        absorb_into_memory(p, pl, &m, d);
        m -= walk_plateaus(p, pl, m, o, d);
    }
    for (size_t i = 0; i + 1 < m && d->nlevels < LEVELS_MAX; i++)
        set_level(p, &pl[i], &pl[i + 1], o->ns_offset, min_step, &d->level[d->nlevels++]);
    const struct plateau *last = &pl[m - 1];
    if (rising) {
        rising_end(p, last, in_llc, o->ns_offset, min_step, d);
    } else if (open) {
        open_level(p, last, o->ns_offset, min_step, d);
        levels_note(d, "the largest size is inside the last cache (CPUID): no DRAM plateau");
    } else {
        d->dram_ns = median_range(p->ns, last->a, last->b) - o->ns_offset;
        d->dram_cycles = median_cycles(p, last->a, last->b);
        d->dram_from_bytes = kexp2(p->x[last->a]);
    }
}

/* Mend p's wild points from the curve measured apart at the same sizes (o->witness_*). */
static void apply_witness(struct lpoints *p, const struct detect_opts *o, struct detection *d)
{
    struct lpoints *w = plat_alloc(sizeof(*w));
    if (!w)
        return;
    lpoints_build(w, o->witness_size, o->witness_ns, NULL, o->witness_n, o->ns_offset);
    lpoints_apply_witness(p, w, o->ns_offset, d);
    plat_free(w);
}

void levels_detect(const double *size, const double *ns, const double *cycles, size_t n,
                   const struct detect_opts *o, struct detection *d)
{
    kmemset(d, 0, sizeof(*d));
    d->dram_ns = d->dram_cycles = d->dram_from_bytes = KM_NAN;
    d->walk_from_bytes = d->walk_ns = KM_NAN;
    struct lpoints *p = plat_alloc(sizeof(*p));
    struct piece *pc = plat_alloc(LEVELS_MAX_POINTS * sizeof(*pc));
    struct plateau *pl = plat_alloc(LEVELS_MAX_POINTS * sizeof(*pl));
    if (!p || !pc || !pl) {
        levels_note(d, "out of memory");
        goto out;
    }
    lpoints_build(p, size, ns, cycles, n, o->ns_offset);
    d->npoints = p->n;
    if (p->n < 4) {
        levels_note(d, "too few valid points (%zu) to find levels", p->n);
        goto out;
    }
    bool dense = lpoints_per_octave(p) >= SPARSE_POINTS_PER_OCTAVE;
    d->sparse = !dense;
    if (!dense && o->witness_ns)
        apply_witness(p, o, d);
    d->noise = lpoints_noise(p);
    if (dense) /* wild points: beyond a significant step from both neighbours */
        lpoints_interpolate_extremes(p, kfmax(MIN_STEP_LN, MIN_STEP_SIGMAS * d->noise));
    size_t npc = lpoints_segment(p, d->noise, pc);
    double refined = lpoints_residual_noise(p, pc, npc);
    if (refined < d->noise) {
        /* Coarse sampling makes the first estimate see curvature as noise: cut again. */
        d->noise = refined;
        npc = lpoints_segment(p, d->noise, pc);
    }
    double min_step = kfmax(MIN_STEP_LN, MIN_STEP_SIGMAS * d->noise);
    size_t m;
    if (!dense) {
        m = lpoints_model_plateaus(p, MIN_STEP_LN, pl, o->ns_offset, d);
    } else {
        m = plateaus_from_pieces(p, pc, npc, min_step, d->noise, pl);
        merge_small_steps(p, pl, &m, min_step, d);
    }
    build_levels(p, pl, m, min_step, o, d);
out:
    plat_free(p);
    plat_free(pc);
    plat_free(pl);
}
