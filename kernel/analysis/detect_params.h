// SPDX-License-Identifier: MIT
// Every tuning constant of level detection, level kinds and TLB steps, each with its reason.
//
// The method (levels.c) fits ln latency with a non-decreasing step function (isotonic L1
// regression), measures how much that fit rises over the octave after each size, and ends a
// level where that rise is a step's. level_kind.c then names each level of the run's main curve
// a cache, a TLB's reach or uncertain; tlb_steps.c finds the steps a larger page size does not
// pay. The step constants were chosen on the published real curves, which
// tests/report/corpus/real-score.sh scores, and checked on chase-host runs; the synthetic corpus
// only guards against regressions. Units: a rise is in ln of latency (0.35 is x1.42), a width in
// octaves (factors of 2 in size), a factor a ratio of sizes. Capacities (LEVELS_MAX and
// LEVELS_MAX_POINTS in levels.h, the step finder's STEP_POINTS_MAX) bound arrays, not tuned.
#ifndef CHASE_DETECT_PARAMS_H
#define CHASE_DETECT_PARAMS_H

/* --- Detection (levels.c, levels_prep.c) --- */

/* ln latency per octave: an octave over which the fit rises at least this much (x1.42) belongs
 * to a step. Below it lie the slopes inside a level: a random chase's partial hits of the cache
 * before (1 - C/N), TLB misses, a slowly filling shared cache (real curves: 0.1 to 0.35). */
#define STEP_RISE_LN 0.35
/* ln latency: a step that rises at least this much (x2) from its plateau to the plateau after
 * it (in its steepest octave where the curve shows no plateau after it) is a cache level; a
 * gentler one is `uncertain` (a TLB reach, a cache shared with others, a ramp the data cannot
 * tell from a level). Also the most a page walk adds (a few cache hits), which the kinds use. */
#define CACHE_RISE_LN 0.7
/* ln latency per octave: inside a step, once an octave without a point of its own has risen this
 * much, an octave that rises more again is the next level's step (two levels an octave apart:
 * Carmel's 2M L2 and 4M L3); one cache's rise is steepest in its first octave and falls after,
 * unless the grid cuts it (a 1M L2 at 0.9M: 512K, 1M, 2M rise x2.3 then x2.7): the latency model
 * then merges the two (levels.c's merge_split). */
#define SPLIT_RISE_LN 0.6
/* Share of a step's rise (in ln) that places it between two points of a sparse curve (one per
 * octave), and where a dense curve's effective size is read. Low enough that the grid point just
 * past a cache that is not a power of two (24K, 48K, 1.25M, 1.5M) has made it, high enough that
 * the point an octave below a cache (set conflicts, TLB misses start the rise there) has not: a
 * sparse curve then places a cache C in [C/2, C] or [C, 2C], whose middles lie within 1.42x. */
#define LEVELS_STEP_FRACTION 0.3
/* Share of a step's rise (in ln) at which a dense curve's level size is read: its middle. A
 * pseudo-LRU cache with random page colours misses about half its lines when the chase is its
 * capacity C (a x4 step two thirds made there, in ln; half made near 0.8C), a random-replacement
 * one only from C on (half made at 1.5C): the middle lies within 1.5x of C for both, where
 * LEVELS_STEP_FRACTION reads the size at which misses start (0.6C: Zen 4's 1M L2 at 636K).
 * Only for steps that rise as a cache's (CACHE_RISE_LN): a TLB's reach is where misses start. */
#define LEVELS_SIZE_FRACTION 0.5
/* Steps per octave of the search for the capacity the latency model reads from a step
 * (levels_model.c): a resolution far finer than any curve's grid, not tuned. */
#define MODEL_GRID 64
/* Octaves: the width over which the rise is measured; one octave is the coarsest grid the
 * foreign tools print (tinymembench, multichase), so a dense and a sparse curve read alike. */
#define RISE_WINDOW_OCTAVES 1.0
/* Points per octave: below this a curve is sparse and each level is only placed between two grid
 * points (the interval is what the data say); only the wording of sizes changes. */
#define SPARSE_POINTS_PER_OCTAVE 1.5
/* Factor of CPUID's last cache: sizes up to this multiple may still be inside it (sharing,
 * slices), so a curve that ends before it without a last step has not left that cache. */
#define LLC_REACH_FACTOR 2.0
/* Share of CPUID's last cache: a curve whose largest size is below it ended inside that cache. */
#define INSIDE_LLC 0.9
/* Confidence (0..1) of a last level whose end the curve never reached: its step is unseen. */
#define OPEN_LEVEL_CONFIDENCE 0.5
/* Factor on a level's confidence when the data cannot tell it is a cache (a step that follows
 * the previous one with no flat point between, or one at a TLB's reach): halved. */
#define DOUBT_CONFIDENCE_FACTOR 0.5
/* The confidence a level of a run's main curve is given, calibrated on real curves: its evidence
 * (the confidence its step gives: 1 - 2^-(rise/CACHE_RISE_LN)^2, halved on doubt) falls in one of
 * ten bands of 0.1, and the band's entry is the share of the tune set's levels in that band (the
 * 86 published tinymembench curves) that were real by issue 51's rule: (real + 1) / (levels + 2),
 * so that a band of few levels is neither certain nor hopeless, and made non-decreasing by
 * pooling neighbours. Written by tests/report/corpus/calibrate.sh, which
 * tests/report/test_calibration.sh runs to fail when this table is stale. */
// clang-format off
#define CALIBRATED_CONFIDENCE {0.55, 0.55, 0.55, 0.55, 0.79, 0.79, 0.82, 0.82, 0.82, 0.96}
// clang-format on

/* --- The curves a run is read from (interpret.c) --- */

/* ns: the L1 hit assumed under a curve that gives only time above it (tinymembench) when none
 * is known; it keeps ratios of latencies sensible, reported latencies stay relative. */
#define NOMINAL_L1_NS 1.0
/* Bytes: the largest stride of a lat_mem_rd-like curve that speaks for the run's levels (still
 * one load per line of every cache it passes). */
#define RING_PRIMARY_STRIDE 512

/* --- Kinds of the main curve's levels (level_kind.c) --- */

/* Factor of a TLB's reach R (entries x page size): a step sits at R when its size lies within
 * this factor of R .. R / (1 - LEVELS_STEP_FRACTION), where a sharp and a fully associative
 * LRU TLB's misses make that share of their rise (the reach blurs by the lines the page tables
 * take, and by where the grid places the step). */
#define REACH_FACTOR 1.3
/* Share of CPUID's last cache: a last cache found below it is shared with other cores or guests
 * (what this chase gets is its share). */
#define SHARED_SHARE 0.5
/* Factor: a cache CPUID reports within it of a step may be what the step is (the scorers'
 * "found" factor). */
#define CACHE_NEAR_FACTOR 1.5
/* Entries of common data TLB levels (L1 DTLB, second-level TLB) for 4K pages, ascending: Arm
 * Cortex-A72 (32, 1024), A76 (48, 1280) and A53 (512-entry main TLB) from their reference
 * manuals; Intel and AMD cores 64 to 96 first-level and 1536 to 3072 second-level entries. The
 * largest times 4K is where every load of a 4K-page curve may pay a page walk. */
#define COMMON_DTLB_ENTRIES_4K                                                                     \
    {                                                                                              \
        32, 48, 64, 96, 512, 1024, 1280, 1536, 2048, 3072                                          \
    }
/* Entries: the most a first-level DTLB of the list above holds. A gentle step at such a reach,
 * below a cache, is that TLB's (a miss there costs a second-level TLB hit, a few cycles); at a
 * second-level TLB's reach a miss walks the page tables through caches other cores share, and a
 * gentle step there is as likely a shared cache's ramp: it stays uncertain without the tlb
 * experiment (Zen 4's 3.3M ramp before its L3 share, at the 512-entry 2M reach). */
#define FIRST_LEVEL_DTLB_MAX_ENTRIES 96
/* The same for 2M pages. */
#define COMMON_DTLB_ENTRIES_2M                                                                     \
    {                                                                                              \
        32, 1024, 1536, 2048                                                                       \
    }

/* --- TLB steps (tlb_steps.c) --- */

/* Octaves: a level of a small-page curve matches one of a larger-page curve within this many
 * (half an octave of placement either way, and a quarter for the step's own width). */
#define MATCH_OCTAVES 0.75
/* Factor: only steps this far inside the larger-page curve's sizes are compared with it. */
#define COVERED_MARGIN 1.4
/* Share of the largest page size's latency, and ns: a page size pays a TLB penalty where it is
 * slower than the largest page size by more than both; a smaller difference is taken for two
 * curves measured apart, not a TLB (set by hand on the tlb experiment's runs, not scored). */
#define PENALTY_FRACTION 0.04
#define PENALTY_MIN_NS 0.3
/* Factor: a step of the reference curve is a cache's when a cache within this factor of the
 * chain's data at the step (one line per slot) could hold it before and not after; the factor
 * allows for a cache's effective size (sharing, set conflicts) and the step's width. */
#define DATA_NEAR_FACTOR 2.0
/* Entries: no TLB has fewer (Intel's L1 DTLB for 1G pages has 4), so a step below this many
 * pages of a curve's size is the reach of smaller pages. */
#define MIN_TLB_ENTRIES 4

/* --- Sizes the rules name (facts, not tuned) --- */

/* Bytes: the smallest page, whose TLBs' reaches a level may be. */
#define SMALL_PAGE_BYTES 4096.0
/* Bytes: the page sizes whose common TLB reaches are listed above. */
#define PAGE_2M_BYTES 2097152.0
#define PAGE_1G_BYTES 1073741824.0
/* Bytes: the tlb experiment's chain touches one line per 4K slot, staggered over the sets,
 * whatever the page size: at size S its data is S / SLOT_PAGE_BYTES lines. */
#define SLOT_PAGE_BYTES 4096.0

#endif
