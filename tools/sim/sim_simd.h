// SPDX-License-Identifier: MIT
// The vector steps of chase-sim's cache rows (SSE2, which every x86-64 has; plain C elsewhere).
#ifndef SIM_SIMD_H
#define SIM_SIMD_H

#include <stdint.h>
#ifdef __AVX2__
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

/*
 * With GCC on x86-64, the model's hot loop is built twice: for any x86-64 (SSE2) and for
 * x86-64-v3 (AVX2, BMI, POPCNT: sim_hier_v3.c); sim_hier_init picks what the CPU runs.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SIM_HAVE_V3 1
#endif

/*
 * A row holds its tags in groups of 4 (16 bytes) and its per-way bytes in groups of 16, so
 * every step below reads and writes whole 16-byte groups. The padding bytes of a byte group
 * hold SIM_BYTE_PAD: above every rank and RRPV, so no compare here ever selects them.
 */
#define SIM_BYTE_PAD 0x7f

/*
 * The hot steps are always inlined, so that a call with a constant way count (see
 * sim_cache_match) unrolls into straight-line compares.
 */
#define SIM_INLINE static inline __attribute__((always_inline))

/* Bit w set where t[w] == key, for w < ways rounded up to 4 (padding may match). */
SIM_INLINE uint64_t sim_simd_match32(const uint32_t *t, unsigned ways, uint32_t key)
{
    uint64_t match = 0;
#ifdef __SSE2__
    __m128i k = _mm_set1_epi32((int)key);
    for (unsigned w = 0; w < ways; w += 4) {
        __m128i eq = _mm_cmpeq_epi32(_mm_load_si128((const __m128i *)(const void *)(t + w)), k);
        match |= (uint64_t)_mm_movemask_ps(_mm_castsi128_ps(eq)) << w;
    }
#else
    for (unsigned w = 0; w < ways; w++)
        match |= (uint64_t)(t[w] == key) << w;
#endif
    return match;
}

/* Bit w set where t[w] == key, for w < 16. */
SIM_INLINE uint64_t sim_simd_match16(const uint32_t *t, uint32_t key)
{
#ifdef __AVX2__
    const __m256i *p = (const __m256i *)(const void *)t;
    __m256i k = _mm256_set1_epi32((int)key);
    unsigned lo = (unsigned)_mm256_movemask_ps(
        _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_loadu_si256(p), k)));
    unsigned hi = (unsigned)_mm256_movemask_ps(
        _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_loadu_si256(p + 1), k)));
    return lo | hi << 8;
#elif defined(__SSE2__)
    const __m128i *p = (const __m128i *)(const void *)t;
    __m128i k = _mm_set1_epi32((int)key);
    __m128i lo = _mm_packs_epi32(_mm_cmpeq_epi32(_mm_load_si128(p), k),
                                 _mm_cmpeq_epi32(_mm_load_si128(p + 1), k));
    __m128i hi = _mm_packs_epi32(_mm_cmpeq_epi32(_mm_load_si128(p + 2), k),
                                 _mm_cmpeq_epi32(_mm_load_si128(p + 3), k));
    return (uint16_t)_mm_movemask_epi8(_mm_packs_epi16(lo, hi));
#else
    return sim_simd_match32(t, 16, key);
#endif
}

/* Bit w set where b[w] == v, for w < ways (v below SIM_BYTE_PAD). */
SIM_INLINE uint64_t sim_simd_match8(const uint8_t *b, unsigned ways, uint8_t v)
{
    uint64_t match = 0;
#ifdef __SSE2__
    __m128i k = _mm_set1_epi8((char)v);
    for (unsigned w = 0; w < ways; w += 16) {
        __m128i eq = _mm_cmpeq_epi8(_mm_load_si128((const __m128i *)(const void *)(b + w)), k);
        match |= (uint64_t)(uint16_t)_mm_movemask_epi8(eq) << w;
    }
#else
    for (unsigned w = 0; w < ways; w++)
        match |= (uint64_t)(b[w] == v) << w;
#endif
    return match;
}

/* b[w] += 1 where b[w] < below, for every w < ways (below at most SIM_BYTE_PAD). */
SIM_INLINE void sim_simd_inc_below(uint8_t *b, unsigned ways, uint8_t below)
{
#ifdef __SSE2__
    __m128i k = _mm_set1_epi8((char)below);
    for (unsigned w = 0; w < ways; w += 16) {
        __m128i *p = (__m128i *)(void *)(b + w);
        __m128i v = _mm_load_si128(p);
        _mm_store_si128(p, _mm_sub_epi8(v, _mm_cmplt_epi8(v, k))); /* true is -1 */
    }
#else
    for (unsigned w = 0; w < ways; w++)
        b[w] = (uint8_t)(b[w] + (b[w] < below));
#endif
}

/* b[w] -= 1 where above < b[w] < SIM_BYTE_PAD, for every w < ways. */
SIM_INLINE void sim_simd_dec_above(uint8_t *b, unsigned ways, uint8_t above)
{
#ifdef __SSE2__
    __m128i k = _mm_set1_epi8((char)above), pad = _mm_set1_epi8(SIM_BYTE_PAD);
    for (unsigned w = 0; w < ways; w += 16) {
        __m128i *p = (__m128i *)(void *)(b + w);
        __m128i v = _mm_load_si128(p);
        __m128i sel = _mm_and_si128(_mm_cmpgt_epi8(v, k), _mm_cmplt_epi8(v, pad));
        _mm_store_si128(p, _mm_add_epi8(v, sel));
    }
#else
    for (unsigned w = 0; w < ways; w++)
        b[w] = (uint8_t)(b[w] - (b[w] > above && b[w] < SIM_BYTE_PAD));
#endif
}

/* b[w] += add for every w < ways (not the padding; add small enough to stay below it). */
SIM_INLINE void sim_simd_add(uint8_t *b, unsigned ways, uint8_t add)
{
#ifdef __SSE2__
    __m128i k = _mm_set1_epi8((char)add), pad = _mm_set1_epi8(SIM_BYTE_PAD);
    for (unsigned w = 0; w < ways; w += 16) {
        __m128i *p = (__m128i *)(void *)(b + w);
        __m128i v = _mm_load_si128(p);
        _mm_store_si128(p, _mm_add_epi8(v, _mm_and_si128(k, _mm_cmplt_epi8(v, pad))));
    }
#else
    for (unsigned w = 0; w < ways; w++)
        b[w] = (uint8_t)(b[w] + (b[w] < SIM_BYTE_PAD ? add : 0));
#endif
}

/*
 * LRU's refill of a full set of up to 16 ways, in one step: the lane at oldest (the victim)
 * becomes 0 (the newest) and every lane below it ages by one (the padding, above every
 * rank, stays). Returns the victim's lane.
 */
SIM_INLINE unsigned sim_simd_rank_refill16(uint8_t *b, uint8_t oldest)
{
#ifdef __SSE2__
    __m128i *p = (__m128i *)(void *)b;
    __m128i v = _mm_load_si128(p), k = _mm_set1_epi8((char)oldest);
    __m128i at = _mm_cmpeq_epi8(v, k);
    _mm_store_si128(p, _mm_andnot_si128(at, _mm_sub_epi8(v, _mm_cmplt_epi8(v, k))));
    return (unsigned)__builtin_ctz((unsigned)_mm_movemask_epi8(at) | 1u << 16);
#else
    unsigned victim = 16;
    for (unsigned w = 0; w < 16; w++) {
        if (b[w] == oldest && victim == 16)
            victim = w;
        b[w] = (uint8_t)(b[w] == oldest ? 0 : b[w] + (b[w] < oldest));
    }
    return victim;
#endif
}

/*
 * RRIP's victim over 16 bytes without a branch: among the lanes set in lanes (0xff or 0),
 * the ones holding the highest value, as bits; every such lane is then raised by
 * rrpv_max minus that value (the aging that makes the highest value rrpv_max).
 */
SIM_INLINE uint64_t sim_simd_age16(uint8_t *b, const uint8_t *lanes, uint8_t rrpv_max)
{
#ifdef __SSE2__
    __m128i *p = (__m128i *)(void *)b;
    __m128i v = _mm_load_si128(p), mask = _mm_load_si128((const __m128i *)(const void *)lanes);
    __m128i m = _mm_and_si128(v, mask);
    m = _mm_max_epu8(m, _mm_srli_si128(m, 8));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 4));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 2));
    m = _mm_max_epu8(m, _mm_srli_si128(m, 1));
    uint8_t top = (uint8_t)_mm_cvtsi128_si32(m);
    __m128i at_top = _mm_and_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)top)), mask);
    __m128i age = _mm_and_si128(_mm_set1_epi8((char)(rrpv_max - top)), mask);
    _mm_store_si128(p, _mm_add_epi8(v, age));
    return (uint16_t)_mm_movemask_epi8(at_top);
#else
    uint8_t top = 0;
    uint64_t at_top = 0;
    for (unsigned w = 0; w < 16; w++)
        if (lanes[w] && b[w] > top)
            top = b[w];
    for (unsigned w = 0; w < 16; w++) {
        if (!lanes[w])
            continue;
        at_top |= (uint64_t)(b[w] == top) << w;
        b[w] = (uint8_t)(b[w] + rrpv_max - top);
    }
    return at_top;
#endif
}

#endif
