// SPDX-License-Identifier: MIT
// One ordered pair's line-state measurements: every state, in every home the pair is measured
// with (chase's buffer; a node away from both processors' nodes), each a result for a row.
#ifndef CHASE_LINEPAIR_H
#define CHASE_LINEPAIR_H

#include <stdbool.h>
#include <stdint.h>

#include "point/ctx.h"
#include "procs/linestate.h"
#include "procs/mp.h"

/* Each home area's size: chunks of lines used in turn, so that a line comes back only after
   the whole area (fresh lines: nviennot/core-to-core-latency's --no-recycling on Zen). */
#define LS_AREA_BYTES (4ULL << 20)
#define LS_AREA_ALIGN_BYTES (2ULL << 20) /* a node buffer's alignment: one 2M page */

/* The homes a run's pairs use: chase's buffer's area and, made when first asked for, one area
   in a buffer of each other node (plat_node_buffer_alloc). */
struct ls_homes {
    struct plat_numa t;     /* the nodes (t.nnodes 0: not known) */
    bool *has_mem;          /* per node: it has memory */
    struct ls_area buffer;  /* in chase's buffer */
    bool buffer_node_known; /* chase's buffer's node is known: other homes can be chosen */
    unsigned buffer_node;
    struct plat_buffer *nb; /* per node: its buffer (virt NULL: none yet) */
    bool *tried;            /* per node: its buffer was asked for (once) */
    struct ls_area *area;   /* per node: the area in nb */
    char note[200];         /* why a home was left out ("" when none was) */
};

/* The homes for a run whose chase buffer holds area [base, base + bytes). */
void ls_homes_begin(struct ls_homes *h, const struct exp_ctx *ctx, uint8_t *base, uint64_t bytes);
/* Give the node buffers and the table back. */
void ls_homes_end(struct ls_homes *h);

/* One row's worth: a state in a home, for the pair. */
struct ls_result {
    enum ls_state state;
    bool home_known;
    unsigned home_node; /* the node the lines lie in (when home_known) */
    bool home_other;    /* in a node buffer away from both processors' nodes (else chase's) */
    int helper;         /* the shared state's third processor (cpus index), -1: none */
    bool ok;            /* measured: ns_* hold per-line read latencies */
    double ns_median, ns_min, ns_p90;
};

/* What one pair's measurements take. */
struct ls_pair {
    const struct mp_cpu *cpus;
    unsigned n, a, b;   /* cpus[a] times, cpus[b] answers */
    struct ls_run *run; /* lines, stride, reps, fresh, perm, ctl and ticks set by the caller */
};

/*
 * Measure pair pp in every state (shared only when a third processor exists) in each home:
 * chase's buffer, then the node ls_home_other chooses (when the nodes are known); call row(arg,
 * result) for each. A processor that does not come back ends the pair (its rows not ok).
 * Returns how many results were not ok.
 */
unsigned ls_pair_measure(struct ls_homes *h, const struct exp_ctx *ctx, const struct ls_pair *pp,
                         void (*row)(void *arg, const struct ls_result *res), void *arg);

#endif
