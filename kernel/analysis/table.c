// SPDX-License-Identifier: MIT
// The analysis table: every experiment's report side, in the order reports list them.
#include "analysis/table.h"

#include "lib/kstring.h"

/* Each defined in its own kernel/analysis/<name>.c. */
extern const struct an_experiment analysis_tail;
extern const struct an_experiment analysis_random, analysis_linear, analysis_fused, analysis_dual,
    analysis_scan, analysis_ring, analysis_offset, analysis_parallel, analysis_tlb, analysis_cores,
    analysis_c2c, analysis_loaded, analysis_numa, analysis_bandwidth, analysis_bw_cores,
    analysis_atomics;

static const struct an_experiment *const experiments[] = {
    &analysis_random,  &analysis_linear,    &analysis_fused,    &analysis_dual,
    &analysis_scan,    &analysis_ring,      &analysis_offset,   &analysis_parallel,
    &analysis_tlb,     &analysis_cores,     &analysis_c2c,      &analysis_loaded,
    &analysis_numa,    &analysis_bandwidth, &analysis_bw_cores, &analysis_tail,
    &analysis_atomics,
};

#define COUNT (sizeof(experiments) / sizeof(experiments[0]))
/* An analysis keeps one table and one verdict per experiment. */
_Static_assert(
    COUNT <= AN_EXP_MAX,
    "more experiments than AN_EXP_MAX: name the new one in the Makefile EXPERIMENTS list");

const struct an_experiment *analysis_experiment(size_t index)
{
    return index < COUNT ? experiments[index] : NULL;
}

size_t analysis_experiment_count(void)
{
    return COUNT;
}

int analysis_experiment_index(const char *name)
{
    for (size_t i = 0; i < COUNT; i++)
        if (kstrcmp(experiments[i]->name, name) == 0)
            return (int)i;
    return -1;
}
