// SPDX-License-Identifier: MIT
// The collector's names: which machine, run id and file names are accepted, and request paths.
#ifndef COLLECT_NAMES_H
#define COLLECT_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* Longest machine, run id or file name accepted (SMBIOS strings are at most 64 in practice;
   a run id is 14 + 1 + 8 + 1 + 8 = 32 characters). */
#define COLLECT_NAME_MAX 128

/* What PUT /PREFIX/<machine>/<run id>/<file> names. */
struct collect_target {
    char machine[COLLECT_NAME_MAX + 1];
    char run_id[COLLECT_NAME_MAX + 1];
    char file[COLLECT_NAME_MAX + 1];
};

/* Whether c may be in a name: [A-Za-z0-9._-]. */
bool collect_name_char_ok(char c);
/*
 * Whether the len bytes at name are a name the collector takes: 1..COLLECT_NAME_MAX characters
 * of [A-Za-z0-9._-], not starting with '.' (no ".", "..", hidden or staging names) and holding
 * no "..". Anything else (a '/', '\', NUL, '%', space, byte above 0x7f) is refused.
 */
bool collect_name_ok(const char *name, size_t len);

/*
 * Parse a request path of len bytes (not NUL-terminated; NUL bytes inside refuse it) as
 * PREFIX/<machine>/<run id>/<file>, prefix being "" or "/a/b" (no trailing '/'). Fills t and
 * returns true; false when the path has another shape or a name is not collect_name_ok.
 */
bool collect_path_parse(const char *path, size_t len, const char *prefix, struct collect_target *t);

#endif
