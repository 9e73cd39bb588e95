// SPDX-License-Identifier: MIT
// The tail's batches in a measurement window (batches.c): chase_batches with the TLBs refilled
// untimed first, the SMI counter read around it, and interruptions taken again.
#ifndef CHASE_BATCHES_H
#define CHASE_BATCHES_H

#include <stdbool.h>
#include <stdint.h>

#include "platform.h"

/* Windows an NMI or machine check may cost one run of batches before it gives up. */
#define BATCHES_MAX_DROPPED 16

/* One run of timed batches, inside one window. */
struct batch_window {
    void **p;              /* in: where the chase starts; out: where it stopped */
    uint64_t batches;      /* >= 1 */
    uint64_t hops;         /* per batch, >= 1 */
    uint64_t prewalk_hops; /* untimed hops first (entering a window empties the TLBs), 0: none */
    uint64_t *stamps;      /* [batches + 1], chase_batches' (arch/chase_loop.h) */
    bool smi;              /* read MSR_SMI_COUNT around the batches (timing's smi_counting) */
    uint64_t smi_delta;    /* SMIs during them, when smi */
    unsigned dropped;      /* windows lost to an NMI or machine check, taken again */
    struct fault_info fault;
};

/*
 * Run w's batches in a measurement window, again from the same start when an NMI or machine
 * check came in (at most BATCHES_MAX_DROPPED times). Returns 0, or -1 when another exception
 * stopped them or too many windows were lost (w->fault says which).
 */
int batch_window_run(struct batch_window *w);

#endif
