// SPDX-License-Identifier: MIT
// Every tunable constant of the level detector and its classification, with its reason.
//
// The detector (levels.c) fits ln latency with a non-decreasing step function (isotonic
// regression, L1 loss), measures how much that fit rises over the octave that follows each
// size, and reads a level's end where the rise per octave is a step. The values were chosen on
// the published real curves of ../shared/real-curves and this machine's chase-host runs
// (docs/report.md gives the scores); the synthetic corpus only guards against regressions.
#ifndef CHASE_LEVELS_PARAMS_H
#define CHASE_LEVELS_PARAMS_H

/* An octave over which the fitted ln latency rises by at least this much (x1.42) belongs to a
 * step. Below it lie the slopes inside a level: a random chase's partial hits of the cache
 * before (1 - C/N), TLB misses, a slowly filling shared cache (real curves: 0.1 to 0.35). */
#define STEP_RISE_LN 0.35
/* A step whose steepest octave rises by at least this much (x2) is a cache level; a gentler
 * one is reported `uncertain` (a TLB reach, a cache shared with others, a ramp the data cannot
 * tell from a level). Of such steps on the real curves 96% are real levels. */
#define CACHE_RISE_LN 0.7
/* Inside a step, once an octave has risen this much, an octave that rises more again is the
 * next level's step (two levels an octave apart: Carmel's 2M L2 and 4M L3): one cache's
 * rise is steepest in its first octave and falls after it. */
#define SPLIT_RISE_LN 0.6
/* A level's size is where the fitted curve has made this share of the step's rise (in ln):
 * LEVELS_STEP_FRACTION (levels.h), not repeated here. */
/* The width (octaves) over which the rise is measured: one octave, the coarsest grid the
 * foreign tools print (tinymembench, multichase), so a dense and a sparse curve of the same
 * machine are read alike. */
#define RISE_WINDOW_OCTAVES 1.0
/* Curves with fewer points per octave than this are sparse: each level is then only placed
 * between two grid points (the interval is what the data say). */
#define SPARSE_POINTS_PER_OCTAVE 1.5
/* Sizes up to this multiple of CPUID's last cache may still be inside it (sharing, slices):
 * a curve that ends before it without a last step has not left that cache. */
#define LLC_REACH_FACTOR 2.0
/* A curve whose largest size is below this share of CPUID's last cache ended inside it. */
#define INSIDE_LLC 0.9

/* Classification (level_kind.c, tlb_steps.c). A step of at most exp(CACHE_RISE_LN), 2x, in whole
 * latencies is no more than a page walk adds (a few cache hits): it may be a TLB's. */
/* A step sits at a TLB's reach R (entries x page size) when its size lies within this factor of
 * R .. R / (1 - LEVELS_STEP_FRACTION), where a sharp and a fully associative TLB's misses make
 * that share of their rise (the effective reach blurs by the lines the page tables take). */
#define REACH_FACTOR 1.3
/* A last cache found below this share of CPUID's size is shared with other cores or guests. */
#define SHARED_SHARE 0.5
/* A cache CPUID reports within this factor of a step may be what the step is (the scorers'
 * "found" factor). */
#define CACHE_NEAR_FACTOR 1.5
/* A level of a small-page curve matches one of a larger-page curve within this many octaves
 * (half an octave of placement either way, and a quarter for the step's own width). */
#define MATCH_OCTAVES 0.75
/* Only steps this far inside the larger-page curve's sizes are compared with it. */
#define COVERED_MARGIN 1.4

#endif
