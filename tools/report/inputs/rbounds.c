// SPDX-License-Identifier: MIT
// The ranges a number read from an input may take, by the unit its name carries.
#include "inputs/rbounds.h"

#include <stdio.h>
#include <string.h>

#include "inputs/source.h"
#include "lib/kmath.h"

/* Every range in one table. A number outside is no measurement any machine gives; inside,
 * every value converts to a 64-bit integer without undefined behaviour. */
#define EXACT_INTEGERS 0x1p52 /* doubles are exact integers up to 2^52 (4 PiB as bytes) */
#define INT64_SAFE 0x1p62     /* a quarter of long long's range: sums of two stay defined */
static const struct {
    const char *token; /* a '_'-separated word of the name */
    struct rbound range;
} units[] = {
    /* Sizes, strides, offsets, memory totals: 4 PiB is beyond any machine's memory. */
    {"bytes", {"bytes", 0, EXACT_INTEGERS}},
    /* Latency per access: no load waits a second. */
    {"ns", {"ns", 0, 1e9}},
    /* Core cycles per access: a second at 10 GHz. */
    {"cycles", {"cycles", 0, 1e10}},
    /* Clocks: no core or timer runs at a terahertz. */
    {"hz", {"Hz", 0, 1e12}},
    /* Bandwidth: a petabyte per second is a thousand times any machine's memory bandwidth. */
    {"gbs", {"GB/s", 0, 1e6}},
    {"gib", {"GB/s", 0, 1e6}},
};
/* Counts, ids, ratios, TSC ticks (a TSC passes 2^52 after a month of uptime): what converts to
 * a 64-bit integer. */
static const struct rbound plain = {"", -INT64_SAFE, INT64_SAFE};

/* Whether name has token as one of its '_'- or '.'-separated words. */
static bool has_token(const char *name, const char *token)
{
    size_t k = strlen(token);
    for (const char *p = name; *p;) {
        size_t n = strcspn(p, "_.");
        if (n == k && strncmp(p, token, k) == 0)
            return true;
        p += n;
        if (*p)
            p++;
    }
    return false;
}

struct rbound rbound_for(const char *name)
{
    for (size_t i = 0; name && i < sizeof(units) / sizeof(units[0]); i++)
        if (has_token(name, units[i].token))
            return units[i].range;
    return plain;
}

bool rbound_holds(struct rbound b, double v)
{
    return kisfinite(v) && v >= b.lo && v <= b.hi;
}

static void warn_out(struct source *s, const char *where, const char *field, size_t count,
                     double first, struct rbound b)
{
    source_warn(
        s, "%s: %s out of range in %zu %s (first %.6g; accepted %.6g .. %.6g%s%s): left out", where,
        field, count, count == 1 ? "row" : "rows", first, b.lo, b.hi, b.unit[0] ? " " : "", b.unit);
}

void rbounds_csv(struct source *s, const char *file, struct csv *t)
{
    for (size_t c = 0; c < t->ncols; c++) {
        struct rbound b = rbound_for(t->col[c]);
        size_t out = 0;
        double first = 0;
        for (size_t r = 0; r < t->nrows; r++) {
            double *v = &t->num[r * t->ncols + c];
            if (kisnan(*v) || rbound_holds(b, *v))
                continue;
            if (out++ == 0)
                first = *v;
            *v = KM_NAN;
        }
        if (out)
            warn_out(s, file, t->col[c], out, first, b);
    }
}

/* Most members of one run.json warned about one by one; the rest are counted. */
#define JSON_WARNINGS 8

struct json_walk {
    struct source *s;
    const char *file;
    size_t out;
};

static void walk(struct json_walk *w, struct rjson *v, const char *path, const char *key)
{
    char sub[160];
    if (v->type == RJSON_NUMBER) {
        struct rbound b = rbound_for(key);
        if (rbound_holds(b, v->number))
            return;
        if (w->out++ < JSON_WARNINGS)
            warn_out(w->s, w->file, path, 1, v->number, b);
        v->type = RJSON_NULL;
        return;
    }
    size_t i = 0;
    for (struct rjson *c = v->child; c; c = c->next, i++) {
        if (v->type == RJSON_OBJECT)
            snprintf(sub, sizeof(sub), "%s%s%.60s", path, path[0] ? "." : "", c->key);
        else
            snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
        walk(w, c, sub, v->type == RJSON_OBJECT ? c->key : key);
    }
}

void rbounds_json(struct source *s, const char *file, struct rjson *root)
{
    struct json_walk w = {s, file, 0};
    if (!root)
        return;
    walk(&w, root, "", "");
    if (w.out > JSON_WARNINGS)
        source_warn(s, "%s: %zu more numbers out of range left out", file, w.out - JSON_WARNINGS);
}

void rbounds_curves(struct source *s, const char *file)
{
    struct rbound bytes = rbound_for("size_bytes"), ns = rbound_for("ns"),
                  cycles = rbound_for("core_cycles");
    for (size_t i = 0; i < s->ncurves; i++) {
        struct an_curve *c = &s->curve[i];
        struct curve_points *pt = &s->points[i];
        size_t k = 0, out = 0;
        double first_size = 0, first_ns = 0;
        for (size_t p = 0; p < c->n; p++) {
            if (!rbound_holds(bytes, pt->size[p]) || !rbound_holds(ns, pt->ns[p])) {
                if (out++ == 0) {
                    first_size = pt->size[p];
                    first_ns = pt->ns[p];
                }
                continue;
            }
            pt->size[k] = pt->size[p];
            pt->ns[k] = pt->ns[p];
            pt->cycles[k] = rbound_holds(cycles, pt->cycles[p]) ? pt->cycles[p] : KM_NAN;
            k++;
        }
        c->n = k;
        if (out)
            source_warn(s,
                        "%s: curve '%s': %zu %s out of range left out (first %.6g bytes, %.6g ns;"
                        " accepted sizes %.6g .. %.6g bytes, latencies %.6g .. %.6g ns)",
                        file, c->label, out, out == 1 ? "point" : "points", first_size, first_ns,
                        bytes.lo, bytes.hi, ns.lo, ns.hi);
    }
}
