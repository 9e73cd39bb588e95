// SPDX-License-Identifier: MIT
// Readers of lmbench lat_mem_rd and afborchert random-chase output (rows of inputs/readers.c).
#ifndef REPORT_INPUT_LMBENCH_H
#define REPORT_INPUT_LMBENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "inputs/source.h"

/* Whether text has lat_mem_rd's shape: a "stride=N header in its first lines. */
bool foreign_is_lmbench(const char *text, size_t len);
/* One ring curve per stride block; 0, or -1 with err (capacity cap) when no data line. */
int foreign_parse_lmbench(const char *text, size_t len, struct source *s, char *err, size_t cap);
/* Whether text has random-chase's shape: a "memsize ... time in ns" header in its first lines. */
bool foreign_is_random_chase(const char *text, size_t len);
/* One random curve; 0, or -1 with err (capacity cap) when no data line. */
int foreign_parse_random_chase(const char *text, size_t len, struct source *s, char *err,
                               size_t cap);

#endif
