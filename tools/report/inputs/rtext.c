// SPDX-License-Identifier: MIT
// Bounded text helpers for chase-report's readers: whole files, lines, numbers, safe strings.
#include "inputs/rtext.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rtext_read(const char *path, struct rtext *t, char *err, size_t cap)
{
    t->data = NULL;
    t->len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, cap, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    size_t room = 4096, len = 0;
    char *buf = malloc(room);
    int rc = -1;
    while (buf) {
        if (len + 1 >= room) {
            if (room > RTEXT_MAX_FILE_BYTES) {
                snprintf(err, cap, "%s is larger than %u MiB", path, RTEXT_MAX_FILE_BYTES >> 20);
                goto out;
            }
            char *bigger = realloc(buf, room * 2);
            if (!bigger)
                break;
            buf = bigger;
            room *= 2;
        }
        size_t got = fread(buf + len, 1, room - 1 - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) {
                snprintf(err, cap, "cannot read %s: %s", path, strerror(errno));
                goto out;
            }
            rc = 0;
            goto out;
        }
    }
    snprintf(err, cap, "out of memory reading %s", path);
out:
    fclose(f);
    if (rc != 0) {
        free(buf);
        return -1;
    }
    for (size_t i = 0; i < len; i++)
        if (buf[i] == 0)
            buf[i] = ' ';
    buf[len] = 0;
    t->data = buf;
    t->len = len;
    return 0;
}

void rtext_free(struct rtext *t)
{
    free(t->data);
    t->data = NULL;
    t->len = 0;
}

void rline_init(struct rline_iter *it, const char *s, size_t n)
{
    it->pos = s;
    it->end = s + n;
    it->line_no = 0;
}

bool rline_next(struct rline_iter *it, const char **line, size_t *len)
{
    if (it->pos >= it->end)
        return false;
    const char *p = it->pos;
    while (p < it->end && *p != '\n' && *p != '\r')
        p++;
    *line = it->pos;
    *len = (size_t)(p - it->pos);
    if (p < it->end && *p == '\r')
        p++;
    if (p < it->end && *p == '\n')
        p++;
    it->pos = p;
    it->line_no++;
    return true;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

void rtext_trim(const char **s, size_t *n)
{
    while (*n > 0 && is_space(**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n > 0 && is_space((*s)[*n - 1]))
        (*n)--;
}

bool rtext_starts(const char *s, size_t n, const char *prefix)
{
    size_t k = strlen(prefix);
    return k <= n && memcmp(s, prefix, k) == 0;
}

bool rtext_contains(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    if (k == 0)
        return true;
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, needle, k) == 0)
            return true;
    return false;
}

/* Only the characters a decimal number may have: no "nan", "inf", hex or locale surprises. */
static bool number_chars(const char *s, size_t n)
{
    if (n == 0 || n > 64)
        return false;
    bool digit = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9')
            digit = true;
        else if (c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E')
            return false;
    }
    return digit;
}

bool rtext_parse_double(const char *s, size_t n, double *out)
{
    rtext_trim(&s, &n);
    if (!number_chars(s, n))
        return false;
    char buf[72];
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (end != buf + n || !isfinite(v) || (errno == ERANGE && fabs(v) > 1.0))
        return false;
    *out = v;
    return true;
}

bool rtext_parse_u64(const char *s, size_t n, uint64_t *out)
{
    rtext_trim(&s, &n);
    if (n == 0 || n > 20)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        uint64_t d = (uint64_t)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

size_t rtext_fields(const char *s, size_t n, const char **field, size_t *flen, size_t max)
{
    size_t count = 0, i = 0;
    while (i < n) {
        while (i < n && is_space(s[i]))
            i++;
        if (i >= n)
            break;
        size_t start = i;
        while (i < n && !is_space(s[i]))
            i++;
        if (count < max) {
            field[count] = s + start;
            flen[count] = i - start;
        }
        count++;
    }
    return count;
}

void rtext_copy(char *dst, size_t cap, const char *s, size_t n)
{
    if (cap == 0)
        return;
    if (n > cap - 1)
        n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = 0;
}

void rtext_sanitize(char *dst, size_t cap, const char *src)
{
    static const char keep[] = " .,:;_-+()/#=%@";
    size_t o = 0;
    if (cap == 0)
        return;
    for (; src && *src && o + 1 < cap; src++) {
        char c = *src;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  strchr(keep, c) != NULL;
        dst[o++] = ok ? c : '_';
    }
    dst[o] = 0;
}

void rtext_tag(char *dst, size_t cap, const char *src)
{
    size_t o = 0;
    if (cap == 0)
        return;
    for (; src && *src && o + 1 < cap; src++) {
        char c = *src;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '-';
        dst[o++] = ok ? c : '-';
    }
    dst[o] = 0;
}

bool rtext_any_line(const char *text, size_t len, size_t max_lines,
                    bool (*is_line)(const char *line, size_t n))
{
    struct rline_iter it;
    const char *l;
    size_t n;
    rline_init(&it, text, len);
    while (rline_next(&it, &l, &n) && it.line_no <= max_lines)
        if (is_line(l, n))
            return true;
    return false;
}

size_t rtext_count_lines(const char *text, size_t len, bool (*is_line)(const char *line, size_t n))
{
    struct rline_iter it;
    const char *l;
    size_t n, count = 0;
    rline_init(&it, text, len);
    while (rline_next(&it, &l, &n))
        count += is_line(l, n);
    return count;
}
