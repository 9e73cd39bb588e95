// SPDX-License-Identifier: MIT
// A small, strict JSON reader (a tree of nodes) for run.json, safe on malformed input.
#ifndef REPORT_RJSON_H
#define REPORT_RJSON_H

#include <stdbool.h>
#include <stddef.h>

/* Deepest nesting accepted; deeper documents are rejected, not recursed into. */
#define RJSON_MAX_DEPTH 64
/* Most nodes one document may have. */
#define RJSON_MAX_NODES 1000000

enum rjson_type { RJSON_NULL, RJSON_BOOL, RJSON_NUMBER, RJSON_STRING, RJSON_ARRAY, RJSON_OBJECT };

struct rjson {
    enum rjson_type type;
    bool boolean;
    double number;
    char *string;        /* RJSON_STRING: decoded UTF-8, NUL-terminated (a \u0000 becomes '?') */
    char *key;           /* member name when the parent is an object, else NULL */
    struct rjson *child; /* first element or member */
    struct rjson *next;  /* next sibling */
};

/*
 * Parse the len bytes at text as one JSON document. Returns the root, or NULL with err (of
 * capacity cap) saying what is wrong and at which line.
 */
struct rjson *rjson_parse(const char *text, size_t len, char *err, size_t cap);
/* Release a tree from rjson_parse; NULL is ignored. */
void rjson_free(struct rjson *root);

/* The member named key of an object, or NULL (also when obj is NULL or not an object). */
const struct rjson *rjson_get(const struct rjson *obj, const char *key);
/* Follow a dotted path of member names ("cpu.brand"); NULL when any step is missing. */
const struct rjson *rjson_path(const struct rjson *root, const char *path);
/* The number in v; false when v is NULL or not a number. */
bool rjson_number(const struct rjson *v, double *out);
/* The string in v, or NULL when v is NULL or not a string. */
const char *rjson_string(const struct rjson *v);
/* True when v is the boolean true. */
bool rjson_true(const struct rjson *v);
/* Number of elements or members of an array or object (0 for anything else). */
size_t rjson_count(const struct rjson *v);

#endif
