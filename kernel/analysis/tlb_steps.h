// SPDX-License-Identifier: MIT
// TLB steps (tlb_steps.c): where a smaller page size pays TLB misses that a larger one does not.
#ifndef CHASE_TLB_STEPS_H
#define CHASE_TLB_STEPS_H

#include "analysis/judge.h"

/*
 * Compare the small-page curve c (its result cr) with the larger-page curve ref (result
 * rr): steps of c that ref does not have are TLB steps, moved out of cr's levels.
 */
void analysis_tlb_classify(const struct an_curve *c, struct an_curve_result *cr,
                           const struct an_curve *ref, const struct an_curve_result *rr);
/* The analysed tlb-experiment curve (role AN_ROLE_TLB) with the largest pages, or -1; count gets
 * how many such curves were analysed. */
int analysis_tlb_reference(const struct an_input *in, const struct an_result *r, size_t *count);
/* The TLB steps of curve c over the larger-page curve ref (reach, c's page size, penalty ns),
 * at most cap into out; returns how many. */
size_t analysis_tlb_penalty_steps(const struct an_curve *c, const struct an_curve *ref,
                                  struct verdict_tlb_step *out, size_t cap);
/* The reference curve ref's own TLB steps: its steps where no cache can be (they need CPUID's
 * caches to tell; 0 without them), at most cap into out; returns how many. */
size_t analysis_tlb_own_steps(const struct an_input *in, const struct an_result *r, int ref,
                              struct verdict_tlb_step *out, size_t cap);
/* The tlb experiment's steps (reach, page size, penalty) over every page size it measured,
 * against its largest page size; 0 when it did not run. */
size_t analysis_tlb_steps(const struct an_input *in, const struct an_result *r,
                          struct verdict_tlb_step *out, size_t cap);

#endif
