// SPDX-License-Identifier: MIT
// A small printf for the freestanding kernel: the same output on the firmware and the host.
#ifndef CHASE_FMT_H
#define CHASE_FMT_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Format into buf (capacity cap, always NUL-terminated when cap > 0).
 * Supports %d %i %u %x %X %c %s %p %f %% with flags '-', '0', '+', ' ',
 * width and precision (also '*'), and length modifiers hh h l ll z.
 * Returns the length the full output would have (like vsnprintf).
 */
int kvsnprintf(char *buf, size_t cap, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A size in bytes for people, the one size formatter of the project: "512", "48K", "1.25M",
 * "1023K" (three significant digits, no trailing zeros, powers of 1024); "?" when negative or
 * not finite. */
void fmt_size(char *dst, size_t cap, double bytes);

#endif
