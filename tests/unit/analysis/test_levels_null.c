// SPDX-License-Identifier: MIT
// The sparse detector's choice of level count, and its levels' confidence, on seeded families of
// curves, not on one curve.
//
// Each test draws its hierarchies from a seeded family (sizes, latencies and sharpness at
// random within stated bounds, multiplicative noise in ln latency, one point per octave as
// multichase writes) and asks of every member what the simulated likelihood-ratio test
// (levels_null.c) and the model search must give: the bar (at most one invented level
// per ten curves, 95% found within 1.5x), and a level two octaves from the next still kept.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "analysis/levels.h"
#include "test_noise.h"

#define MAX_POINTS 64
#define MAX_CACHES 4
/* A wild dip: the corpus' (gen.sh) and a busy host's, a point read at 0.35x its latency. */
#define WILD_DIP 0.35
/* A wild spike: the corpus' 2.5x. */
#define WILD_SPIKE 2.5

struct family_curve {
    size_t k;
    double lat_ns[MAX_CACHES + 1]; /* memory last */
    double size_bytes[MAX_CACHES];
    double sharpness;
};

/* Expected ns per load of a random chase over n bytes (h_i = min(1, S_i / n)^p). */
static double latency(const struct family_curve *c, double n)
{
    double e = 0, prev = 0;
    for (size_t i = 0; i < c->k; i++) {
        double h = n <= c->size_bytes[i] ? 1 : pow(c->size_bytes[i] / n, c->sharpness);
        e += c->lat_ns[i] * (h - prev);
        prev = h;
    }
    return e + c->lat_ns[c->k] * (1 - prev);
}

static size_t invented_wild(const struct family_curve *c, double noise, const size_t *at,
                            const double *times, size_t nwild, size_t *found);

/* A member of the family: k caches, the first at 16K..64K, each next gap_min..gap_max octaves
 * further, each 3x..6x slower; memory 2.5x..4x the last cache; sharpness 1.5..6. */
static void draw_curve(struct family_curve *c, size_t k, double gap_min, double gap_max)
{
    double x = 14 + 2 * uniform(), lat = 0.8 + uniform();
    c->k = k;
    for (size_t i = 0; i < k; i++) {
        c->size_bytes[i] = exp2(x);
        c->lat_ns[i] = lat;
        x += gap_min + (gap_max - gap_min) * uniform();
        lat *= 3 + 3 * uniform();
    }
    c->lat_ns[k] = c->lat_ns[k - 1] * (2.5 + 1.5 * uniform());
    c->sharpness = 1.5 + 4.5 * uniform();
}

/* Detect the levels of c sampled once per octave from 4K to 512M with noise (sd of ln); returns
 * the count of detected levels with no true level within 1.5x, and counts the true levels
 * found in *found. */
static size_t invented(const struct family_curve *c, double noise, size_t *found)
{
    return invented_wild(c, noise, NULL, NULL, 0, found);
}

/* The first point (once per octave from 4K) on cache i's step that is at least twice as slow as
 * the cache: the step's first clearly risen point. */
static size_t first_risen_point(const struct family_curve *c, size_t i)
{
    size_t n = 0;
    for (int x = 12; x <= 29; x++, n++)
        if (exp2(x) > c->size_bytes[i] && latency(c, exp2(x)) > 2 * c->lat_ns[i])
            return n;
    return SIZE_MAX;
}

/* Detect the levels of c sampled once per octave from 4K to 512M with noise (sd of ln), points
 * at[0..nwild) read at times[i] of their latency, into *d. */
static void detect_member(const struct family_curve *c, double noise, const size_t *at,
                          const double *times, size_t nwild, struct detection *d)
{
    double size[MAX_POINTS], ns[MAX_POINTS];
    struct detect_opts o = {.llc_bytes = 0};
    size_t n = 0;
    for (int x = 12; x <= 29; x++, n++) {
        size[n] = exp2(x);
        double mean = latency(c, size[n]);
        for (size_t i = 0; i < nwild; i++)
            if (n == at[i])
                mean *= times[i];
        ns[n] = mean * exp(noise * gauss());
    }
    levels_detect(size, ns, NULL, n, &o, d);
    if (getenv("DEBUG_LEVELS"))
        for (size_t j = 0; j < n; j++)
            print_message("%s%.0fK %.2f%s", j ? "" : "curve: ", size[j] / 1024, ns[j],
                          j + 1 < n ? ", " : "\n");
}

/* As invented(), with points at[0..nwild) wild: read at times[i] of their latency (with noise). */
static size_t invented_wild(const struct family_curve *c, double noise, const size_t *at,
                            const double *times, size_t nwild, size_t *found)
{
    struct detection d;
    size_t bad = 0;
    detect_member(c, noise, at, times, nwild, &d);
    for (size_t i = 0; i < d.nlevels; i++) {
        bool near = false;
        for (size_t t = 0; t < c->k; t++) {
            double r = d.level[i].size_bytes / c->size_bytes[t];
            near |= r >= 1 / 1.5 && r <= 1.5;
        }
        bad += !near;
        if (!near || getenv("DEBUG_LEVELS"))
            print_message("level %zu at %.0f (%.2f ns)%s\n", i + 1, d.level[i].size_bytes,
                          d.level[i].latency_ns, near ? "" : ": invented");
    }
    for (size_t t = 0; t < c->k; t++)
        for (size_t i = 0; i < d.nlevels; i++) {
            double r = d.level[i].size_bytes / c->size_bytes[t];
            if (r >= 1 / 1.5 && r <= 1.5) {
                (*found)++;
                break;
            }
        }
    return bad;
}

/* Over `members` seeded 3-level curves (3..4 octaves apart; with `close`, the last cache only
 * two octaves past the one before it and a step at least this sharp): levels invented, and in
 * *found and *truths the true levels found and drawn. */
static size_t family_invented(uint64_t mul, uint64_t add, unsigned members, double noise,
                              bool close, size_t *found, size_t *truths)
{
    size_t bad = 0;
    *found = *truths = 0;
    for (uint64_t seed = 1; seed <= members; seed++) {
        rng_state = seed * mul + add;
        struct family_curve c;
        draw_curve(&c, 3, 3, 4);
        if (close) {
            c.size_bytes[2] = c.size_bytes[1] * 4;
            c.sharpness = fmax(c.sharpness, 3);
        }
        *truths += c.k;
        bad += invented(&c, noise, found);
    }
    return bad;
}

/* Over six seeded 3-level curves (3..4 octaves apart, 1.5% noise), each twice: a dip on L2's
 * step and then on L3's, on the step's first clearly risen point (`after`: on the point after
 * it), to 0.35x (of_cache 0) or to of_cache times the cache's own latency. At most
 * max_invented levels may be invented and max_missed true levels missed. */
static void check_dips_on_steps(uint64_t mul, uint64_t add, bool after, double of_cache,
                                size_t max_invented, size_t max_missed)
{
    size_t bad = 0, found = 0, truths = 0;
    for (uint64_t seed = 1; seed <= 6; seed++)
        for (size_t level = 1; level <= 2; level++) {
            rng_state = seed * mul + add;
            struct family_curve c;
            draw_curve(&c, 3, 3, 4);
            size_t risen = first_risen_point(&c, level);
            size_t dip = risen == SIZE_MAX || !after ? risen : risen + 1;
            double times = dip != SIZE_MAX && of_cache > 0
                               ? of_cache * c.lat_ns[level] / latency(&c, exp2(12 + (double)dip))
                               : WILD_DIP;
            truths += c.k;
            bad += invented_wild(&c, 0.015, &dip, &times, dip != SIZE_MAX, &found);
        }
    print_message("%zu invented, %zu of %zu found\n", bad, found, truths);
    assert_true(bad <= max_invented);
    assert_true(found + max_missed >= truths);
}

/* Three caches 3..4 octaves apart with 3% noise (the corpus' noisier curves), ten members: the
 * issue's bar, at most one invented level per ten curves and 95% of the levels found (here: at
 * most one of the 30 missed). Not zero invented: with 3% noise a soft step's first point can sit
 * 3 sigma high, which one member of this family (seed 1) reads as an extra level. */
static void test_no_invented_level(void **state)
{
    (void)state;
    size_t found, truths;
    size_t bad = family_invented(7919, 13, 10, 0.03, false, &found, &truths);
    print_message("%zu invented, %zu of %zu found\n", bad, found, truths);
    assert_true(bad <= 1);
    assert_true(found + 1 >= truths);
}

/* A last cache only two octaves past the one before it (one point of plateau between the
 * steps), 1.5% noise: the test must keep it, not merge it into its neighbour. */
static void test_close_level_kept(void **state)
{
    (void)state;
    size_t found, truths;
    size_t bad = family_invented(104723, 5, 6, 0.015, true, &found, &truths);
    assert_int_equal(bad, 0);
    assert_int_equal(found, truths);
}

/* Sharp steps (sharpness 3.5..5.5, an LRU cache's) at low noise (0.5%), three caches 3..4 octaves
 * apart, each just under a point (0.05..0.3 octave), 20 members: that point has partly risen, and
 * it pins the step's size and sharpness together to a narrow curved valley. A search that moves
 * one of them at a time stops on the valley's side, and a spare level then mends the misfit
 * point (the corpus' multichase s9034 and s9355: one sharp step read as two levels). Held:
 * nothing invented, every level found. The detector that chose the level count from those fits
 * invented 2 here. */
static void test_sharp_steps_not_split(void **state)
{
    (void)state;
    size_t bad = 0, found = 0, truths = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        rng_state = seed * 7877 + 11;
        struct family_curve c;
        draw_curve(&c, 3, 3, 4);
        c.sharpness = 3.5 + 2 * uniform();
        for (size_t i = 0; i < c.k; i++)
            c.size_bytes[i] = exp2(ceil(log2(c.size_bytes[i])) - 0.05 - 0.25 * uniform());
        truths += c.k;
        bad += invented(&c, 0.005, &found);
    }
    print_message("%zu invented, %zu of %zu found\n", bad, found, truths);
    assert_int_equal(bad, 0);
    assert_int_equal(found, truths);
}

/* A wild dip right after a step's first risen point (1.5% noise, three caches 3..4 octaves
 * apart, the dip after L2's step and then after L3's: 12 curves): the step's point is then off
 * both of its neighbours too, and leaving both out took the step's support. Which of the two is
 * wild is the fit's to say. Held: 95% of the levels found (at most one of the 36 missed) and at
 * most two invented. Not fewer: at one point per octave a dip after a step's point and a spike
 * before a plateau's point can fit equally (seed 1: the dip kept, L2 a gap late), and one member
 * (seed 6) reads an extra level on L2's way up, away from the pair. The detector before this
 * rule invented 8 and found 27 of 36 here. */
static void test_wild_pair_beside_step(void **state)
{
    (void)state;
    check_dips_on_steps(7907, 3, true, 0, 2, 1);
}

/* A dip *between* its neighbours: a step's first risen point read at 0.8x the cache's own
 * latency (1.5% noise, three caches 3..4 octaves apart, on L2's step and then on L3's: 12 curves).
 * It is off only one neighbour, so the spike-and-dip rule cannot see it, and the plateau seemed to
 * go on a point further (the corpus' multichase s0037 and s0038). It lies under the two points
 * before it, which a random chase's rising latency cannot do (levels_wild.c's rule against a
 * fall). Held: at most three invented and at most two of the 36 levels missed (it gives 2 and
 * 1); the detector without that rule invents 9 here and finds 28 of 36. Not fewer: left out,
 * the dip no longer says where the step starts, and the fit may place it an octave late (seed
 * 2, L2 at 741K); one member (seed 4, the dip on L3's step) reads an extra level at the
 * half-risen point of L2's step, with or without the rule. */
static void test_dip_on_step(void **state)
{
    (void)state;
    check_dips_on_steps(6007, 1, false, 0.8, 3, 2);
}

/* A member's wild points: their indices and the factors they are read at. */
struct wild_points {
    size_t n;
    size_t at[2];
    double times[2];
};

/* Over 12 seeded members of k caches (gap_min..gap_max octaves apart, 1.5% noise), each shaped
 * and given its wild points by shape: at most max_invented levels invented and max_missed true
 * levels missed. */
static void check_wild_family(uint64_t mul, uint64_t add, size_t k, double gap_min, double gap_max,
                              void (*shape)(struct family_curve *c, struct wild_points *w),
                              size_t max_invented, size_t max_missed)
{
    size_t bad = 0, found = 0, truths = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        rng_state = seed * mul + add;
        struct family_curve c;
        struct wild_points w;
        draw_curve(&c, k, gap_min, gap_max);
        shape(&c, &w);
        truths += c.k;
        bad += invented_wild(&c, 0.015, w.at, w.times, w.n, &found);
    }
    print_message("%zu invented, %zu of %zu found\n", bad, found, truths);
    assert_true(bad <= max_invented);
    assert_true(found + max_missed >= truths);
}

/* L1 at 16K..30K, so its plateau is read at 4K, 8K and 16K, and a 2.5x spike at 8K. */
static void spike_on_short_first_plateau(struct family_curve *c, struct wild_points *w)
{
    c->size_bytes[0] = exp2(14 + 0.9 * uniform());
    *w = (struct wild_points){1, {1, 0}, {WILD_SPIKE, 1}};
}

/* A 2.5x spike (the corpus' wild spike) in the middle of a first plateau of three points: L1 at
 * 16K..30K, read at 4K, 8K and 16K (1.5% noise, three caches, 12 curves). The spike makes both its
 * neighbours look wild too: the first point lies off the line through the next two, the third
 * under both the spike and L2's first point. Leaving all three out lost L1 (the corpus' chase-sim
 * s0023, s0033, s0036). A run of three or more wild points now keeps flagged only the fewest of
 * them that leave the others consistent (levels_wild.c). Held: at most one invented and every
 * level found (it gives 0 and 36 of 36); the detector before that invented 10 and found 24 of
 * 36: L1 lost in every member, a level read at 45K in ten. */
static void test_spike_on_short_first_plateau(void **state)
{
    (void)state;
    check_wild_family(7411, 7, 3, 3, 4, spike_on_short_first_plateau, 1, 0);
}

/* Memory 1.6x..2.2x L2, and 2.5x spikes on the first L2 point at least 4x L1 and two further. */
static void spikes_alternating_on_plateau(struct family_curve *c, struct wild_points *w)
{
    c->lat_ns[2] = c->lat_ns[1] * (1.6 + 0.6 * uniform());
    size_t first = 0;
    while (exp2(12 + (double)first) < 4 * c->size_bytes[0])
        first++;
    *w = (struct wild_points){2, {first, first + 2}, {WILD_SPIKE, WILD_SPIKE}};
}

/* Two 2.5x spikes on every other point of a long L2 plateau (two caches 6..6.5 octaves apart,
 * memory 1.6x..2.2x L2, 1.5% noise, 12 curves; the spikes on the first plateau point at least 4x
 * L1 and the one two further, both well before L2's end): spike, plateau, spike, plateau reads as
 * four wild points side by side, and two of them leave the other two consistent either way, the
 * spikes or the plateau points. Kept, the spikes stand above what follows them, a fall a random
 * chase's curve cannot have, and they lie further off their neighbours: either tie-break
 * (levels_wild.c) flags the spikes here; in the corpus' chase-sim s9026 only the fall did. With
 * memory at 2.5x or more the spikes fall short of it and the tie is left to how far off they
 * lie. Held: at most one invented and one missed (it gives 0 and 24 of 24; flagging the whole
 * run, as before, 2 and 22). */
static void test_spikes_alternating_on_plateau(void **state)
{
    (void)state;
    check_wild_family(3037, 11, 2, 6, 6.5, spikes_alternating_on_plateau, 1, 1);
}

/* The confidence of the level detected within 1.5x of size_bytes; -1 when none is. */
static double confidence_near(const struct detection *d, double size_bytes)
{
    for (size_t i = 0; i < d->nlevels; i++) {
        double r = d->level[i].size_bytes / size_bytes;
        if (r >= 1 / 1.5 && r <= 1.5)
            return d->level[i].confidence;
    }
    return -1;
}

/* Each sparse level's confidence (levels_confidence.c) where the evidence is known: 12 seeded
 * members of three caches 3..4 octaves apart (1.5% noise), each read twice with the same noise,
 * clean and with a 2.5x spike on L2's first clearly risen point. Clean, every step of 3x..6x is
 * seen in one gap: each level at least 0.9 (it gives 0.98..1.00). Spiked, the point that says
 * where L2's step starts is left out as wild, and the gaps on either side of it fit nearly alike:
 * L2's confidence is never above its clean one and is at most 0.9 on average where L2 is still
 * found (it gives 0.67..1.00, 0.80 on average, in 10 members; 1.00 where an earlier point
 * already shows the rise; two members lose L2). */
static void test_confidence_follows_evidence(void **state)
{
    (void)state;
    double spiked = 0;
    size_t seen = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        rng_state = seed * 5519 + 17;
        struct family_curve c;
        draw_curve(&c, 3, 3, 4);
        uint64_t noise_from = rng_state;
        struct detection clean, wild;
        detect_member(&c, 0.015, NULL, NULL, 0, &clean);
        rng_state = noise_from;
        size_t at = first_risen_point(&c, 1);
        double times = WILD_SPIKE;
        detect_member(&c, 0.015, &at, &times, 1, &wild);
        for (size_t i = 0; i < c.k; i++)
            assert_true(confidence_near(&clean, c.size_bytes[i]) >= 0.9);
        double w = confidence_near(&wild, c.size_bytes[1]);
        print_message("seed %2u: clean %.2f %.2f %.2f, L2 spiked %.2f\n", (unsigned)seed,
                      confidence_near(&clean, c.size_bytes[0]),
                      confidence_near(&clean, c.size_bytes[1]),
                      confidence_near(&clean, c.size_bytes[2]), w);
        if (w < 0)
            continue;
        assert_true(w <= confidence_near(&clean, c.size_bytes[1]) + 1e-9);
        spiked += w;
        seen++;
    }
    assert_true(seen > 0 && spiked / (double)seen <= 0.9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_invented_level),
        cmocka_unit_test(test_close_level_kept),
        cmocka_unit_test(test_sharp_steps_not_split),
        cmocka_unit_test(test_wild_pair_beside_step),
        cmocka_unit_test(test_dip_on_step),
        cmocka_unit_test(test_spike_on_short_first_plateau),
        cmocka_unit_test(test_spikes_alternating_on_plateau),
        cmocka_unit_test(test_confidence_follows_evidence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
