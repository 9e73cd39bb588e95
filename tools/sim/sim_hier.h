// SPDX-License-Identifier: MIT
// A modelled memory hierarchy: cache levels, optional TLBs, DRAM; one load in, its cycles out.
#ifndef SIM_HIER_H
#define SIM_HIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim_cache.h"
#include "sim_prefetch.h"
#include "sim_stalls.h"

#define SIM_MAX_LEVELS 6
#define SIM_MAX_TLBS 3
#define SIM_NAME_MAX 16

/* How a level relates to the level inside it (nearer the core). */
enum sim_incl {
    SIM_NINE, /* non-inclusive, non-exclusive: filled on every miss, evicts on its own */
    SIM_INCL, /* inclusive: evicting a line removes it from every inner level */
    SIM_EXCL  /* exclusive (victim cache): filled only with the inner level's victims */
};

/* One level or TLB as written in a hierarchy description. */
struct sim_level_spec {
    char name[SIM_NAME_MAX];
    uint64_t size_bytes; /* a TLB: entries */
    unsigned ways;
    unsigned latency_cycles; /* a TLB: the cost of missing it */
    enum sim_policy_kind policy;
    enum sim_incl incl;
    unsigned slices;
    enum sim_hash hash;
    unsigned line_bytes; /* a TLB: 0 (it follows the page size) */
    unsigned eps, leaders, psel_bits;
};

/* A whole hierarchy description: what the parser produces and presets hold. */
struct sim_spec {
    struct sim_level_spec level[SIM_MAX_LEVELS];
    unsigned nlevels;
    struct sim_level_spec tlb[SIM_MAX_TLBS];
    unsigned ntlbs;
    unsigned dram_cycles;
    unsigned mlp;             /* independent loads whose latencies overlap (lock-step streams) */
    struct sim_pf_spec pf;    /* the stride prefetcher (streams 0: none) */
    struct sim_stall refresh; /* DRAM refresh (period 0: none) */
    struct sim_stall smi;     /* SMIs (period 0: none) */
};

struct sim_level {
    struct sim_cache cache;
    unsigned latency_cycles;
    enum sim_incl incl;
    bool evictions_matter; /* inclusive, or the next level is a victim cache */
    bool prefetch;         /* its rows outgrow the host's inner caches: fetch them ahead */
};

/* The live model: state persists from load to load and from point to point. */
struct sim_hier {
    struct sim_spec spec;
    struct sim_level level[SIM_MAX_LEVELS];
    unsigned nlevels;
    struct sim_level tlb[SIM_MAX_TLBS];
    unsigned ntlbs;
    unsigned dram_cycles;
    unsigned mlp;
    uint64_t page_bytes;
    uint64_t loads, dram_loads;
    uint64_t ahead_loads, ahead_reached[SIM_MAX_LEVELS]; /* for sim_hier_load_many's choice */
    bool use_v3;         /* the CPU runs the x86-64-v3 build of the hot loop */
    unsigned excl_mask;  /* bit i: level i is exclusive */
    unsigned evict_mask; /* bit i: level i's evictions matter (evictions_matter) */
    unsigned defer_mask; /* bit i: exclusive, evictions matter to none: its fills may wait */
    unsigned pend_mask;  /* bit i: level i has a move waiting in pend[i] */
    struct {
        uint32_t set, tag;
    } pend[SIM_MAX_LEVELS];
    struct sim_prefetcher pf; /* used when spec.pf.streams */
    uint64_t pf_fills;        /* lines the prefetcher brought in (not loads) */
    struct sim_clock clock;   /* refresh and SMIs in time (sim_hier_set_clock) */
};

/*
 * Build the model of spec (already validated by sim_spec_parse), with pages of page_bytes
 * (a power of two) for the TLBs; seed drives random choices. Returns 0, or -1 when memory
 * ran out.
 */
int sim_hier_init(struct sim_hier *h, const struct sim_spec *spec, uint64_t page_bytes,
                  uint64_t seed);
/* Run the model's clock at ghz core cycles per ns from 0: its refresh and SMIs (if any) fall in
 * time from there (sim_hier_init sets 1 GHz). */
void sim_hier_set_clock(struct sim_hier *h, double ghz);
/* Release the model's memory. */
void sim_hier_free(struct sim_hier *h);
/* Use pages of page_bytes from now on: the TLBs are emptied (their entries map old pages). */
void sim_hier_set_page(struct sim_hier *h, uint64_t page_bytes);

/*
 * One load of physical address addr: the TLBs, then each level until one holds the line
 * (DRAM otherwise), with the fills, evictions, victim moves and back-invalidations that
 * follow. Returns the load's latency in core cycles.
 */
unsigned sim_hier_load(struct sim_hier *h, uint64_t addr);

/*
 * The loads of the n physical addresses addr[0..n-1], in order: exactly what n calls of
 * sim_hier_load would do, faster (each load's sets are found, and the host asked for
 * their rows, a few loads ahead). Each load's latency goes to lat[k] unless lat is NULL.
 * Returns the sum of the latencies in core cycles.
 */
uint64_t sim_hier_load_many(struct sim_hier *h, const uint64_t *addr, size_t n, unsigned *lat);

/*
 * Fill the line of addr into level `into` and the levels between it and the one that holds
 * it (DRAM otherwise), as a demand miss would, with the evictions that follow; nothing is
 * counted as a load, hit or miss. Returns whether a fill happened (the line was not there).
 */
bool sim_hier_fill_ahead(struct sim_hier *h, unsigned into, uint64_t addr);

/*
 * sim_hier_load_many's loop, with the sets of the levels in mask (bit i: level i) found
 * ahead: the portable build and the x86-64-v3 one (sim_hier_v3.c). Not for other callers.
 */
uint64_t sim_hier_run(struct sim_hier *h, const uint64_t *addr, size_t n, unsigned *lat,
                      unsigned mask);
uint64_t sim_hier_run_v3(struct sim_hier *h, const uint64_t *addr, size_t n, unsigned *lat,
                         unsigned mask);

#endif
