// SPDX-License-Identifier: MIT
// A run's latency distributions (the tail experiment's, or any experiment with a histogram side
// file): one point per row of its table, read by column name, for the plots and report.md.
#include "outputs/dist.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "inputs/rjson.h"
#include "lib/fmt.h"

static double col_num(const struct csv *t, size_t row, const char *name)
{
    int c = name ? csv_col(t, name) : -1;
    return c >= 0 ? csv_num(t, row, c) : NAN;
}

/* The level the kernel named for this size and page (the verdict's table x->levels). */
static void point_level(const struct an_dist *x, const struct verdict *v, struct dist_point *p)
{
    const struct vtable *t = verdict_item_table(v, verdict_find(v, x->levels));
    int cl = -1, cs = -1, cp = -1;
    for (size_t c = 0; t && c < t->ncols; c++) {
        cl = strcmp(t->name[c], x->level) == 0 ? (int)c : cl;
        cs = strcmp(t->name[c], x->size) == 0 ? (int)c : cs;
        cp = strcmp(t->name[c], x->page) == 0 ? (int)c : cp;
    }
    for (size_t r = 0; t && cl >= 0 && cs >= 0 && r < t->nrows; r++)
        if (vtable_cell(t, r, (size_t)cs)->num == p->size_bytes &&
            (cp < 0 || vtable_cell(t, r, (size_t)cp)->num == p->page_bytes))
            snprintf(p->level, sizeof(p->level), "%s", vtable_cell(t, r, (size_t)cl)->text);
}

static void point_labels(struct dist_point *p)
{
    char sz[32], pg[32], level[sizeof(p->level)], size[sizeof(p->size)];
    fmt_size(sz, sizeof(sz), p->size_bytes);
    fmt_size(pg, sizeof(pg), p->page_bytes);
    if (p->page_bytes > 0)
        snprintf(p->size, sizeof(p->size), "%.16s, %.16s pages", sz, pg);
    else
        snprintf(p->size, sizeof(p->size), "%s", sz);
    snprintf(level, sizeof(level), "%s", p->level);
    snprintf(size, sizeof(size), "%s", p->size);
    snprintf(p->label, sizeof(p->label), "%s%s%s", level, level[0] ? " " : "", size);
}

static void point_read(const struct dist_run *d, const struct csv *t, size_t row,
                       struct dist_point *p)
{
    const struct an_dist *x = d->x;
    memset(p, 0, sizeof(*p));
    p->size_bytes = col_num(t, row, x->size);
    p->page_bytes = csv_col(t, x->page) >= 0 ? col_num(t, row, x->page) : 0;
    p->batches = col_num(t, row, x->batches);
    p->p50_ns = col_num(t, row, x->pct[0]);
    p->p90_ns = col_num(t, row, x->pct[1]);
    p->p99_ns = col_num(t, row, x->pct[2]);
    p->p999_ns = col_num(t, row, x->pct[3]);
    p->max_ns = col_num(t, row, x->pct[4]);
    p->slow_batches = col_num(t, row, x->slow);
    p->stalls = col_num(t, row, x->stalls);
    p->period_ns = col_num(t, row, x->period);
    p->stall_ns = col_num(t, row, x->stall);
    p->confidence = col_num(t, row, x->confidence);
    p->beats = col_num(t, row, x->beats);
    p->strays = col_num(t, row, x->strays);
    point_level(x, &d->r->an.verdict[d->e], p);
    point_labels(p);
}

bool dist_of(const struct source_result *r, struct dist_run *d)
{
    const struct source *s = r->src;
    memset(d, 0, sizeof(*d));
    for (size_t e = 0; exp_name(e); e++) {
        const struct an_dist *x = analysis_experiment(e)->dist;
        const struct csv *t = s->table[e];
        if (!x || !t || !s->side[e][SIDE_HIST] || csv_col(t, x->size) < 0)
            continue;
        d->r = r;
        d->e = e;
        d->x = x;
        d->hist = s->side[e][SIDE_HIST];
        d->samples = s->side[e][SIDE_SAMPLES];
        for (size_t i = 0; i < t->nrows && d->n < DIST_MAX_POINTS; i++)
            if (isfinite(col_num(t, i, x->size)))
                point_read(d, t, i, &d->p[d->n++]);
        return d->n > 0;
    }
    return false;
}

bool dist_row_is(const struct dist_run *d, const struct csv *t, size_t row,
                 const struct dist_point *p)
{
    int cp = csv_col(t, d->x->page);
    return col_num(t, row, d->x->size) == p->size_bytes &&
           (cp < 0 || p->page_bytes == 0 || csv_num(t, row, cp) == p->page_bytes);
}

/* Whether two points measured the same thing: the same level (or size, where the kernel named
 * none) and, when both runs give pages, the same pages (exact) or pages of the same kind (loose:
 * 4K pages, or larger ones: a cache's size runs under each run's own large pages). */
static bool same_point(const struct dist_point *a, const struct dist_point *b, bool exact)
{
    bool levels = a->level[0] && b->level[0];
    bool pages = a->page_bytes == 0 || b->page_bytes == 0 || a->page_bytes == b->page_bytes ||
                 (!exact && (a->page_bytes > DIST_BASE_PAGE) == (b->page_bytes > DIST_BASE_PAGE));
    return (levels ? strcmp(a->level, b->level) == 0 : a->size_bytes == b->size_bytes) && pages;
}

/* Whether group g can take run k's point p. */
static bool group_takes(const struct dist_group *g, size_t k, const struct dist_point *p,
                        bool exact)
{
    for (size_t i = 0; i < g->n; i++)
        if (g->run[i] == k)
            return false;
    return g->n < DIST_MAX_RUNS && same_point(g->pt[0], p, exact);
}

/* Put run k's points into groups: first those with a group of the same pages, then the rest by
 * the kind of their pages, then each left in a group of its own. */
static size_t group_run(const struct dist_run *d, size_t k, struct dist_group *g, size_t n,
                        size_t cap)
{
    bool placed[DIST_MAX_POINTS] = {false};
    size_t before = n;
    for (int pass = 0; pass < 3; pass++)
        for (size_t i = 0; i < d[k].n; i++) {
            size_t j = 0;
            while (!placed[i] && pass < 2 && j < before &&
                   !group_takes(&g[j], k, &d[k].p[i], !pass))
                j++;
            if (placed[i] || (pass < 2 && j == before) || (pass == 2 && n == cap))
                continue;
            if (pass == 2)
                g[j = n++].n = 0;
            g[j].run[g[j].n] = k;
            g[j].pt[g[j].n++] = &d[k].p[i];
            placed[i] = true;
        }
    return n;
}

size_t dist_groups(const struct dist_run *d, size_t runs, struct dist_group *g, size_t cap)
{
    size_t n = 0;
    for (size_t k = 0; k < runs; k++)
        n = group_run(d, k, g, n, cap);
    return n;
}

const struct dist_point *dist_refresh_row(const struct dist_run *d)
{
    return &d->p[d->n - 1];
}

int dist_refresh_point(const struct dist_run *d)
{
    return dist_refresh_row(d)->period_ns > 0 ? (int)d->n - 1 : -1;
}

const char *dist_platform(const struct source_result *r)
{
    const char *p = r->src->run ? rjson_string(rjson_get(r->src->run, "platform")) : NULL;
    if (r->src->simulated || (p && strcmp(p, "sim") == 0))
        return "simulated";
    if (!p)
        return "unknown";
    if (strcmp(p, "uefi") == 0)
        return "firmware";
    if (strcmp(p, "linux") == 0 || strcmp(p, "host") == 0)
        return "host";
    return "other";
}
