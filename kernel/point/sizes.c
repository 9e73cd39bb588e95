// SPDX-License-Identifier: MIT
// The sizes experiments take from the machine (CPUID, or fallbacks), and the checks of their keys.
#include "point/sizes.h"

#include "chase/sweep.h"
#include "machine/cpuinfo.h"

uint64_t exp_llc_bytes(const struct machine *m)
{
    const struct cache_info *c = cpuinfo_llc(&m->cpu);
    return c && c->size_bytes ? c->size_bytes : EXP_FALLBACK_LLC_BYTES;
}

uint64_t exp_l2_bytes(const struct machine *m)
{
    const struct cache_info *c = cpuinfo_data_cache(&m->cpu, 2);
    return c && c->size_bytes ? c->size_bytes : EXP_FALLBACK_L2_BYTES;
}

uint64_t exp_line_bytes(const struct machine *m)
{
    const struct cache_info *c = cpuinfo_data_cache(&m->cpu, 1);
    return c && c->line_bytes >= 8 && c->line_bytes % 8 == 0 ? c->line_bytes
                                                             : EXP_FALLBACK_LINE_BYTES;
}

uint64_t exp_pow2_at_least(uint64_t v)
{
    uint64_t p = 1;
    while (p < v && p < (1ULL << 62))
        p <<= 1;
    return p;
}

uint64_t exp_pow2_at_most(uint64_t v)
{
    uint64_t p = 1;
    while (p * 2 <= v && p < (1ULL << 62))
        p <<= 1;
    return p;
}

uint64_t exp_fit_memory(const struct machine *m, uint64_t v)
{
    uint64_t limit = m->buffer_limit_bytes ? exp_pow2_at_most(m->buffer_limit_bytes) : 0;
    return limit && v > limit ? limit : v;
}

uint64_t exp_full_buffer_bytes(const struct machine *m)
{
    uint64_t bytes = exp_pow2_at_least(4 * exp_llc_bytes(m));
    return exp_fit_memory(m, bytes < EXP_SWEEP_FULL_MIN_MAX_BYTES ? EXP_SWEEP_FULL_MIN_MAX_BYTES
                                                                  : bytes);
}

uint64_t exp_size_at_most(uint64_t v)
{
    uint64_t p = v ? exp_pow2_at_most(v) : 0;
    return p + p / 2 <= v ? p + p / 2 : p;
}

uint64_t exp_sweep_max_bytes(const struct machine *m, enum profile profile)
{
    return profile == PROFILE_QUICK ? exp_fit_memory(m, EXP_SWEEP_QUICK_MAX_BYTES)
                                    : exp_full_buffer_bytes(m);
}

void exp_check_stride(struct cfg_check *c, const char *key, uint64_t stride)
{
    if (stride % 8)
        cfg_check_fail(c, key, "%llu is not a multiple of 8 (a slot holds a pointer)",
                       (unsigned long long)stride);
}

void exp_check_min_max(struct cfg_check *c, const char *key, uint64_t min, uint64_t max,
                       const char *min_name, const char *max_name)
{
    if (min > max)
        cfg_check_fail(c, key, "%s (%llu) is larger than %s (%llu)", min_name,
                       (unsigned long long)min, max_name, (unsigned long long)max);
}

void exp_check_stride_sweep(struct cfg_check *c, uint64_t min_stride, uint64_t max_stride,
                            uint64_t step)
{
    exp_check_stride(c, "min_stride", min_stride);
    if (step % 8)
        cfg_check_fail(c, "step", "%llu is not a multiple of 8 (strides stay multiples of 8)",
                       (unsigned long long)step);
    exp_check_min_max(c, "min_stride", min_stride, max_stride, "min_stride", "max_stride");
}

void exp_check_sweep_points(struct cfg_check *c, uint64_t min, uint64_t max,
                            uint64_t points_per_octave, uint64_t align, const char *what)
{
    uint64_t sizes[1];
    unsigned n = sweep_sizes(min, max, (unsigned)points_per_octave, align, sizes, 0);
    if (n > EXP_POINTS_MAX)
        cfg_check_fail(c, "points_per_octave", "the sweep would have %u %s; at most %d", n, what,
                       EXP_POINTS_MAX);
}

unsigned exp_stride_count(uint64_t min, uint64_t max, uint64_t step)
{
    return step && min <= max ? (unsigned)((max - min) / step + 1) : 0;
}
