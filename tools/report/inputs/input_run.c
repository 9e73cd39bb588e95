// SPDX-License-Identifier: MIT
// Reader of chase result folders: run.json (machine, caches, status) and every experiment CSV.
#include "inputs/input_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs/input_side.h"
#include "inputs/rbounds.h"
#include "inputs/rtext.h"

static void read_machine(struct source *s)
{
    const struct rjson *r = s->run;
    const char *brand = rjson_string(rjson_path(r, "cpu.brand"));
    double fam, model, step;
    char cpu[SOURCE_TEXT] = "unknown CPU";
    if (brand) {
        char clean[SOURCE_TEXT];
        rtext_sanitize(clean, sizeof(clean), brand);
        const char *c = clean;
        size_t n = strlen(clean);
        rtext_trim(&c, &n);
        rtext_copy(cpu, sizeof(cpu), c, n);
    }
    if (rjson_number(rjson_path(r, "cpu.family"), &fam) &&
        rjson_number(rjson_path(r, "cpu.model"), &model) &&
        rjson_number(rjson_path(r, "cpu.stepping"), &step))
        snprintf(s->machine, sizeof(s->machine), "%.120s (family %.0f model %.0f stepping %.0f)",
                 cpu, fam, model, step);
    else
        snprintf(s->machine, sizeof(s->machine), "%s", cpu);
    s->simulated = rjson_true(rjson_get(r, "simulated"));
    const char *h = rjson_string(rjson_get(r, "hierarchy"));
    if (h)
        rtext_sanitize(s->hierarchy, sizeof(s->hierarchy), h);
}

/* Who described the caches, in a word: run.json's cache_source up to its first ';' (sysfs's
   note on the PPTT follows it), CPUID for x86's leaves. */
static void read_cache_from(struct source *s)
{
    const char *from = rjson_string(rjson_get(s->run, "cache_source"));
    if (!from || !*from)
        from = "the machine";
    else if (!strncmp(from, "cpuid", 5))
        from = "CPUID";
    rtext_sanitize(s->cache_from, sizeof(s->cache_from), from);
    s->cache_from[strcspn(s->cache_from, ";")] = 0;
}

static void read_caches(struct source *s)
{
    read_cache_from(s);
    const struct rjson *arr = rjson_get(s->run, "caches");
    for (const struct rjson *c = arr && arr->type == RJSON_ARRAY ? arr->child : NULL; c;
         c = c->next) {
        struct cache_info ci = {0};
        double level;
        if (!rjson_number(rjson_get(c, "level"), &level) ||
            !rjson_number(rjson_get(c, "size_bytes"), &ci.size_bytes) || level < 0 || level > 9 ||
            !(ci.size_bytes > 0))
            continue;
        ci.level = (int)level;
        const char *type = rjson_string(rjson_get(c, "type"));
        rtext_sanitize(ci.type, sizeof(ci.type), type ? type : "unified");
        ci.ways = ci.line_bytes = ci.sets = ci.shared_by = NAN;
        rjson_number(rjson_get(c, "ways"), &ci.ways);
        rjson_number(rjson_get(c, "line_bytes"), &ci.line_bytes);
        rjson_number(rjson_get(c, "sets"), &ci.sets);
        rjson_number(rjson_get(c, "shared_by"), &ci.shared_by);
        if (s->ncaches < SOURCE_MAX_CACHES)
            s->cache[s->ncaches++] = ci;
    }
}

static void read_status(struct source *s)
{
    const struct rjson *ex = rjson_get(s->run, "experiments");
    for (size_t e = 0; exp_name(e); e++) {
        const char *st = rjson_string(rjson_get(ex, exp_name(e)));
        if (st)
            rtext_sanitize(s->status[e], sizeof(s->status[e]), st);
    }
}

void run_load_json(struct source *s, const char *text, size_t len)
{
    char err[SOURCE_TEXT];
    s->run = rjson_parse(text, len, err, sizeof(err));
    if (!s->run || s->run->type != RJSON_OBJECT) {
        source_warn(s, "run.json is not a JSON object (%s): machine unknown", err);
        rjson_free(s->run);
        s->run = NULL;
        snprintf(s->machine, sizeof(s->machine), "unknown machine");
        return;
    }
    rbounds_json(s, "run.json", s->run);
    read_machine(s);
    read_caches(s);
    read_status(s);
    const char *status = rjson_string(rjson_get(s->run, "status"));
    if (status && strcmp(status, "complete") != 0) {
        char clean[64];
        rtext_sanitize(clean, sizeof(clean), status);
        source_warn(s,
                    "run.json says the run is %s: it did not finish, later experiments may "
                    "be missing",
                    clean);
    }
    double v;
    if (rjson_number(rjson_path(s->run, "core_clock.core_hz"), &v) && v > 1e6 && v < 1e11)
        s->core_hz = v;
    if ((rjson_number(rjson_path(s->run, "buffer.page_size_bytes"), &v) ||
         rjson_number(rjson_get(s->run, "page_size_bytes"), &v)) &&
        v >= 4096 && v <= 1e12)
        s->page_bytes = v;
    s->hypervisor = rjson_true(rjson_get(s->run, "hypervisor")) ||
                    rjson_true(rjson_path(s->run, "cpu.hypervisor"));
}

static void read_run_json(struct source *s, const char *path)
{
    struct rtext t;
    char err[SOURCE_TEXT];
    if (rtext_read(path, &t, err, sizeof(err)) != 0) {
        source_warn(s, "no usable run.json (%s): machine unknown", err);
        snprintf(s->machine, sizeof(s->machine), "unknown machine");
        return;
    }
    run_load_json(s, t.data, t.len);
    rtext_free(&t);
}

/* The experiment's curves (kernel/analysis decides which) as curves of s, in arrays s owns. */
static void curves_from_table(struct source *s, size_t e)
{
    const struct an_experiment *x = analysis_experiment(e);
    struct an_curve c[SOURCE_MAX_CURVES];
    size_t n = 0;
    if (x->curves.role == AN_ROLE_NONE)
        return;
    if (csv_col(s->table[e], x->curves.x) < 0 || csv_col(s->table[e], "ns_median") < 0)
        source_warn(s, "%s.csv has no %s column: no curve from it", x->name,
                    csv_col(s->table[e], x->curves.x) < 0 ? x->curves.x : "ns_median");
    analysis_curves_from_table(x, s->table[e], s->page_bytes, c, &n, SOURCE_MAX_CURVES);
    for (size_t i = 0; i < n; i++) {
        struct an_curve *k = source_add_curve(s, c[i].label, c[i].role);
        for (size_t p = 0; k && p < c[i].n; p++)
            curve_push(s, k, c[i].size[p], c[i].ns[p], c[i].cycles[p]);
        if (k) {
            k->page_bytes = trunc(c[i].page_bytes);
            k->stride_bytes = trunc(c[i].stride_bytes);
        }
    }
    analysis_curves_free(c, n);
}

int run_load_table(struct source *s, size_t e, const char *text, size_t len, char *err, size_t cap)
{
    struct csv *t = calloc(1, sizeof(*t));
    char why[SOURCE_TEXT];
    if (!exp_name(e)) {
        free(t);
        snprintf(err, cap, "no experiment %zu", e);
        return -1;
    }
    if (!t || csv_parse(text, len, t, why, sizeof(why)) != 0) {
        free(t);
        snprintf(err, cap, "%s.csv: %s", exp_name(e), t ? why : "out of memory");
        return -1;
    }
    if (s->table[e]) {
        csv_free(s->table[e]);
        free(s->table[e]);
    }
    s->table[e] = t;
    char file[64];
    snprintf(file, sizeof(file), "%s.csv", exp_name(e));
    rbounds_csv(s, file, t);
    if (t->bad_rows)
        source_warn(s, "%s.csv: %zu rows with the wrong number of fields were skipped", exp_name(e),
                    t->bad_rows);
    curves_from_table(s, e);
    return 0;
}

/* Read <folder>/<exp>.csv when it exists; a malformed one is a warning, not an error. */
static bool load_experiment(struct source *s, size_t e)
{
    char path[4200];
    struct rtext t;
    char err[SOURCE_TEXT];
    snprintf(path, sizeof(path), "%s/%s.csv", s->path, exp_name(e));
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    fclose(f);
    if (rtext_read(path, &t, err, sizeof(err)) != 0) {
        source_warn(s, "%s", err);
        return false;
    }
    int rc = run_load_table(s, e, t.data, t.len, err, sizeof(err));
    rtext_free(&t);
    if (rc != 0)
        source_warn(s, "%s: skipped", err);
    else
        run_load_sides(s, e);
    return rc == 0;
}

int run_load_folder(struct source *s, char *err, size_t cap)
{
    char path[4200];
    const char *b = strrchr(s->path, '/');
    s->format = FMT_RUN;
    snprintf(s->name, sizeof(s->name), "run %.100s", b ? b + 1 : s->path);
    snprintf(path, sizeof(path), "%s/run.json", s->path);
    FILE *f = fopen(path, "rb");
    bool has_json = f != NULL;
    if (f)
        fclose(f);
    if (has_json)
        read_run_json(s, path);
    else
        snprintf(s->machine, sizeof(s->machine), "unknown machine");
    bool any = false;
    for (size_t e = 0; exp_name(e); e++)
        any |= load_experiment(s, e);
    if (!has_json && !any) {
        snprintf(err, cap, "%s: a folder without run.json or experiment CSVs; %s", s->path,
                 source_formats_help);
        return -1;
    }
    if (!has_json)
        source_warn(s, "no run.json: machine, caches and configuration unknown");
    if (s->simulated) {
        char m[SOURCE_TEXT];
        snprintf(m, sizeof(m), "simulated %.150s", s->hierarchy[0] ? s->hierarchy : s->machine);
        snprintf(s->machine, sizeof(s->machine), "%s", m);
    }
    return 0;
}
