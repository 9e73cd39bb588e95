// SPDX-License-Identifier: MIT
// Base64 encoding as RFC 4648 section 4 defines it: 6 bits a character, '=' to fill the end.
#include "lib/base64.h"

#include <stdint.h>

size_t base64_encode(const void *data, size_t n, char *out, size_t cap)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const uint8_t *p = data;
    size_t need = base64_len(n), o = 0;
    if (cap < need + 1) {
        if (cap)
            out[0] = 0;
        return 0;
    }
    for (size_t i = 0; i < n; i += 3) {
        size_t left = n - i;
        uint32_t v = (uint32_t)p[i] << 16 | (left > 1 ? (uint32_t)p[i + 1] << 8 : 0) |
                     (left > 2 ? p[i + 2] : 0);
        out[o++] = alphabet[v >> 18 & 63];
        out[o++] = alphabet[v >> 12 & 63];
        out[o++] = left > 1 ? alphabet[v >> 6 & 63] : '=';
        out[o++] = left > 2 ? alphabet[v & 63] : '=';
    }
    out[o] = 0;
    return o;
}
