// SPDX-License-Identifier: MIT
// Per-core MSR settings (prefetchers off, DE_CFG[1]) applied on each other processor for its
// work and restored after it, once per core where the MSR is the core's, with what every
// processor found and did.
#ifndef CHASE_AP_MSR_H
#define CHASE_AP_MSR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "platform.h"

/* The settings the boot processor's state is copied to the others with. */
enum ap_msr_which {
    AP_MSR_DE_CFG,   /* DE_CFG[1]: LFENCE dispatch-serializing (AMD 10h-19h) */
    AP_MSR_PREFETCH, /* the prefetchers' documented disable bits (prefetch = off) */
    AP_MSR_SETTINGS
};

/* One setting: set these bits of this MSR for the work (msr 0: nothing to set). */
struct ap_msr_want {
    uint32_t msr;
    uint64_t bits;
};

/* What one processor found and did for one setting, over all its pieces of work. */
struct ap_msr_record {
    uint32_t msr;            /* the MSR last asked for (0: never asked here) */
    uint64_t bits;           /* the bits asked for */
    bool read;               /* it could be read (found holds the first value read) */
    uint64_t found;          /* its value the first time it was read */
    uint32_t unreadable;     /* pieces of work where reading it faulted */
    uint32_t already;        /* ... where the bits were found set (nothing written) */
    uint32_t set;            /* ... where chase set them and they stuck (restored after) */
    uint32_t not_stuck;      /* ... where the write faulted or was not kept, each bit alone too */
    uint32_t partly;         /* ... where the bits together failed, some of them alone held */
    uint64_t partly_bits;    /* the bits that held then (the last such piece of work) */
    uint32_t restore_failed; /* ... where the old value could not be written back */
    uint32_t shared_found;   /* ... where the bits were found set by a sibling thread at work:
                                the MSR is the core's, not the thread's */
    uint32_t restore_left;   /* restores left to a sibling still at work (the core's MSR) */
    uint32_t restore_taken;  /* restores made for a sibling that finished first */
};

#define AP_MSR_CORES_MAX                                                                           \
    512 /* cores followed at once: a 2-socket 2 x 192-core server fits; a                          \
           core beyond has each thread restore its own (as thread scope) */

/* One core's threads at work now, and what the first to change a setting found. */
struct ap_msr_core {
    uint64_t key;                  /* ap_msr_core_key (0: a free entry) */
    unsigned users;                /* its threads between apply and restore */
    int changer[AP_MSR_SETTINGS];  /* the slot + 1 of the thread that changed it (0: none) */
    bool shared[AP_MSR_SETTINGS];  /* a sibling found that thread's bits: the core's MSR */
    bool pending[AP_MSR_SETTINGS]; /* its value before chase is to be written back by the last */
    uint32_t msr[AP_MSR_SETTINGS];
    uint64_t saved[AP_MSR_SETTINGS];
};

/* The run's settings and, per processor slot, what each processor found and did. */
struct ap_msr_book {
    struct ap_msr_want want[AP_MSR_SETTINGS];
    bool used[PLAT_CPUS_MAX];       /* the slot ran work (cpu_id below holds) */
    unsigned cpu_id[PLAT_CPUS_MAX]; /* the platform's number of the slot's processor */
    struct ap_msr_record rec[PLAT_CPUS_MAX][AP_MSR_SETTINGS];
    uint32_t lock; /* over core[]: threads of one core apply and restore one at a time */
    struct ap_msr_core core[AP_MSR_CORES_MAX];
};

/* MSR access on the processor being set up; each returns false when the access faulted. */
struct ap_msr_ops {
    bool (*read)(void *ctx, uint32_t msr, uint64_t *value);
    bool (*write)(void *ctx, uint32_t msr, uint64_t value);
    void *ctx;
};

/* What ap_msr_apply changed on one processor, for ap_msr_restore. */
struct ap_msr_held {
    int core; /* its entry in the book's core[] (-1: none, it restores its own) */
    bool changed[AP_MSR_SETTINGS];
    uint32_t msr[AP_MSR_SETTINGS];
    uint64_t saved[AP_MSR_SETTINGS];
};

/* The run's one book (the firmware's processors share it; each writes only its slot). */
struct ap_msr_book *ap_msr_book(void);

/* Ask for setting w (msr 0 or bits 0: no longer); only between pieces of work on the others. */
void ap_msr_want(struct ap_msr_book *b, enum ap_msr_which w, uint32_t msr, uint64_t bits);

/* The core processor c belongs to, as ap_msr_apply takes it (never 0). */
uint64_t ap_msr_core_key(const struct plat_cpu *c);

/*
 * On processor cpu_id (book slot `slot`) of core `core` (ap_msr_core_key), before its work: for
 * every setting asked for, read the MSR, set the bits where they are clear, read it back;
 * record what was found and done (slot < PLAT_CPUS_MAX: the book has room for that many
 * processors; beyond, it is done and not recorded), and what to undo in *h. Finding set the
 * bits a sibling thread of the same core set for its work (and has not restored) shows the MSR
 * is the core's: then the last of them to finish restores it.
 */
void ap_msr_apply(struct ap_msr_book *b, unsigned slot, unsigned cpu_id, uint64_t core,
                  const struct ap_msr_ops *ops, struct ap_msr_held *h);

/*
 * After the work: write back every value ap_msr_apply changed, unless the MSR is the core's and
 * a sibling is still at work (then that sibling's restore writes it, whichever finishes last);
 * write back a value a sibling left to this one when it is the core's last. A failure is
 * counted.
 */
void ap_msr_restore(struct ap_msr_book *b, unsigned slot, const struct ap_msr_ops *ops,
                    const struct ap_msr_held *h);

/*
 * One console line per setting asked on some processor: on how many it was set for their
 * work, not kept, unreadable, not restored. Writes "" when no processor was asked any.
 */
void ap_msr_summary(const struct ap_msr_book *b, char *out, size_t cap);

/* The name of setting w for run.json ("de_cfg", "prefetch"). */
const char *ap_msr_name(enum ap_msr_which w);

#endif
