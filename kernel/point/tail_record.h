// SPDX-License-Identifier: MIT
// What the tail experiment leaves beyond its files (tail_record.c): the stalls no memory
// explains over all its points for run.json, and the DIMMs' memory type for its rows.
#ifndef CHASE_TAIL_RECORD_H
#define CHASE_TAIL_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "point/tail_stats.h"

struct machine;

/* The stalls no memory explains (tail_stats.h's TAIL_STALL_BEYOND_NS) over every point the
 * tail experiment timed, and what the SMI counter saw meanwhile: run.json's "stalls". */
struct tail_stall_record {
    bool measured;            /* at least one point was timed */
    uint64_t batches;         /* timed batches, all points */
    double span_ns;           /* the time they spanned, summed over points */
    uint64_t count;           /* stalls among them */
    double longest_ns;        /* the longest stall's excess over its point's median */
    bool smi_counting;        /* MSR_SMI_COUNT was read around every window */
    uint64_t smi_count;       /* SMIs it counted over the windows (when smi_counting) */
    uint64_t dropped_windows; /* windows an NMI or machine check cost, taken again */
};

/* Add one point: its stalls, its batches, and its windows' SMI count and dropped windows. */
void tail_record_add(struct tail_stall_record *r, const struct tail_stalls *st, uint64_t batches,
                     bool smi_counting, uint64_t smi, uint64_t dropped);
/* Stalls a minute of timed batches (0 before any point). */
double tail_record_per_minute(const struct tail_stall_record *r);
/*
 * The note on what the stalls are, into buf (capacity cap): "" when there were none; else that
 * they are not memory's (count, the longest, a minute) and what the SMI counter says of them:
 * SMIs counted (then SMIs explain them), none counted (an interrupt or a hypervisor's exit),
 * or no counter here. Returns buf.
 */
char *tail_record_note(const struct tail_stall_record *r, bool hypervisor, char *buf, size_t cap);

/* The type of the installed memory devices SMBIOS type 17 lists ("DDR5"); "mixed" when they
 * differ, "unknown" when it lists none installed, "none" when no SMBIOS table was read. */
const char *tail_dram_type(const struct machine *m);

#endif
