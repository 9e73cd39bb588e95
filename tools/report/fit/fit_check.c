// SPDX-License-Identifier: MIT
// Where the fitted latency model and the detected levels disagree, and which level count fits.
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/fmt.h"
#include "fit/fit.h"
#include "inputs/rtext.h"

/* A size or latency disagrees when this far apart and beyond this many uncertainties. */
#define SIZE_FACTOR 1.5
#define LATENCY_FRACTION 0.15
#define SIGMAS 3.0
/* How much lower the BIC of another level count must be to say the data prefer it. */
#define BIC_MARGIN 10.0
/* Residuals above this (in ln latency, ~15%) make the fit unreliable. */
#define POOR_FIT_RMS 0.15

static void note(struct fit_check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct fit_check *c, const char *fmt, ...)
{
    c->agrees = false;
    if (c->nnotes >= FIT_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->note[c->nnotes++], FIT_NOTE_CHARS, fmt, ap);
    va_end(ap);
}

static bool apart(double a, double b, double sd, double factor)
{
    double lo = fmin(a, b), hi = fmax(a, b);
    return lo > 0 && hi / lo > factor && !(fabs(a - b) <= SIGMAS * sd);
}

/* Fitted size of level i in the reading of the detection (inclusive: reach of the level). */
static double fitted_reach(const struct lat_model *md, size_t i, double *sd, const double *sds)
{
    if (!md->exclusive) {
        *sd = sds[i];
        return md->size_bytes[i];
    }
    double s = 0, v = 0;
    for (size_t k = 0; k <= i; k++) {
        s += md->size_bytes[k];
        v += sds[k] * sds[k];
    }
    *sd = sqrt(v);
    return s;
}

static void compare_levels(const struct detection *d, const struct fit_result *f,
                           struct fit_check *c)
{
    char a[32], b[32];
    for (size_t i = 0; i < d->nlevels && i < f->model.m; i++) {
        const struct level *lv = &d->level[i];
        if (lv->size_known && i + 1 < f->model.m) {
            double sd, fs = fitted_reach(&f->model, i, &sd, f->size_sd);
            fmt_size(a, sizeof(a), lv->size_bytes);
            fmt_size(b, sizeof(b), fs);
            if (apart(lv->size_bytes, fs, sd, SIZE_FACTOR))
                note(c, "L%zu size: detected %s, fit %s", i + 1, a, b);
        }
        double fl = f->model.lat_ns[i];
        if (apart(lv->latency_ns, fl, f->lat_sd[i], 1 + LATENCY_FRACTION))
            note(c, "L%zu latency: detected %.2f ns, fit %.2f ns", i + 1, lv->latency_ns, fl);
    }
    size_t last = f->model.m - 1;
    if (isfinite(d->dram_ns) && !d->dram_lower_bound && last == d->nlevels &&
        apart(d->dram_ns, f->model.lat_ns[last], f->lat_sd[last], 1 + LATENCY_FRACTION))
        note(c, "DRAM latency: detected %.1f ns, fit %.1f ns", d->dram_ns, f->model.lat_ns[last]);
}

/* Sizes as reach (inclusive reading: what level i and the faster ones hold together). */
static void to_reach(const struct lat_model *md, double *reach)
{
    double sum = 0;
    for (size_t i = 0; i + 1 < md->m; i++) {
        sum += md->size_bytes[i];
        reach[i] = md->exclusive ? sum : md->size_bytes[i];
    }
}

static void from_reach(struct lat_model *md, const double *reach)
{
    for (size_t i = 0; i + 1 < md->m; i++)
        md->size_bytes[i] = md->exclusive && i > 0 ? reach[i] - reach[i - 1] : reach[i];
}

/* Start values with plateau k removed (with the step after it, or before it for the last). */
static void without_level(const struct lat_model *md, size_t k, struct lat_model *s)
{
    double reach[LEVELS_MAX + 1], r2[LEVELS_MAX + 1];
    to_reach(md, reach);
    size_t drop = k + 1 < md->m ? k : k - 1, j = 0;
    *s = *md;
    s->m = md->m - 1;
    for (size_t i = 0; i + 1 < md->m; i++)
        if (i != drop)
            r2[j++] = reach[i];
    for (size_t i = 0, o = 0; i < md->m; i++)
        if (i != k)
            s->lat_ns[o++] = md->lat_ns[i];
    from_reach(s, r2);
}

/* Start values with a plateau inserted before plateau k, its step between the neighbours. */
static void with_level(const struct lat_model *md, size_t k, double lo_bytes, struct lat_model *s)
{
    double reach[LEVELS_MAX + 1], r2[LEVELS_MAX + 1];
    to_reach(md, reach);
    double left = k > 0 ? reach[k - 1] : lo_bytes;
    double right = k + 1 < md->m ? reach[k] : left * 64;
    *s = *md;
    s->m = md->m + 1;
    for (size_t i = 0, o = 0; i + 1 < md->m; i++) {
        if (i == k)
            r2[o++] = sqrt(left * right);
        r2[o++] = reach[i];
    }
    if (k + 1 == md->m)
        r2[k] = sqrt(left * right);
    for (size_t i = 0, o = 0; i < md->m; i++) {
        if (i == k)
            s->lat_ns[o++] = k > 0 ? sqrt(md->lat_ns[k - 1] * md->lat_ns[k]) : md->lat_ns[0] / 1.5;
        s->lat_ns[o++] = md->lat_ns[i];
    }
    from_reach(s, r2);
}

/* Try one plateau fewer and one more; returns -1 or +1 when the data clearly prefer that. */
static int compare_orders(const double *size, const double *ns, size_t n,
                          const struct fit_result *f, double offset)
{
    double lo = INFINITY;
    for (size_t i = 0; i < n; i++)
        if (isfinite(size[i]) && size[i] > 0)
            lo = fmin(lo, size[i]);
    struct lat_model base = f->model, s;
    for (size_t i = 0; i < base.m; i++)
        base.lat_ns[i] += offset;
    struct fit_result alt;
    double best_fewer = INFINITY, best_more = INFINITY;
    for (size_t k = 0; base.m > 2 && k < base.m; k++) {
        without_level(&base, k, &s);
        if (fit_from(size, ns, n, &s, offset, &alt))
            best_fewer = fmin(best_fewer, alt.bic);
    }
    for (size_t k = 0; base.m <= LEVELS_MAX && k < base.m; k++) {
        with_level(&base, k, lo, &s);
        if (fit_from(size, ns, n, &s, offset, &alt))
            best_more = fmin(best_more, alt.bic);
    }
    if (best_fewer < f->bic - BIC_MARGIN && best_fewer <= best_more)
        return -1;
    if (best_more < f->bic - BIC_MARGIN)
        return 1;
    return 0;
}

void fit_check(const double *size, const double *ns, size_t n, const struct detection *d,
               const struct fit_result *f, double ns_offset, struct fit_check *c)
{
    memset(c, 0, sizeof(*c));
    c->agrees = true;
    c->preferred_levels = (int)d->nlevels;
    if (!f->ok)
        return;
    if (f->rms > POOR_FIT_RMS)
        note(c, "the model fits poorly (rms %.0f%% of latency): its numbers are not reliable",
             100 * f->rms);
    if (f->model.sharpness < 0.35 || f->model.sharpness > 30)
        note(c, "the sharpness ran to its bound (%.2f): the steps are not shaped like the model's",
             f->model.sharpness);
    compare_levels(d, f, c);
    int delta = compare_orders(size, ns, n, f, ns_offset);
    int levels = (int)d->nlevels;
    c->preferred_levels = levels + delta;
    if (delta < 0)
        note(c, "the model fits better with %d levels than with the %d detected", levels - 1,
             levels);
    else if (delta > 0)
        note(c,
             "the model fits better with %d levels than with the %d detected (a step too "
             "small or too soft to count as a level?)",
             levels + 1, levels);
}
