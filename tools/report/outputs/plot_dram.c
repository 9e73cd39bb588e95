// SPDX-License-Identifier: MIT
// The theoretical DRAM bandwidth SMBIOS gives, marked on a plot whose x is GB/s (loaded's family).
#include <math.h>
#include <stdio.h>

#include "outputs/plot.h"
#include "outputs/plot_dram.h"
#include "inputs/rjson.h"

/* The lowest and highest y the plot's series have so far (NaN, NaN when none). */
static void series_y_range(const struct plot_spec *ps, double *lo, double *hi)
{
    *lo = *hi = NAN;
    for (size_t i = 0; i < ps->nseries; i++)
        for (size_t k = 0; k < ps->series[i].n; k++) {
            double y = ps->series[i].y[k];
            if (isfinite(y) && !(y >= *lo))
                *lo = y;
            if (isfinite(y) && !(y <= *hi))
                *hi = y;
        }
}

void plot_mark_dram(struct plot_spec *ps, const struct rjson *run)
{
    const struct rjson *sm = run ? rjson_path(run, "machine_identity.smbios") : NULL;
    double bw = 0, lo, hi;
    if (!sm || !rjson_number(rjson_get(sm, "dram_bandwidth_bytes_per_s"), &bw) || !(bw > 0))
        return;
    series_y_range(ps, &lo, &hi);
    double *x = plot_alloc(ps, 2), *y = plot_alloc(ps, 2);
    if (!x || !y || !isfinite(lo))
        return;
    x[0] = x[1] = bw / 1e9;
    y[0] = lo;
    y[1] = hi;
    /* the key names the source; report.md's machine table has channels, MT/s and width */
    char label[64];
    snprintf(label, sizeof(label), "theoretical DRAM %.1f GB/s (SMBIOS)", bw / 1e9);
    plot_add_series(ps, label, x, y, 2, true);
}
