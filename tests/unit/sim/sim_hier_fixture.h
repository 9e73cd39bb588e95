// SPDX-License-Identifier: MIT
// The hierarchy the simulator's unit tests build from a description, and its teardown.
#ifndef TEST_SIM_HIER_FIXTURE_H
#define TEST_SIM_HIER_FIXTURE_H

#include "sim_hier.h"
#include "sim_spec.h"

static struct sim_hier hier;

/* Build hier from a hierarchy description (4 KiB pages, seed 1); fails the test if it cannot. */
static void build(const char *text)
{
    struct sim_spec spec;
    struct sim_parse_error err;
    if (!sim_spec_parse(text, &spec, &err))
        fail_msg("%s: %s at %zu", text, err.msg, err.pos);
    assert_int_equal(sim_hier_init(&hier, &spec, 4096, 1), 0);
}

/* cmocka teardown: free what build made. */
static int teardown(void **state)
{
    (void)state;
    sim_hier_free(&hier);
    return 0;
}

#endif
