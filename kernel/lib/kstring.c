// SPDX-License-Identifier: MIT
// Freestanding string and memory helpers shared by the firmware and host builds.
#include "lib/kstring.h"

void *kmemset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    while (n--)
        *d++ = (unsigned char)c;
    return dst;
}

void *kmemcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--)
        *d++ = *s++;
    return dst;
}

int kmemcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++) {
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    }
    return 0;
}

size_t kstrlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

int kstrcmp(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

int kstrncmp(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i] || !a[i])
            return (unsigned char)a[i] - (unsigned char)b[i];
    }
    return 0;
}

int kstrcasecmp(const char *a, const char *b)
{
    while (*a && ktolower(*a) == ktolower(*b)) {
        a++;
        b++;
    }
    return ktolower((unsigned char)*a) - ktolower((unsigned char)*b);
}

size_t kstrlcpy(char *dst, const char *src, size_t cap)
{
    size_t n = kstrlen(src);
    if (cap) {
        size_t c = n < cap - 1 ? n : cap - 1;
        kmemcpy(dst, src, c);
        dst[c] = 0;
    }
    return n;
}

const char *kstrchr(const char *s, int c)
{
    for (; *s; s++) {
        if (*s == (char)c)
            return s;
    }
    return c == 0 ? s : NULL;
}

unsigned kstr_distance(const char *a, const char *b)
{
    /* Optimal string alignment: insertions, deletions, substitutions and swaps of two
     * neighbouring characters each cost 1 ("mxa" is one step from "max"). */
    enum { MAXLEN = 63 };
    unsigned rows[3][MAXLEN + 1];
    size_t la = kstrlen(a), lb = kstrlen(b);
    if (la > MAXLEN || lb > MAXLEN)
        return 255;
    unsigned *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (unsigned)i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned cost = ktolower(a[i - 1]) == ktolower(b[j - 1]) ? 0 : 1;
            unsigned best = prev[j - 1] + cost;
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && ktolower(a[i - 1]) == ktolower(b[j - 2]) &&
                ktolower(a[i - 2]) == ktolower(b[j - 1]) && prev2[j - 2] + 1 < best)
                best = prev2[j - 2] + 1;
            cur[j] = best;
        }
        unsigned *t = prev2;
        prev2 = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb] > 255 ? 255 : prev[lb];
}
