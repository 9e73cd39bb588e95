// SPDX-License-Identifier: MIT
// Bounded text helpers for chase-report's readers: whole files, lines, numbers, safe strings.
#ifndef REPORT_RTEXT_H
#define REPORT_RTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest input file chase-report reads, in bytes (result files are far smaller). */
#define RTEXT_MAX_FILE_BYTES (64u << 20)

/* A file's bytes, NUL-terminated (embedded NULs are replaced by spaces). */
struct rtext {
    char *data;
    size_t len;
};

/*
 * Read the file at path into t. Returns 0 on success, -1 when it cannot be read or is larger
 * than RTEXT_MAX_FILE_BYTES (err, of capacity cap, then says why).
 */
int rtext_read(const char *path, struct rtext *t, char *err, size_t cap);
/* Release what rtext_read allocated; t may be reused afterwards. */
void rtext_free(struct rtext *t);

/* A cursor over the lines of a text; lines are views into the text, not copies. */
struct rline_iter {
    const char *pos;
    const char *end;
    size_t line_no; /* 1-based number of the line last returned */
};

/* Start iterating over the n bytes at s. */
void rline_init(struct rline_iter *it, const char *s, size_t n);
/*
 * The next line without its end-of-line characters (LF, CRLF or CR) as [*line, *line + *len).
 * Returns false at the end of the text.
 */
bool rline_next(struct rline_iter *it, const char **line, size_t *len);

/* Whether one of the first max_lines lines of [text, text + len) is a line is_line knows: how a
 * reader sniffs its format near the top of a paste. */
bool rtext_any_line(const char *text, size_t len, size_t max_lines,
                    bool (*is_line)(const char *line, size_t n));
/* How many lines of [text, text + len) is_line knows: a reader's tables, counted before it reads
 * them. */
size_t rtext_count_lines(const char *text, size_t len, bool (*is_line)(const char *line, size_t n));

/* Skip leading and trailing white space of [*s, *s + *n). */
void rtext_trim(const char **s, size_t *n);
/* True when [s, s + n) starts with prefix. */
bool rtext_starts(const char *s, size_t n, const char *prefix);
/* True when [s, s + n) contains needle. */
bool rtext_contains(const char *s, size_t n, const char *needle);

/*
 * Parse the whole of [s, s + n) (white space around it allowed) as a finite decimal number.
 * Returns false, leaving *out alone, for anything else (empty, "nan", "1e999", "12abc").
 */
bool rtext_parse_double(const char *s, size_t n, double *out);
/* Like rtext_parse_double for a non-negative integer that fits 64 bits (decimal digits only). */
bool rtext_parse_u64(const char *s, size_t n, uint64_t *out);
/*
 * Split [s, s + n) at white space into at most max fields; returns how many were found
 * (more than max are counted but not stored).
 */
size_t rtext_fields(const char *s, size_t n, const char **field, size_t *flen, size_t max);

/* Copy at most cap - 1 bytes of [s, s + n) into dst, NUL-terminated. */
void rtext_copy(char *dst, size_t cap, const char *s, size_t n);
/*
 * Copy src into dst (capacity cap) keeping only characters that are safe in a plot title, a
 * file name part or Markdown: letters, digits, space and ".,:;_-+()/#=%"; others become '_'.
 */
void rtext_sanitize(char *dst, size_t cap, const char *src);
/* Copy src into dst keeping letters, digits, '-' and '_' (others become '-'): a file-name tag. */
void rtext_tag(char *dst, size_t cap, const char *src);

#endif
