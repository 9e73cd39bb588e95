// SPDX-License-Identifier: MIT
// The experiment table: adding an experiment is adding its file and one row here.
#include "experiments/experiment.h"

/* Each experiment's row, defined in its own file. */
extern const struct experiment experiment_tail;
extern const struct experiment experiment_random, experiment_linear, experiment_fused,
    experiment_dual, experiment_scan, experiment_ring, experiment_offset, experiment_parallel,
    experiment_tlb, experiment_cores, experiment_c2c, experiment_loaded, experiment_numa,
    experiment_bandwidth, experiment_bw_cores, experiment_atomics;

const struct experiment *const experiment_table[] = {
    &experiment_random,  &experiment_linear,    &experiment_fused,    &experiment_dual,
    &experiment_scan,    &experiment_ring,      &experiment_offset,   &experiment_parallel,
    &experiment_tlb,     &experiment_cores,     &experiment_c2c,      &experiment_loaded,
    &experiment_numa,    &experiment_bandwidth, &experiment_bw_cores, &experiment_tail,
    &experiment_atomics,
};

#define EXPERIMENT_COUNT (sizeof(experiment_table) / sizeof(experiment_table[0]))
/* The configuration, the run and its summary keep one slot per experiment. */
_Static_assert(
    EXPERIMENT_COUNT <= EXPERIMENTS_MAX,
    "more experiments than EXPERIMENTS_MAX: name the new one in the Makefile EXPERIMENTS list");

const size_t experiment_count = EXPERIMENT_COUNT;

static const struct cfg_section *experiment_section(size_t i)
{
    return &experiment_table[i]->cfg;
}

const struct cfg_table experiment_cfg_table = {experiment_section, EXPERIMENT_COUNT};
