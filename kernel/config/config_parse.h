// SPDX-License-Identifier: MIT
// Parsing one key's value: numbers, sizes, lists, auto values, choices and experiment lists.
#ifndef CHASE_CONFIG_PARSE_H
#define CHASE_CONFIG_PARSE_H

#include <stddef.h>

#include "config/config.h"

/* How a value failed to be stored. */
enum value_error { VALUE_OK, VALUE_MALFORMED, VALUE_OUT_OF_RANGE };

/*
 * Store value (text from the file or the load options) into k's field in params (an
 * experiment list is looked up in the global params' table).
 * Returns VALUE_OK, or why it could not be stored (the field is then unchanged).
 */
enum value_error cfg_apply_value(const struct key_desc *k, void *params, const char *value);

/* What k accepts, for error messages ("an integer from 1 to 1000"); t names the sections. */
void cfg_describe_accepted(const struct cfg_table *t, const struct key_desc *k, char *buf,
                           size_t cap);

#endif
