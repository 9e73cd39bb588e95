// SPDX-License-Identifier: MIT
// Names and request paths: a strict allow-list, checked before anything is written.
#include "names.h"

#include <string.h>

bool collect_name_char_ok(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
}

bool collect_name_ok(const char *name, size_t len)
{
    if (len == 0 || len > COLLECT_NAME_MAX || name[0] == '.')
        return false;
    for (size_t i = 0; i < len; i++) {
        if (!collect_name_char_ok(name[i]))
            return false;
        if (name[i] == '.' && i + 1 < len && name[i + 1] == '.')
            return false;
    }
    return true;
}

/* The next '/'-separated part of path[*at..len), copied into out when it is a good name. */
static bool take_name(const char *path, size_t len, size_t *at, char out[COLLECT_NAME_MAX + 1])
{
    if (*at >= len || path[*at] != '/')
        return false;
    size_t from = ++*at;
    while (*at < len && path[*at] != '/')
        (*at)++;
    size_t n = *at - from;
    if (!collect_name_ok(path + from, n))
        return false;
    memcpy(out, path + from, n);
    out[n] = '\0';
    return true;
}

bool collect_path_parse(const char *path, size_t len, const char *prefix, struct collect_target *t)
{
    size_t plen = strlen(prefix);
    if (memchr(path, '\0', len))
        return false;
    if (len < plen || memcmp(path, prefix, plen) != 0)
        return false;
    size_t at = plen;
    if (!take_name(path, len, &at, t->machine) || !take_name(path, len, &at, t->run_id) ||
        !take_name(path, len, &at, t->file))
        return false;
    return at == len;
}
