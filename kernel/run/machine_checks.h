// SPDX-License-Identifier: MIT
// The run's machine checks: the banks read before the run and after each experiment, said on
// the console, in the summary and in run.json's "machine_checks".
#ifndef CHASE_MACHINE_CHECKS_H
#define CHASE_MACHINE_CHECKS_H

#include <stddef.h>

#include "machine/machine.h"
#include "machine/mca.h"

struct json;

/*
 * The first read, on the processor running chase (its thread, core and package banks), and
 * the banner's "mca" line(s): the bank count and every error already logged. Nothing is read
 * for a modelled machine (chase-sim); l->supported then stays false.
 */
void mcheck_begin(struct mca_log *l, const struct machine *m);

/* Read the banks again after part `when` (an experiment's name, "end of run") and print each
 * new error; a memory-controller error adds that DRAM figures are suspect. */
void mcheck_after(struct mca_log *l, const char *when);

/* The summary's line about machine checks into out (cap bytes); "" when none were logged. */
const char *mcheck_summary(const struct mca_log *l, char *out, size_t cap);

/* run.json's "machine_checks": banks, every logged error, dram_suspect. */
void mcheck_json(struct json *j, const struct mca_log *l);

#endif
