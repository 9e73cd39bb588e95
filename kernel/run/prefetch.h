// SPDX-License-Identifier: MIT
// The prefetch key: the hardware prefetchers off through their documented MSR while an
// experiment measures, and back as they were after it, on exit and on the panic path.
#ifndef CHASE_RUN_PREFETCH_H
#define CHASE_RUN_PREFETCH_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "machine/machine.h"

/* What became of one prefetcher when chase asked it off (prefetch_state_names). */
enum prefetch_state {
    PREFETCHER_ON,      /* not asked (as-is) */
    PREFETCHER_OFF,     /* chase turned it off */
    PREFETCHER_WAS_OFF, /* already off when chase started */
    PREFETCHER_REFUSED, /* writing its bit faulted (#GP): on */
    PREFETCHER_NOT_KEPT /* its bit did not hold when read back: on */
};
extern const char *const prefetch_state_names[];

/* What chase did to the prefetchers. */
struct prefetch_run {
    bool changed;                    /* the control MSR holds chase's value now: restore it */
    uint32_t msr;                    /* the control MSR changed */
    uint64_t saved;                  /* its value before */
    uint64_t off;                    /* the bits chase set and that held */
    bool one_by_one;                 /* the bits were written one at a time */
    unsigned state[PREFETCHERS_MAX]; /* enum prefetch_state per m->facts.prefetch.prefetcher */
    char note[200]; /* why prefetch=off could not be honoured, or only in part ("" when it was) */
};

/*
 * Put the prefetchers in mode for the next experiment. Returns the state it measures in:
 * "as-is", "off" (every prefetcher of the model's table off, and the core has no others), or
 * "partly off" (p->state says which; p->note why not all). The bits are written together, or
 * one at a time where the table is unsure of the model or the combined write fails. When
 * none can be turned off (no documented control, the MSR faults or keeps nothing) the state
 * is "as-is" and p->note says why.
 */
const char *prefetch_apply(struct prefetch_run *p, const struct machine *m,
                           enum prefetch_mode mode);

/* At the experiment's end: the other processors leave chase's loop (plat_cpus_release: their
   per-core settings undone there), then the control MSR gets its saved value back, if chase
   changed it; safe to call twice. */
void prefetch_restore(struct prefetch_run *p);

#endif
