// SPDX-License-Identifier: MIT
// SHA-256 (FIPS 180-4) for the collector's manifest checks: one call, or init/update/final.
#ifndef COLLECT_SHA256_H
#define COLLECT_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_BYTES 32
#define SHA256_BLOCK_BYTES 64

struct sha256_ctx {
    uint32_t state[8];
    uint64_t total_bytes;
    uint8_t block[SHA256_BLOCK_BYTES];
    size_t block_used;
};

/* Start a digest. */
void sha256_init(struct sha256_ctx *c);
/* Add len bytes at data. */
void sha256_update(struct sha256_ctx *c, const void *data, size_t len);
/* Finish: the 32-byte digest into out (c must be initialised again before reuse). */
void sha256_final(struct sha256_ctx *c, uint8_t out[SHA256_DIGEST_BYTES]);
/* The digest of len bytes at data, into out. */
void sha256(const void *data, size_t len, uint8_t out[SHA256_DIGEST_BYTES]);
/* The digest as 64 lower-case hex digits and a NUL, into hex. */
void sha256_hex(const uint8_t digest[SHA256_DIGEST_BYTES], char hex[2 * SHA256_DIGEST_BYTES + 1]);

#endif
