// SPDX-License-Identifier: MIT
// Readers of tinymembench's latency table and of multichase -v output (rows of inputs/readers.c).
#ifndef REPORT_INPUT_TINYMEM_H
#define REPORT_INPUT_TINYMEM_H

#include <stdbool.h>
#include <stddef.h>

#include "inputs/input_sbcbench.h"
#include "inputs/source.h"

/* Whether text has tinymembench's shape: a "block size : ... random read" table header. */
bool foreign_is_tinymembench(const char *text, size_t len);
/* The single and dual random read curves of each table (relative to an L1 hit); 0, or -1 with
 * err (capacity cap) when there is no data row. */
int foreign_parse_tinymembench(const char *text, size_t len, struct source *s, char *err,
                               size_t cap);
/* One tinymembench table read a line at a time (by its reader and by the sbc-bench log's). */
struct tiny_table {
    struct an_curve *single, *dual; /* the table being read; NULL between tables */
    char cpu[SBC_CPU_BYTES];        /* "cpu4 (Cortex-A72)" of the last "Executing benchmark on
                                       cpuN" line of sbc-bench, "" before one */
    size_t points;                  /* single-read points read so far */
    int group;                      /* the curves' group: one more at each cpu line */
};
/* The "block size : ... random read" headers in text: the tables it holds. */
size_t tiny_count_tables(const char *text, size_t len);
/* Read one line into t: an sbc-bench cpu line, a table header (two curves, the dual one while b
 * leaves room) or a row; other lines end the table being read. */
void tiny_feed(struct source *s, struct curve_budget *b, struct tiny_table *t, const char *l,
               size_t n);
/* The warning every source with tinymembench curves gets: its times are relative to L1. */
void tiny_warn_relative(struct source *s);
/* Whether text has multichase -v's shape: total_memory and stride settings in its first lines. */
bool foreign_is_multichase(const char *text, size_t len);
/* One curve per distinct setting (chase, stride, pages, threads), a point per run; 0, or -1 with
 * err (capacity cap) when no run has a result after its total_memory. */
int foreign_parse_multichase(const char *text, size_t len, struct source *s, char *err, size_t cap);

#endif
