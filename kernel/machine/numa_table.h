// SPDX-License-Identifier: MIT
// The memory-node table's storage (sized from the firmware's counts), its copies and questions.
#ifndef CHASE_NUMA_TABLE_H
#define CHASE_NUMA_TABLE_H

#include <stdbool.h>

#include "platform.h"

/*
 * Give t one allocation for nnodes nodes, node i with room for ncpus[i] processors and
 * nranges[i] memory ranges, and the nnodes x nnodes distances. t is zeroed first; each node's
 * ncpus and nranges start at 0 (the caller fills them up to its counts) and cpu[] at -1.
 * Returns false when memory is short (t then holds no nodes).
 */
bool numa_table_alloc(struct plat_numa *t, unsigned nnodes, const unsigned *ncpus,
                      const unsigned *nranges);

/* Copy src into dst with storage of dst's own. Returns false when memory is short (dst empty). */
bool numa_table_copy(struct plat_numa *dst, const struct plat_numa *src);

/* Give t's storage back and empty it (an empty t is fine). */
void node_table_free(struct plat_numa *t);

/* Whether node i lists a usable processor (a cpu[] that is not -1). */
bool numa_node_has_cpu(const struct plat_numa *t, unsigned i);

/*
 * The node nearest to node i that has a usable processor: i itself when it has one, else the
 * smallest SLIT distance from i (ties and no SLIT: the lowest index). -1 when no node has one.
 */
int node_nearest_cpu_node(const struct plat_numa *t, unsigned i);

#endif
