// SPDX-License-Identifier: MIT
// One chase run from start to end: configuration, timing, experiments, results, summary.
#ifndef CHASE_RUN_H
#define CHASE_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "run/findings.h"
#include "machine/machine.h"
#include "lib/strbuf.h"
#include "chase/measure.h"
#include "chase/time_split.h"
#include "chase/timing.h"

enum exp_status { EXP_PENDING, EXP_RUNNING, EXP_OK, EXP_FAILED, EXP_SKIPPED };

struct exp_state {
    enum exp_status status;
    char reason[160];
    uint64_t wall_ticks;    /* from its start to its files written */
    struct time_split spent; /* where that time went (other: outside its points) */
};

/* The inputs a platform hands to chase_main. */
struct run_inputs {
    const char *config_text;   /* the configuration file's text, or NULL when absent */
    size_t config_len;
    const char *config_name;   /* "\chase\chase.cfg" */
    const char *options;       /* load options / command line words, or NULL */
    uint64_t start_time_unix;  /* 0 when unknown */
    char start_time[32];       /* ISO 8601, "" when unknown */
    measure_fn measure;        /* NULL: time on the CPU (measure_chase) */
    const struct timing *timing; /* NULL: calibrate; else use these clocks (chase-sim) */
    const char *simulated;     /* NULL, or the simulated hierarchy (chase-sim) for run.json */
};

/* The chase buffer the platform provides. */
struct run_buffer {
    uint8_t *virt;
    uint64_t phys;
    uint64_t size_bytes;
    uint64_t page_bytes;       /* page size it is mapped with */
    const char *page_source;   /* how that page size was obtained */
    uint64_t table_pages;      /* 4 KiB pages of chase's own page tables (0: none built) */
    uint64_t identity_top;     /* chase's tables identity-map [0, identity_top) */
    uint64_t align_bytes;      /* the buffer's physical alignment */
};

/*
 * Allocate the chase buffer: at least size_bytes, aligned to align_bytes.
 * Returns 0, or -1 with a reason in why (capacity why_cap).
 */
int plat_buffer_alloc(uint64_t size_bytes, uint64_t align_bytes, struct run_buffer *b,
                      char *why, size_t why_cap);
/*
 * Map the chase buffer with pages of page_bytes (4K, 2M or 1G) from now on.
 * Returns 0, or -1 with the reason in why (the CPU or OS cannot give that size).
 */
int plat_buffer_set_pages(struct run_buffer *b, uint64_t page_bytes, char *why, size_t why_cap);
/* Give the chase buffer back. */
void plat_buffer_free(struct run_buffer *b);

/* State shared by the experiments of a run. */
struct run_ctx {
    const struct machine *m;
    const struct chase_config *cfg;
    const struct timing *timing;
    measure_fn measure;     /* how points are measured (timed, or simulated) */
    struct run_buffer buffer;
    struct strbuf csv;      /* the running experiment's <name>.csv */
    struct strbuf samples;  /* the running experiment's <name>.samples.csv */
    char failure[200];      /* why the running experiment failed */
    struct time_split spent; /* the running experiment's points: where their time went */
    unsigned fault_test;    /* FAULT_TEST_* for the first point of this experiment */
    /* The random sweep's curve, for the summary. */
    uint64_t curve_size[256];
    double curve_ns[256], curve_cycles[256];
    unsigned curve_n;
    struct findings found;  /* what the other experiments found, for the summary */
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
enum run_outcome chase_main(struct machine *m, const struct run_inputs *in,
                            enum on_exit *on_exit);

/*
 * Record why the point of size `size` could not be measured (the CPU exception in
 * r->fault, or lack of memory) in ctx->failure, and print it.
 */
void run_point_failed(struct run_ctx *ctx, const struct point_result *r, uint64_t size);

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
