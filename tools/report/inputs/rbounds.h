// SPDX-License-Identifier: MIT
// The ranges a number read from an input may take, by the unit its name carries: what lies
// outside is refused at the reader, with the file and the field named, before any math sees it.
#ifndef REPORT_RBOUNDS_H
#define REPORT_RBOUNDS_H

#include <stdbool.h>
#include <stddef.h>

#include "inputs/rjson.h"
#include "lib/csv.h"

struct source;

/* What a field's name says it holds, and the range accepted for it. */
struct rbound {
    const char *unit; /* "bytes", "ns", "cycles", "Hz", "GB/s" or "" (a plain count or id) */
    double lo, hi;
};

/* The range for a field named name (a CSV column or a JSON member): by the unit token in the
 * name ("size_bytes", "ns_median", "core_cycles_p90", "core_hz", "gbs_total"), else the range
 * of a plain number. */
struct rbound rbound_for(const char *name);
/* Whether v (finite) lies in b's range. */
bool rbound_holds(struct rbound b, double v);

/* Check every number of t, read from the file named file, against its column's range: cells
 * outside become NaN (no value: rows without a size or a latency are no points) and each such
 * column gets one warning on s naming the file, the column, how many rows and the first value. */
void rbounds_csv(struct source *s, const char *file, struct csv *t);
/* The same over every number of a parsed run.json: members outside their range become null (as
 * if absent) and each is warned about with its path ("caches[2].size_bytes"), up to a few. */
void rbounds_json(struct source *s, const char *file, struct rjson *root);

/* The same over the points of every curve a foreign tool's output gave (file names it): a point
 * whose size or latency is out of range is removed, a core-cycle count out of range becomes NaN;
 * one warning per curve that lost points. */
void rbounds_curves(struct source *s, const char *file);

#endif
