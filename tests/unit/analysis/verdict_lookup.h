// SPDX-License-Identifier: MIT
// Looking up a verdict's items and lines in the analysis unit tests (cmocka failure messages).
#ifndef TEST_VERDICT_LOOKUP_H
#define TEST_VERDICT_LOOKUP_H

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "analysis/interpret.h"

/* The value of the verdict's item called key; fails the test when there is none. */
static inline double item(const struct verdict *v, const char *key)
{
    if (!verdict_find(v, key))
        fail_msg("no item %s", key);
    return verdict_value(v, key);
}

/* Whether a line of the verdict holds needle; prints the lines when none does. */
static inline bool has_line(const struct verdict *v, const char *needle)
{
    for (size_t i = 0; i < v->nlines; i++)
        if (strstr(v->line[i], needle))
            return true;
    for (size_t i = 0; i < v->nlines; i++)
        print_message("%s\n", v->line[i]);
    print_message("(no line has \"%s\"; headline: %s)\n", needle, v->headline);
    return false;
}

#endif
