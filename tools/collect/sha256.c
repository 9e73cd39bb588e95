// SPDX-License-Identifier: MIT
// SHA-256 as FIPS 180-4 states it: 64-byte blocks, 64 rounds, big-endian length padding.
#include "sha256.h"

#include <string.h>

/* The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
static const uint32_t sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static inline uint32_t rotr32(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

static void sha256_block(uint32_t st[8], const uint8_t *p)
{
    uint32_t w[64];
    for (unsigned i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (unsigned i = 16; i < 64; i++) {
        uint32_t s0 = rotr32(w[i - 15], 7) ^ rotr32(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotr32(w[i - 2], 17) ^ rotr32(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
    for (unsigned i = 0; i < 64; i++) {
        uint32_t t1 = h + (rotr32(e, 6) ^ rotr32(e, 11) ^ rotr32(e, 25)) + ((e & f) ^ (~e & g)) +
                      sha256_k[i] + w[i];
        uint32_t t2 =
            (rotr32(a, 2) ^ rotr32(a, 13) ^ rotr32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    st[0] += a;
    st[1] += b;
    st[2] += c;
    st[3] += d;
    st[4] += e;
    st[5] += f;
    st[6] += g;
    st[7] += h;
}

void sha256_init(struct sha256_ctx *c)
{
    /* The first 32 bits of the fractional parts of the square roots of the first 8 primes. */
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(c->state, h0, sizeof(h0));
    c->total_bytes = 0;
    c->block_used = 0;
}

void sha256_update(struct sha256_ctx *c, const void *data, size_t len)
{
    const uint8_t *p = data;
    c->total_bytes += len;
    if (c->block_used) {
        size_t take = SHA256_BLOCK_BYTES - c->block_used;
        if (take > len)
            take = len;
        memcpy(c->block + c->block_used, p, take);
        c->block_used += take;
        p += take;
        len -= take;
        if (c->block_used < SHA256_BLOCK_BYTES)
            return;
        sha256_block(c->state, c->block);
        c->block_used = 0;
    }
    for (; len >= SHA256_BLOCK_BYTES; p += SHA256_BLOCK_BYTES, len -= SHA256_BLOCK_BYTES)
        sha256_block(c->state, p);
    memcpy(c->block, p, len);
    c->block_used = len;
}

void sha256_final(struct sha256_ctx *c, uint8_t out[SHA256_DIGEST_BYTES])
{
    uint64_t bits = c->total_bytes * 8;
    uint8_t pad[SHA256_BLOCK_BYTES + 8] = {0x80};
    /* Pad to 56 bytes mod 64, then the length in bits, big-endian. */
    size_t padlen = (c->block_used < 56 ? 56 : 120) - c->block_used;
    for (unsigned i = 0; i < 8; i++)
        pad[padlen + i] = (uint8_t)(bits >> (56 - 8 * i));
    sha256_update(c, pad, padlen + 8);
    for (unsigned i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(c->state[i] >> 24);
        out[4 * i + 1] = (uint8_t)(c->state[i] >> 16);
        out[4 * i + 2] = (uint8_t)(c->state[i] >> 8);
        out[4 * i + 3] = (uint8_t)c->state[i];
    }
}

void sha256(const void *data, size_t len, uint8_t out[SHA256_DIGEST_BYTES])
{
    struct sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, data, len);
    sha256_final(&c, out);
}

void sha256_hex(const uint8_t digest[SHA256_DIGEST_BYTES], char hex[2 * SHA256_DIGEST_BYTES + 1])
{
    static const char digits[] = "0123456789abcdef";
    for (unsigned i = 0; i < SHA256_DIGEST_BYTES; i++) {
        hex[2 * i] = digits[digest[i] >> 4];
        hex[2 * i + 1] = digits[digest[i] & 15];
    }
    hex[2 * SHA256_DIGEST_BYTES] = '\0';
}
