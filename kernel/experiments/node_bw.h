// SPDX-License-Identifier: MIT
// A memory node x memory node read bandwidth matrix: all the processors of one node reading
// buffers in each node's memory together.
#ifndef CHASE_EXP_NODE_BW_H
#define CHASE_EXP_NODE_BW_H

#include <stdbool.h>
#include <stdint.h>

#include "experiments/bw_team.h"

/* One cell: GB/s over all the row node's processors (10^9 bytes read per second). */
struct node_bw_cell {
    bool measured;
    double gbs, gbs_min, gbs_max;
    unsigned processors, reps;
};

/* The matrix and what measuring it needs. */
struct node_bw {
    struct mp_cpu cpus[PLAT_CPUS_MAX]; /* the processors mp_cpus chose */
    unsigned ncpus;
    struct mp_cpu row_cpus[PLAT_CPUS_MAX]; /* those of the row being measured */
    struct bw_team team;
    struct node_bw_cell cell[PLAT_NODES_MAX][PLAT_NODES_MAX]; /* [processors' node][memory node] */
    char skipped[200]; /* why there is no matrix ("" when there is one) */
};

/*
 * For each node of t with processors (row) and each memory node mem[k] (column): every
 * processor of the row's node (of those mp_cpus chose) reads its own equal share of the
 * first size_bytes of buf[k] with the read kernel at the widest width allowed, all started
 * together (bw_team_measure). Returns 0 (nb->skipped says why when nothing could be measured:
 * no kernels or usable width here, fewer than two processors), or EXP_RUN_FAILED with
 * ctx->failure saying which cell lost a processor.
 */
int node_bw_measure(struct exp_ctx *ctx, const struct plat_numa *t, const unsigned *mem,
                    unsigned nmem, const struct plat_buffer *buf, uint64_t size_bytes,
                    struct node_bw *nb);

/* Print the matrix on the console: a row per processors' node, a column per memory node. */
void node_bw_print(const struct plat_numa *t, const unsigned *mem, unsigned nmem,
                   const struct node_bw *nb);

#endif
