// SPDX-License-Identifier: MIT
// Curves from experiment tables: one per value of the table's group column.
#include "analysis/interpret.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "lib/stats.h"
#include "platform.h"

/* Most distinct curves one table is split into (strides, page sizes). */
#define MAX_GROUPS 12
/* A page or stride size at or above this many bytes is not believed. */
#define SIZE_LIMIT_BYTES 1e13

/* Distinct values of column col (NaN counts as one value); returns how many (<= max). */
static size_t distinct(const struct csv *t, int col, double *val, size_t max)
{
    size_t k = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        double v = csv_num(t, r, col);
        bool seen = false;
        for (size_t i = 0; i < k && !seen; i++)
            seen = (kisnan(v) && kisnan(val[i])) || v == val[i];
        if (!seen && k < max)
            val[k++] = v;
    }
    return k ? k : 1;
}

static void label_for(char *dst, size_t cap, const struct an_experiment *e, int group_col, double g)
{
    char sz[32];
    fmt_size(sz, sizeof(sz), g);
    if (group_col < 0 || kisnan(g))
        ksnprintf(dst, cap, "%s", e->name);
    else if (kstrcmp(e->curves.group, "page_bytes") == 0)
        ksnprintf(dst, cap, e->curves.role == AN_ROLE_LEVELS ? "%s, %s pages" : "%.0s%s pages",
                  e->name, sz);
    else
        ksnprintf(dst, cap, "stride %.0f", g);
}

/* The rows of group value g into curve c (arrays from plat_alloc). */
static bool fill_curve(struct an_curve *c, const struct csv *t, int cg, double g, int cs,
                       double default_page)
{
    int cn = csv_col(t, csv_col(t, "ns") >= 0 ? "ns" : "ns_median"),
        cc = csv_col(t, csv_col(t, "core_cycles") >= 0 ? "core_cycles" : "core_cycles_median");
    int cp = csv_col(t, "page_bytes"), cst = csv_col(t, "stride_bytes");
    double *x = plat_alloc((t->nrows + 1) * sizeof(double));
    double *y = plat_alloc((t->nrows + 1) * sizeof(double));
    double *z = plat_alloc((t->nrows + 1) * sizeof(double));
    if (!x || !y || !z) {
        plat_free(x);
        plat_free(y);
        plat_free(z);
        return false;
    }
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        double gv = csv_num(t, r, cg);
        if (cg >= 0 && !(gv == g || (kisnan(gv) && kisnan(g))))
            continue;
        x[n] = csv_num(t, r, cs);
        y[n] = csv_num(t, r, cn);
        z[n] = csv_num(t, r, cc);
        /* Rows without a size or a latency are no points (chase-report's readers agree). */
        n += kisfinite(x[n]) && kisfinite(y[n]);
        double page = csv_num(t, r, cp), stride = csv_num(t, r, cst);
        if (page >= 1 && page < SIZE_LIMIT_BYTES)
            c->page_bytes = page;
        if (stride >= 1 && stride < SIZE_LIMIT_BYTES)
            c->stride_bytes = stride;
    }
    stats_sort_by(x, y, z, n);
    if (c->page_bytes == 0)
        c->page_bytes = default_page;
    c->size = x;
    c->ns = y;
    c->cycles = z;
    c->n = n;
    return true;
}

size_t analysis_curves_from_table(const struct an_experiment *e, const struct csv *t,
                                  double default_page, struct an_curve *out, size_t *n, size_t cap)
{
    if (e->curves.role == AN_ROLE_NONE || !e->curves.x)
        return 0;
    int cs = csv_col(t, e->curves.x), cn = csv_col(t, "ns_median");
    int cg = e->curves.group ? csv_col(t, e->curves.group) : -1;
    if (cs < 0 || cn < 0)
        return 0;
    double groups[MAX_GROUPS];
    size_t ng = distinct(t, cg, groups, MAX_GROUPS), added = 0;
    for (size_t g = 0; g < ng && *n < cap; g++) {
        struct an_curve *c = &out[*n];
        kmemset(c, 0, sizeof(*c));
        c->role = e->curves.role;
        label_for(c->label, sizeof(c->label), e, cg, groups[g]);
        if (!fill_curve(c, t, cg, groups[g], cs, default_page))
            break;
        if (c->n == 0) {
            analysis_curves_free(c, 1);
            continue;
        }
        (*n)++;
        added++;
    }
    return added;
}

void analysis_curves_free(struct an_curve *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        plat_free((void *)c[i].size);
        plat_free((void *)c[i].ns);
        plat_free((void *)c[i].cycles);
        c[i].size = c[i].ns = c[i].cycles = NULL;
        c[i].n = 0;
    }
}
