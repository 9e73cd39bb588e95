// SPDX-License-Identifier: MIT
// results = serial: run folders rebuilt from CHASE-FILE lines in a captured console or BMC SOL
// log (docs/serial-log.md), each chunk's CRC-32 and each file's size and SHA-256 checked.
#ifndef COLLECT_SERIAL_H
#define COLLECT_SERIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "staging.h"

/* The framing's tag, found anywhere in a line. */
#define SERIAL_TAG "CHASE-FILE v=1 "
/* Most bytes of a file one data line carries. */
#define SERIAL_CHUNK_MAX 192

/* Decode standard base64 with padding; false when s is not that or decodes to more than cap. */
bool serial_base64(const char *s, size_t len, uint8_t *out, size_t cap, size_t *outlen);
/*
 * Rebuild every run the log at path holds into root: good files staged, a run whose files all
 * check (its manifest among them) moved to DIR/<machine>/<run id>/ and indexed (report:
 * chase-report). A damaged file is named on standard error and not written. Returns 0 when
 * every run in the log is complete, 1 otherwise (2: the log cannot be read).
 */
int serial_rebuild(const char *path, struct collect_root *root, const char *report);

#endif
