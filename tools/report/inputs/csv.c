// SPDX-License-Identifier: MIT
// A comma-separated table read by column name, tolerant of missing columns and bad rows.
#include "inputs/csv.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs/rtext.h"

/* Split the NUL-terminated line in place at commas; returns the field count (<= max stored). */
static size_t split(char *line, char **field, size_t max)
{
    size_t n = 0;
    char *p = line;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = 0;
        const char *s = p;
        size_t len = strlen(p);
        rtext_trim(&s, &len);
        if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
            s++;
            len -= 2;
        }
        ((char *)s)[len] = 0;
        if (n < max)
            field[n] = (char *)s;
        n++;
        if (!comma)
            return n;
        p = comma + 1;
    }
}

static bool skip_line(const char *s, size_t n)
{
    rtext_trim(&s, &n);
    return n == 0 || s[0] == '#';
}

static int parse_header(struct csv *t, char *line, char *err, size_t cap)
{
    char *field[CSV_MAX_COLS];
    size_t n = split(line, field, CSV_MAX_COLS);
    if (n > CSV_MAX_COLS) {
        snprintf(err, cap, "more than %d columns", CSV_MAX_COLS);
        return -1;
    }
    t->col = calloc(n, sizeof(char *));
    if (!t->col) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (field[i][0] == 0) {
            snprintf(err, cap, "header column %zu has no name", i + 1);
            return -1;
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp(field[i], field[j]) == 0) {
                snprintf(err, cap, "header names column %s twice", field[i]);
                return -1;
            }
        t->col[i] = field[i];
    }
    t->ncols = n;
    return 0;
}

static int add_row(struct csv *t, char **field, size_t *room)
{
    if (t->nrows >= CSV_MAX_ROWS || (t->nrows + 1) * t->ncols > CSV_MAX_CELLS)
        return -1;
    if (t->nrows == *room) {
        size_t bigger = *room ? *room * 2 : 64;
        char **c = realloc(t->cell, bigger * t->ncols * sizeof(char *));
        if (!c)
            return -1;
        t->cell = c;
        double *v = realloc(t->num, bigger * t->ncols * sizeof(double));
        if (!v)
            return -1;
        t->num = v;
        *room = bigger;
    }
    for (size_t i = 0; i < t->ncols; i++) {
        double x;
        t->cell[t->nrows * t->ncols + i] = field[i];
        t->num[t->nrows * t->ncols + i] =
            rtext_parse_double(field[i], strlen(field[i]), &x) ? x : NAN;
    }
    t->nrows++;
    return 0;
}

int csv_parse(const char *text, size_t len, struct csv *t, char *err, size_t cap)
{
    memset(t, 0, sizeof(*t));
    t->store = malloc(len + 1);
    if (!t->store) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    memcpy(t->store, text, len);
    t->store[len] = 0;
    struct rline_iter it;
    const char *line;
    size_t n, room = 0;
    char *field[CSV_MAX_COLS];
    rline_init(&it, t->store, len);
    while (rline_next(&it, &line, &n)) {
        if (skip_line(line, n))
            continue;
        char *l = (char *)line;
        l[n] = 0; /* the end-of-line byte, or the final NUL */
        if (t->ncols == 0) {
            if (parse_header(t, l, err, cap) != 0)
                goto fail;
            continue;
        }
        if (split(l, field, CSV_MAX_COLS) != t->ncols) {
            t->bad_rows++;
            continue;
        }
        if (add_row(t, field, &room) != 0) {
            snprintf(err, cap, "too many rows or out of memory at line %zu", it.line_no);
            goto fail;
        }
    }
    if (t->ncols == 0) {
        snprintf(err, cap, "no header row");
        goto fail;
    }
    return 0;
fail:
    csv_free(t);
    return -1;
}

void csv_free(struct csv *t)
{
    free(t->col);
    free(t->cell);
    free(t->num);
    free(t->store);
    memset(t, 0, sizeof(*t));
}

int csv_col(const struct csv *t, const char *name)
{
    for (size_t i = 0; i < t->ncols; i++)
        if (strcmp(t->col[i], name) == 0)
            return (int)i;
    return -1;
}

double csv_num(const struct csv *t, size_t row, int col)
{
    if (col < 0 || (size_t)col >= t->ncols || row >= t->nrows)
        return NAN;
    return t->num[row * t->ncols + (size_t)col];
}

const char *csv_text(const struct csv *t, size_t row, int col)
{
    if (col < 0 || (size_t)col >= t->ncols || row >= t->nrows)
        return "";
    return t->cell[row * t->ncols + (size_t)col];
}
