// SPDX-License-Identifier: MIT
// The readers of other tools' text output as one table: a name, a test of shape, a parser.
#include "inputs/readers.h"

#include "inputs/input_lmbench.h"
#include "inputs/input_memlat.h"
#include "inputs/input_ramlat.h"
#include "inputs/input_sbcbench.h"
#include "inputs/input_tinymem.h"

/* A results file holds lat_mem_rd blocks deep inside and other tools' rows before them, so its
 * reader comes before lat_mem_rd's; the summary has no curve and is told so. An sbc-bench log
 * holds tinymembench and ramlat tables, so its reader comes before theirs. */
const struct reader readers[] = {
    {"sbc-bench", FMT_SBCBENCH, foreign_is_sbcbench, foreign_parse_sbcbench,
     "the first line is not \"sbc-bench v...\" and there are not both tinymembench and ramlat "
     "tables"},
    {"tinymembench", FMT_TINYMEMBENCH, foreign_is_tinymembench, foreign_parse_tinymembench,
     "no \"block size : ... random read\" table header in the first 400 lines"},
    {"multichase", FMT_MULTICHASE, foreign_is_multichase, foreign_parse_multichase,
     "no total_memory and stride settings in the first 400 lines"},
    {"lmbench results", FMT_LMBENCH, foreign_is_lmbench_results, foreign_parse_lmbench_results,
     "the first line is not \"[lmbench... results for ...]\""},
    {"lmbench summary", FMT_LMBENCH, foreign_is_lmbench_summary, foreign_parse_lmbench_summary,
     "no \"Memory latencies in nanoseconds\" table"},
    {"lmbench lat_mem_rd", FMT_LMBENCH, foreign_is_lmbench, foreign_parse_lmbench,
     "no \"stride=N line and no 4 rows of a size in MB rising from under 1 and a latency in the "
     "first 40 lines"},
    {"MemoryLatency", FMT_MEMLAT, foreign_is_memlat, foreign_parse_memlat,
     "no \"Region,Latency (ns)\" header or \"Testing N KB only\" line in the first 60 lines"},
    {"ramlat", FMT_RAMLAT, foreign_is_ramlat, foreign_parse_ramlat,
     "no \"size:\" header of ramlat's columns (1x32 ... 1xPTR) in the first 400 lines"},
    {"random-chase", FMT_RANDOM_CHASE, foreign_is_random_chase, foreign_parse_random_chase,
     "no \"memsize ... time in ns\" header in the first 40 lines"},
    {NULL, FMT_RUN, NULL, NULL, NULL},
};
