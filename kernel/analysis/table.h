// SPDX-License-Identifier: MIT
// The report side of each experiment, one definition per kernel/analysis/<name>.c.
#ifndef CHASE_ANALYSIS_TABLE_H
#define CHASE_ANALYSIS_TABLE_H

#include "analysis/interpret.h"

extern const struct an_experiment analysis_random;
extern const struct an_experiment analysis_linear;
extern const struct an_experiment analysis_fused;
extern const struct an_experiment analysis_dual;
extern const struct an_experiment analysis_scan;
extern const struct an_experiment analysis_ring;
extern const struct an_experiment analysis_offset;
extern const struct an_experiment analysis_parallel;
extern const struct an_experiment analysis_tlb;

#endif
