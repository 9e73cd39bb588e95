// SPDX-License-Identifier: MIT
// Cache level detection from a latency-vs-size curve: plateaus, the steps between them, DRAM.
#ifndef CHASE_LEVELS_H
#define CHASE_LEVELS_H

#include <stdbool.h>
#include <stddef.h>

#define LEVELS_MAX 8
#define LEVELS_NOTES 6
#define LEVELS_NOTE_CHARS 200
/* Most points analysed; longer curves are first reduced to medians of narrow log2-size bins. */
#define LEVELS_MAX_POINTS 1024

/* What a level is: a cache, a TLB reach (a step the page walk adds), or a step that could be
 * either (it sits where a TLB reach would be and nothing in the run tells them apart). */
enum level_kind { LEVEL_CACHE, LEVEL_TLB, LEVEL_UNCERTAIN };

struct level {
    /* The capacity read from the step: on a dense curve where the fit has made half the step's
     * rise (LEVELS_SIZE_FRACTION), on a sparse one the middle of the two points around it. */
    double size_bytes;
    double size_lo_bytes, size_hi_bytes; /* the two measured sizes size_bytes lies between */
    /* Effective size: where the step has made LEVELS_STEP_FRACTION of its rise, the size up to
     * which a chase still finds most of its lines in the cache; size_bytes on a sparse curve. A
     * TLB step's size is its effective size: where misses start is the TLB's reach. */
    double effective_bytes;
    double effective_lo_bytes, effective_hi_bytes; /* the measured sizes around it */
    bool size_known;   /* false for a last cache level whose end the curve never reached */
    double latency_ns; /* median latency over the level's plateau */
    double cycles;     /* median core cycles over the plateau, NaN when unknown */
    double from_bytes; /* first and last size of the plateau */
    double to_bytes;
    double step_end_bytes; /* where the next plateau begins */
    size_t first, last;    /* plateau's point indices (into the analysed points) */
    /* 0..1: how clearly the step stands out and the plateau is seen; on the run's main curve,
     * the share of real curves' levels with such evidence that were real (calibrated) */
    double confidence;
    double evidence; /* the confidence before calibration, NaN where none was made */
    enum level_kind kind;
    bool shared; /* the last cache, found below half of CPUID's largest: a share of that cache */
};

struct detection {
    size_t nlevels;
    struct level level[LEVELS_MAX];
    double dram_ns;         /* NaN when the curve never reaches memory */
    double dram_cycles;     /* NaN when unknown */
    double dram_from_bytes; /* where the memory plateau begins */
    bool dram_lower_bound;  /* the curve ends still rising: dram_ns is only its last value */
    double walk_from_bytes; /* memory plus page walks from here (o->walk_bytes), NaN: none */
    double walk_ns;         /* what the walks add to memory's latency there, NaN: none */
    size_t npoints;         /* points analysed */
    bool sparse; /* about one point per octave: a size is only known between two points */
    size_t nnotes;
    char note[LEVELS_NOTES][LEVELS_NOTE_CHARS];
};

struct detect_opts {
    double llc_bytes; /* largest cache CPUID reports, 0 when unknown */
    /* Under a hypervisor other guests share the last cache, so its size bounds a curve only while
     * the curve has found fewer caches (kind cache) than CPUID lists, this many, and ends inside
     * it; 0: llc_bytes bounds every curve. */
    size_t llc_bound_caches;
    double ns_offset; /* added to each latency before analysis (tinymembench's time above L1) */
    /* Beyond this size every load may pay a page walk (4K pages, or guest pages a host may
     * split): a step there that a walk could cost is memory plus walks, not a cache. 0: off. */
    double walk_bytes;
};

/*
 * Detect cache levels in the curve of n points (size in bytes, latency in ns per load, core
 * cycles per load or NULL) by the method of levels.c: a monotone fit of ln latency, and a level
 * ending at each octave-scale step of it (detect_params.h). Points that are not finite and
 * positive are ignored; sizes need not be sorted or powers of two. The last plateau is DRAM
 * unless o->llc_bytes says the curve never left the last cache. Latencies in d are without
 * o->ns_offset. Never fails: too few points give no levels and a note.
 */
void levels_detect(const double *size, const double *ns, const double *cycles, size_t n,
                   const struct detect_opts *o, struct detection *d);

/* Make level lv a TLB step (kind tlb): its size becomes its effective size, the reach. */
void level_make_tlb(struct level *lv);

/* The kind's name in reports and JSON: cache, tlb or uncertain. */
const char *level_kind_name(enum level_kind k);
/* Level i's name: "TLB" for a TLB step (kind tlb), else "L<n>", n counting the levels up to i
 * that are not TLB steps (so caches keep their numbers around a TLB step). */
void level_name_of(char *dst, size_t cap, const struct detection *d, size_t i);

/* What d's level sizes mean, for a heading or caption (at most LEVELS_SIZE_MEANING_CHARS with its
 * terminator): where latency has risen LEVELS_SIZE_FRACTION of the way to the next level, or on a
 * sparse curve the middle of the two measured sizes around the step, all that is known there. */
#define LEVELS_SIZE_MEANING_CHARS 160
void levels_size_meaning(char *dst, size_t cap, const struct detection *d);

/* Add a note (printf-like) to d, dropped when d already holds LEVELS_NOTES. */
void levels_note(struct detection *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
