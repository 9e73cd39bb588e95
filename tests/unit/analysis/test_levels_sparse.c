// SPDX-License-Identifier: MIT
// Level detection on sparse curves (one point per octave) whose levels differ in sharpness.
//
// A sharp LRU L1 in front of soft caches (random replacement, sharpness 1) is what chase-sim's
// hierarchies and real machines give; one sharpness for every level fits one of them badly and
// the misfit reads as an extra level or a size an octave off. The curves here are the latency
// model with a sharpness per level, 2% multiplicative noise, over several seeds.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/levels.h"
#include "test_noise.h"

#define MAX_POINTS 64
#define SEEDS 6
#define MAX_CACHES 4

struct mixed_model {
    size_t k;                      /* caches */
    double lat_ns[MAX_CACHES + 1]; /* memory last */
    double size_bytes[MAX_CACHES];
    double sharpness[MAX_CACHES];
};

/* Expected ns per load of a random chase over n bytes: h_i = min(1, S_i / n)^p_i. */
static double mixed_latency(const struct mixed_model *m, double n)
{
    double e = 0, prev = 0;
    for (size_t i = 0; i < m->k; i++) {
        double h = n <= m->size_bytes[i] ? 1 : pow(m->size_bytes[i] / n, m->sharpness[i]);
        e += m->lat_ns[i] * (h - prev);
        prev = h;
    }
    return e + m->lat_ns[m->k] * (1 - prev);
}

/* Every level found once, within 1.5x of its size, and no other, on every seed. A relative curve
 * (relative: time above L1 printed to 0.1 ns, as tinymembench does) is read with an L1 of 1 ns. */
static void check_sparse(const struct mixed_model *m, double noise, bool relative)
{
    double size[MAX_POINTS], ns[MAX_POINTS];
    struct detect_opts o = {.ns_offset = relative ? 1.0 : 0};
    struct detection d;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        rng_state = seed * 104729 + 7;
        size_t n = 0;
        for (int x = 12; x <= 29; x++, n++) {
            size[n] = exp2(x);
            ns[n] = mixed_latency(m, size[n]) * exp(noise * gauss());
            if (relative)
                ns[n] = fmax(round((ns[n] - m->lat_ns[0]) * 10) / 10, 0);
        }
        levels_detect(size, ns, NULL, n, &o, &d);
        assert_true(d.sparse); /* read by the model: sizes are gap middles */
        if (getenv("DEBUG_LEVELS"))
            for (size_t i = 0; i < d.nlevels; i++)
                print_message("seed %llu level %zu %.0f %.2f ns\n", (unsigned long long)seed, i,
                              d.level[i].size_bytes, d.level[i].latency_ns);
        if (d.nlevels != m->k)
            print_error("seed %llu: %zu levels, want %zu\n", (unsigned long long)seed, d.nlevels,
                        m->k);
        assert_int_equal(d.nlevels, m->k);
        for (size_t i = 0; i < m->k; i++) {
            double r = d.level[i].size_bytes / m->size_bytes[i];
            if (!(r >= 1 / 1.5 && r <= 1.5))
                print_error("seed %llu: level %zu at %.0f, want %.0f\n", (unsigned long long)seed,
                            i + 1, d.level[i].size_bytes, m->size_bytes[i]);
            assert_true(r >= 1 / 1.5 && r <= 1.5);
        }
    }
}

/* A sharp L1 and L2 in front of a random-replacement L3. */
static void test_sharp_then_soft(void **state)
{
    (void)state;
    const struct mixed_model m = {3, {1.2, 4.5, 20, 95}, {32 << 10, 512 << 10, 8 << 20}, {8, 6, 1}};
    check_sparse(&m, 0.02, false);
}

/* A sharp L1 and two soft levels (random, then an RRIP-like 1.5). */
static void test_sharp_then_two_soft(void **state)
{
    (void)state;
    const struct mixed_model m = {
        3, {1.0, 5.0, 22, 110}, {48 << 10, 1 << 20, 32 << 20}, {8, 1, 1.5}};
    check_sparse(&m, 0.02, false);
}

/* Soft first, sharp last: a random-replacement L2 and an LRU L3. */
static void test_soft_then_sharp(void **state)
{
    (void)state;
    const struct mixed_model m = {
        3, {1.5, 6.0, 30, 120}, {32 << 10, 256 << 10, 16 << 20}, {6, 1, 6}};
    check_sparse(&m, 0.02, false);
}

/* Time above L1 printed to 0.1 ns: the L1 plateau reads 0.0 or 0.1 (10% of the nominal 1 ns L1)
 * by rounding alone, which is no level. */
static void test_printed_resolution(void **state)
{
    (void)state;
    const struct mixed_model m = {3, {1.2, 4.5, 20, 95}, {48 << 10, 1 << 20, 16 << 20}, {8, 4, 2}};
    check_sparse(&m, 0.03, true);
}

/* The note of d that holds text, NULL when none does. */
static const char *note_with(const struct detection *d, const char *text)
{
    for (size_t i = 0; i < d->nnotes; i++)
        if (strstr(d->note[i], text))
            return d->note[i];
    return NULL;
}

/* The note that names the points left out as wild, if any. */
static const char *wild_note(const struct detection *d)
{
    return note_with(d, "left out of the fit as wild");
}

/* Points left out of the fit are named, with the latency as the input has it: a 2.5x spike on
 * L3's plateau at 2M (a sharp L1 and L2, a soft L3; 2% noise, six seeds; time above L1 printed to
 * 0.1 ns, so the note's latency must be the printed one, not the 1 ns L1 added back). Without the
 * spike no point of these curves is left out. */
static void test_wild_points_named(void **state)
{
    (void)state;
    const struct mixed_model m = {3, {1.2, 4.5, 20, 95}, {32 << 10, 512 << 10, 8 << 20}, {8, 6, 1}};
    double size[MAX_POINTS], ns[MAX_POINTS];
    struct detect_opts o = {.ns_offset = 1.0};
    struct detection d;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        for (int spiked = 0; spiked <= 1; spiked++) {
            rng_state = seed * 7717 + 3;
            size_t n = 0;
            for (int x = 12; x <= 29; x++, n++) {
                size[n] = exp2(x);
                ns[n] = mixed_latency(&m, size[n]) * exp(0.02 * gauss()) *
                        (spiked && x == 21 ? 2.5 : 1);
                ns[n] = fmax(round((ns[n] - m.lat_ns[0]) * 10) / 10, 0);
            }
            levels_detect(size, ns, NULL, n, &o, &d);
            const char *note = wild_note(&d);
            if (!spiked) {
                assert_null(note);
                continue;
            }
            char want[32];
            snprintf(want, sizeof(want), "2M (%.1f ns)", ns[9]);
            assert_non_null(note);
            if (!strstr(note, want))
                print_error("seed %llu: \"%s\" lacks \"%s\"\n", (unsigned long long)seed, note,
                            want);
            assert_non_null(strstr(note, want));
            assert_int_equal(d.nlevels, m.k);
        }
    }
}

/* The note that says a level has no flat point before its step, if any. */
static const char *unseen_note(const struct detection *d)
{
    return note_with(d, "without a flat point between them");
}

/* A step spread over two octaves (x2.2, then x2.7: a 4K-page curve whose 1M L2 starts missing an
 * octave early) reads as two steps with no flat point between them, which one cache's latency
 * model fits: one cache level (issue 51), not taken for page walks. With a flat point between
 * the two rises both are caches. */
static void test_adjacent_steps_one_cache(void **state)
{
    (void)state;
    /* 4K .. 64M: L1 to 32K, a plateau to 512K, then the two steep octaves, memory from 4M. */
    static const double spread[] = {1.2, 1.2, 1.2, 1.2, 4.6, 4.8, 5.0, 5.2, 5.5,
                                    12,  32,  41,  45,  48,  50,  51,  52};
    static const double flat[] = {1.2, 1.2, 1.2, 1.2, 4.6, 4.8, 5.0, 5.2, 5.5,
                                  12,  13,  32,  41,  45,  48,  50,  51};
    double size[MAX_POINTS];
    struct detect_opts o = {0};
    struct detection d;
    size_t n = sizeof(spread) / sizeof(spread[0]);
    for (size_t i = 0; i < n; i++)
        size[i] = exp2(12 + (double)i);
    /* The two steep octaves (x2.2, x2.7, then x1.3) are one cache's step as the grid cuts it
     * (a random chase's misses 1 - C/N with C near 0.9M): one cache level between 512K and 2M,
     * not a cache and an uncertain one. */
    levels_detect(size, spread, NULL, n, &o, &d);
    assert_int_equal(d.nlevels, 2);
    assert_int_equal(d.level[0].kind, LEVEL_CACHE);
    assert_int_equal(d.level[1].kind, LEVEL_CACHE);
    assert_true(d.level[1].size_bytes > 512 * 1024 && d.level[1].size_bytes < 2 * 1024 * 1024);
    assert_null(unseen_note(&d));
    o.walk_bytes = 1 << 20;
    levels_detect(size, spread, NULL, n, &o, &d);
    assert_int_equal(d.nlevels, 2);
    assert_int_equal(d.level[1].kind, LEVEL_CACHE);
    o.walk_bytes = 0;
    levels_detect(size, flat, NULL, n, &o, &d);
    assert_int_equal(d.nlevels, 3);
    for (size_t i = 0; i < d.nlevels; i++)
        assert_int_equal(d.level[i].kind, LEVEL_CACHE);
    assert_null(unseen_note(&d));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sharp_then_soft),   cmocka_unit_test(test_sharp_then_two_soft),
        cmocka_unit_test(test_soft_then_sharp),   cmocka_unit_test(test_printed_resolution),
        cmocka_unit_test(test_wild_points_named), cmocka_unit_test(test_adjacent_steps_one_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
