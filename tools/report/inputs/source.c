// SPDX-License-Identifier: MIT
// One input of chase-report: its curves' points, its warnings, its release.
#include "inputs/source.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/stats.h"

const char source_formats_help[] =
    "accepted inputs: a chase result folder (run.json and <experiment>.csv files), one chase "
    "experiment CSV (<experiment>.csv), or the text output of lmbench lat_mem_rd (\"stride=N "
    "blocks, or its rows pasted without them) or an lmbench results file, afborchert "
    "random-chase (memsize / time in ns), tinymembench (its \"block size : single random read / "
    "dual random read\" table), multichase -v, Chips and Cheese's MemoryLatency, ramlat -n or a "
    "whole sbc-bench log";

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

struct an_curve *source_add_curve(struct source *s, const char *label, enum an_role role)
{
    if (s->ncurves >= SOURCE_MAX_CURVES) {
        source_warn(s, "more than %d curves: %s and later ones are ignored", SOURCE_MAX_CURVES,
                    label);
        return NULL;
    }
    size_t i = s->ncurves++;
    struct an_curve *c = &s->curve[i];
    memset(c, 0, sizeof(*c));
    memset(&s->points[i], 0, sizeof(s->points[i]));
    snprintf(c->label, sizeof(c->label), "%s", label);
    c->role = role;
    return c;
}

struct an_curve *source_add_extra(struct source *s, struct curve_budget *b, const char *label)
{
    if (s->ncurves + b->tables_left >= SOURCE_MAX_CURVES) {
        b->extra_dropped++;
        return NULL;
    }
    return source_add_curve(s, label, AN_ROLE_EXTRA);
}

void source_warn_budget(struct source *s, const struct curve_budget *b)
{
    if (b->extra_dropped)
        source_warn(s,
                    "%zu plotted-only curves left out: a levels curve for every table comes "
                    "first and %d curves is the most",
                    b->extra_dropped, SOURCE_MAX_CURVES);
}

bool curve_push(struct source *s, struct an_curve *c, double size, double ns, double cycles)
{
    struct curve_points *p = &s->points[c - s->curve];
    if (!isfinite(size) || !isfinite(ns) || c->n >= CURVE_MAX_POINTS)
        return false;
    if (c->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        double *a = realloc(p->size, cap * sizeof(double));
        if (a)
            p->size = a;
        double *b = a ? realloc(p->ns, cap * sizeof(double)) : NULL;
        if (b)
            p->ns = b;
        double *d = b ? realloc(p->cycles, cap * sizeof(double)) : NULL;
        c->size = p->size;
        c->ns = p->ns;
        if (!d)
            return false;
        p->cycles = d;
        c->cycles = d;
        p->cap = cap;
    }
    p->size[c->n] = size;
    p->ns[c->n] = ns;
    p->cycles[c->n] = isfinite(cycles) ? cycles : NAN;
    c->n++;
    return true;
}

void curve_sort(struct source *s, size_t i)
{
    stats_sort_by(s->points[i].size, s->points[i].ns, s->points[i].cycles, s->curve[i].n);
}

static void curve_free(struct source *s, size_t i)
{
    free(s->points[i].size);
    free(s->points[i].ns);
    free(s->points[i].cycles);
    memset(&s->points[i], 0, sizeof(s->points[i]));
    memset(&s->curve[i], 0, sizeof(s->curve[i]));
}

void source_drop_empty(struct source *s)
{
    size_t k = 0;
    for (size_t i = 0; i < s->ncurves; i++) {
        if (s->curve[i].n == 0) {
            curve_free(s, i);
            continue;
        }
        if (k != i) {
            s->curve[k] = s->curve[i];
            s->points[k] = s->points[i];
        }
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
        for (size_t k = 0; k < SIDE_KINDS; k++) {
            if (s->side[e][k])
                csv_free(s->side[e][k]);
            free(s->side[e][k]);
        }
    }
    for (size_t i = 0; i < s->ncurves; i++)
        curve_free(s, i);
    memset(s, 0, sizeof(*s));
}
