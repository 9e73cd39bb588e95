// SPDX-License-Identifier: MIT
// The readers of other tools' text output as one table: a name, a test of shape, a parser.
#ifndef REPORT_READERS_H
#define REPORT_READERS_H

#include <stdbool.h>
#include <stddef.h>

#include "inputs/source.h"

/* One other tool's text output that chase-report reads. */
struct reader {
    const char *name; /* the tool, as the source's name and machine say it: "tinymembench" */
    enum source_format format;
    /* Whether the len bytes at text have this format's shape (a header in the first lines). */
    bool (*detect)(const char *text, size_t len);
    /* Read the text into s as curves; 0, or -1 with err (capacity cap) saying why. */
    int (*parse)(const char *text, size_t len, struct source *s, char *err, size_t cap);
    /* What detect looks for, as a text without it is told: "no ... header". */
    const char *shape;
};

/* The readers in the order their shapes are tried (a text is read by the first whose shape it
 * has), up to a row whose name is NULL. */
extern const struct reader readers[];

#endif
