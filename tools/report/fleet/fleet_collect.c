// SPDX-License-Identifier: MIT
// Finding the fleet's runs: every run.json under a folder (at any depth), or the runs a
// chase-collect index (fleet.sqlite) lists; each machine keeps its newest run.
#include <ftw.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fleet/fleet.h"
#include "inputs/rtext.h"

#define WALK_FDS 16    /* folders nftw may hold open at once */
#define FOUND_MAX 4096 /* run folders one input may list */

/* The run folders found by the walk (nftw takes no context pointer). */
static struct {
    char (*dir)[4096];
    size_t n;
} found;

static int on_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    if (type == FTW_D && ftw->level > 0 && path[ftw->base] == '.')
        return FTW_SKIP_SUBTREE; /* chase-collect's .staging/: runs not complete yet */
    if (type != FTW_F || strcmp(path + ftw->base, "run.json") != 0 || found.n >= FOUND_MAX)
        return 0;
    snprintf(found.dir[found.n], sizeof(found.dir[0]), "%.*s", ftw->base ? ftw->base - 1 : 0, path);
    found.n++;
    return 0;
}

/* Whether a folder's name is a run's (chase's NNNN, or a collector's run id): digits first and
 * only hex digits and dashes, so the machine is the folder above it. */
static bool run_folder_name(const char *s)
{
    if (!(*s >= '0' && *s <= '9'))
        return false;
    for (; *s; s++)
        if (!strchr("0123456789abcdefABCDEF-", *s))
            return false;
    return true;
}

/* The name a run with no identity of its own is known by: its folder's path under the input,
 * less a last part that names the run (DIR/<machine>/<run id>, DIR/<machine>/runs/0001). */
static void folder_name(const char *root, const char *dir, char *out, size_t cap)
{
    size_t rl = strlen(root);
    const char *rel = strncmp(dir, root, rl) == 0 ? dir + rl : dir;
    while (*rel == '/')
        rel++;
    char buf[4096];
    snprintf(buf, sizeof(buf), "%s", rel[0] ? rel : dir);
    char *last = strrchr(buf, '/');
    if (last && run_folder_name(last + 1)) {
        *last = '\0';
        size_t n = strlen(buf);
        if (n > 5 && strcmp(buf + n - 5, "/runs") == 0)
            buf[n - 5] = '\0';
    }
    rtext_sanitize(out, cap, buf);
}

/* Whether run a is newer than run b: start time, then run id. */
static bool newer(const struct fleet_machine *a, const struct fleet_machine *b)
{
    int c = strcmp(a->start_time, b->start_time);
    return c > 0 || (c == 0 && strcmp(a->run_id, b->run_id) > 0);
}

static void skip(struct fleet *f, const char *why)
{
    if (f->nskipped < sizeof(f->skipped) / sizeof(f->skipped[0]))
        snprintf(f->skipped[f->nskipped], sizeof(f->skipped[0]), "%.119s", why);
    f->nskipped++;
}

/* Read the run in dir and keep it as its machine's row when it is that machine's newest. */
static void add_run(struct fleet *f, const char *dir, const char *fallback)
{
    static struct fleet_machine m;
    char err[512];
    if (fleet_read_run(dir, fallback, &m, err, sizeof(err)) != 0) {
        skip(f, err);
        return;
    }
    for (size_t i = 0; i < f->nmachines; i++) {
        struct fleet_machine *old = &f->machine[i];
        if (strcmp(old->name, m.name) != 0)
            continue;
        unsigned runs = old->runs + 1;
        if (newer(&m, old))
            *old = m;
        old->runs = runs;
        return;
    }
    if (f->nmachines >= FLEET_MACHINES) {
        skip(f, "more machines than the report holds: the rest left out");
        return;
    }
    f->machine[f->nmachines++] = m;
}

static int collect_dir(struct fleet *f, const char *root, char *err, size_t cap)
{
    found.dir = calloc(FOUND_MAX, sizeof(found.dir[0]));
    found.n = 0;
    if (!found.dir || nftw(root, on_entry, WALK_FDS, FTW_PHYS | FTW_ACTIONRETVAL) != 0) {
        snprintf(err, cap, "cannot read the folder %s", root);
        free(found.dir);
        return -1;
    }
    for (size_t i = 0; i < found.n; i++) {
        char name[FLEET_NAME];
        folder_name(root, found.dir[i], name, sizeof(name));
        add_run(f, found.dir[i], name);
    }
    if (found.n >= FOUND_MAX)
        skip(f, "more run folders than one input may list: the rest left out");
    free(found.dir);
    return 0;
}

/* A path from the index that stays inside its folder: relative, no "..", no backslash. */
static bool safe_relative(const char *p)
{
    if (!p || !*p || p[0] == '/' || strchr(p, '\\'))
        return false;
    for (const char *s = p; (s = strstr(s, "..")) != NULL; s += 2)
        if ((s == p || s[-1] == '/') && (s[2] == '/' || s[2] == '\0'))
            return false;
    return true;
}

/* chase-collect's index: runs(machine, run_id, path), path relative to the index's folder. */
static int collect_sqlite(struct fleet *f, const char *db_path, char *err, size_t cap)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    char base[4096];
    snprintf(base, sizeof(base), "%s", db_path);
    char *slash = strrchr(base, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(base, sizeof(base), ".");
    if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT machine, run_id, path FROM runs", -1, &st, NULL) !=
            SQLITE_OK) {
        snprintf(err, cap, "%s: not a chase-collect index (runs(machine, run_id, path)): %s",
                 db_path, db ? sqlite3_errmsg(db) : "cannot open");
        sqlite3_close(db);
        return -1;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *machine = (const char *)sqlite3_column_text(st, 0);
        const char *path = (const char *)sqlite3_column_text(st, 2);
        char dir[4096 + 8], name[FLEET_NAME], why[FLEET_TEXT];
        if (!safe_relative(path)) {
            snprintf(why, sizeof(why), "%.40s: a run path outside the index's folder: left out",
                     machine ? machine : "?");
            skip(f, why);
            continue;
        }
        snprintf(dir, sizeof(dir), "%s/%s", base, path);
        rtext_sanitize(name, sizeof(name), machine ? machine : path);
        add_run(f, dir, name);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return 0;
}

static bool is_sqlite(const char *path)
{
    size_t n = strlen(path);
    return n > 7 && strcmp(path + n - 7, ".sqlite") == 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct fleet_machine *)a)->name, ((const struct fleet_machine *)b)->name);
}

int fleet_collect(struct fleet *f, const char *const *inputs, size_t n, char *err, size_t cap)
{
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(inputs[i], &st) != 0) {
            snprintf(err, cap, "%s: no such file or folder", inputs[i]);
            return -1;
        }
        int rc = is_sqlite(inputs[i]) && S_ISREG(st.st_mode)
                     ? collect_sqlite(f, inputs[i], err, cap)
                     : collect_dir(f, inputs[i], err, cap);
        if (rc != 0)
            return -1;
        used += (size_t)snprintf(f->inputs + used,
                                 used < sizeof(f->inputs) ? sizeof(f->inputs) - used : 0, "%s%s",
                                 i ? ", " : "", inputs[i]);
    }
    qsort(f->machine, f->nmachines, sizeof(f->machine[0]), by_name);
    if (f->nmachines == 0) {
        snprintf(err, cap, "no chase run folder (run.json) found in %s", f->inputs);
        return -1;
    }
    return 0;
}
