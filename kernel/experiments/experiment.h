// SPDX-License-Identifier: MIT
// The experiment table: one row per experiment drives help, keys, defaults, CSV and "run all".
#ifndef CHASE_EXPERIMENT_H
#define CHASE_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "machine/machine.h"

struct run_ctx;

/* Cross-checks report through this, naming the key whose setting is wrong. */
struct cfg_check {
    const struct cfg_entries *entries;
    struct cfg_errors *errs;
    const char *experiment;
};

/* Report a contradiction for key (without the experiment prefix), at the source that set it. */
void cfg_check_fail(struct cfg_check *c, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* What an experiment's run returns besides 0 (every point measured). */
#define EXP_RUN_FAILED (-1) /* ctx->failure says why */
#define EXP_RUN_SKIPPED 1   /* nothing could be measured here; ctx->failure says why */

struct experiment {
    const char *name;
    const char *describe; /* one line: what it measures */
    const char *why;      /* one line: what the result tells, printed in its header */
    const struct key_desc *keys;
    size_t nkeys;
    size_t params_offset; /* of its parameter struct in struct chase_config */
    size_t params_size;
    const char *size_key; /* the key that sets how much buffer it needs */
    /* Defaults derived from the machine and the profile. */
    void (*defaults)(void *params, const struct machine *m, enum profile profile);
    /* Values left "auto" computed from the machine and the other keys (NULL: none). */
    void (*resolve)(void *params, const struct machine *m);
    /* Contradictions between keys (min > max, ...). */
    void (*check)(const void *params, const struct machine *m, struct cfg_check *c);
    /* Bytes of chase buffer the plan needs. */
    uint64_t (*buffer_bytes)(const void *params);
    /* Run every point; returns 0, EXP_RUN_FAILED or EXP_RUN_SKIPPED. */
    int (*run)(struct run_ctx *ctx, const void *params);
};

extern const struct experiment *const experiment_table[];
extern const size_t experiment_count;

/* The experiment called name, or NULL. */
const struct experiment *experiment_find(const char *name);
/* Index of the experiment called name in the table, or -1. */
int experiment_index(const char *name);

static inline void *experiment_params(const struct experiment *x, struct chase_config *cfg)
{
    return (char *)cfg + x->params_offset;
}

static inline const void *experiment_params_const(const struct experiment *x,
                                                  const struct chase_config *cfg)
{
    return (const char *)cfg + x->params_offset;
}

/* Row of experiment_table for each experiment (defined in its own file). */
extern const struct experiment experiment_random;
extern const struct experiment experiment_linear;
extern const struct experiment experiment_fused;
extern const struct experiment experiment_dual;
extern const struct experiment experiment_scan;
extern const struct experiment experiment_ring;
extern const struct experiment experiment_offset;
extern const struct experiment experiment_parallel;
extern const struct experiment experiment_tlb;

#endif
