// SPDX-License-Identifier: MIT
// The fleet report's words shared by its Markdown, JSON and HTML: values, group states, flags.
#ifndef REPORT_FLEET_TEXT_H
#define REPORT_FLEET_TEXT_H

#include <stddef.h>

#include "fleet/fleet.h"

/* The envelope rule in one paragraph, as every output states it. */
#define FLEET_RULE_TEXT                                                                            \
    "Envelope: for each figure, a group's median +- 3 robust standard deviations (1.4826 x the "   \
    "median absolute deviation, never less than what the runs could resolve: their precision "     \
    "setting for times and rates, the size step of the curve the levels come from for sizes). "    \
    "A machine outside it is flagged. Groups of fewer than 3 machines are not judged on their "    \
    "own: they are held against the largest group of the same CPU if there is one, and "           \
    "otherwise said to be too small to judge."

/* A figure's value for people: a size for bytes ("32M"), else two decimals; "-" when NaN. */
void fleet_value_text(char *out, size_t cap, double v, const char *unit);
/* Whether group g is judged, held against another or too small, in words. */
void fleet_group_status(const struct fleet *f, size_t g, char *out, size_t cap);
/* One flag as a sentence: machine, figure, value, median, envelope, difference, identity. */
void fleet_flag_text(const struct fleet *f, const struct fleet_flag *fl, char *out, size_t cap);
/* Decimals a figure of this unit is written with in JSON. */
int fleet_decimals(const char *unit);

#endif
