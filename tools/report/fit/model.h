// SPDX-License-Identifier: MIT
// The latency model E[L](N) = sum over levels of l_i * share_i(N), inclusive or exclusive.
#ifndef REPORT_MODEL_H
#define REPORT_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/levels.h"

/*
 * m latencies: the first m - 1 belong to caches of the given sizes, the last to what serves
 * everything else (DRAM, or a last cache whose end the curve does not reach).
 *
 * Of N bytes chased at random, the share served by level i or a faster one is
 * h_i(N) = min(1, S_i / N)^sharpness, where S_i is the size of level i when caches are
 * inclusive (a level holds what the faster ones hold) and the sum of the sizes of levels
 * 1..i when they are exclusive. share_i = h_i - h_(i-1). Sharpness 1 is random replacement;
 * larger values give the sharper steps of LRU-like replacement.
 */
struct lat_model {
    size_t m;
    double lat_ns[LEVELS_MAX + 1];
    double size_bytes[LEVELS_MAX];
    double sharpness;
    bool exclusive;
};

/* Expected latency in ns per load for a random chase over n_bytes under the model. */
double model_latency(const struct lat_model *md, double n_bytes);

#endif
