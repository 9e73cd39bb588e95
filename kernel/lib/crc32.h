// SPDX-License-Identifier: MIT
// CRC-32 (IEEE 802.3, as zlib computes it): the check of each chunk of results = serial.
#ifndef CHASE_CRC32_H
#define CHASE_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The CRC-32 of len bytes at p (reflected polynomial 0xEDB88320, initial and final XOR all
   ones), the value zlib's crc32(0, p, len) returns. */
uint32_t crc32_ieee(const void *p, size_t len);

#endif
