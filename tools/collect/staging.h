// SPDX-License-Identifier: MIT
// The collector's folders: files arrive in DIR/.staging/<machine>/<run id>/, and a run moves to
// DIR/<machine>/<run id>/ only once its manifest checks; a complete run is never written again.
#ifndef COLLECT_STAGING_H
#define COLLECT_STAGING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "names.h"

#define STAGING_DIR ".staging"
/* What a part file's name adds to the file's while it is being written (never a good name: it
   holds '+', so no upload can name it and a run never lists it). */
#define STAGING_PART_MARK ".part+"
/* A part file's name: the file's, the mark, the process id and the request's number. */
#define STAGING_PART_MAX (COLLECT_NAME_MAX + 48)

struct collect_root {
    int fd;            /* DIR, opened as a folder */
    const char *path;  /* DIR as given */
    uint64_t max_file; /* largest file accepted, bytes */
};

enum stage_result {
    STAGE_COMPLETE,     /* the run moved to DIR/<machine>/<run id>/ */
    STAGE_WAITING,      /* no manifest yet */
    STAGE_MISMATCH,     /* the manifest lists a file missing or not matching its size and SHA-256 */
    STAGE_BAD_MANIFEST, /* the manifest does not parse or names another run */
    STAGE_EXISTS,       /* a complete run of that name is there already */
    STAGE_ERROR,        /* the file system refused */
};

/* Open (making it if missing) DIR and DIR/.staging. Returns false with errno set. */
bool collect_root_open(struct collect_root *r, const char *path, uint64_t max_file);
/* Whether DIR/<machine>/<run id> exists (a complete run). */
bool staging_run_complete(const struct collect_root *r, const char *machine, const char *run_id);
/*
 * Open a new part file for t's file in the staging folder (made if missing), unique to serial.
 * Returns its descriptor (part: its name) or -1 with errno set.
 */
int staging_part_open(const struct collect_root *r, const struct collect_target *t,
                      unsigned long serial, char part[STAGING_PART_MAX]);
/* Sync a written part file and give it the file's name (replacing an earlier staged copy). */
bool staging_part_commit(const struct collect_root *r, const struct collect_target *t,
                         const char *part);
/* Remove a part file that will not be finished. */
void staging_part_discard(const struct collect_root *r, const struct collect_target *t,
                          const char *part);
/* Write a whole file into the staging folder (through a part file). */
bool staging_write(const struct collect_root *r, const struct collect_target *t, const void *data,
                   size_t len);
/*
 * If the staging folder of machine/run_id holds a manifest, check every file it lists (size and
 * SHA-256) and, when all match, remove anything else there and move the folder to
 * DIR/<machine>/<run id>/ (never replacing one). msg (of capacity cap) says what happened.
 */
enum stage_result staging_try_complete(const struct collect_root *r, const char *machine,
                                       const char *run_id, char *msg, size_t cap);

#endif
