// SPDX-License-Identifier: MIT
// The latency model E[L](N) = sum over levels of l_i * share_i(N), inclusive or exclusive.
#include "fit/model.h"

#include <math.h>

double model_latency(const struct lat_model *md, double n_bytes)
{
    if (md->m == 0 || !(n_bytes > 0))
        return NAN;
    double e = 0, h_prev = 0, reach = 0;
    for (size_t i = 0; i + 1 < md->m; i++) {
        reach = md->exclusive ? reach + md->size_bytes[i] : md->size_bytes[i];
        double h = reach >= n_bytes ? 1.0 : pow(reach / n_bytes, md->sharpness);
        e += md->lat_ns[i] * (h - h_prev);
        h_prev = h;
    }
    return e + md->lat_ns[md->m - 1] * (1.0 - h_prev);
}
