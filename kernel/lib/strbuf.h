// SPDX-License-Identifier: MIT
// Growable text buffers for result files and the console log.
#ifndef CHASE_STRBUF_H
#define CHASE_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct strbuf {
    char *data; /* NUL-terminated when non-NULL */
    size_t len;
    size_t cap;
    bool failed; /* an allocation failed: the content is truncated */
};

/* Empty a buffer without releasing its memory. */
void strbuf_reset(struct strbuf *sb);
/* Release the buffer's memory; it may be reused afterwards. */
void strbuf_release(struct strbuf *sb);
/* Append bytes; on allocation failure sets sb->failed and drops them. */
void strbuf_append(struct strbuf *sb, const char *s, size_t n);
/* Append a NUL-terminated string. */
void strbuf_puts(struct strbuf *sb, const char *s);
/* Append formatted text (see fmt.h for the accepted conversions). */
void strbuf_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vprintf(struct strbuf *sb, const char *fmt, va_list ap);
/* The text so far ("" when empty). */
const char *strbuf_str(const struct strbuf *sb);

#endif
