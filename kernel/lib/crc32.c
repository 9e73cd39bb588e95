// SPDX-License-Identifier: MIT
// CRC-32 bit by bit: the serial stream's chunks are small, so no table is kept.
#include "lib/crc32.h"

#define CRC32_POLY_REFLECTED 0xedb88320u /* IEEE 802.3's 0x04C11DB7, bits reversed */

uint32_t crc32_ieee(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        for (unsigned b = 0; b < 8; b++)
            crc = (crc >> 1) ^ (CRC32_POLY_REFLECTED & (0u - (crc & 1)));
    }
    return crc ^ 0xffffffffu;
}
