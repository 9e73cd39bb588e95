// SPDX-License-Identifier: MIT
// What the platform stubs captured, for tests to check.
#ifndef CHASE_STUB_PLATFORM_H
#define CHASE_STUB_PLATFORM_H

#include <stddef.h>

#define STUB_CONSOLE_BYTES 65536

extern char stub_console[STUB_CONSOLE_BYTES];
extern size_t stub_console_len;
extern unsigned stub_files_written;

/* Forget what the console stub captured. */
void stub_console_reset(void);

#endif
