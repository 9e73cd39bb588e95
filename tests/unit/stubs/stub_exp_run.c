// SPDX-License-Identifier: MIT
// The experiments' measurement side, stubbed for tests of their configuration: nothing may run.
#include <stdio.h>
#include <stdlib.h>

#include "chase/batches.h"
#include "chase/chain.h"
#include "chase/chain_points.h"
#include "chase/measure.h"
#include "chase/reps.h"
#include "chase/time_split.h"
#include "stream/bw.h"
#include "machine/fault.h"
#include "platform.h"

/* A configuration test reached code that builds or measures chains: a bug in the test. */
static void not_here(const char *what)
{
    fprintf(stderr, "stub_exp_run: %s called from a configuration test\n", what);
    abort();
}

const char *const reps_stop_names[] = {NULL};

void reps_disturbance_text(unsigned bits, char *buf, unsigned cap)
{
    (void)bits, (void)buf, (void)cap;
    not_here("reps_disturbance_text");
}

void **chain_build_random(const struct chain_layout *l, uint64_t seed)
{
    (void)l, (void)seed;
    not_here("chain_build_random");
    return NULL;
}

uint64_t chain_build_streams(uint8_t *base, uint64_t size_bytes, uint64_t stride_bytes, unsigned n,
                             void **heads[])
{
    (void)base, (void)size_bytes, (void)stride_bytes, (void)n, (void)heads;
    not_here("chain_build_streams");
    return 0;
}

void point_cycle(struct chase_point *pt, const struct chain_layout *l, uint64_t group_slots,
                 uint64_t seed)
{
    (void)pt, (void)l, (void)group_slots, (void)seed;
    not_here("point_cycle");
}

void point_linear(struct chase_point *pt, const struct chain_layout *l)
{
    (void)pt, (void)l;
    not_here("point_linear");
}

void point_backward(struct chase_point *pt, const struct chain_layout *l)
{
    (void)pt, (void)l;
    not_here("point_backward");
}

void point_streams(struct chase_point *pt, void **const heads[], unsigned k, uint64_t slots)
{
    (void)pt, (void)heads, (void)k, (void)slots;
    not_here("point_streams");
}

uint64_t point_trailing(struct chase_point *pt, const struct chain_layout *l, uint64_t lag,
                        uint64_t seed)
{
    (void)pt, (void)l, (void)lag, (void)seed;
    not_here("point_trailing");
    return 0;
}

void point_alternating(struct chase_point *pt, void **huge_head, uint64_t huge_slots,
                       const struct chain_layout *small, uint64_t seed)
{
    (void)pt, (void)huge_head, (void)huge_slots, (void)small, (void)seed;
    not_here("point_alternating");
}

void point_disjoint(struct chase_point *pt, const struct chain_layout *l, unsigned n, uint64_t seed)
{
    (void)pt, (void)l, (void)n, (void)seed;
    not_here("point_disjoint");
}

void measure_assess_fixed(struct point_result *r)
{
    (void)r;
    not_here("measure_assess_fixed");
}

void measure_release(struct point_result *r)
{
    (void)r;
    not_here("measure_release");
}

int measure_finish(struct point_result *r)
{
    (void)r;
    not_here("measure_finish");
    return -1;
}

int measure_merge(struct point_result *into, struct point_result *slice)
{
    (void)into, (void)slice;
    not_here("measure_merge");
    return -1;
}

int measure_reassess(struct point_result *r, double precision)
{
    (void)r, (void)precision;
    not_here("measure_reassess");
    return -1;
}

double time_split_timed_fraction(const struct time_split *s)
{
    (void)s;
    not_here("time_split_timed_fraction");
    return 0;
}

double time_split_tick_share(const struct time_split *s, uint64_t regions)
{
    (void)s, (void)regions;
    not_here("time_split_tick_share");
    return 0;
}

void time_split_measured(struct time_split *s, uint64_t span, uint64_t warm, uint64_t timed)
{
    (void)s, (void)span, (void)warm, (void)timed;
    not_here("time_split_measured");
}

void time_split_add(struct time_split *sum, const struct time_split *s)
{
    (void)sum, (void)s;
    not_here("time_split_add");
}

void fault_describe(char *buf, size_t cap, const struct fault_info *f)
{
    (void)buf, (void)cap, (void)f;
    not_here("fault_describe");
}

int plat_buffer_set_pages(struct plat_buffer *b, uint64_t page_bytes, char *why, size_t why_cap)
{
    (void)b, (void)page_bytes, (void)why, (void)why_cap;
    not_here("plat_buffer_set_pages");
    return -1;
}

int measure_chase(const struct chase_point *pt, const struct measure_plan *plan,
                  const struct timing *t, struct point_result *r)
{
    (void)pt, (void)plan, (void)t, (void)r;
    not_here("measure_chase");
    return -1;
}

void **chain_walk(void **p, uint64_t hops)
{
    (void)p, (void)hops;
    not_here("chain_walk");
    return NULL;
}

unsigned plat_numa(struct plat_numa *t, char *why, size_t why_cap)
{
    (void)t, (void)why, (void)why_cap;
    not_here("plat_numa");
    return 0;
}

int plat_node_buffer_alloc(unsigned node, uint64_t size_bytes, uint64_t align_bytes,
                           struct plat_buffer *b, char *why, size_t why_cap)
{
    (void)node, (void)size_bytes, (void)align_bytes, (void)b, (void)why, (void)why_cap;
    not_here("plat_node_buffer_alloc");
    return -1;
}

void plat_node_buffer_free(struct plat_buffer *b)
{
    (void)b;
    not_here("plat_node_buffer_free");
}

const struct hmat *plat_hmat(char *why, size_t why_cap)
{
    (void)why, (void)why_cap;
    not_here("plat_hmat");
    return NULL;
}

bw_kernel_fn bw_kernel_code(enum bw_kernel k, enum simd_width w)
{
    (void)k, (void)w;
    not_here("bw_kernel_code");
    return NULL;
}

void bw_nt_fill_lines(uint8_t *dst, uint64_t lines, uint64_t value)
{
    (void)dst, (void)lines, (void)value;
    not_here("bw_nt_fill_lines");
}

void bw_store_fence(void)
{
    not_here("bw_store_fence");
}

int bw_measure(const struct bw_point *pt, const struct measure_plan *plan, const struct timing *t,
               bool warm, struct bw_result *r, char *why, size_t cap)
{
    (void)pt, (void)plan, (void)t, (void)warm, (void)r, (void)why, (void)cap;
    not_here("bw_measure");
    return -1;
}

void reps_insert_sorted(double *sorted, unsigned n, double v)
{
    (void)sorted, (void)n, (void)v;
    not_here("reps_insert_sorted");
}

void reps_assess(const double *sorted, unsigned n, struct reps_verdict *v)
{
    (void)sorted, (void)n, (void)v;
    not_here("reps_assess");
}

enum reps_stop reps_should_stop(const struct reps_rule *rule, const struct reps_verdict *v,
                                uint64_t elapsed_ticks)
{
    (void)rule, (void)v, (void)elapsed_ticks;
    not_here("reps_should_stop");
    return REPS_GO_ON;
}

int batch_window_run(struct batch_window *w)
{
    (void)w;
    not_here("batch_window_run");
    return -1;
}
