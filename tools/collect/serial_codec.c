// SPDX-License-Identifier: MIT
// Strict base64 decoding for the serial framing's data lines (kernel/lib/base64.c encodes).
#include "serial.h"

static int b64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

bool serial_base64(const char *s, size_t len, uint8_t *out, size_t cap, size_t *outlen)
{
    size_t o = 0;
    if (len % 4)
        return false;
    for (size_t i = 0; i < len; i += 4) {
        bool last = i + 4 == len;
        int pad = last ? (s[i + 3] == '=') + (s[i + 2] == '=' && s[i + 3] == '=') : 0;
        int v[4];
        for (int k = 0; k < 4; k++) {
            v[k] = k >= 4 - pad ? 0 : b64_value(s[i + k]);
            if (v[k] < 0)
                return false;
        }
        uint32_t w =
            (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
        if (o + 3 - (size_t)pad > cap)
            return false;
        out[o++] = (uint8_t)(w >> 16);
        if (pad < 2)
            out[o++] = (uint8_t)(w >> 8);
        if (pad < 1)
            out[o++] = (uint8_t)w;
    }
    *outlen = o;
    return true;
}
