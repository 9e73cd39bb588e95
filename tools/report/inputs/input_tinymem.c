// SPDX-License-Identifier: MIT
// Readers of tinymembench's latency table and of multichase -v output.
#include "inputs/input_tinymem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs/input_sbcbench.h"
#include "inputs/rtext.h"
#include "lib/fmt.h"

#define SNIFF_LINES 400
#define MAX_MULTICHASE_FIELDS 8
/* A page size or stride at or above this many bytes is not believed. */
#define SIZE_LIMIT_BYTES 1e13

static bool tiny_header(const char *l, size_t n)
{
    rtext_trim(&l, &n);
    return rtext_starts(l, n, "block size :") && rtext_contains(l, n, "random read");
}

bool foreign_is_tinymembench(const char *text, size_t len)
{
    return rtext_any_line(text, len, SNIFF_LINES, tiny_header);
}

/* Start the single and dual read curves of one "block size" table, labelled with the cpu of
 * the sbc-bench line before it when there is one. */
static void tiny_block(struct source *s, struct curve_budget *b, struct tiny_table *t,
                       const char *l, size_t n)
{
    double page = 0;
    const char *pages = "default pages";
    if (rtext_contains(l, n, "NOHUGEPAGE")) {
        page = 4096;
        pages = "no huge pages";
    } else if (rtext_contains(l, n, "HUGEPAGE")) {
        page = 2u << 20;
        pages = "huge pages";
    }
    const char *sep = t->cpu[0] ? " " : "";
    char label[2 * sizeof(s->curve[0].label)]; /* cut to a label's size when stored */
    if (b->tables_left > 0)
        b->tables_left--;
    snprintf(label, sizeof(label), "%s%ssingle random read, %s", t->cpu, sep, pages);
    t->single = source_add_curve(s, label, AN_ROLE_LEVELS);
    snprintf(label, sizeof(label), "%s%sdual random read, %s", t->cpu, sep, pages);
    t->dual = t->single ? source_add_extra(s, b, label) : NULL;
    for (struct an_curve *c = t->single; c; c = c == t->single ? t->dual : NULL) {
        c->page_bytes = page;
        c->relative = true;
        c->group = t->group;
    }
}

/* "  65536 :    4.3 ns          /     6.6 ns": size, single, dual (dual may be missing). */
static bool tiny_row(const char *l, size_t n, double *size, double *single, double *dual)
{
    const char *colon = memchr(l, ':', n);
    if (!colon || !rtext_parse_double(l, (size_t)(colon - l), size) || *size < 1)
        return false;
    const char *f[8];
    size_t fl[8];
    size_t k = rtext_fields(colon + 1, n - (size_t)(colon + 1 - l), f, fl, 8);
    *dual = NAN;
    if (k < 2 || !rtext_parse_double(f[0], fl[0], single) || fl[1] != 2 ||
        memcmp(f[1], "ns", 2) != 0)
        return false;
    if (k >= 5 && fl[2] == 1 && f[2][0] == '/' && !rtext_parse_double(f[3], fl[3], dual))
        *dual = NAN;
    return *single >= 0;
}

size_t tiny_count_tables(const char *text, size_t len)
{
    return rtext_count_lines(text, len, tiny_header);
}

void tiny_feed(struct source *s, struct curve_budget *b, struct tiny_table *t, const char *l,
               size_t n)
{
    double size, a, d;
    if (sbc_executing(l, n, "benchmark", t->cpu, sizeof(t->cpu))) {
        t->group++;
        return;
    }
    if (tiny_header(l, n)) {
        tiny_block(s, b, t, l, n);
        return;
    }
    if (!t->single || !tiny_row(l, n, &size, &a, &d)) {
        /* The table ends at the first line that is not a row. */
        if (t->single && t->single->n > 0)
            t->single = t->dual = NULL;
        return;
    }
    t->points += curve_push(s, t->single, size, a, NAN);
    if (t->dual && isfinite(d))
        curve_push(s, t->dual, size, d, NAN);
}

void tiny_warn_relative(struct source *s)
{
    source_warn(s, "tinymembench gives time added to an L1 hit, not the whole latency; "
                   "--l1-ns adds the L1 latency back");
}

int foreign_parse_tinymembench(const char *text, size_t len, struct source *s, char *err,
                               size_t cap)
{
    struct rline_iter it;
    const char *l;
    size_t n;
    struct tiny_table t = {0};
    struct curve_budget b = {tiny_count_tables(text, len), 0};
    rline_init(&it, text, len);
    while (rline_next(&it, &l, &n))
        tiny_feed(s, &b, &t, l, n);
    if (t.points == 0) {
        snprintf(err, cap, "%s: tinymembench output without latency rows", s->path);
        return -1;
    }
    tiny_warn_relative(s);
    source_warn_budget(s, &b);
    return 0;
}

/* "key = value" of multichase -v; false for other lines. */
static bool key_value(const char *l, size_t n, const char *key, const char **v, size_t *vn)
{
    rtext_trim(&l, &n);
    size_t k = strlen(key);
    if (n < k + 2 || memcmp(l, key, k) != 0)
        return false;
    const char *p = l + k;
    size_t rest = n - k;
    rtext_trim(&p, &rest);
    if (rest == 0 || p[0] != '=')
        return false;
    *v = p + 1;
    *vn = rest - 1;
    rtext_trim(v, vn);
    return true;
}

bool foreign_is_multichase(const char *text, size_t len)
{
    struct rline_iter it;
    const char *l, *v;
    size_t n, vn;
    bool memory = false, stride = false;
    rline_init(&it, text, len);
    while (rline_next(&it, &l, &n) && it.line_no <= SNIFF_LINES) {
        memory |= key_value(l, n, "total_memory", &v, &vn);
        stride |= key_value(l, n, "stride", &v, &vn);
    }
    return memory && stride;
}

/* The settings of one multichase run. */
struct mc_block {
    double memory, stride, page, threads;
    char chase[32];
    bool thp;
};

/* The first number of a value ("268435456 (256.0 MiB)", "4096 bytes"). */
static double first_number(const char *v, size_t vn)
{
    const char *f[1];
    size_t fl[1];
    double d;
    if (rtext_fields(v, vn, f, fl, 1) >= 1 && rtext_parse_double(f[0], fl[0], &d))
        return d;
    return NAN;
}

/* The curve for a block's settings, made on first use. */
static struct an_curve *mc_curve(struct source *s, const struct mc_block *b)
{
    char label[128], pg[32];
    fmt_size(pg, sizeof(pg), b->page);
    snprintf(label, sizeof(label), "%.20s, stride %.12g, %.10s%s pages%s", b->chase, b->stride,
             isfinite(b->page) ? pg : "default", b->thp ? " THP" : "",
             b->threads > 1 ? ", threads" : "");
    label[sizeof(s->curve[0].label) - 1] = 0; /* compare as stored */
    for (size_t i = 0; i < s->ncurves; i++)
        if (strcmp(s->curve[i].label, label) == 0)
            return &s->curve[i];
    bool simple = strcmp(b->chase, "simple") == 0 && !(b->threads > 1);
    struct an_curve *c = source_add_curve(s, label, simple ? AN_ROLE_LEVELS : AN_ROLE_EXTRA);
    if (c) {
        c->page_bytes = b->page >= 1 && b->page < SIZE_LIMIT_BYTES ? trunc(b->page) : 0;
        c->stride_bytes = b->stride >= 1 && b->stride < SIZE_LIMIT_BYTES ? trunc(b->stride) : 0;
    }
    return c;
}

/* The result line ends a block: only numbers (a timestamp may come first with -y). */
static bool result_line(const char *l, size_t n, double *ns)
{
    const char *f[3];
    size_t fl[3];
    size_t k = rtext_fields(l, n, f, fl, 3);
    if (k < 1 || k > 2 || rtext_contains(l, n, "="))
        return false;
    double t;
    return (k == 1 || rtext_parse_double(f[0], fl[0], &t)) &&
           rtext_parse_double(f[k - 1], fl[k - 1], ns) && *ns > 0;
}

static void mc_setting(struct mc_block *b, const char *l, size_t n)
{
    const char *v;
    size_t vn;
    if (key_value(l, n, "total_memory", &v, &vn)) {
        b->memory = first_number(v, vn);
    } else if (key_value(l, n, "stride", &v, &vn)) {
        b->stride = first_number(v, vn);
    } else if (key_value(l, n, "page_size", &v, &vn)) {
        b->page = first_number(v, vn);
        b->thp = rtext_contains(v, vn, "THP");
    } else if (key_value(l, n, "nr_threads", &v, &vn)) {
        b->threads = first_number(v, vn);
    } else if (key_value(l, n, "chase", &v, &vn)) {
        rtext_copy(b->chase, sizeof(b->chase), v, vn);
        rtext_sanitize(b->chase, sizeof(b->chase), b->chase);
    }
}

int foreign_parse_multichase(const char *text, size_t len, struct source *s, char *err, size_t cap)
{
    struct rline_iter it;
    const char *l;
    size_t n, points = 0;
    struct mc_block b = {NAN, NAN, NAN, 1, "simple", false};
    double ns;
    rline_init(&it, text, len);
    while (rline_next(&it, &l, &n)) {
        if (rtext_contains(l, n, "=")) {
            mc_setting(&b, l, n);
            continue;
        }
        if (!result_line(l, n, &ns) || !isfinite(b.memory) || b.memory < 1)
            continue;
        struct an_curve *c = mc_curve(s, &b);
        points += c && curve_push(s, c, b.memory, ns, NAN);
        b = (struct mc_block){NAN, NAN, NAN, 1, "simple", false}; /* one result per block */
    }
    if (points == 0) {
        snprintf(err, cap, "%s: multichase -v output without a result after total_memory", s->path);
        return -1;
    }
    return 0;
}
