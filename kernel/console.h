// SPDX-License-Identifier: MIT
// Console output that is also kept for console.txt.
#ifndef CHASE_CONSOLE_H
#define CHASE_CONSOLE_H

#include "strbuf.h"

/* Print formatted text to the console and append it to the log. */
void con_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print text to the console only (progress lines that would clutter the log). */
void con_transient(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Everything printed with con_printf so far. */
const struct strbuf *con_log(void);
/* Forget the log (between runs in one process, and in tests). */
void con_log_reset(void);

#endif
