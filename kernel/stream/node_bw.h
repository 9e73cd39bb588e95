// SPDX-License-Identifier: MIT
// A memory node x memory node read bandwidth matrix: all the processors of one node reading
// buffers in each node's memory together.
#ifndef CHASE_EXP_NODE_BW_H
#define CHASE_EXP_NODE_BW_H

#include <stdbool.h>
#include <stdint.h>

#include "stream/bw_team.h"

/* One cell: GB/s over all the row node's processors (10^9 bytes read per second). */
struct node_bw_cell {
    bool measured;
    double gbs, gbs_min, gbs_max;
    unsigned processors, reps;
    unsigned width;                      /* the fastest width's index in node_bw's cand */
    double width_gbs[BW_CANDIDATES_MAX]; /* each width's median (NaN: not measured) */
};

/*
 * How much of each node's buffer a cell reads, against the caches of the processors that read
 * it together: twice what the last caches of a row hold, as bw_cores' dram level (streamed
 * reads: each line is evicted before it is read again).
 */
#define NODE_BW_CACHE_MULTIPLE 2

/* The matrix and what measuring it needs. */
struct node_bw {
    struct mp_cpu cpus[PLAT_CPUS_MAX]; /* the processors mp_cpus chose */
    unsigned ncpus;
    uint64_t read_bytes;  /* what every cell reads of its node's buffer (node_bw_begin) */
    uint64_t cache_bytes; /* the most that one row's processors' last caches hold together */
    unsigned caches;      /* ... in how many instances */
    struct mp_cpu row_cpus[PLAT_CPUS_MAX]; /* those of the row being measured */
    struct bw_team team;
    enum simd_width cand[BW_CANDIDATES_MAX]; /* the widths each cell reads at, the widest first */
    unsigned ncand;
    struct node_bw_cell *cell; /* nnodes x nnodes, [processors' node][memory node]; NULL: none */
    unsigned nnodes;
    char skipped[200]; /* why there is no matrix ("" when there is one) */
};

/* Cell [a][b] of the matrix (an unmeasured one when there is no matrix). */
static inline const struct node_bw_cell *node_bw_at(const struct node_bw *nb, unsigned a,
                                                    unsigned b)
{
    static const struct node_bw_cell none;
    return nb->cell && a < nb->nnodes && b < nb->nnodes ? &nb->cell[a * nb->nnodes + b] : &none;
}

/*
 * The bytes of its node's buffer a row's n processors read: NODE_BW_CACHE_MULTIPLE times what
 * their last caches hold together (the distinct L3 instances among them, mp_l3_count, each of
 * llc_bytes: several on a node of AMD CCXs), at least least_bytes. *cache_bytes: that sum.
 */
uint64_t node_bw_read_bytes(const struct mp_cpu *cpus, unsigned n, uint64_t llc_bytes,
                            uint64_t least_bytes, uint64_t *cache_bytes);

/*
 * Before the node buffers are allocated: the matrix's cells (t->nnodes squared; node_bw_end
 * gives them back), the processors (mp_cpus) and nb->read_bytes, the most
 * that node_bw_read_bytes asks for over the rows of t's nodes, at least chain_bytes (said on
 * the console when more). Sets nb->skipped when there is no matrix (fewer than two
 * processors); returns nb->read_bytes (chain_bytes then).
 */
uint64_t node_bw_begin(struct exp_ctx *ctx, const struct plat_numa *t, uint64_t chain_bytes,
                       struct node_bw *nb);

/*
 * For each node of t with processors (row) and each memory node mem[k] (column): every
 * processor of the row's node (of those node_bw_begin chose) reads its own equal share of the
 * first nb->read_bytes of buf[k] (each at least that long) with the read kernel at the widest
 * width allowed, all started together (bw_team_measure). Returns 0 (nb->skipped says why when
 * nothing could be measured: no kernels or usable width here, fewer than two processors), or
 * EXP_RUN_FAILED with ctx->failure saying which cell lost a processor.
 */
int node_bw_measure(struct exp_ctx *ctx, const struct plat_numa *t, const unsigned *mem,
                    unsigned nmem, const struct plat_buffer *buf, struct node_bw *nb);

/* Give the matrix's cells back (after the last node_bw_at). */
void node_bw_end(struct node_bw *nb);

/* Print the matrix on the console: a row per processors' node, a column per memory node. */
void node_bw_print(const struct plat_numa *t, const unsigned *mem, unsigned nmem,
                   const struct node_bw *nb);

#endif
