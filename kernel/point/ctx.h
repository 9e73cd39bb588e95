// SPDX-License-Identifier: MIT
// What the experiments of a run share: the machine, clocks, buffer and the files being written.
#ifndef CHASE_POINT_CTX_H
#define CHASE_POINT_CTX_H

#include <stddef.h>
#include <stdint.h>

#include "chase/batches.h"
#include "chase/measure.h"
#include "chase/time_split.h"
#include "chase/timing.h"
#include "config/config.h"
#include "lib/strbuf.h"
#include "machine/machine.h"
#include "platform.h"

struct stall_record;

/* What the experiments of a run share: the machine, clocks, buffer and the files being written. */
struct exp_ctx {
    const struct machine *m;
    const struct chase_config *cfg;
    const struct timing *timing;
    measure_fn measure;                     /* how points are measured (timed, or simulated) */
    int (*batches)(struct batch_window *w); /* timed batches (NULL: batch_window_run) */
    struct plat_buffer buffer;
    struct strbuf csv;       /* the running experiment's <name>.csv */
    struct strbuf samples;   /* the running experiment's <name>.samples.csv */
    char failure[200];       /* why the running experiment failed */
    struct time_split spent; /* the running experiment's points: where their time went */
    unsigned fault_test;     /* FAULT_TEST_* for the first point of this experiment */

    struct stall_record *stalls; /* stalls no memory explains, for run.json (NULL: none) */
};

/* What an experiment's run returns besides 0 (every point measured). */
#define EXP_RUN_FAILED (-1) /* ctx->failure says why */
#define EXP_RUN_SKIPPED 1   /* nothing could be measured here; ctx->failure says why */

#endif
