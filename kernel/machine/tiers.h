// SPDX-License-Identifier: MIT
// Memory tiers: which memory nodes a tier measurement targets (CPU-less nodes and
// special-purpose memory included), which processor's node measures each, and HMAT's advertised
// figures beside the measured ones.
#ifndef CHASE_TIERS_H
#define CHASE_TIERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "platform.h"

struct hmat;

/* The nodes a tier measurement targets, those with free memory (special-purpose included),
   ascending, into out (room for t->nnodes). Returns how many. */
unsigned tiers_targets(const struct plat_numa *t, unsigned *out);

/*
 * The node whose processor measures node i when i has none: the initiator HMAT attaches to i
 * (h not NULL) when that node has a processor, else the nearest by SLIT (node_nearest_cpu_node).
 * i itself when it has a processor; -1 when no node has one. *by says which rule chose
 * ("own", "HMAT", "SLIT").
 */
int tiers_measured_from(const struct plat_numa *t, const struct hmat *h, unsigned i,
                        const char **by);

/*
 * HMAT's figures for initiator domain init and target domain target beside what was measured
 * (ns: latency median; gbs: read bandwidth in GB/s, NaN or <= 0 when not measured), as CSV cells
 * into buf: hmat_latency_ns, hmat_latency_kind, hmat_bandwidth_mbs, hmat_bandwidth_kind,
 * latency_vs_hmat, bandwidth_vs_hmat (measured / advertised; empty for a revision 1 HMAT, whose
 * units are not ACPI 6.3's); empty cells where HMAT (h NULL:
 * none) gives no figure. TIERS_CSV_HEAD names them.
 */
#define TIERS_CSV_HEAD                                                                             \
    "hmat_latency_ns,hmat_latency_kind,hmat_bandwidth_mbs,hmat_bandwidth_kind,latency_vs_hmat,"    \
    "bandwidth_vs_hmat"
void tiers_hmat_cells(const struct hmat *h, uint32_t init, uint32_t target, double ns, double gbs,
                      char *buf, size_t cap);

#endif
