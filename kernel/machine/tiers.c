// SPDX-License-Identifier: MIT
// Memory tiers: which memory nodes a tier measurement targets (CPU-less nodes and
// special-purpose memory included), which processor's node measures each, and HMAT's advertised
// figures beside the measured ones.
#include "machine/tiers.h"

#include "lib/fmt.h"
#include "machine/hmat.h"
#include "machine/numa_table.h"

#define MBS_PER_GBS 1000.0 /* HMAT's MB/s against the bandwidth matrix's GB/s (both decimal) */

unsigned tiers_targets(const struct plat_numa *t, unsigned *out)
{
    unsigned k = 0;
    for (unsigned i = 0; i < t->nnodes; i++)
        if (t->node[i].free_bytes)
            out[k++] = i;
    return k;
}

int tiers_measured_from(const struct plat_numa *t, const struct hmat *h, unsigned i,
                        const char **by)
{
    uint32_t init;
    *by = "own";
    if (i < t->nnodes && numa_node_has_cpu(t, i))
        return (int)i;
    if (i < t->nnodes && hmat_attached_initiator(h, t->node[i].domain, &init)) {
        for (unsigned k = 0; k < t->nnodes; k++)
            if (t->node[k].domain == init && numa_node_has_cpu(t, k)) {
                *by = "HMAT";
                return (int)k;
            }
    }
    *by = "SLIT";
    return node_nearest_cpu_node(t, i);
}

void tiers_hmat_cells(const struct hmat *h, uint32_t init, uint32_t target, double ns, double gbs,
                      char *buf, size_t cap)
{
    const struct hmat_pair *p = hmat_pair_of(h, init, target);
    const char *lkind = "", *bkind = "";
    double hns = 0;
    uint64_t mbs = 0;
    char lat[24] = "", bw[24] = "", lr[24] = "", br[24] = "";
    if (hmat_latency_ns(p, &hns, &lkind)) {
        ksnprintf(lat, sizeof(lat), "%.3f", hns);
        if (ns > 0 && hns > 0 && h->units_known)
            ksnprintf(lr, sizeof(lr), "%.3f", ns / hns);
    }
    if (hmat_bandwidth_mbs(p, &mbs, &bkind)) {
        ksnprintf(bw, sizeof(bw), "%llu", (unsigned long long)mbs);
        if (gbs > 0 && mbs && h->units_known)
            ksnprintf(br, sizeof(br), "%.3f", gbs * MBS_PER_GBS / (double)mbs);
    }
    ksnprintf(buf, cap, "%s,%s,%s,%s,%s,%s", lat, lkind, bw, bkind, lr, br);
}
