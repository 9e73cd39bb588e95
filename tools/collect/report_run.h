// SPDX-License-Identifier: MIT
// Running chase-report --json on a run folder: the levels and verdicts the index stores.
#ifndef COLLECT_REPORT_RUN_H
#define COLLECT_REPORT_RUN_H

#include <stddef.h>

/* chase-report beside this program (build/chase-report next to build/chase-collect), into out;
   "chase-report" (found on PATH) when that cannot be read. */
void report_default_path(char *out, size_t cap);
/*
 * Run `report --json dir`, its standard error discarded, for at most REPORT_TIMEOUT_S. Returns
 * its output (malloc'd, NUL-terminated) when it exits 0; NULL with err (of capacity cap) else.
 */
char *report_json(const char *report, const char *dir, char *err, size_t cap);

#endif
