// SPDX-License-Identifier: MIT
// An experiment's side files in a run folder: its histogram (<exp>.hist.csv) and its time series
// of slow batches (<exp>.samples.csv), each kept when it has the columns the report reads, and
// the second table its verdict reads (<exp>.<side_table>.csv).
#ifndef REPORT_INPUT_SIDE_H
#define REPORT_INPUT_SIDE_H

#include <stddef.h>

#include "inputs/source.h"

/*
 * Read the second table of experiment e (its analysis's side_table, whatever its columns) and,
 * for one whose analysis describes a distribution (an_dist), its side files
 * from the folder s->path into s->side[e]: <exp>.hist.csv with the size, bin and count columns;
 * <exp>.samples.csv with the size, time and excess columns. A file that is absent or lacks
 * those columns is left out; one that cannot be read or parsed is a warning on s.
 */
void run_load_sides(struct source *s, size_t e);

#endif
