// SPDX-License-Identifier: MIT
// chase-sim's leader-set layout in run.json: the truth the offset verdict is checked against.
#ifndef SIM_LEADERS_H
#define SIM_LEADERS_H

#include "sim_hier.h"

/*
 * Add "leader_sets" to the run.json at run_json_path: for each level with set dueling (DIP,
 * DRRIP) its name, sets_per_slice, slices, line_bytes and the lists a and b of its leader
 * sets' indices within a slice (the same in every slice); an empty list when no level duels.
 * Returns 0, or -1 when the file could not be read or written.
 */
int sim_leaders_write(const struct sim_hier *h, const char *run_json_path);

#endif
