// SPDX-License-Identifier: MIT
// Readers of lmbench (lat_mem_rd, its results files) and afborchert random-chase output (rows of
// inputs/readers.c).
#ifndef REPORT_INPUT_LMBENCH_H
#define REPORT_INPUT_LMBENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "inputs/source.h"

/* Whether text has lat_mem_rd's shape: a "stride=N header in its first lines, or rows of a size
 * in MiB rising from under 1 MiB and a latency (the data lines pasted without the header). */
bool foreign_is_lmbench(const char *text, size_t len);
/* One curve per stride block (and per sweep of a headerless paste, a new one each time the size
 * falls); blocks after a "Random load latency" banner are random curves (lat_mem_rd -t),
 * the others ring curves. 0, or -1 with err (capacity cap) when no data line. */
int foreign_parse_lmbench(const char *text, size_t len, struct source *s, char *err, size_t cap);
/* Whether text is a raw lmbench results file: a "[lmbench... results for" first line. */
bool foreign_is_lmbench_results(const char *text, size_t len);
/* The lat_mem_rd blocks of a results file ("Memory load latency": ring curves; "Random load
 * latency": random curves); 0, or -1 with err (capacity cap) when it has none. */
int foreign_parse_lmbench_results(const char *text, size_t len, struct source *s, char *err,
                                  size_t cap);
/* Whether text is lmbench's summary (make see): a "Memory latencies in nanoseconds" table. */
bool foreign_is_lmbench_summary(const char *text, size_t len);
/* Always -1: the summary has latencies without sizes; err (capacity cap) says so. */
int foreign_parse_lmbench_summary(const char *text, size_t len, struct source *s, char *err,
                                  size_t cap);
/* Whether text has random-chase's shape: a "memsize ... time in ns" header in its first lines. */
bool foreign_is_random_chase(const char *text, size_t len);
/* One random curve; 0, or -1 with err (capacity cap) when no data line. */
int foreign_parse_random_chase(const char *text, size_t len, struct source *s, char *err,
                               size_t cap);

#endif
