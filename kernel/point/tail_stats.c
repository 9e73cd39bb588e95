// SPDX-License-Identifier: MIT
// The tail's statistics: log bins, percentiles, the slow batches' train, long stalls.
#include "point/tail_stats.h"

#include "lib/kmath.h"
#include "lib/stats.h"

void tail_hist_init(struct tail_hist *h, double lo_ns, double hi_ns)
{
    *h = (struct tail_hist){.lo_ns = lo_ns};
    double decades = klog2(hi_ns / lo_ns) / klog2(10.0);
    double bins = kfloor(decades * TAIL_BINS_PER_DECADE) + 1;
    h->nbins = bins < 1 ? 1 : bins > TAIL_BINS_MAX ? TAIL_BINS_MAX : (unsigned)bins;
}

double tail_bin_low_ns(const struct tail_hist *h, unsigned i)
{
    /* whole decades multiplied out, so that the decades' edges are exact */
    double decade = 1;
    for (unsigned d = 0; d < i / TAIL_BINS_PER_DECADE; d++)
        decade *= 10;
    unsigned step = i % TAIL_BINS_PER_DECADE;
    double within = step ? kexp2(klog2(10.0) * (double)step / TAIL_BINS_PER_DECADE) : 1;
    return h->lo_ns * decade * within;
}

void tail_hist_add(struct tail_hist *h, double ns)
{
    if (!(ns >= h->lo_ns)) {
        h->below++;
        return;
    }
    double at = klog2(ns / h->lo_ns) / klog2(10.0) * TAIL_BINS_PER_DECADE;
    if (!(at < h->nbins)) {
        h->above++;
        return;
    }
    unsigned i = (unsigned)at;
    /* the logarithm's last bit may put an edge value one bin off: the edges decide */
    if (i + 1 < h->nbins && ns >= tail_bin_low_ns(h, i + 1))
        i++;
    else if (i > 0 && ns < tail_bin_low_ns(h, i))
        i--;
    h->count[i]++;
}

void tail_percentiles(double *ns, size_t n, struct tail_percentiles *out)
{
    *out = (struct tail_percentiles){0};
    if (n == 0)
        return;
    stats_sort(ns, n);
    out->p50_ns = stats_quantile_sorted(ns, n, 0.5);
    out->p90_ns = stats_quantile_sorted(ns, n, 0.9);
    out->p99_ns = stats_quantile_sorted(ns, n, 0.99);
    out->p999_ns = stats_quantile_sorted(ns, n, 0.999);
    out->max_ns = ns[n - 1];
}

size_t tail_slow_train(const uint64_t *start, const double *ns, size_t n, double median_ns,
                       double mad_ns, double hop_ns, uint64_t *slow_start, double *slow_excess_ns)
{
    double above = kfmax(TAIL_SLOW_MADS * mad_ns, TAIL_SLOW_HOP_SHARE * hop_ns);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (ns[i] > median_ns + above) {
            slow_start[m] = start[i];
            slow_excess_ns[m++] = ns[i] - median_ns;
        }
    return m;
}

void tail_stalls_find(const uint64_t *start, const double *ns, size_t n, double tsc_hz,
                      double median_ns, struct tail_stalls *out)
{
    *out = (struct tail_stalls){0};
    for (size_t i = 0; i < n; i++) {
        double excess = ns[i] - median_ns;
        if (excess > TAIL_STALL_BEYOND_NS) {
            out->count++;
            out->total_ns += excess;
            out->longest_ns = kfmax(out->longest_ns, excess);
        }
    }
    if (n == 0 || !(tsc_hz > 0))
        return;
    out->span_ns = (double)(start[n - 1] - start[0]) * 1e9 / tsc_hz + ns[n - 1];
    if (out->span_ns > 0)
        out->per_minute = (double)out->count * 60e9 / out->span_ns;
}
