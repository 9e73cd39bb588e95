// SPDX-License-Identifier: MIT
// One chase run from start to end: configuration, timing, experiments, results, summary.
#ifndef CHASE_RUN_H
#define CHASE_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "chase/batches.h"
#include "chase/measure.h"
#include "chase/time_split.h"
#include "chase/timing.h"
#include "config/config.h"
#include "experiments/experiment.h"
#include "machine/machine.h"

struct json;
struct run_fleet;

enum exp_status { EXP_PENDING, EXP_RUNNING, EXP_OK, EXP_FAILED, EXP_SKIPPED };

struct exp_state {
    enum exp_status status;
    char reason[160];
    uint64_t wall_ticks;     /* from its start to its files written */
    struct time_split spent; /* where that time went (other: outside its points) */
    const char *prefetch;    /* the prefetchers' state it measured in ("as-is", "off") */
};

/* The inputs a platform hands to chase_main. */
struct run_inputs {
    const char *config_text; /* the configuration file's text, or NULL when absent */
    size_t config_len;
    const char *config_name;                /* "\chase\chase.cfg" */
    const char *options;                    /* load options / command line words, or NULL */
    uint64_t start_time_unix;               /* 0 when unknown */
    char start_time[32];                    /* ISO 8601, "" when unknown */
    measure_fn measure;                     /* NULL: time on the CPU (measure_chase) */
    int (*batches)(struct batch_window *w); /* NULL: batch_window_run, on the CPU */
    const struct timing *timing;            /* NULL: calibrate; else use these clocks (chase-sim) */
    const char *simulated; /* NULL, or the simulated hierarchy (chase-sim) for run.json */
    /* NULL, or what writes the platform's own last members of run.json (chase-sim's leader
       sets) through j, given json_extra_ctx */
    void (*json_extra)(struct json *j, const void *ctx);
    const void *json_extra_ctx;
    struct run_fleet *fleet; /* the boot NIC in, run id and results keys out (run/ship.h); NULL:
                                chase_main keeps its own (chase-host, chase-sim) */
};

enum run_outcome {
    RUN_OK,           /* every experiment ran (some may have failed) */
    RUN_HELP,         /* help was asked for and shown */
    RUN_CONFIG_ERROR, /* nothing ran: the configuration had errors */
    RUN_NO_MEMORY,    /* nothing ran: the buffer could not be had */
    RUN_PANIC         /* a CPU exception outside a window stopped the run */
};

/*
 * Run chase on machine m with the given inputs: banner, configuration, timing,
 * every experiment (files written after each), summary. *on_exit receives what
 * the configuration says to do at the end.
 */
enum run_outcome chase_main(struct machine *m, const struct run_inputs *in, enum on_exit *on_exit);

/*
 * The panic path: a CPU exception outside any window (f says which). Prints the panic
 * screen and saves run.json (status "panic") and console.txt as far as it can.
 */
void run_panic(const struct fault_info *f);

/* A process exit status for an outcome: 0 ok or help, 2 configuration, 3 memory, 4 panic. */
int run_exit_status(enum run_outcome outcome);

/* Print the keys and experiments (the help text). */
void chase_print_help(const struct machine *m);

#endif
