// SPDX-License-Identifier: MIT
// Loading one input of chase-report: a folder, a CSV by its name, other text by its shape.
#include "inputs/load.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "inputs/input_run.h"
#include "inputs/rbounds.h"
#include "inputs/readers.h"
#include "inputs/rtext.h"

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b && b[1] ? b + 1 : path;
}

/* A chase experiment CSV given on its own: its file name says which experiment. */
static int load_csv_file(struct source *s, const char *text, size_t len, char *err, size_t cap)
{
    const char *b = base_name(s->path);
    for (size_t e = 0; exp_name(e); e++) {
        size_t k = strlen(exp_name(e));
        if (strncmp(b, exp_name(e), k) == 0 && strcmp(b + k, ".csv") == 0) {
            s->format = FMT_CSV;
            rtext_copy(s->name, sizeof(s->name), b, strlen(b));
            snprintf(s->machine, sizeof(s->machine), "unknown machine");
            return run_load_table(s, e, text, len, err, cap);
        }
    }
    snprintf(err, cap,
             "%s: a CSV file, but not named after a chase experiment "
             "(<experiment>.csv); %s",
             s->path, source_formats_help);
    return -1;
}

/* A foreign tool's output by its shape (the first reader whose shape it has): 0 read, -1 refused
 * (err says why), 1 not one of them. */
static int load_foreign(struct source *s, const char *text, size_t len, char *err, size_t cap)
{
    for (const struct reader *r = readers; r->name; r++) {
        if (!r->detect(text, len))
            continue;
        s->format = r->format;
        snprintf(s->name, sizeof(s->name), "%.120s (%s)", base_name(s->path), r->name);
        snprintf(s->machine, sizeof(s->machine), "unknown machine (%s output)", r->name);
        return r->parse(text, len, s, err, cap);
    }
    return 1;
}

/* The one line for a text no reader takes: each format tried and why it refused. */
static void refuse_all(const struct source *s, char *err, size_t cap)
{
    size_t k = (size_t)snprintf(err, cap,
                                "%s: unrecognised input; tried: a chase result folder (this is a "
                                "file), a chase experiment CSV (the name does not end in .csv)",
                                s->path);
    for (const struct reader *r = readers; r->name && k < cap; r++)
        k += (size_t)snprintf(err + k, cap - k, ", %s (%s)", r->name, r->shape);
}

int source_load_text(struct source *s, const char *text, size_t len, char *err, size_t cap)
{
    const char *b = base_name(s->path);
    size_t bl = strlen(b);
    if (bl > 4 && strcmp(b + bl - 4, ".csv") == 0)
        return load_csv_file(s, text, len, err, cap);
    int rc = load_foreign(s, text, len, err, cap);
    if (rc == 0)
        rbounds_curves(s, b);
    if (rc != 1)
        return rc;
    refuse_all(s, err, cap);
    return -1;
}

static int load_text(struct source *s, char *err, size_t cap)
{
    struct rtext t;
    if (rtext_read(s->path, &t, err, cap) != 0)
        return -1;
    int rc = source_load_text(s, t.data, t.len, err, cap);
    rtext_free(&t);
    return rc;
}

int source_load(const char *path, struct source *s, char *err, size_t cap)
{
    struct stat st;
    if (strlen(path) >= sizeof(s->path)) {
        snprintf(err, cap, "path too long");
        return -1;
    }
    snprintf(s->path, sizeof(s->path), "%s", path);
    for (size_t n = strlen(s->path); n > 1 && s->path[n - 1] == '/'; n--)
        s->path[n - 1] = 0;
    path = s->path;
    if (stat(path, &st) != 0) {
        snprintf(err, cap, "%s: %s", path, strerror(errno));
        return -1;
    }
    rtext_tag(s->tag, sizeof(s->tag), base_name(path));
    int rc = S_ISDIR(st.st_mode) ? run_load_folder(s, err, cap) : load_text(s, err, cap);
    if (rc == 0) {
        char clean[SOURCE_TEXT];
        rtext_sanitize(clean, sizeof(clean), s->name);
        snprintf(s->name, sizeof(s->name), "%s", clean);
        rtext_sanitize(clean, sizeof(clean), s->machine);
        snprintf(s->machine, sizeof(s->machine), "%s", clean);
        source_drop_empty(s);
        for (size_t i = 0; i < s->ncurves; i++)
            curve_sort(s, i);
    }
    return rc;
}
