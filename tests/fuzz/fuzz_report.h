// SPDX-License-Identifier: MIT
// What every chase-report reader promises about a source it filled, checked by the fuzzers.
#ifndef FUZZ_REPORT_H
#define FUZZ_REPORT_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "inputs/source.h"

/* Abort (a finding) unless the cap bytes at text hold a NUL: every text field is terminated. */
static inline void fuzz_report_terminated(const char *text, size_t cap)
{
    if (!memchr(text, 0, cap))
        abort();
}

static inline void fuzz_report_check_table(const struct csv *t)
{
    if (t->ncols == 0 || t->ncols > CSV_MAX_COLS || t->nrows * t->ncols > CSV_MAX_CELLS)
        abort();
    for (size_t c = 0; c < t->ncols; c++)
        if (csv_col(t, t->col[c]) != (int)c) /* names are unique */
            abort();
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < t->ncols; c++) {
            double v = csv_num(t, r, (int)c);
            if (!isnan(v) && !isfinite(v))
                abort();
            (void)strlen(csv_text(t, r, (int)c));
        }
}

/* Abort unless s is whole: counts within bounds, finite points, terminated strings. */
static inline void fuzz_report_check(const struct source *s)
{
    if (s->ncurves > SOURCE_MAX_CURVES || s->ncaches > SOURCE_MAX_CACHES ||
        s->nwarnings > SOURCE_MAX_WARNINGS)
        abort();
    fuzz_report_terminated(s->name, sizeof(s->name));
    fuzz_report_terminated(s->machine, sizeof(s->machine));
    fuzz_report_terminated(s->tag, sizeof(s->tag));
    fuzz_report_terminated(s->hierarchy, sizeof(s->hierarchy));
    for (size_t e = 0; e < EXP_COUNT; e++) {
        fuzz_report_terminated(s->status[e], sizeof(s->status[e]));
        if (s->table[e])
            fuzz_report_check_table(s->table[e]);
    }
    for (size_t i = 0; i < s->nwarnings; i++)
        fuzz_report_terminated(s->warning[i], sizeof(s->warning[i]));
    for (size_t i = 0; i < s->ncaches; i++)
        if (s->cache[i].level < 0 || s->cache[i].level > 9 || !(s->cache[i].size_bytes > 0))
            abort();
    for (size_t i = 0; i < s->ncurves; i++) {
        const struct an_curve *c = &s->curve[i];
        const struct curve_points *p = &s->points[i];
        fuzz_report_terminated(c->label, sizeof(c->label));
        if (c->n > p->cap || c->n > CURVE_MAX_POINTS || c->size != p->size || c->ns != p->ns ||
            c->cycles != p->cycles)
            abort();
        for (size_t k = 0; k < c->n; k++)
            if (!isfinite(c->size[k]) || !isfinite(c->ns[k]))
                abort();
    }
}

/* What source_load does after a reader succeeds: no empty curves, each sorted by size. */
static inline void fuzz_report_finish(struct source *s)
{
    source_drop_empty(s);
    for (size_t i = 0; i < s->ncurves; i++) {
        const struct an_curve *c = &s->curve[i];
        curve_sort(s, i);
        if (c->n == 0)
            abort();
        for (size_t k = 1; k < c->n; k++)
            if (c->size[k] < c->size[k - 1])
                abort();
    }
}

#endif
