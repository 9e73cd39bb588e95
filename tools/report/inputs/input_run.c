// SPDX-License-Identifier: MIT
// Reader of chase result folders: run.json (machine, caches, status) and every experiment CSV.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs/rtext.h"
#include "inputs/source.h"

/* Most distinct curves one table is split into (strides, page sizes). */
#define MAX_GROUPS 12
/* A page or stride size at or above this many bytes is not believed (nor cast to uint64_t). */
#define SIZE_LIMIT_BYTES 1e13

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

static void read_caches(struct source *s)
{
    const struct rjson *arr = rjson_get(s->run, "caches");
    for (const struct rjson *c = arr && arr->type == RJSON_ARRAY ? arr->child : NULL; c;
         c = c->next) {
        struct cache_info ci = {0};
        double level;
        if (!rjson_number(rjson_get(c, "level"), &level) ||
            !rjson_number(rjson_get(c, "size_bytes"), &ci.size_bytes) || level < 0 ||
            level > 9 || !(ci.size_bytes > 0))
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
    for (int e = 0; e < EXP_COUNT; e++) {
        const char *st = rjson_string(rjson_get(ex, exp_name((enum exp_id)e)));
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
    read_machine(s);
    read_caches(s);
    read_status(s);
    const char *status = rjson_string(rjson_get(s->run, "status"));
    if (status && strcmp(status, "complete") != 0) {
        char clean[64];
        rtext_sanitize(clean, sizeof(clean), status);
        source_warn(s, "run.json says the run is %s: it did not finish, later experiments may "
                       "be missing", clean);
    }
    double v;
    if (rjson_number(rjson_path(s->run, "core_clock.core_hz"), &v) && v > 1e6 && v < 1e11)
        s->core_hz = v;
    if ((rjson_number(rjson_path(s->run, "buffer.page_size_bytes"), &v) ||
         rjson_number(rjson_get(s->run, "page_size_bytes"), &v)) && v >= 4096 && v <= 1e12)
        s->page_bytes = v;
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

/* A page size given in the configuration: a number of bytes or "4K", "2M", "1G". */
static double config_page(const struct source *s, const char *exp)
{
    char path[64];
    snprintf(path, sizeof(path), "config.%s.page", exp);
    const struct rjson *v = rjson_path(s->run, path);
    double d;
    if (rjson_number(v, &d))
        return d >= 1 && d < SIZE_LIMIT_BYTES ? d : 0;
    const char *t = rjson_string(v);
    if (!t)
        return 0;
    size_t n = strlen(t);
    double mult = 1;
    if (n > 0 && strchr("kKmMgG", t[n - 1])) {
        char u = t[n - 1];
        mult = (u == 'k' || u == 'K') ? 1024.0 : (u == 'm' || u == 'M') ? 1048576.0 : 1073741824.0;
        n--;
    }
    if (!rtext_parse_double(t, n, &d))
        return 0;
    d *= mult; /* "1e300G" is a finite number but not a page size */
    return d >= 1 && d < SIZE_LIMIT_BYTES ? d : 0;
}

/* Distinct values of column col (NaN counts as one value); returns how many (<= max). */
static size_t distinct(const struct csv *t, int col, double *val, size_t max)
{
    size_t k = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        double v = csv_num(t, r, col);
        bool seen = false;
        for (size_t i = 0; i < k && !seen; i++)
            seen = (isnan(v) && isnan(val[i])) || v == val[i];
        if (!seen && k < max)
            val[k++] = v;
    }
    return k ? k : 1;
}

struct curve_spec {
    enum curve_role role;
    const char *group_col; /* one curve per value of this column, or NULL */
    const char *size_col;
};

static void label_for(char *dst, size_t cap, enum exp_id e, const char *group_col, double g)
{
    char sz[32];
    rtext_size(sz, sizeof(sz), g);
    if (!group_col || isnan(g))
        snprintf(dst, cap, "%s", exp_name(e));
    else if (strcmp(group_col, "page_bytes") == 0)
        snprintf(dst, cap, e == EXP_RANDOM ? "random, %s pages" : "%s pages", sz);
    else
        snprintf(dst, cap, "stride %.0f", g);
}

/* One curve per group value: size against median ns (and core cycles where given). */
static void curves_from_table(struct source *s, enum exp_id e, const struct curve_spec *sp)
{
    const struct csv *t = s->table[e];
    int cs = csv_col(t, sp->size_col), cn = csv_col(t, "ns_median");
    int cc = csv_col(t, "core_cycles_median"), cg = sp->group_col ? csv_col(t, sp->group_col) : -1;
    int cp = csv_col(t, "page_bytes"), cst = csv_col(t, "stride_bytes");
    if (cs < 0 || cn < 0) {
        source_warn(s, "%s.csv has no %s column: no curve from it", exp_name(e),
                    cs < 0 ? sp->size_col : "ns_median");
        return;
    }
    double groups[MAX_GROUPS];
    size_t ng = distinct(t, cg, groups, MAX_GROUPS);
    for (size_t g = 0; g < ng; g++) {
        char label[64];
        label_for(label, sizeof(label), e, cg >= 0 ? sp->group_col : NULL, groups[g]);
        struct curve *c = source_add_curve(s, label, sp->role);
        if (!c)
            return;
        for (size_t r = 0; r < t->nrows; r++) {
            double gv = csv_num(t, r, cg);
            if (cg >= 0 && !(gv == groups[g] || (isnan(gv) && isnan(groups[g]))))
                continue;
            curve_push(c, csv_num(t, r, cs), csv_num(t, r, cn), csv_num(t, r, cc));
            double page = csv_num(t, r, cp), stride = csv_num(t, r, cst);
            if (page >= 1 && page < SIZE_LIMIT_BYTES)
                c->page_bytes = (uint64_t)page;
            if (stride >= 1 && stride < SIZE_LIMIT_BYTES)
                c->stride_bytes = (uint64_t)stride;
        }
        if (c->page_bytes == 0) {
            double page = config_page(s, exp_name(e));
            c->page_bytes = (uint64_t)(page > 0 ? page : s->page_bytes);
        }
    }
}

int run_load_table(struct source *s, enum exp_id e, const char *text, size_t len, char *err,
                   size_t cap)
{
    struct csv *t = calloc(1, sizeof(*t));
    char why[SOURCE_TEXT];
    if (!t || csv_parse(text, len, t, why, sizeof(why)) != 0) {
        free(t);
        snprintf(err, cap, "%s.csv: %s", exp_name(e), t ? why : "out of memory");
        return -1;
    }
    s->table[e] = t;
    if (t->bad_rows)
        source_warn(s, "%s.csv: %zu rows with the wrong number of fields were skipped",
                    exp_name(e), t->bad_rows);
    static const struct curve_spec specs[EXP_COUNT] = {
        [EXP_RANDOM] = {ROLE_LEVELS, "page_bytes", "size_bytes"},
        [EXP_RING] = {ROLE_RING, "stride_bytes", "size_bytes"},
        [EXP_TLB] = {ROLE_TLB, "page_bytes", "size_bytes"},
    };
    if (e == EXP_RANDOM || e == EXP_RING || e == EXP_TLB)
        curves_from_table(s, e, &specs[e]);
    return 0;
}

/* Read <folder>/<exp>.csv when it exists; a malformed one is a warning, not an error. */
static bool load_experiment(struct source *s, enum exp_id e)
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
    for (int e = 0; e < EXP_COUNT; e++)
        any |= load_experiment(s, (enum exp_id)e);
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
