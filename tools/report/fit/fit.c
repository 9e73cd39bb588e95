// SPDX-License-Identifier: MIT
// Least-squares fit of the latency model to a curve with GSL's trust-region solver.
#include "fit/fit.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sharpness is kept within (SHARP_MIN, SHARP_MIN + SHARP_SPAN) through a logistic map. */
#define SHARP_MIN 0.3
#define SHARP_SPAN 30.0
#define FIT_MAX_ITER 300
#define FIT_MAX_POINTS 512

struct fit_data {
    const double *size; /* points with finite, positive values only */
    const double *y;    /* ln(latency + offset) */
    size_t n;
    size_t m;
    bool exclusive;
};

/* Parameter vector: ln l_1..ln l_m, log2 S_1..log2 S_(m-1), logit of the sharpness. */
static void unpack(const gsl_vector *x, size_t m, bool exclusive, struct lat_model *md)
{
    md->m = m;
    md->exclusive = exclusive;
    for (size_t i = 0; i < m; i++)
        md->lat_ns[i] = exp(gsl_vector_get(x, i));
    for (size_t i = 0; i + 1 < m; i++)
        md->size_bytes[i] = exp2(gsl_vector_get(x, m + i));
    double q = gsl_vector_get(x, 2 * m - 1);
    md->sharpness = SHARP_MIN + SHARP_SPAN / (1.0 + exp(-q));
}

static int residuals(const gsl_vector *x, void *arg, gsl_vector *f)
{
    const struct fit_data *fd = arg;
    struct lat_model md;
    unpack(x, fd->m, fd->exclusive, &md);
    for (size_t i = 0; i < fd->n; i++) {
        double e = model_latency(&md, fd->size[i]);
        double r = log(fmax(isfinite(e) ? e : 1e-9, 1e-9)) - fd->y[i];
        gsl_vector_set(f, i, r);
    }
    return GSL_SUCCESS;
}

struct fit_point {
    double x, y; /* log2 size, ln latency */
};

static int cmp_fit_point(const void *a, const void *b)
{
    double u = ((const struct fit_point *)a)->x, v = ((const struct fit_point *)b)->x;
    return (u > v) - (u < v);
}

/* Keep the usable points (finite and positive after the offset); a long curve is averaged
 * down to FIT_MAX_POINTS groups of neighbours so a fit stays quick. Returns how many. */
static size_t usable(const double *size, const double *ns, size_t n, double offset, double *sx,
                     double *sy)
{
    struct fit_point *p = malloc((n ? n : 1) * sizeof(*p));
    size_t k = 0, out = 0;
    if (!p)
        return 0;
    for (size_t i = 0; i < n; i++) {
        double v = ns[i] + offset;
        if (isfinite(size[i]) && size[i] >= 1 && size[i] < 1e19 && isfinite(v) && v > 0)
            p[k++] = (struct fit_point){log2(size[i]), log(v)};
    }
    qsort(p, k, sizeof(*p), cmp_fit_point);
    size_t group = (k + FIT_MAX_POINTS - 1) / FIT_MAX_POINTS;
    for (size_t a = 0; a < k; a += group, out++) {
        double xs = 0, ys = 0;
        size_t b = a + group < k ? a + group : k;
        for (size_t i = a; i < b; i++) {
            xs += p[i].x;
            ys += p[i].y;
        }
        sx[out] = exp2(xs / (double)(b - a));
        sy[out] = ys / (double)(b - a);
    }
    free(p);
    return out;
}

static void pack_start(const struct lat_model *s, gsl_vector *x)
{
    size_t m = s->m;
    for (size_t i = 0; i < m; i++)
        gsl_vector_set(x, i, log(s->lat_ns[i]));
    for (size_t i = 0; i + 1 < m; i++)
        gsl_vector_set(x, m + i, log2(s->size_bytes[i]));
    double p = fmin(fmax(s->sharpness, SHARP_MIN + 0.01), SHARP_MIN + SHARP_SPAN - 0.01);
    double u = (p - SHARP_MIN) / SHARP_SPAN;
    gsl_vector_set(x, 2 * m - 1, log(u / (1 - u)));
}

/* Uncertainties from the covariance (scaled by the residual variance) into r. */
static void uncertainties(gsl_multifit_nlinear_workspace *w, const struct fit_data *fd,
                          double chisq, struct fit_result *r)
{
    size_t P = 2 * fd->m;
    gsl_matrix *cov = gsl_matrix_alloc(P, P);
    if (!cov)
        return;
    gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(w), 0.0, cov);
    double s2 = fd->n > P ? chisq / (double)(fd->n - P) : NAN;
    for (size_t i = 0; i < fd->m; i++)
        r->lat_sd[i] = r->model.lat_ns[i] * sqrt(gsl_matrix_get(cov, i, i) * s2);
    for (size_t i = 0; i + 1 < fd->m; i++)
        r->size_sd[i] =
            r->model.size_bytes[i] * M_LN2 * sqrt(gsl_matrix_get(cov, fd->m + i, fd->m + i) * s2);
    double p = r->model.sharpness, u = (p - SHARP_MIN) / SHARP_SPAN;
    r->sharpness_sd = SHARP_SPAN * u * (1 - u) * sqrt(gsl_matrix_get(cov, P - 1, P - 1) * s2);
    gsl_matrix_free(cov);
}

static bool sizes_in_order(const struct lat_model *md)
{
    for (size_t i = 0; i + 1 < md->m; i++)
        if (!isfinite(md->size_bytes[i]) ||
            (!md->exclusive && i > 0 && md->size_bytes[i] <= md->size_bytes[i - 1]))
            return false;
    return true;
}

static bool run_solver(struct fit_data *fd, const struct lat_model *start, double offset,
                       struct fit_result *r)
{
    size_t P = 2 * fd->m;
    gsl_multifit_nlinear_fdf fdf = {
        .f = residuals, .df = NULL, .fvv = NULL, .n = fd->n, .p = P, .params = fd};
    gsl_multifit_nlinear_parameters prm = gsl_multifit_nlinear_default_parameters();
    gsl_multifit_nlinear_workspace *w =
        gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &prm, fd->n, P);
    gsl_vector *x0 = gsl_vector_alloc(P);
    bool ok = false;
    if (!w || !x0) {
        snprintf(r->why, sizeof(r->why), "out of memory");
        goto out;
    }
    pack_start(start, x0);
    int info = 0;
    gsl_multifit_nlinear_init(x0, &fdf, w);
    int status =
        gsl_multifit_nlinear_driver(FIT_MAX_ITER, 1e-10, 1e-10, 1e-12, NULL, NULL, &info, w);
    if (status != GSL_SUCCESS && status != GSL_EMAXITER) {
        snprintf(r->why, sizeof(r->why), "the solver stopped: %s", gsl_strerror(status));
        goto out;
    }
    double chisq;
    gsl_blas_ddot(gsl_multifit_nlinear_residual(w), gsl_multifit_nlinear_residual(w), &chisq);
    unpack(gsl_multifit_nlinear_position(w), fd->m, fd->exclusive, &r->model);
    uncertainties(w, fd, chisq, r); /* relative ones, so before the offset comes off */
    for (size_t i = 0; i < fd->m; i++)
        r->model.lat_ns[i] -= offset;
    r->n = fd->n;
    r->rms = sqrt(chisq / (double)fd->n);
    r->bic =
        (double)fd->n * log(fmax(chisq, 1e-300) / (double)fd->n) + (double)P * log((double)fd->n);
    ok = sizes_in_order(&r->model);
    if (!ok)
        snprintf(r->why, sizeof(r->why), "the fitted sizes are out of order");
out:
    gsl_vector_free(x0);
    if (w)
        gsl_multifit_nlinear_free(w);
    return ok;
}

bool fit_from(const double *size, const double *ns, size_t n, const struct lat_model *start,
              double ns_offset, struct fit_result *r)
{
    memset(r, 0, sizeof(*r));
    gsl_set_error_handler_off();
    if (start->m < 2 || start->m > LEVELS_MAX + 1) {
        snprintf(r->why, sizeof(r->why), "no level to fit");
        return false;
    }
    double *sx = malloc((n ? n : 1) * sizeof(double)), *sy = malloc((n ? n : 1) * sizeof(double));
    struct fit_data fd = {sx, sy, 0, start->m, start->exclusive};
    bool ok = false;
    if (!sx || !sy) {
        snprintf(r->why, sizeof(r->why), "out of memory");
        goto out;
    }
    fd.n = usable(size, ns, n, ns_offset, sx, sy);
    if (fd.n < 2 * start->m + 2) {
        snprintf(r->why, sizeof(r->why), "too few points (%zu) for %zu parameters", fd.n,
                 2 * start->m);
        goto out;
    }
    ok = run_solver(&fd, start, ns_offset, r);
out:
    r->ok = ok;
    free(sx);
    free(sy);
    return ok;
}

bool fit_model(const double *size, const double *ns, size_t n, const struct detection *d,
               bool exclusive, double ns_offset, struct fit_result *r)
{
    struct lat_model s = {.m = 0, .sharpness = 3.0, .exclusive = exclusive};
    double below = 0;
    for (size_t i = 0; i < d->nlevels && s.m < LEVELS_MAX; i++) {
        const struct level *lv = &d->level[i];
        s.lat_ns[s.m] = fmax(lv->latency_ns + ns_offset, 1e-3);
        if (lv->size_known) {
            s.size_bytes[s.m] =
                exclusive ? fmax(lv->size_bytes - below, lv->size_bytes / 4) : lv->size_bytes;
            below = lv->size_bytes;
        }
        s.m++;
        if (!lv->size_known)
            break; /* a last cache without an end: it is the final latency */
    }
    bool last_open = s.m > 0 && !d->level[s.m - 1].size_known;
    if (!last_open && isfinite(d->dram_ns))
        s.lat_ns[s.m++] = fmax(d->dram_ns + ns_offset, 1e-3);
    return fit_from(size, ns, n, &s, ns_offset, r);
}
