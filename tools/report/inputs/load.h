// SPDX-License-Identifier: MIT
// Loading one input of chase-report: a folder, a CSV by its name, other text by its shape.
#ifndef REPORT_LOAD_H
#define REPORT_LOAD_H

#include <stddef.h>

#include "inputs/source.h"

/*
 * Load the input at path: a chase result folder, a chase experiment CSV, or the text output
 * of lmbench lat_mem_rd (or an lmbench results file), random-chase, tinymembench, multichase -v
 * or MemoryLatency, recognised by shape (inputs/readers.c). s must be zeroed. Returns 0, or -1
 * with err (capacity cap) saying why; a file no reader takes gets one line naming each format
 * tried and what it looked for.
 */
int source_load(const char *path, struct source *s, char *err, size_t cap);
/*
 * Read the len bytes at text as the file s->path names (set by the caller): a name ending in
 * ".csv" is a chase experiment CSV, anything else is recognised by shape as in source_load.
 * Returns 0, or -1 with err (capacity cap). The path-free entry of the readers (fuzzing, tests).
 */
int source_load_text(struct source *s, const char *text, size_t len, char *err, size_t cap);

#endif
