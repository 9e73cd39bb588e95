// SPDX-License-Identifier: MIT
// Reader of ramlat's latency tables (wtarreau/ramspeed, as sbc-bench prints them; a row of
// inputs/readers.c).
#ifndef REPORT_INPUT_RAMLAT_H
#define REPORT_INPUT_RAMLAT_H

#include <stdbool.h>
#include <stddef.h>

#include "inputs/input_sbcbench.h"
#include "inputs/source.h"

/* ramlat has eight tests (1x32, 2x32, 1x64, 2x64, 1xPTR, 2xPTR, 4xPTR, 8xPTR), one column each. */
#define RAMLAT_MAX_COLUMNS 8

/* One ramlat table read a line at a time (by its reader and by the sbc-bench log's). */
struct ramlat_table {
    char name[RAMLAT_MAX_COLUMNS][8];         /* the header's column names */
    size_t ncols;                             /* 0 between tables */
    struct an_curve *col[RAMLAT_MAX_COLUMNS]; /* each column's curve, NULL when not kept */
    bool rows;                                /* the table has had a row */
    char cpu[SBC_CPU_BYTES]; /* "cpu0 (Cortex-A53)" of the last "Executing ramlat on cpuN"
                                line, "" before one */
    size_t tables;           /* tables read so far */
    size_t points;           /* points of the levels columns */
    size_t not_ns;           /* tables left out: not in ns (ramlat run without -n) */
};

/* Whether text has ramlat's shape: a "size:" header of ramlat's columns in the first 400 lines. */
bool foreign_is_ramlat(const char *text, size_t len);
/* Every ramlat table of text: 1xPTR (a single pointer chase) the levels curve, the other columns
 * plotted; 0, or -1 with err (capacity cap) when no table has a row in ns. */
int foreign_parse_ramlat(const char *text, size_t len, struct source *s, char *err, size_t cap);

/* The ramlat headers in text: the tables it holds. */
size_t ramlat_count_tables(const char *text, size_t len);
/* Read one line into t: an sbc-bench "Executing ramlat" line, a header, or a row (curves made at
 * a table's first row, the plotted ones while b leaves room); other lines end the table. */
void ramlat_feed(struct source *s, struct curve_budget *b, struct ramlat_table *t, const char *l,
                 size_t n);
/* The warning for tables left out as not in ns; none when there were none. */
void ramlat_warn(struct source *s, const struct ramlat_table *t);

#endif
