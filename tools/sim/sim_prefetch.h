// SPDX-License-Identifier: MIT
// chase-sim's stride prefetcher: a table of streams per region, trained on a repeated stride.
#ifndef SIM_PREFETCH_H
#define SIM_PREFETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_PF_MAX_STREAMS 256
#define SIM_PF_MAX_DEGREE 16
#define SIM_PF_MAX_DISTANCE 64
/* Lines one access may ask for at most (a stream that has just trained catches up). */
#define SIM_PF_MAX_LINES (SIM_PF_MAX_DISTANCE + SIM_PF_MAX_DEGREE)
#define SIM_PF_DEFAULT_DISTANCE 4
#define SIM_PF_DEFAULT_DEGREE 1
#define SIM_PF_DEFAULT_REGION_BYTES 4096

/* The prefetcher as described (streams 0: no prefetcher, the default). */
struct sim_pf_spec {
    unsigned streams;      /* regions tracked at once, LRU-replaced */
    unsigned distance;     /* the first line fetched is this many strides ahead */
    unsigned degree;       /* lines fetched per access of a trained stream */
    unsigned level;        /* index of the level the lines are filled into (0: L1, 1: L2) */
    uint64_t region_bytes; /* a stream lives in one aligned region (a power of two) */
};

/* One tracked stream: the last address seen in its region and the stride it last took. */
struct sim_pf_stream {
    uint64_t region; /* address >> region_shift; UINT64_MAX when the entry is free */
    uint64_t last;
    int64_t stride;
    bool trained;  /* the stride was seen twice in a row */
    uint64_t used; /* the table's clock at its last access (LRU) */
};

struct sim_prefetcher {
    struct sim_pf_spec spec;
    unsigned region_shift, line_shift;
    struct sim_pf_stream table[SIM_PF_MAX_STREAMS];
    uint64_t clock;
    uint64_t allocations; /* streams started (a region not in the table) */
    uint64_t triggers;    /* accesses of a trained stream */
};

/* Empty a prefetcher of spec (validated by the parser) over lines of 1 << line_shift bytes. */
void sim_pf_init(struct sim_prefetcher *pf, const struct sim_pf_spec *spec, unsigned line_shift);

/*
 * The prefetcher sees a demand load of addr: the stream of addr's region learns its stride
 * (a new region takes the least recently used entry). When the stride is trained, the
 * line-aligned addresses to fetch go to out (capacity SIM_PF_MAX_LINES): strides distance ..
 * distance + degree - 1 ahead, or 1 .. that when the stream has just trained; none outside
 * the region; a stride under a line steps a line. Returns how many.
 */
unsigned sim_pf_observe(struct sim_prefetcher *pf, uint64_t addr, uint64_t *out);

/* Whether the stream of addr's region is tracked and trained. */
bool sim_pf_trained(const struct sim_prefetcher *pf, uint64_t addr);

#endif
