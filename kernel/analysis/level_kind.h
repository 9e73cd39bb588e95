// SPDX-License-Identifier: MIT
// What each level of the run's main curve is (level_kind.c): a cache, a TLB's reach, uncertain.
#ifndef CHASE_LEVEL_KIND_H
#define CHASE_LEVEL_KIND_H

#include "analysis/judge.h"

/*
 * Mark the primary curve's levels: kind (cache; tlb at a reach the run's tlb experiment measured
 * with no CPUID cache near it; uncertain where a step could be a TLB's reach, confidence halved)
 * and a note when the last cache is well below CPUID's (shared).
 */
void analysis_level_kinds(const struct an_input *in, struct an_result *r);
/* Size beyond which curve c may pay a page walk on every load: the largest common TLB reach
 * with 4K pages when c's pages are 4K or a hypervisor may back them with 4K pages; 0 when
 * c's pages are larger (or unknown, foreign curves) and no hypervisor is known. */
double analysis_walk_bytes(const struct an_input *in, const struct an_curve *c);

#endif
