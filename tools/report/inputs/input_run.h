// SPDX-License-Identifier: MIT
// Reader of chase result folders: run.json (machine, caches, status) and every experiment CSV.
#ifndef REPORT_INPUT_RUN_H
#define REPORT_INPUT_RUN_H

#include <stddef.h>

#include "inputs/source.h"

/* Load the folder at s->path; 0, or -1 with err (capacity cap) when it holds neither run.json
 * nor an experiment CSV (a bad file in it is a warning). */
int run_load_folder(struct source *s, char *err, size_t cap);
/* Read run.json's text into s (machine, caches, status); a bad one is a warning. */
void run_load_json(struct source *s, const char *text, size_t len);
/* Read one experiment CSV text into s as experiment e (tables and curves). */
int run_load_table(struct source *s, size_t e, const char *text, size_t len, char *err, size_t cap);

#endif
