// SPDX-License-Identifier: MIT
// The prefetch key: the hardware prefetchers off through their documented MSR while an
// experiment measures, and back as they were after it, on exit and on the panic path.
#ifndef CHASE_RUN_PREFETCH_H
#define CHASE_RUN_PREFETCH_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "machine/machine.h"

/* What chase did to the prefetchers. */
struct prefetch_run {
    bool changed;   /* the control MSR holds chase's value now: restore it */
    uint32_t msr;   /* the control MSR changed */
    uint64_t saved; /* its value before */
    char note[200]; /* why prefetch=off could not be honoured (empty when it was) */
};

/*
 * Put the prefetchers in mode for the next experiment. Returns the state it measures in:
 * "as-is" or "off". When off cannot be honoured (no documented control, the MSR faults or
 * does not keep the value) the state is "as-is" and p->note says why.
 */
const char *prefetch_apply(struct prefetch_run *p, const struct machine *m,
                           enum prefetch_mode mode);

/* Give the control MSR its saved value back, if chase changed it; safe to call twice. */
void prefetch_restore(struct prefetch_run *p);

#endif
