// SPDX-License-Identifier: MIT
// The run's machine checks: the banks of one processor per package, read before the run and
// after each experiment, said on the console, in the summary and in run.json's "machine_checks".
#ifndef CHASE_MACHINE_CHECKS_H
#define CHASE_MACHINE_CHECKS_H

#include <stddef.h>

#include "machine/machine.h"
#include "machine/mca.h"

/* Packages whose banks are read (a memory controller's bank is package-scoped: each socket's
 * own); more are counted and said. SMBIOS_PROCESSORS_MAX keeps as many sockets. */
#define MCHECK_PACKAGES_MAX 8

struct json;

/* The banks as read, per package. */
struct mcheck {
    unsigned n;              /* packages read, log[0] the one running chase */
    unsigned packages_total; /* packages seen among the processors */
    struct mca_log log[MCHECK_PACKAGES_MAX];
    unsigned package[MCHECK_PACKAGES_MAX];
    int cpu[MCHECK_PACKAGES_MAX];         /* plat_cpu id read on; -1: the one running chase */
    bool one_window[MCHECK_PACKAGES_MAX]; /* the last read took every status in one window */
    const struct machine *m;
};

/*
 * The first read, and the banner's "mca" lines: on the processor running chase and, on the
 * bare machine (ring 0), on one processor of every other package; the bank count and every
 * error already logged. Nothing is read for a modelled machine (chase-sim).
 */
void mcheck_begin(struct mcheck *w, const struct machine *m);

/* Read the banks again after part `when` (an experiment's name, "end of run") and print each
 * new error; a memory-controller error adds that DRAM figures are suspect. */
void mcheck_after(struct mcheck *w, const char *when);

/* The summary's line about machine checks into out (cap bytes); "" when none were logged. */
const char *mcheck_summary(const struct mcheck *w, char *out, size_t cap);

/* The serial log's summary items: one "machine_check" per logged error, then "machine_checks"
 * with the counts (nothing when the serial log is off or the banks were not read). */
void mcheck_slog(const struct mcheck *w);

/* run.json's "machine_checks": packages, banks, every logged error, dram_suspect. */
void mcheck_json(struct json *j, const struct mcheck *w);

#endif
