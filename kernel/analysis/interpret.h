// SPDX-License-Identifier: MIT
// One interpretation of a run: levels, DRAM, TLB steps and every experiment's verdict.
//
// The console summary (kernel/run/summary.c) and chase-report both call analysis_run() on the
// same CSV text read by the same reader (lib/csv.h), and print analysis_summary()'s block, so
// what the console says and what report.md says cannot drift apart.
//
// The driver (interpret.c) stands above what it runs: the detector (levels.h), the kinds of the
// main curve's levels (level_kind.h), TLB steps (tlb_steps.h) and the table's verdicts
// (table.h), all of which read and write the types of judge.h. Its users include this header.
#ifndef CHASE_INTERPRET_H
#define CHASE_INTERPRET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/judge.h"
#include "analysis/level_kind.h"
#include "analysis/levels.h"
#include "analysis/table.h"
#include "analysis/tlb_steps.h"
#include "analysis/verdict.h"
#include "lib/csv.h"
#include "lib/fmt.h"
#include "lib/strbuf.h"

/*
 * Curves of an experiment's table as its curve spec says (one per group value); sizes are
 * copied into arrays from plat_alloc that analysis_curves_free releases. default_page is
 * used when the table has no page_bytes column. Returns the number of curves added to
 * out (at most cap - *n), advancing *n.
 */
size_t analysis_curves_from_table(const struct an_experiment *e, const struct csv *t,
                                  double default_page, struct an_curve *out, size_t *n, size_t cap);
/* Release the arrays of curves made by analysis_curves_from_table. */
void analysis_curves_free(struct an_curve *c, size_t n);

/*
 * Analyse a run: detect levels on every curve, move TLB steps out of the levels of
 * small-page random curves (against the largest-page one), choose the primary curve and
 * judge every experiment. Never fails; r is filled completely.
 */
void analysis_run(const struct an_input *in, struct an_result *r);

/*
 * The summary of a run as plain text lines: the levels (size, ns, cycles), DRAM, and each
 * experiment's verdict headline. The console prints it; report.md and --json carry it.
 */
void analysis_summary(struct strbuf *sb, const struct an_input *in, const struct an_result *r);

#endif
