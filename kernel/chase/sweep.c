// SPDX-License-Identifier: MIT
// Sweeps: sizes in geometric steps with a fixed number of points per doubling; up-down sweeps.
#include "chase/sweep.h"

#include "lib/kmath.h"

unsigned sweep_sizes(uint64_t min, uint64_t max, unsigned points_per_octave, uint64_t align,
                     uint64_t *out, unsigned cap)
{
    unsigned n = 0;
    uint64_t last = 0;
    if (!points_per_octave || !align || min > max)
        return 0;
    for (unsigned k = 0;; k++) {
        double exact = (double)min * kexp2((double)k / points_per_octave);
        uint64_t s = exact >= (double)max * (1 - 1e-12) ? max : (uint64_t)(exact + 0.5);
        s = s / align * align;
        if (s < align)
            s = align;
        if (s != last) {
            if (n < cap)
                out[n] = s;
            n++;
            last = s;
        }
        if (s >= max / align * align || exact >= (double)max)
            break;
    }
    return n;
}

uint64_t sweep_up_down_at(uint64_t step, uint64_t max, unsigned k, bool *up)
{
    uint64_t n = max / step + 1;
    *up = k < n;
    return (*up ? k : 2 * n - 1 - k) * step;
}
