// SPDX-License-Identifier: MIT
// Growable text buffers for result files and the console log.
#include "lib/strbuf.h"

#include "lib/fmt.h"
#include "lib/kstring.h"
#include "platform.h"

static bool strbuf_reserve(struct strbuf *sb, size_t extra)
{
    if (sb->failed)
        return false;
    if (sb->len + extra + 1 <= sb->cap)
        return true;
    size_t cap = sb->cap ? sb->cap : 256;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    char *p = plat_alloc(cap);
    if (!p) {
        sb->failed = true;
        return false;
    }
    if (sb->data)
        kmemcpy(p, sb->data, sb->len + 1);
    plat_free(sb->data);
    sb->data = p;
    sb->cap = cap;
    return true;
}

void strbuf_reset(struct strbuf *sb)
{
    sb->len = 0;
    sb->failed = false;
    if (sb->data)
        sb->data[0] = 0;
}

void strbuf_release(struct strbuf *sb)
{
    plat_free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
    sb->failed = false;
}

void strbuf_append(struct strbuf *sb, const char *s, size_t n)
{
    if (!strbuf_reserve(sb, n))
        return;
    kmemcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = 0;
}

void strbuf_puts(struct strbuf *sb, const char *s)
{
    strbuf_append(sb, s, kstrlen(s));
}

void strbuf_vprintf(struct strbuf *sb, const char *fmt, va_list ap)
{
    char small[256];
    va_list copy;
    va_copy(copy, ap);
    int n = kvsnprintf(small, sizeof(small), fmt, copy);
    va_end(copy);
    if (n < 0)
        return;
    if ((size_t)n < sizeof(small)) {
        strbuf_append(sb, small, (size_t)n);
        return;
    }
    if (!strbuf_reserve(sb, (size_t)n))
        return;
    kvsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
}

const char *strbuf_str(const struct strbuf *sb)
{
    return sb->data ? sb->data : "";
}
