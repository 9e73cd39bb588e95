// SPDX-License-Identifier: MIT
// DIR/fleet.sqlite: complete runs indexed (machines with their identity, runs, DIMMs, levels,
// DRAM latency, every verdict's items and tables) so a fleet can be queried with SQL; the
// tables are described in docs/collect.md.
#ifndef COLLECT_INDEX_H
#define COLLECT_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#define INDEX_DB_NAME "fleet.sqlite"

struct sqlite3;

/* Open (making it) DIR/fleet.sqlite with every table. NULL with err filled on failure. */
struct sqlite3 *index_open(const char *root, char *err, size_t cap);
/* Close a database from index_open. */
void index_close(struct sqlite3 *db);
/*
 * Index the run folder DIR/relpath (replacing that run's rows): its machine and run id from
 * its manifest.json, else run.json, else the folder's names; its files with size and SHA-256;
 * run.json's identity; the analysis of `report --json FOLDER` (report: chase-report's path).
 * A run whose analysis fails is indexed with the error in runs.report_error. False with err
 * when nothing could be indexed.
 */
bool index_run(struct sqlite3 *db, const char *root, const char *relpath, const char *report,
               char *err, size_t cap);
/*
 * Rebuild DIR/fleet.sqlite from every run folder (a folder holding run.json) under DIR, up to
 * three levels down (DIR/<machine>/<run id>, DIR/runs/NNNN, ...), staging left out. Prints one
 * line per run; returns how many failed, or -1 when the database cannot be made.
 */
int index_tree(const char *root, const char *report);

#endif
