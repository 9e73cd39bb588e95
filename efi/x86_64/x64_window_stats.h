// SPDX-License-Identifier: MIT
// What measurement windows did, kept per processor (no count shared between them) and summed.
#ifndef CHASE_EFI_X64_WINDOW_STATS_H
#define CHASE_EFI_X64_WINDOW_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "platform.h"

/*
 * One processor's windows: written only on that processor (by its windows and its NMI
 * handler, which finds this record through the IDT it loaded), so no update is shared between
 * processors and none needs an atomic; a report sums the records.
 */
struct window_stats {
    uint64_t windows;
    uint64_t longest_ticks;  /* interrupts off, TSC ticks, from cli to the flags restored */
    uint64_t nmis;           /* NMIs this processor took inside its windows */
    uint64_t nmi_windows;    /* windows an NMI came into (their results dropped) */
    uint64_t machine_checks; /* machine checks inside windows */
};

/*
 * Count one window of ticks on the processor that s is the record of: machine_check when a
 * machine check ended it, nmis_before the record's NMI count when it began. Returns true when
 * this processor took an NMI during it (its timing is lost); another processor's NMIs never
 * count here.
 */
bool window_stats_count(struct window_stats *s, uint64_t ticks, bool machine_check,
                        uint64_t nmis_before);

/* Add processor record s into sum: counts added, the longest window the longest of both. */
void window_stats_add(struct window_stats *sum, const struct window_stats *s);

/* Add processor record s into the window counts of report r, as window_stats_add does. */
void window_stats_report(struct window_report *r, const struct window_stats *s);

#endif
