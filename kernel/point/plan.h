// SPDX-License-Identifier: MIT
// A point's measurement plan from the configuration, its measurement, and the pages it runs on.
#ifndef CHASE_POINT_PLAN_H
#define CHASE_POINT_PLAN_H

#include <stdint.h>

#include "chase/chain_points.h"
#include "chase/measure.h"
#include "point/ctx.h"

#define EXP_FAR_BEYOND_LLC 4    /* chains this many times the LLC need no full warm-up lap */
#define EXP_WARM_LLC_MULTIPLE 2 /* ... only enough hops to replace the LLC this many times */
/* A warm-up lap longer than this share of point_max_ms may stop once its pace is steady:
   measure_warm_steady (a lap of a chain far beyond the caches costs seconds and adds nothing
   once every cache holds only the chain's latest stretch). */
#define EXP_WARM_STEADY_SHARE 0.1

/*
 * The measurement plan of a point: repetitions from the configuration, time per
 * repetition from the profile, and a warm-up of one lap, or, for chains of chain_bytes
 * (all streams) far beyond the LLC, only enough hops to replace the LLC's content, each
 * hop touching bytes_per_hop new bytes (min of stride and line) per stream.
 */
struct measure_plan exp_plan(const struct exp_ctx *ctx, uint64_t chain_bytes,
                             uint64_t bytes_per_hop, unsigned streams);

/*
 * The hops that refill the TLBs for a chain of chain_bytes whose slots are visited in random
 * order (plan.prewalk_max_hops): with P of its pages in the buffer's page size, at most
 * EXP_TLB_ENTRIES_MAX, P x (ln P + 3) random hops leave on average e^-3 = 0.05 of those P
 * pages untouched (the coupon collector). Entering a window on the firmware empties the
 * TLBs, never the data caches.
 */
#define EXP_TLB_ENTRIES_MAX 4096 /* Golden Cove's second-level TLB has 2048, Zen 4's 3072 */
uint64_t exp_prewalk_tlb_hops(const struct exp_ctx *ctx, uint64_t chain_bytes);

/* A chain's build, per slot, in ns: only for estimates of the time left or up front. */
#define EXP_EST_BUILD_NS_PER_SLOT 10.0
/* A rough guess of one hop's ns in a chain of bytes by the level that holds it (CPUID's
 * caches): only for estimates of the time left or up front. */
double exp_est_ns_per_hop(const struct machine *m, uint64_t bytes);

/* Estimated TSC ticks of a point (for the progress line's time left). */
double exp_point_work(const struct exp_ctx *ctx, const struct measure_plan *plan,
                      uint64_t chain_bytes, uint64_t slots, uint64_t lap_hops, unsigned streams);

/*
 * Measure pt with plan into r, and time it: r->time gets the bookkeeping around the
 * backend's warm-up and timed parts. Returns 0, or EXP_RUN_FAILED with ctx->failure
 * saying which point (label, a size in bytes) and why (also printed); r is released on
 * failure.
 */
int exp_measure(struct exp_ctx *ctx, const struct chase_point *pt, const struct measure_plan *plan,
                uint64_t label, struct point_result *r);

/*
 * Map the buffer with the page size the experiment's page key asks for (PAGE_CHOICE_AUTO keeps
 * what it has: the global page key's choice). *saved receives the size to restore with
 * exp_pages_end. Returns 0, or EXP_RUN_SKIPPED with ctx->failure saying why.
 */
int exp_pages_begin(struct exp_ctx *ctx, unsigned page_choice, uint64_t *saved);
/* Map the buffer with the page size it had before exp_pages_begin. */
void exp_pages_end(struct exp_ctx *ctx, uint64_t saved);

#endif
