// SPDX-License-Identifier: MIT
// SHA-256 (FIPS 180-4): the checksum of each file in a run's manifest.json.
#ifndef CHASE_SHA256_H
#define CHASE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_BYTES 32
#define SHA256_HEX_CHARS 64 /* the digest in lower-case hex, without the NUL */
#define SHA256_BLOCK_BYTES 64

/* A hash in progress: sha256_init, sha256_update any number of times, sha256_final. */
struct sha256 {
    uint32_t h[8];
    uint64_t total_bytes;
    uint8_t block[SHA256_BLOCK_BYTES];
    size_t fill; /* bytes of block[] held */
};

/* Start a hash. */
void sha256_init(struct sha256 *s);
/* Add len bytes at p (len may be 0). */
void sha256_update(struct sha256 *s, const void *p, size_t len);
/* Finish: the 32-byte digest into out; s must be started again before reuse. */
void sha256_final(struct sha256 *s, uint8_t out[SHA256_DIGEST_BYTES]);
/* The digest of len bytes at p as 64 lower-case hex digits and a NUL into hex. */
void sha256_hex(const void *p, size_t len, char hex[SHA256_HEX_CHARS + 1]);

#endif
