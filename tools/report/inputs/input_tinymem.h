// SPDX-License-Identifier: MIT
// Readers of tinymembench's latency table and of multichase -v output (rows of inputs/readers.c).
#ifndef REPORT_INPUT_TINYMEM_H
#define REPORT_INPUT_TINYMEM_H

#include <stdbool.h>
#include <stddef.h>

#include "inputs/source.h"

/* Whether text has tinymembench's shape: a "block size : ... random read" table header. */
bool foreign_is_tinymembench(const char *text, size_t len);
/* The single and dual random read curves of each table (relative to an L1 hit); 0, or -1 with
 * err (capacity cap) when there is no data row. */
int foreign_parse_tinymembench(const char *text, size_t len, struct source *s, char *err,
                               size_t cap);
/* Whether text has multichase -v's shape: total_memory and stride settings in its first lines. */
bool foreign_is_multichase(const char *text, size_t len);
/* One curve per distinct setting (chase, stride, pages, threads), a point per run; 0, or -1 with
 * err (capacity cap) when no run has a result after its total_memory. */
int foreign_parse_multichase(const char *text, size_t len, struct source *s, char *err, size_t cap);

#endif
