// SPDX-License-Identifier: MIT
// The sizes experiments take from the machine, their size and stride keys, and the checks of those
// keys.
#ifndef CHASE_POINT_SIZES_H
#define CHASE_POINT_SIZES_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "lib/fmt.h"
#include "machine/machine.h"

/* Sizes and counts that bound every experiment's plan. */
#define EXP_POINTS_MAX 256 /* points of one sweep */
#define EXP_FALLBACK_LLC_BYTES (32ULL << 20)
#define EXP_FALLBACK_L2_BYTES (1ULL << 20)
#define EXP_FALLBACK_LINE_BYTES 64
#define EXP_SIZE_KEY_MAX (1ULL << 40)
#define EXP_STRIDE_KEY_MAX (1ULL << 30)

/*
 * The keys of random's size sweep (min, max, points_per_octave, stride), for an experiment
 * that runs that sweep (random, cores): P(field) gives the offset of min_bytes, max_bytes,
 * points_per_octave and stride_bytes in its parameter struct.
 */
// clang-format off
#define EXP_RANDOM_SWEEP_KEYS(P)                                                                 \
    {"min", KEY_SIZE, P(min_bytes), 8, EXP_SIZE_KEY_MAX, NULL, "bytes", "smallest chain size"},  \
    {"max", KEY_SIZE, P(max_bytes), 8, EXP_SIZE_KEY_MAX, NULL, "bytes",                          \
     "largest chain size (default: 4x the last-level cache, bounded by memory)"},                \
    {"points_per_octave", KEY_U64, P(points_per_octave), 1, 32, NULL, "",                        \
     "sizes per doubling of the chain size"},                                                    \
    {"stride", KEY_SIZE, P(stride_bytes), 8, EXP_STRIDE_KEY_MAX, NULL, "bytes",                  \
     "distance between slots (default: the cache line)"}
// clang-format on

/* The keys of a stride sweep (min_stride, max_stride, step), for an experiment that runs one
   (linear, fused): P(field) gives the offsets of min_stride_bytes, max_stride_bytes and
   step_bytes; exp_check_stride_sweep checks them. */
// clang-format off
#define EXP_STRIDE_SWEEP_KEYS(P)                                                                 \
    {"min_stride", KEY_SIZE, P(min_stride_bytes), 8, EXP_STRIDE_KEY_MAX, NULL, "bytes",          \
     "smallest stride"},                                                                         \
    {"max_stride", KEY_SIZE, P(max_stride_bytes), 8, EXP_STRIDE_KEY_MAX, NULL, "bytes",          \
     "largest stride"},                                                                          \
    {"step", KEY_SIZE, P(step_bytes), 8, EXP_STRIDE_KEY_MAX, NULL, "bytes",                      \
     "stride increment between points"}
// clang-format on
/* The default size sweeps: from 4 KiB to 4x the LLC (at least 64M), 4 M when quick. */
#define EXP_SWEEP_MIN_BYTES 4096
#define EXP_SWEEP_FULL_MIN_MAX_BYTES (64ULL << 20)
#define EXP_SWEEP_QUICK_MAX_BYTES (4ULL << 20)
#define EXP_SWEEP_QUICK_PER_OCTAVE 2
#define EXP_SWEEP_FULL_PER_OCTAVE 4

/* The last-level cache, the level below it, and the line size (CPUID, or fallbacks). */
uint64_t exp_llc_bytes(const struct machine *m);
uint64_t exp_l2_bytes(const struct machine *m);
uint64_t exp_line_bytes(const struct machine *m);
/* The smallest power of two >= v, and the largest <= v (v >= 1). */
uint64_t exp_pow2_at_least(uint64_t v);
uint64_t exp_pow2_at_most(uint64_t v);
/* v lowered to the largest power of two the buffer limit allows (no limit when 0). */
uint64_t exp_fit_memory(const struct machine *m, uint64_t v);
/* The largest 2^k or 1.5 x 2^k at most v (0 when v is 0): the sizes the configuration offers
   when a plan does not fit in memory (config_resolve.c), so an auto size lowered is one too. */
uint64_t exp_size_at_most(uint64_t v);

/* The default full-profile buffer: 4x the LLC as a power of two, at least
   EXP_SWEEP_FULL_MIN_MAX_BYTES, bounded by the buffer limit. */
uint64_t exp_full_buffer_bytes(const struct machine *m);
/* The largest size of the default size sweeps, bounded by the buffer limit. */
uint64_t exp_sweep_max_bytes(const struct machine *m, enum profile profile);

/* The checks size sweeps share, each reported at its key (messages as users see them):
 * a stride that is not a multiple of 8, min above max, a sweep of more than EXP_POINTS_MAX
 * sizes (per `what`: "points", or "sizes per stride"), sizes aligned to align. */
void exp_check_stride(struct cfg_check *c, const char *key, uint64_t stride);
void exp_check_min_max(struct cfg_check *c, const char *key, uint64_t min, uint64_t max,
                       const char *min_name, const char *max_name);
/* The checks stride sweeps (min_stride to max_stride by step) share: each a multiple of 8,
   min_stride not above max_stride. */
void exp_check_stride_sweep(struct cfg_check *c, uint64_t min_stride, uint64_t max_stride,
                            uint64_t step);
void exp_check_sweep_points(struct cfg_check *c, uint64_t min, uint64_t max,
                            uint64_t points_per_octave, uint64_t align, const char *what);

/* How many strides a sweep from min to max in steps of step has (0 when none). */
unsigned exp_stride_count(uint64_t min, uint64_t max, uint64_t step);

/* A size as people write it, in a small static-free buffer the caller provides. */
static inline const char *exp_size(char *buf, size_t cap, uint64_t bytes)
{
    fmt_size(buf, cap, (double)bytes);
    return buf;
}

#endif
