// SPDX-License-Identifier: MIT
// The end-of-run summary: the run's interpretation (kernel/analysis) and where the files are.
#ifndef CHASE_SUMMARY_H
#define CHASE_SUMMARY_H

#include <stdint.h>

#include "lib/strbuf.h"
#include "run/run.h"

/* What the summary reads: the experiments that ran, each with the CSV text it wrote. */
struct summary_input {
    const struct machine *m;
    const char *names[EXPERIMENTS_MAX];        /* in run order */
    const struct strbuf *csv[EXPERIMENTS_MAX]; /* <name>.csv as written */
    unsigned n;
    uint64_t page_bytes;        /* the buffer's page size at the end of the run */
    const char *where;          /* where the files are, for people */
    const char *machine_checks; /* the machine-check line (run/machine_checks.h), "" or NULL */
};

/*
 * The summary's text: analysis_summary() of the CSVs as chase-report reads them (levels,
 * DRAM, TLB steps, every verdict), then the hypervisor note and where the files are. A CSV
 * that does not parse is named and left out.
 */
void summary_write(struct strbuf *sb, const struct summary_input *in);

/* Print the summary of the run and where its files are (ctx is not used). */
void summary_print(const struct summary_input *in);

#endif
