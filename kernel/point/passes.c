// SPDX-License-Identifier: MIT
// Interleaved passes: the golden-ratio order of a pass, and each visit's share of a point's plan.
#include "point/passes.h"

#include "lib/kmath.h"

static unsigned gcd(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/*
 * The stride of the golden-ratio order of n points: coprime to n (so every point is visited)
 * and neither 1 nor n - 1 (so neighbours in size are never visited one after the other); 0
 * when n has none (n < 5, or 6).
 */
static unsigned golden_stride(unsigned n)
{
    unsigned g0 = (unsigned)(0.618034 * n + 0.5);
    for (unsigned d = 0; d < n; d++) {
        unsigned c[2] = {g0 + d, g0 - d};
        for (unsigned k = 0; k < 2; k++) {
            if (c[k] >= 2 && c[k] + 2 <= n && gcd(c[k], n) == 1)
                return c[k];
        }
    }
    return 0;
}

void exp_pass_order(unsigned n, unsigned pass, unsigned passes, unsigned *order)
{
    unsigned g = golden_stride(n), shift = passes ? (unsigned)((uint64_t)n * pass / passes) : 0;
    for (unsigned k = 0; k < n; k++) {
        /* Without a golden stride: the even points, then the odd ones. */
        unsigned i = g                 ? (unsigned)((uint64_t)k * g % n)
                     : k < (n + 1) / 2 ? 2 * k
                                       : 2 * (k - (n + 1) / 2) + 1;
        order[k] = (i + shift) % n;
    }
}

struct measure_plan exp_slice_plan(const struct measure_plan *plan, unsigned passes,
                                   const struct point_result *so_far)
{
    struct measure_plan p = *plan;
    if (passes > 1) {
        p.precision = plan->precision * ksqrt((double)passes);
        p.max_ticks = plan->max_ticks / passes;
    }
    if (!so_far || !so_far->hops)
        return p;
    p.min_hops = p.max_hops = so_far->hops;
    /* A later pass's warm-up: as the first's, but at most a share of the slice's time at the
       pace the warm-ups went (whole laps when asked for by warm_laps). */
    if (!plan->warm_laps_set && so_far->warm_hops && so_far->warm_ticks && p.max_ticks) {
        double per_hop = (double)so_far->warm_ticks / (double)so_far->warm_hops;
        double fit = (double)p.max_ticks * EXP_PASS_WARM_SHARE / per_hop;
        uint64_t first = so_far->warm_hops / (so_far->passes ? so_far->passes : 1);
        p.warm_hops = fit < (double)first ? (uint64_t)fit : first;
        p.warm_hops = p.warm_hops ? p.warm_hops : 1;
    }
    return p;
}

struct measure_plan exp_rest_plan(const struct measure_plan *plan, unsigned passes,
                                  const struct point_result *so_far)
{
    struct measure_plan rest = exp_slice_plan(plan, passes, so_far);
    rest.max_ticks = plan->max_ticks - exp_slice_plan(plan, passes, NULL).max_ticks;
    rest.precision = plan->precision * ksqrt((double)passes / (double)(passes - 1));
    rest.warm_laps_set = false;
    rest.warm_hops = 1; /* warm from the slice just taken */
    return rest;
}

bool exp_pass_costly(double revisit_ticks, uint64_t slice_max_ticks)
{
    return slice_max_ticks && revisit_ticks > EXP_PASS_COST_SHARE * (double)slice_max_ticks;
}

unsigned exp_sweep_passes(const struct exp_ctx *ctx, unsigned points)
{
    const struct global_params *g = &ctx->cfg->global;
    /* One pass: without a precision there is nothing to share out but a fixed count. */
    return g->passes > 1 && points > 1 && g->precision_ppm > 0 ? (unsigned)g->passes : 1;
}
