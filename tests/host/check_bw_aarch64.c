// SPDX-License-Identifier: MIT
// Checks kernel/arch/aarch64/bw_kernels.S under qemu-aarch64: each kernel reads and writes
// exactly its bytes, laps times, at every vector length; prints "ok -" / "not ok -" lines.
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

#include "arch/bw_kernels.h"
#include "arch/aarch64/cpu.h"

#define HWCAP_SVE_BIT (1UL << 22) /* Linux arm64 AT_HWCAP: SVE may be used at EL0 */
#define GUARD_BYTES 1024          /* before and after each range: must come out untouched */
#define MOST_BYTES 4096           /* the largest range checked */
#define AREA_BYTES (GUARD_BYTES + MOST_BYTES + GUARD_BYTES)
#define DST_FILL 0x5a /* dst's bytes before a kernel runs (never all-ones) */

enum kind { READ, WRITE, COPY };

struct kernel {
    const char *name;
    bw_kernel_fn fn;
    enum kind kind;
};

static const struct kernel neon[] = {
    {"read_neon", bw_read_neon, READ},       {"write_neon", bw_write_neon, WRITE},
    {"copy_neon", bw_copy_neon, COPY},       {"nt_write_neon", bw_nt_write_neon, WRITE},
    {"nt_copy_neon", bw_nt_copy_neon, COPY},
};
static const struct kernel sve[] = {
    {"read_sve", bw_read_sve, READ},       {"write_sve", bw_write_sve, WRITE},
    {"copy_sve", bw_copy_sve, COPY},       {"nt_write_sve", bw_nt_write_sve, WRITE},
    {"nt_copy_sve", bw_nt_copy_sve, COPY},
};
/* Ranges: one block, and sizes that leave a tail after whole 8-vector groups at long VLs. */
static const uint64_t sizes[] = {512, 1024, 1536, 2560, MOST_BYTES};

static uint64_t src[AREA_BYTES / 8] __attribute__((aligned(64)));
static uint64_t dst[AREA_BYTES / 8] __attribute__((aligned(64)));
static uint64_t src_copy[AREA_BYTES / 8];
static int failures;

/* Fill src with a fixed xorshift sequence (no zero quadword: a skipped one would show). */
static void fill(void)
{
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    for (unsigned i = 0; i < AREA_BYTES / 8; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        src[i] = x | 1;
    }
    memcpy(src_copy, src, sizeof(src));
    memset(dst, DST_FILL, sizeof(dst));
}

/* Whether dst's range holds what kind k leaves there, and everything else is as it was. */
static int dst_as_expected(enum kind k, uint64_t bytes)
{
    const uint8_t *d = (const uint8_t *)dst, *s = (const uint8_t *)src;
    for (uint64_t i = 0; i < AREA_BYTES; i++) {
        int inside = i >= GUARD_BYTES && i < GUARD_BYTES + bytes;
        uint8_t want = !inside || k == READ ? DST_FILL : k == WRITE ? 0xff : s[i];
        if (d[i] != want)
            return 0;
    }
    return 1;
}

/* Run one kernel over one range, laps 1 and 3; one line for both. */
static void check_one(const struct kernel *kn, uint64_t bytes)
{
    int ok = 1;
    for (uint64_t laps = 1; laps <= 3; laps += 2) {
        fill();
        uint64_t want = 0;
        for (uint64_t i = 0; i < bytes / 8; i++)
            want += src[GUARD_BYTES / 8 + i];
        uint64_t got =
            kn->fn((uint8_t *)dst + GUARD_BYTES, (const uint8_t *)src + GUARD_BYTES, bytes, laps);
        ok &= got == (kn->kind == READ ? want * laps : 0);
        ok &= dst_as_expected(kn->kind, bytes);
        ok &= memcmp(src, src_copy, sizeof(src)) == 0;
    }
    printf("%s - %s moves exactly %llu bytes per lap\n", ok ? "ok" : "not ok", kn->name,
           (unsigned long long)bytes);
    failures += !ok;
}

static void check_set(const struct kernel *set, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            check_one(&set[k], sizes[s]);
}

int main(void)
{
    check_set(neon, sizeof(neon) / sizeof(neon[0]));
    if (getauxval(AT_HWCAP) & HWCAP_SVE_BIT) {
        printf("# SVE vector length %llu bytes\n", (unsigned long long)arch_sve_vector_bytes());
        check_set(sve, sizeof(sve) / sizeof(sve[0]));
    } else {
        printf("# no SVE (HWCAP_SVE clear): the SVE kernels are not run\n");
    }
    return failures != 0;
}
