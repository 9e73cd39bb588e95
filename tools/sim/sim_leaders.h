// SPDX-License-Identifier: MIT
// chase-sim's leader-set layout in run.json: the truth the offset verdict is checked against.
#ifndef SIM_LEADERS_H
#define SIM_LEADERS_H

#include "sim_hier.h"

struct json;

/*
 * Write the run.json member "leader_sets" of the hierarchy hier (a const struct sim_hier *):
 * for each level with set dueling (DIP, DRRIP) its name, sets_per_slice, slices, line_bytes and
 * the lists a and b of its leader sets' indices within a slice (the same in every slice); an
 * empty list when no level duels. The run's json_extra (run/run.h), with hier its context.
 */
void sim_leaders_json(struct json *j, const void *hier);

#endif
