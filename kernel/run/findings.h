// SPDX-License-Identifier: MIT
// What the experiments found that the end-of-run summary reports (beyond the random curve).
#ifndef CHASE_FINDINGS_H
#define CHASE_FINDINGS_H

#include <stdbool.h>
#include <stdint.h>

#define FINDINGS_CURVE_MAX 256
#define FINDINGS_PAGE_SIZES 3

/* A latency curve: x (a size in bytes) against ns and core cycles per access. */
struct curve {
    uint64_t x[FINDINGS_CURVE_MAX];
    double ns[FINDINGS_CURVE_MAX];
    double cycles[FINDINGS_CURVE_MAX];
    unsigned n;
};

/* Append a point to a curve (dropped when it is full). */
static inline void curve_add(struct curve *c, uint64_t x, double ns, double cycles)
{
    if (c->n < FINDINGS_CURVE_MAX) {
        c->x[c->n] = x;
        c->ns[c->n] = ns;
        c->cycles[c->n] = cycles;
        c->n++;
    }
}

/* One page size of the tlb experiment. */
struct tlb_finding {
    uint64_t page_bytes;
    bool measured;
    char note[120]; /* how the page size was obtained, or why it was skipped */
    struct curve curve;
};

struct findings {
    bool dual_ran;
    uint64_t dual_lag_slots;
    struct curve dual; /* x: chain size */
    bool scan_ran;
    uint64_t scan_huge_bytes;
    struct curve scan; /* x: the small region's size */
    struct tlb_finding tlb[FINDINGS_PAGE_SIZES];
    unsigned ntlb;
    bool parallel_ran;
    double parallel_best; /* the highest effective parallelism seen */
    unsigned parallel_best_chains;
};

#endif
