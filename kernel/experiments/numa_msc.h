// SPDX-License-Identifier: MIT
// numa's memory-side cache sweep: for each memory-side cache HMAT describes, a random chase in
// its memory domain's node whose sizes cross the cache (numa.msc.csv), and the step it shows.
#ifndef CHASE_NUMA_MSC_H
#define CHASE_NUMA_MSC_H

#include "machine/hmat.h"
#include "platform.h"
#include "point/ctx.h"

/*
 * For every memory-side cache of h (NULL: none, nothing done) in front of a node of t with free
 * memory: a buffer in that node (plat_node_buffer_alloc), chased at sizes from the cache / 8 to
 * the cache x 8 (lib/msc.h's span) from a processor of the node that measures it
 * (tiers_measured_from; cpu_of: a processor of each node, -1 none), the rows written to
 * numa.msc.csv and the step found beside HMAT's size on the console. Returns 0, or
 * EXP_RUN_FAILED with ctx->failure set when a cache's buffer, processor or points failed.
 */
int msc_sweep_caches(struct exp_ctx *ctx, const struct plat_numa *t, const struct hmat *h,
                     const int *cpu_of);

#endif
