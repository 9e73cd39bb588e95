// SPDX-License-Identifier: MIT
// manifest.json, the last file of an upload: every other file of the run with size and SHA-256.
#ifndef COLLECT_MANIFEST_H
#define COLLECT_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "names.h"
#include "lib/sha256.h"

#define MANIFEST_NAME "manifest.json"
/* Most files one manifest may list: a run folder holds two files per experiment and a few more
   (run.json, console.txt, errors.txt); 1024 leaves room for tables that grow, and bounds what a
   hostile manifest makes the collector check. */
#define MANIFEST_MAX_FILES 1024

struct manifest_file {
    char name[COLLECT_NAME_MAX + 1];
    uint64_t size;
    uint8_t sha256[SHA256_DIGEST_BYTES];
};

struct manifest {
    char machine[COLLECT_NAME_MAX + 1];
    char run_id[COLLECT_NAME_MAX + 1];
    size_t nfiles;
    struct manifest_file *files; /* malloc'd, nfiles long */
};

/*
 * Parse the len bytes at text as a manifest ({"format": "chase-manifest", "version": 1,
 * "machine", "run_id", "files": [{"name", "size", "sha256"}]}): every name collect_name_ok, none
 * "manifest.json" or listed twice, sizes whole numbers up to max_size, digests 64 lower-case hex.
 * Returns true with m filled (release with manifest_free); false with err (of capacity cap)
 * saying why, m then holding nothing to release.
 */
bool manifest_parse(const char *text, size_t len, uint64_t max_size, struct manifest *m, char *err,
                    size_t cap);
/* Release what manifest_parse allocated; a zeroed manifest is fine. */
void manifest_free(struct manifest *m);
/* The listed file named name, or NULL. */
const struct manifest_file *manifest_find(const struct manifest *m, const char *name);

#endif
