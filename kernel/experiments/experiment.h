// SPDX-License-Identifier: MIT
// The experiment table: one row per experiment drives help, keys, defaults, CSV and "run all".
#ifndef CHASE_EXPERIMENT_H
#define CHASE_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "point/ctx.h"

/*
 * One row of the table. cfg is what the configuration needs (name, keys, parameter struct
 * size, defaults, checks, buffer size); the rest is what running and describing it need.
 */
struct experiment {
    struct cfg_section cfg;
    const char *describe; /* one line: what it measures */
    const char *why;      /* one line: what the result tells, printed in its header */
    /* Run every point; returns 0, EXP_RUN_FAILED or EXP_RUN_SKIPPED. */
    int (*run)(struct exp_ctx *ctx, const void *params);
};

/* The experiments in their default run order, and their count. */
extern const struct experiment *const experiment_table[];
extern const size_t experiment_count;
/* The same table as the configuration's sections (for cfg_read_file and cfg_resolve). */
extern const struct cfg_table experiment_cfg_table;

#endif
