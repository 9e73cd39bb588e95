// SPDX-License-Identifier: MIT
// The stalls no memory explains over a whole experiment (stall_record.c), for run.json's
// "stalls" and the console's note: how many, the longest, a minute, what the SMI counter saw.
#ifndef CHASE_STALL_RECORD_H
#define CHASE_STALL_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The stalls no memory explains (batches over their median by more than beyond_ns) over every
 * point an experiment timed, and what the SMI counter saw meanwhile. */
struct stall_record {
    bool measured;            /* at least one point was timed */
    double beyond_ns;         /* a batch over its point's median by more is a stall */
    uint64_t batches;         /* timed batches, all points */
    double span_ns;           /* the time they spanned, summed over points */
    uint64_t count;           /* stalls among them */
    double longest_ns;        /* the longest stall's excess over its point's median */
    bool smi_counting;        /* MSR_SMI_COUNT was read around every window */
    uint64_t smi_count;       /* SMIs it counted over the windows (when smi_counting) */
    uint64_t dropped_windows; /* windows an NMI or machine check cost, taken again */
};

/* One point's stalls and batches, and its windows' SMI count and dropped windows. */
struct stall_point {
    uint64_t batches;
    double span_ns;
    uint64_t count;
    double longest_ns;
    bool smi_counting;
    uint64_t smi_count;
    uint64_t dropped_windows;
};

/* Add one point. */
void stall_record_add(struct stall_record *r, const struct stall_point *p);
/* Stalls a minute of timed batches (0 before any point). */
double stall_record_per_minute(const struct stall_record *r);
/*
 * The note on what the stalls are, into buf (capacity cap): "" when there were none; else that
 * they are not memory's (count, the longest, a minute) and what the SMI counter says of them:
 * SMIs counted (the firmware's), none counted (an interrupt, an NMI or a hypervisor's exit), or
 * no counter here. Returns buf.
 */
char *stall_record_note(const struct stall_record *r, bool hypervisor, char *buf, size_t cap);

#endif
