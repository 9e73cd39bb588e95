// SPDX-License-Identifier: MIT
// Freestanding string and memory helpers shared by the firmware and host builds.
#ifndef CHASE_KSTRING_H
#define CHASE_KSTRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Fill n bytes at dst with byte c; returns dst. */
void *kmemset(void *dst, int c, size_t n);
/* Copy n bytes from src to dst (regions must not overlap); returns dst. */
void *kmemcpy(void *dst, const void *src, size_t n);
/* Compare n bytes; <0, 0, >0 like memcmp. */
int kmemcmp(const void *a, const void *b, size_t n);
/* Length of a NUL-terminated string. */
size_t kstrlen(const char *s);
/* Compare two NUL-terminated strings like strcmp. */
int kstrcmp(const char *a, const char *b);
/* Compare at most n characters like strncmp. */
int kstrncmp(const char *a, const char *b, size_t n);
/* Compare ignoring ASCII case; like strcasecmp. */
int kstrcasecmp(const char *a, const char *b);
/* Copy src into dst of capacity cap, always NUL-terminated; returns kstrlen(src). */
size_t kstrlcpy(char *dst, const char *src, size_t cap);
/* First occurrence of c in s, or NULL. */
const char *kstrchr(const char *s, int c);
/* True for space, tab, CR, LF, vertical tab and form feed. */
static inline bool kisspace(int c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}
static inline bool kisdigit(int c)
{
    return c >= '0' && c <= '9';
}
static inline int ktolower(int c)
{
    return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}
/* Edit distance between a and b (for "did you mean"), capped at 255. */
unsigned kstr_distance(const char *a, const char *b);

#endif
