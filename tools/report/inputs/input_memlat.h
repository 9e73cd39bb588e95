// SPDX-License-Identifier: MIT
// Reader of Chips and Cheese's MemoryLatency output (clamchowder/Microbenchmarks; a row of
// inputs/readers.c).
#ifndef REPORT_INPUT_MEMLAT_H
#define REPORT_INPUT_MEMLAT_H

#include <stdbool.h>
#include <stddef.h>

#include "inputs/source.h"

/* Whether text has MemoryLatency's shape: its "Region,Latency (ns)" header, or the "Testing N KB
 * only" line a -sizekb run prints, in the first lines. */
bool foreign_is_memlat(const char *text, size_t len);
/* One random curve per run (a new one at each header; -sizekb rows join the current one), sizes
 * from KB; -test tlb runs are plotted only. 0, or -1 with err (capacity cap) when no row. (Its
 * mlp, stlf and numa tests print no such header and are not recognised.) */
int foreign_parse_memlat(const char *text, size_t len, struct source *s, char *err, size_t cap);

#endif
