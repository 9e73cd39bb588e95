// SPDX-License-Identifier: MIT
// Indexing run folders into DIR/fleet.sqlite: names from the manifest (else run.json, else the
// folders), each file's SHA-256, then index_schema.c's statements in one transaction per run.
#include "index.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "index_sql.h"
#include "inputs/rjson.h"
#include "manifest.h"
#include "report_run.h"
#include "lib/sha256.h"
#include "staging.h"

/* Largest run.json or manifest.json read: a full run's run.json is about 15K on 2 processors
   and grows with the processor and DIMM lists; 16M bounds a hostile one. */
#define INDEX_JSON_MAX_BYTES (16u << 20)
/* How deep under DIR run folders are looked for (DIR/<machine>/<run id> is 2). */
#define INDEX_MAX_DEPTH 3

/* a + "/" + b into out (a alone when b is ""); false when it does not fit. */
static bool join(char out[PATH_MAX], const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la + 1 + lb + 1 > PATH_MAX)
        return false;
    memcpy(out, a, la);
    out[la] = '/';
    memcpy(out + la + 1, b, lb + 1);
    if (!lb)
        out[la] = '\0';
    return true;
}

static char *read_path(const char *path, size_t max, size_t *len)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    char *buf = NULL;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size <= max &&
        (buf = malloc((size_t)st.st_size + 1))) {
        if (read(fd, buf, (size_t)st.st_size) == st.st_size) {
            buf[st.st_size] = '\0';
            *len = (size_t)st.st_size;
        } else {
            free(buf);
            buf = NULL;
        }
    }
    if (fd >= 0)
        close(fd);
    return buf;
}

struct sqlite3 *index_open(const char *root, char *err, size_t cap)
{
    char path[PATH_MAX];
    sqlite3 *db = NULL;
    snprintf(path, sizeof(path), "%s/%s", root, INDEX_DB_NAME);
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_busy_timeout(db, 10000);
        rc = sqlite3_exec(db, index_schema_sql, NULL, NULL, NULL);
    }
    if (rc != SQLITE_OK) {
        snprintf(err, cap, "%s: %s", path, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

void index_close(struct sqlite3 *db)
{
    sqlite3_close(db);
}

/* A string of run.json at path, when it is a good name. */
static bool json_name(const struct rjson *root, const char *path, char out[COLLECT_NAME_MAX + 1])
{
    const char *s = rjson_string(rjson_path(root, path));
    if (!s || !collect_name_ok(s, strlen(s)))
        return false;
    memcpy(out, s, strlen(s) + 1);
    return true;
}

/* The machine by the firmware's rule, for a run that came without a manifest: the SMBIOS
   serial unless empty or a placeholder, else the UUID (characters outside the names' set
   become '_'). */
static bool identity_machine(const struct rjson *run, char out[COLLECT_NAME_MAX + 1])
{
    static const char *const placeholders[] = {"To Be Filled By O.E.M.", "Default string",
                                               "System Serial Number", "Not Specified", NULL};
    const char *serial =
        rjson_string(rjson_path(run, "machine_identity.smbios.system.serial_number"));
    const char *uuid = rjson_string(rjson_path(run, "machine_identity.smbios.system.uuid"));
    bool placeholder = !serial || strspn(serial, " 0") == strlen(serial);
    for (unsigned i = 0; !placeholder && placeholders[i]; i++)
        placeholder = strcmp(serial, placeholders[i]) == 0;
    const char *s = placeholder ? uuid : serial;
    if (!s || !*s || strlen(s) > COLLECT_NAME_MAX)
        return false;
    for (size_t i = 0; i <= strlen(s); i++)
        out[i] = !s[i] || collect_name_char_ok(s[i]) ? s[i] : '_';
    return collect_name_ok(out, strlen(out));
}

/* The run's machine and run id: its manifest's, else run.json's, else the folders'. */
static void run_names(const char *dir, const char *runjson, size_t runlen, char *machine,
                      char *run_id)
{
    char path[PATH_MAX], err[160];
    size_t len = 0;
    char *text =
        join(path, dir, MANIFEST_NAME) ? read_path(path, INDEX_JSON_MAX_BYTES, &len) : NULL;
    struct manifest m;
    bool have = text && manifest_parse(text, len, UINT64_MAX, &m, err, sizeof(err));
    free(text);
    if (have) {
        snprintf(machine, COLLECT_NAME_MAX + 1, "%s", m.machine);
        snprintf(run_id, COLLECT_NAME_MAX + 1, "%s", m.run_id);
        manifest_free(&m);
        return;
    }
    struct rjson *run = runjson ? rjson_parse(runjson, runlen, err, sizeof(err)) : NULL;
    if (!json_name(run, "machine", machine) && !identity_machine(run, machine))
        snprintf(machine, COLLECT_NAME_MAX + 1, "unknown");
    const char *base = strrchr(dir, '/');
    base = base ? base + 1 : dir;
    if (!json_name(run, "run_id", run_id) && collect_name_ok(base, strlen(base)))
        memcpy(run_id, base, strlen(base) + 1);
    else if (!run_id[0])
        snprintf(run_id, COLLECT_NAME_MAX + 1, "unknown");
    rjson_free(run);
}

/* One row per regular file of the folder: name, size, SHA-256 of what is on disk. */
static bool index_files(sqlite3 *db, const char *dir, const char *machine, const char *run_id)
{
    DIR *d = opendir(dir);
    sqlite3_stmt *st = NULL;
    if (!d || sqlite3_prepare_v2(db, "INSERT INTO files VALUES(?1, ?2, ?3, ?4, ?5)", -1, &st,
                                 NULL) != SQLITE_OK) {
        if (d)
            closedir(d);
        return false;
    }
    bool ok = true;
    struct dirent *e;
    while (ok && (e = readdir(d))) {
        char path[PATH_MAX], hex[SHA256_HEX_CHARS + 1];
        size_t len = 0;
        struct stat sb;
        if (e->d_name[0] == '.' || !join(path, dir, e->d_name) || lstat(path, &sb) != 0 ||
            !S_ISREG(sb.st_mode))
            continue;
        char *data = read_path(path, (size_t)sb.st_size, &len);
        if (!data)
            continue; /* changed under us: left out */
        sha256_hex(data, len, hex);
        free(data);
        sqlite3_bind_text(st, 1, machine, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 2, run_id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 3, e->d_name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 4, (sqlite3_int64)len);
        sqlite3_bind_text(st, 5, hex, -1, SQLITE_TRANSIENT);
        ok = sqlite3_step(st) == SQLITE_DONE;
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    closedir(d);
    return ok;
}

/* Run one statement with the run's six parameters bound (NULL texts bind NULL). */
static bool exec_bound(sqlite3 *db, const char *sql, const char *const params[6])
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return false;
    for (int i = 0; i < 6; i++)
        sqlite3_bind_text(st, i + 1, params[i], -1, SQLITE_STATIC);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        ;
    sqlite3_finalize(st);
    return rc == SQLITE_DONE;
}

/* Whether text is JSON SQLite's functions can read. */
static bool json_ok(sqlite3 *db, const char *text)
{
    sqlite3_stmt *st = NULL;
    bool ok = text && sqlite3_prepare_v2(db, "SELECT json_valid(?1)", -1, &st, NULL) == SQLITE_OK &&
              sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC) == SQLITE_OK &&
              sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 1;
    sqlite3_finalize(st);
    return ok;
}

/* The run's rows, replacing any it had: every table, in one transaction. */
static bool index_rows(sqlite3 *db, const char *dir, const char *const params[6], char *err,
                       size_t cap)
{
    bool ok = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK;
    for (unsigned t = 1; ok && index_tables[t]; t++) { /* machines (0) keeps its latest run */
        char sql[128];
        snprintf(sql, sizeof(sql), "DELETE FROM %s WHERE machine = ?1 AND run_id = ?2",
                 index_tables[t]);
        ok = exec_bound(db, sql, params);
    }
    for (unsigned s = 0; ok && index_fill_sql[s]; s++)
        ok = exec_bound(db, index_fill_sql[s], params);
    ok = ok && index_files(db, dir, params[0], params[1]);
    if (!ok)
        snprintf(err, cap, "%s: %s", dir, sqlite3_errmsg(db));
    ok = ok && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK;
    if (!ok)
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return ok;
}

bool index_run(struct sqlite3 *db, const char *root, const char *relpath, const char *report,
               char *err, size_t cap)
{
    char dir[PATH_MAX], path[PATH_MAX];
    char machine[COLLECT_NAME_MAX + 1] = "", run_id[COLLECT_NAME_MAX + 1] = "";
    char why[300] = "";
    size_t len = 0;
    char *run = join(dir, root, relpath) && join(path, dir, "run.json")
                    ? read_path(path, INDEX_JSON_MAX_BYTES, &len)
                    : NULL;
    if (!run || !json_ok(db, run)) {
        snprintf(err, cap, "%s: no readable run.json", dir);
        free(run);
        return false;
    }
    run_names(dir, run, len, machine, run_id);
    char *rep = report_json(report, dir, why, sizeof(why));
    if (rep && !json_ok(db, rep)) {
        snprintf(why, sizeof(why), "chase-report --json wrote something that is not JSON");
        free(rep);
        rep = NULL;
    }
    const char *const params[6] = {machine, run_id, relpath, run, rep, rep ? NULL : why};
    bool ok = index_rows(db, dir, params, err, cap);
    free(run);
    free(rep);
    return ok;
}

/* Index every run folder under DIR/rel (rel "" for DIR), depth levels down at most. */
static int index_walk(sqlite3 *db, const char *root, const char *rel, int depth, const char *report)
{
    char dir[PATH_MAX], path[PATH_MAX], err[400];
    struct stat sb;
    if (!join(dir, root, rel) || !join(path, dir, "run.json"))
        return 0;
    if (*rel && lstat(path, &sb) == 0) {
        bool ok = index_run(db, root, rel, report, err, sizeof(err));
        printf("%s %s%s%s\n", ok ? "indexed" : "not indexed:", rel, ok ? "" : ": ", ok ? "" : err);
        return ok ? 0 : 1;
    }
    DIR *d = depth > 0 ? opendir(dir) : NULL;
    if (!d)
        return 0;
    int failed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char sub[PATH_MAX];
        bool named =
            *rel ? join(sub, rel, e->d_name) : snprintf(sub, sizeof(sub), "%s", e->d_name) > 0;
        if (e->d_name[0] != '.' && named && join(path, root, sub) && lstat(path, &sb) == 0 &&
            S_ISDIR(sb.st_mode))
            failed += index_walk(db, root, sub, depth - 1, report);
    }
    closedir(d);
    return failed;
}

int index_tree(const char *root, const char *report)
{
    char err[300];
    sqlite3 *db = index_open(root, err, sizeof(err));
    if (!db) {
        fprintf(stderr, "chase-collect: %s\n", err);
        return -1;
    }
    bool ok = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK;
    for (unsigned t = 0; ok && index_tables[t]; t++) {
        char sql[64];
        snprintf(sql, sizeof(sql), "DELETE FROM %s", index_tables[t]);
        ok = sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK;
    }
    if (!ok || sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        fprintf(stderr, "chase-collect: %s: %s\n", root, sqlite3_errmsg(db));
        index_close(db);
        return -1;
    }
    int failed = index_walk(db, root, "", INDEX_MAX_DEPTH, report);
    index_close(db);
    return failed;
}
