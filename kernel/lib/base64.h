// SPDX-License-Identifier: MIT
// Standard base64 (RFC 4648 section 4, with padding): the data lines of results = serial.
#ifndef CHASE_BASE64_H
#define CHASE_BASE64_H

#include <stddef.h>

/* Characters base64 gives for n bytes, without the NUL. */
static inline size_t base64_len(size_t n)
{
    return (n + 2) / 3 * 4;
}

/*
 * Encode n bytes at p into out (capacity cap, at least base64_len(n) + 1), NUL-terminated.
 * Returns the characters written, or 0 when cap is too small (out then holds "").
 */
size_t base64_encode(const void *p, size_t n, char *out, size_t cap);

#endif
