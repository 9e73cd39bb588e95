// SPDX-License-Identifier: MIT
// A streaming JSON writer onto a strbuf, indented for people.
#ifndef CHASE_JSON_H
#define CHASE_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/strbuf.h"

#define JSON_MAX_DEPTH 16

struct json {
    struct strbuf *out;
    int depth;
    bool first[JSON_MAX_DEPTH]; /* no member written yet at this depth */
};

/* Start writing into out. `key` arguments below are NULL inside arrays. */
void json_init(struct json *j, struct strbuf *out);
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
/* A string value, escaped; NULL writes null. */
void json_string(struct json *j, const char *key, const char *value);
void json_u64(struct json *j, const char *key, uint64_t value);
/* A number with `decimals` digits after the point; NaN writes null. */
void json_double(struct json *j, const char *key, double value, int decimals);
void json_bool(struct json *j, const char *key, bool value);

#endif
