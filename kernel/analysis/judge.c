// SPDX-License-Identifier: MIT
// The helpers every verdict shares: text, the run's last cache, the random chase at a size.
#include "analysis/judge.h"

#include <stdarg.h>

#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"

void judge_append(char *dst, size_t cap, const char *fmt, ...)
{
    size_t o = kstrlen(dst);
    if (o + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    kvsnprintf(dst + o, cap - o, fmt, ap);
    va_end(ap);
}

void judge_sig2(char *dst, size_t cap, double v)
{
    double a = kfabs(v), p = 10;
    int decimals = 1;
    if (!kisfinite(v)) {
        ksnprintf(dst, cap, "-");
        return;
    }
    if (a == 0 || a >= 9.95)
        decimals = 0;
    for (; decimals && a * p < 9.95 && decimals < 20; decimals++)
        p *= 10;
    ksnprintf(dst, cap, "%.*f", decimals, v);
    size_t k = kstrlen(dst);
    while (decimals && k > 0 && dst[k - 1] == '0')
        dst[--k] = 0;
    if (k > 0 && dst[k - 1] == '.')
        dst[--k] = 0;
}

double analysis_interp_log2(const double *x, const double *y, size_t n, double x0)
{
    if (n == 0 || !(x0 >= x[0]) || !(x0 <= x[n - 1]) || !(x[0] > 0))
        return KM_NAN;
    size_t lo = 0, hi = n - 1; /* x[lo] <= x0 <= x[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (x[mid] <= x0)
            lo = mid;
        else
            hi = mid;
    }
    double a = klog2(x[lo]), b = klog2(x[hi]);
    double t = b > a ? (klog2(x0) - a) / (b - a) : 0;
    return y[lo] + t * (y[hi] - y[lo]);
}

/* The primary curve's last level, NULL when it has none. */
static const struct level *last_level(const struct an_result *r)
{
    const struct detection *d = r && r->primary >= 0 ? &r->cr[r->primary].det : NULL;
    return d && d->nlevels ? &d->level[d->nlevels - 1] : NULL;
}

bool analysis_llc_is_share(const struct an_result *r)
{
    const struct level *last = last_level(r);
    return last && last->shared;
}

double analysis_llc_bytes(const struct an_input *in, const struct an_result *r)
{
    const struct level *last = last_level(r);
    /* A shared last cache (found well below CPUID's size): what a chase of this run gets of it
     * is the share the random chase measured, not the whole cache. */
    if (analysis_llc_is_share(r))
        return last->size_bytes;
    if (in->llc_bytes > 0)
        return in->llc_bytes;
    if (last && last->size_known)
        return last->size_bytes;
    return 0;
}

size_t judge_values(const struct csv *t, int col, double *out, size_t max)
{
    size_t k = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        double v = csv_num(t, r, col);
        bool seen = !kisfinite(v);
        for (size_t i = 0; i < k && !seen; i++)
            seen = out[i] == v;
        if (seen || k >= max)
            continue;
        size_t i = k++;
        for (; i > 0 && out[i - 1] > v; i--)
            out[i] = out[i - 1];
        out[i] = v;
    }
    return k;
}

const struct an_curve *judge_primary(const struct an_judge *j)
{
    return j->r->primary >= 0 ? &j->in->curve[j->r->primary] : NULL;
}

double judge_random_at(const struct an_judge *j, double size)
{
    const struct an_curve *c = judge_primary(j);
    return c ? analysis_interp_log2(c->size, c->ns, c->n, size) : KM_NAN;
}

bool judge_in_llc(const struct an_judge *j, double bytes, char *llc, size_t cap)
{
    double at = analysis_llc_bytes(j->in, j->r);
    if (!(at > 0) || !kisfinite(bytes) || bytes > at)
        return false;
    fmt_size(llc, cap, at);
    return true;
}
