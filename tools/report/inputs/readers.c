// SPDX-License-Identifier: MIT
// The readers of other tools' text output as one table: a name, a test of shape, a parser.
#include "inputs/readers.h"

#include "inputs/input_lmbench.h"
#include "inputs/input_tinymem.h"

const struct reader readers[] = {
    {"tinymembench", FMT_TINYMEMBENCH, foreign_is_tinymembench, foreign_parse_tinymembench},
    {"multichase", FMT_MULTICHASE, foreign_is_multichase, foreign_parse_multichase},
    {"lmbench lat_mem_rd", FMT_LMBENCH, foreign_is_lmbench, foreign_parse_lmbench},
    {"random-chase", FMT_RANDOM_CHASE, foreign_is_random_chase, foreign_parse_random_chase},
    {NULL, FMT_RUN, NULL, NULL},
};
