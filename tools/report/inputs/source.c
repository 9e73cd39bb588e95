// SPDX-License-Identifier: MIT
// Loading one input of chase-report: recognise its format by shape and hand it to its reader.
#include "inputs/source.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "inputs/rbounds.h"
#include "inputs/rtext.h"
#include "lib/stats.h"

const char source_formats_help[] =
    "accepted inputs: a chase result folder (run.json and <experiment>.csv files), one chase "
    "experiment CSV (<experiment>.csv), or the text output of lmbench lat_mem_rd (\"stride=N "
    "blocks), afborchert random-chase (memsize / time in ns), tinymembench (its \"block size :"
    " single random read / dual random read\" table) or multichase -v";

const char *exp_name(size_t e)
{
    const struct an_experiment *x = analysis_experiment(e);
    return x ? x->name : NULL;
}

void source_warn(struct source *s, const char *fmt, ...)
{
    if (s->nwarnings >= SOURCE_MAX_WARNINGS)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->warning[s->nwarnings++], SOURCE_TEXT, fmt, ap);
    va_end(ap);
}

struct curve *source_add_curve(struct source *s, const char *label, enum an_role role)
{
    if (s->ncurves >= SOURCE_MAX_CURVES) {
        source_warn(s, "more than %d curves: %s and later ones are ignored", SOURCE_MAX_CURVES,
                    label);
        return NULL;
    }
    struct curve *c = &s->curve[s->ncurves++];
    memset(c, 0, sizeof(*c));
    snprintf(c->label, sizeof(c->label), "%s", label);
    c->role = role;
    return c;
}

bool curve_push(struct curve *c, double size, double ns, double cycles)
{
    if (!isfinite(size) || !isfinite(ns) || c->n >= CURVE_MAX_POINTS)
        return false;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 64;
        double *a = realloc(c->size, cap * sizeof(double));
        if (a)
            c->size = a;
        double *b = a ? realloc(c->ns, cap * sizeof(double)) : NULL;
        if (b)
            c->ns = b;
        double *d = b ? realloc(c->cycles, cap * sizeof(double)) : NULL;
        if (!d)
            return false;
        c->cycles = d;
        c->cap = cap;
    }
    c->size[c->n] = size;
    c->ns[c->n] = ns;
    c->cycles[c->n] = isfinite(cycles) ? cycles : NAN;
    c->n++;
    return true;
}

void curve_sort(struct curve *c)
{
    stats_sort_by(c->size, c->ns, c->cycles, c->n);
}

static void curve_free(struct curve *c)
{
    free(c->size);
    free(c->ns);
    free(c->cycles);
    memset(c, 0, sizeof(*c));
}

void source_drop_empty(struct source *s)
{
    size_t k = 0;
    for (size_t i = 0; i < s->ncurves; i++) {
        if (s->curve[i].n == 0) {
            curve_free(&s->curve[i]);
            continue;
        }
        if (k != i)
            s->curve[k] = s->curve[i];
        k++;
    }
    s->ncurves = k;
}

void source_free(struct source *s)
{
    rjson_free(s->run);
    for (size_t e = 0; e < EXP_COUNT; e++) {
        if (s->table[e])
            csv_free(s->table[e]);
        free(s->table[e]);
    }
    for (size_t i = 0; i < s->ncurves; i++)
        curve_free(&s->curve[i]);
    memset(s, 0, sizeof(*s));
}

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

/* Name and machine for a foreign tool's output. */
static void name_foreign(struct source *s, const char *tool)
{
    snprintf(s->name, sizeof(s->name), "%.120s (%s)", base_name(s->path), tool);
    snprintf(s->machine, sizeof(s->machine), "unknown machine (%s output)", tool);
}

/* A foreign tool's output by its shape: 0 read, -1 refused (err says why), 1 not one of them. */
static int load_foreign(struct source *s, const char *text, size_t len, char *err, size_t cap)
{
    if (foreign_is_tinymembench(text, len)) {
        s->format = FMT_TINYMEMBENCH;
        name_foreign(s, "tinymembench");
        return foreign_parse_tinymembench(text, len, s, err, cap);
    }
    if (foreign_is_multichase(text, len)) {
        s->format = FMT_MULTICHASE;
        name_foreign(s, "multichase");
        return foreign_parse_multichase(text, len, s, err, cap);
    }
    if (foreign_is_lmbench(text, len)) {
        s->format = FMT_LMBENCH;
        name_foreign(s, "lmbench lat_mem_rd");
        return foreign_parse_lmbench(text, len, s, err, cap);
    }
    if (foreign_is_random_chase(text, len)) {
        s->format = FMT_RANDOM_CHASE;
        name_foreign(s, "random-chase");
        return foreign_parse_random_chase(text, len, s, err, cap);
    }
    return 1;
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
    snprintf(err, cap, "%s: unrecognised input; %s", s->path, source_formats_help);
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
            curve_sort(&s->curve[i]);
    }
    return rc;
}
