// SPDX-License-Identifier: MIT
// A memory-side cache crossed by a random chase: the span of sizes that crosses it and the step
// the chase's latencies show there.
#include "lib/msc.h"

#include "lib/fmt.h"
#include "lib/stats.h"

#define MSC_POINTS_READ 64 /* a span of 6 octaves at the full profile's 4 a octave is 25 */

/* The largest power of two at most v (v >= 1). */
static uint64_t pow2_at_most(uint64_t v)
{
    uint64_t p = 1;
    while (p <= v / 2)
        p *= 2;
    return p;
}

bool msc_span(uint64_t cache_bytes, uint64_t free_bytes, uint64_t cap_bytes, uint64_t align,
              uint64_t *lo, uint64_t *hi, char *why, size_t why_cap)
{
    char c[24], h[24];
    *lo = *hi = 0;
    if (!cache_bytes || !align) {
        ksnprintf(why, why_cap, "the cache's size is unknown");
        return false;
    }
    uint64_t top =
        cache_bytes > UINT64_MAX / MSC_BEYOND_TIMES ? UINT64_MAX : cache_bytes * MSC_BEYOND_TIMES;
    top = top < free_bytes / MSC_FIT_SHARE ? top : free_bytes / MSC_FIT_SHARE;
    top = top < cap_bytes ? top : cap_bytes;
    *hi = top ? pow2_at_most(top) : 0;
    *lo = cache_bytes / MSC_BELOW_SHARE / align * align;
    *lo = *lo < align ? align : *lo;
    if (*hi / MSC_PLATEAU_SHARE < cache_bytes) {
        fmt_size(c, sizeof(c), (double)cache_bytes);
        fmt_size(h, sizeof(h), (double)*hi);
        ksnprintf(why, why_cap,
                  "cannot cross it: the largest buffer (%s: half the node's free memory, the "
                  "profile's cap) is under twice the cache (%s)",
                  h, c);
        return false;
    }
    return true;
}

/* The median of the points from lo to hi bytes (NaN-free), or a negative value when none. */
static double plateau_median(const uint64_t *size, const double *ns, unsigned n, uint64_t lo,
                             uint64_t hi)
{
    double v[MSC_POINTS_READ];
    size_t k = 0;
    for (unsigned i = 0; i < n && i < MSC_POINTS_READ; i++)
        if (size[i] >= lo && size[i] <= hi && ns[i] == ns[i] && ns[i] > 0)
            v[k++] = ns[i];
    return k ? stats_median(v, k) : -1.0;
}

void msc_step_find(const uint64_t *size, const double *ns, unsigned n, uint64_t cache_bytes,
                   uint64_t cpu_cache_bytes, struct msc_step *s)
{
    *s = (struct msc_step){0};
    s->below_ns = plateau_median(size, ns, n, cpu_cache_bytes * MSC_PLATEAU_SHARE,
                                 cache_bytes / MSC_PLATEAU_SHARE);
    s->beyond_ns = plateau_median(size, ns, n, cache_bytes * MSC_PLATEAU_SHARE, UINT64_MAX);
    s->known = s->below_ns > 0 && s->beyond_ns > 0;
    if (!s->known)
        return;
    s->ratio = s->beyond_ns / s->below_ns;
    s->seen = s->ratio >= MSC_STEP_RATIO;
    double half = (s->below_ns + s->beyond_ns) / 2;
    for (unsigned i = 1; s->seen && i < n && i < MSC_POINTS_READ; i++)
        if (size[i] > cpu_cache_bytes * MSC_PLATEAU_SHARE && ns[i] >= half) {
            s->from_bytes = size[i - 1];
            s->to_bytes = size[i];
            break;
        }
}

const char *msc_step_text(const struct msc_step *s, uint64_t cache_bytes, char *buf, size_t cap)
{
    char c[24], a[24], b[24];
    fmt_size(c, sizeof(c), (double)cache_bytes);
    fmt_size(a, sizeof(a), (double)s->from_bytes);
    fmt_size(b, sizeof(b), (double)s->to_bytes);
    if (!s->known)
        ksnprintf(buf, cap,
                  "step unknown: no point on one side (below: between twice the processor's "
                  "last cache and half HMAT's %s; beyond: twice it or more)",
                  c);
    else if (s->seen)
        ksnprintf(buf, cap, "step between %s and %s: %.1f -> %.1f ns (x%.2f), HMAT's cache %s", a,
                  b, s->below_ns, s->beyond_ns, s->ratio, c);
    else
        ksnprintf(buf, cap,
                  "no step: %.1f ns below, %.1f ns beyond (x%.2f, under x%.2f), HMAT's cache %s",
                  s->below_ns, s->beyond_ns, s->ratio, MSC_STEP_RATIO, c);
    return buf;
}
