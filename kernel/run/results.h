// SPDX-License-Identifier: MIT
// run.json: everything needed to interpret a run's CSV files, rewritten after each experiment.
#ifndef CHASE_RESULTS_H
#define CHASE_RESULTS_H

#include "config/config.h"
#include "machine/machine.h"
#include "run/run.h"
#include "lib/strbuf.h"
#include "chase/timing.h"

struct json;
struct prefetch_run;
struct stall_record;

struct run_record {
    const char *status; /* "running", "complete", "config_error", "no_memory" */
    const struct machine *m;
    const struct chase_config *cfg;   /* NULL when the configuration did not resolve */
    const struct timing *timing;      /* NULL before calibration */
    const struct plat_buffer *buffer; /* NULL before allocation */
    const struct exp_state *exps;     /* indexed like experiment_table */
    const char *start_time;
    const char *end_time;
    const char *running;                 /* the experiment in progress, or NULL */
    const char *simulated;               /* the simulated hierarchy, or NULL for a measured run */
    const struct prefetch_run *prefetch; /* what the prefetch key did, or NULL */
    void (*json_extra)(struct json *j, const void *ctx); /* run_inputs' json_extra, or NULL */
    const void *json_extra_ctx;
    const struct mcheck *mca;      /* the machine-check banks (run/machine_checks.h), or NULL */
    const struct run_fleet *fleet; /* run id, machine name, boot NIC (run/ship.h); NULL before */
    const struct stall_record *stalls; /* stalls no memory explains (measured: seen), or NULL */
};

/* Write run.json for the record into out (replacing its content). */
void results_run_json(struct strbuf *out, const struct run_record *r);

/* Write the machine's memory types, prefetch, SMT and boost facts as run.json members. */
void results_machine_json(struct json *j, const struct run_record *r);
/* run.json's "aarch64" object: the ID registers, exception level, MAIR, TCR and the timer
   (nothing when a->read is false: not chase.efi on AArch64). */
struct arm_regs;
void results_arm_json(struct json *j, const struct arm_regs *a);

/* Write the stalls the tail experiment saw that no memory explains as "stalls" (null when it
   did not run): count, longest, per minute, the SMI counter's count and the note. */
void results_stalls_json(struct json *j, const struct run_record *r);

/* Write the SMBIOS identity, microcode and memory encryption as "machine_identity". */
void results_identity_json(struct json *j, const struct run_record *r);

/* Write the memory nodes (ranges, processors, SLIT) as the run.json member "memory_nodes", and
   the firmware's HMAT as "hmat". */
void results_nodes_json(struct json *j);

/* Write the effective configuration as a JSON object member "config". */
void results_config_json(struct json *j, const struct chase_config *cfg);

#endif
