// SPDX-License-Identifier: MIT
// chase-sim's leader-set layout in run.json: the truth the offset verdict is checked against.
#include "sim_leaders.h"

#include "lib/json.h"
#include "sim_policy.h"

/* The sets of slice 0 of c with role r, as the JSON list member key. */
static void role_list(struct json *j, const char *key, const struct sim_cache *c, uint8_t r)
{
    json_array_begin(j, key);
    for (uint32_t s = 0; s < c->p.sets_per_slice; s++)
        if (c->role[s] == r)
            json_u64(j, NULL, s);
    json_array_end(j);
}

void sim_leaders_json(struct json *j, const void *hier)
{
    const struct sim_hier *h = hier;
    json_array_begin(j, "leader_sets");
    for (unsigned i = 0; i < h->nlevels; i++) {
        const struct sim_cache *c = &h->level[i].cache;
        if (!c->duels)
            continue;
        json_object_begin(j, NULL);
        json_string(j, "level", h->spec.level[i].name);
        json_u64(j, "sets_per_slice", c->p.sets_per_slice);
        json_u64(j, "slices", c->p.slices);
        json_u64(j, "line_bytes", 1u << c->line_shift);
        role_list(j, "a", c, SIM_LEADER_A);
        role_list(j, "b", c, SIM_LEADER_B);
        json_object_end(j);
    }
    json_array_end(j);
}
