// SPDX-License-Identifier: MIT
// The experiment table: adding an experiment is adding its file and one row here.
#include "experiments/experiment.h"

#include "lib/kstring.h"

const struct experiment *const experiment_table[] = {
    &experiment_random, &experiment_linear,   &experiment_fused,
    &experiment_dual,   &experiment_scan,     &experiment_ring,
    &experiment_offset, &experiment_parallel, &experiment_tlb,
};

const size_t experiment_count = sizeof(experiment_table) / sizeof(experiment_table[0]);

int experiment_index(const char *name)
{
    for (size_t i = 0; i < experiment_count; i++) {
        if (kstrcmp(experiment_table[i]->name, name) == 0)
            return (int)i;
    }
    return -1;
}

const struct experiment *experiment_find(const char *name)
{
    int i = experiment_index(name);
    return i < 0 ? NULL : experiment_table[i];
}
