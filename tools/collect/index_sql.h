// SPDX-License-Identifier: MIT
// fleet.sqlite's schema and the statements that index one run (index_schema.c).
#ifndef COLLECT_INDEX_SQL_H
#define COLLECT_INDEX_SQL_H

/* CREATE TABLE IF NOT EXISTS for every table. */
extern const char index_schema_sql[];
/* Every table's name, NULL-terminated. */
extern const char *const index_tables[];
/* The INSERTs of one run, NULL-terminated: ?1 machine, ?2 run id, ?3 path relative to DIR,
   ?4 run.json's text, ?5 chase-report --json's text (NULL when it failed), ?6 its error. */
extern const char *const index_fill_sql[];

#endif
