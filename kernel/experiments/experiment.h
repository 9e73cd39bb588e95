// SPDX-License-Identifier: MIT
// The experiment table: one row per experiment drives help, keys, defaults, CSV and "run all".
#ifndef CHASE_EXPERIMENT_H
#define CHASE_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

#include "chase/measure.h"
#include "chase/time_split.h"
#include "chase/timing.h"
#include "config/config.h"
#include "lib/strbuf.h"
#include "machine/machine.h"
#include "platform.h"

/* What the experiments of a run share: the machine, clocks, buffer and the files being written. */
struct exp_ctx {
    const struct machine *m;
    const struct chase_config *cfg;
    const struct timing *timing;
    measure_fn measure; /* how points are measured (timed, or simulated) */
    struct plat_buffer buffer;
    struct strbuf csv;       /* the running experiment's <name>.csv */
    struct strbuf samples;   /* the running experiment's <name>.samples.csv */
    char failure[200];       /* why the running experiment failed */
    struct time_split spent; /* the running experiment's points: where their time went */
    unsigned fault_test;     /* FAULT_TEST_* for the first point of this experiment */
};

/* What an experiment's run returns besides 0 (every point measured). */
#define EXP_RUN_FAILED (-1) /* ctx->failure says why */
#define EXP_RUN_SKIPPED 1   /* nothing could be measured here; ctx->failure says why */

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
