// SPDX-License-Identifier: MIT
// A comma-separated table read by column name: the one reader of chase's experiment CSVs.
#include "lib/csv.h"

#include <stdint.h>

#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "platform.h"

/* Powers of ten a double holds exactly: a product or quotient with one is correctly rounded. */
#define EXACT_POW10 22
#define EXACT_MANTISSA (1ull << 53)
#define MAX_DIGITS 19

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static void trim(const char **s, size_t *n)
{
    while (*n > 0 && is_space(**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n > 0 && is_space((*s)[*n - 1]))
        (*n)--;
}

/* m times 10^e (m < 2^64). */
static double scale10(uint64_t m, int e)
{
    static const double p10[EXACT_POW10 + 1] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                                1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                                1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    double v = (double)m;
    if (m <= EXACT_MANTISSA && e >= -EXACT_POW10 && e <= EXACT_POW10)
        return e < 0 ? v / p10[-e] : v * p10[e];
    for (; e > 0 && kisfinite(v); e -= e > EXACT_POW10 ? EXACT_POW10 : e)
        v *= p10[e > EXACT_POW10 ? EXACT_POW10 : e];
    for (; e < 0 && v != 0; e += -e > EXACT_POW10 ? EXACT_POW10 : -e)
        v /= p10[-e > EXACT_POW10 ? EXACT_POW10 : -e];
    return v;
}

/* The exponent part at s[*i..n): [eE][+-]digits; false when malformed. */
static bool parse_exponent(const char *s, size_t n, size_t *i, int *e)
{
    int sign = 1, v = 0;
    size_t k = *i + 1;
    if (k < n && (s[k] == '+' || s[k] == '-'))
        sign = s[k++] == '-' ? -1 : 1;
    if (k >= n)
        return false;
    for (; k < n; k++) {
        if (!kisdigit(s[k]))
            return false;
        v = v < 100000 ? v * 10 + (s[k] - '0') : v;
    }
    *e = sign * v;
    *i = k;
    return true;
}

bool csv_parse_number(const char *s, size_t n, double *out)
{
    trim(&s, &n);
    if (n == 0 || n > 64)
        return false;
    size_t i = 0;
    bool neg = s[0] == '-', digits = false, dot = false;
    if (s[0] == '-' || s[0] == '+')
        i++;
    uint64_t m = 0;
    int e = 0, kept = 0;
    for (; i < n && (kisdigit(s[i]) || (s[i] == '.' && !dot)); i++) {
        if (s[i] == '.') {
            dot = true;
            continue;
        }
        digits = true;
        if (m == 0 && s[i] == '0') {
            e -= dot;
        } else if (kept < MAX_DIGITS) {
            m = m * 10 + (uint64_t)(s[i] - '0');
            kept++;
            e -= dot;
        } else {
            e += !dot; /* digits beyond the 19th only scale the number */
        }
    }
    int ex = 0;
    if (!digits || (i < n && ((s[i] != 'e' && s[i] != 'E') || !parse_exponent(s, n, &i, &ex))))
        return false;
    double v = scale10(m, e + ex);
    if (!kisfinite(v))
        return false;
    *out = neg ? -v : v;
    return true;
}

/* Split the NUL-terminated line in place at commas; returns the field count (<= max stored). */
static size_t split(char *line, char **field, size_t max)
{
    size_t n = 0;
    char *p = line;
    for (;;) {
        char *comma = (char *)kstrchr(p, ',');
        if (comma)
            *comma = 0;
        const char *s = p;
        size_t len = kstrlen(p);
        trim(&s, &len);
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

/* The next line of [*pos, end) without its end (LF, CRLF or CR), NUL-terminated in place. */
static char *next_line(char **pos, char *end)
{
    char *s = *pos, *p = s;
    if (s >= end)
        return NULL;
    while (p < end && *p != '\n' && *p != '\r')
        p++;
    char *next = p + (p < end);
    if (p < end && *p == '\r' && next < end && *next == '\n')
        next++;
    *p = 0;
    *pos = next;
    return s;
}

static bool skip_line(const char *s)
{
    size_t n = kstrlen(s);
    trim(&s, &n);
    return n == 0 || s[0] == '#';
}

static int parse_header(struct csv *t, char *line, size_t rows, char *err, size_t cap)
{
    char *field[CSV_MAX_COLS];
    size_t n = split(line, field, CSV_MAX_COLS);
    if (n > CSV_MAX_COLS) {
        ksnprintf(err, cap, "more than %d columns", CSV_MAX_COLS);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (field[i][0] == 0) {
            ksnprintf(err, cap, "header column %zu has no name", i + 1);
            return -1;
        }
        for (size_t j = 0; j < i; j++)
            if (kstrcmp(field[i], field[j]) == 0) {
                ksnprintf(err, cap, "header names column %s twice", field[i]);
                return -1;
            }
    }
    size_t room = rows < CSV_MAX_ROWS ? rows : CSV_MAX_ROWS;
    room = room * n > CSV_MAX_CELLS ? CSV_MAX_CELLS / n + 1 : room;
    t->col = plat_alloc(n * sizeof(char *));
    t->cell = plat_alloc((room ? room : 1) * n * sizeof(char *));
    t->num = plat_alloc((room ? room : 1) * n * sizeof(double));
    if (!t->col || !t->cell || !t->num) {
        ksnprintf(err, cap, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        t->col[i] = field[i];
    t->ncols = n;
    return 0;
}

static int add_row(struct csv *t, char **field)
{
    if (t->nrows >= CSV_MAX_ROWS || (t->nrows + 1) * t->ncols > CSV_MAX_CELLS)
        return -1;
    for (size_t i = 0; i < t->ncols; i++) {
        double x;
        t->cell[t->nrows * t->ncols + i] = field[i];
        t->num[t->nrows * t->ncols + i] =
            csv_parse_number(field[i], kstrlen(field[i]), &x) ? x : KM_NAN;
    }
    t->nrows++;
    return 0;
}

/* Lines in the text: an upper bound on its rows. */
static size_t count_lines(const char *s, size_t len)
{
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += s[i] == '\n' || s[i] == '\r';
    return n;
}

int csv_parse(const char *text, size_t len, struct csv *t, char *err, size_t cap)
{
    kmemset(t, 0, sizeof(*t));
    t->store = plat_alloc(len + 1);
    if (!t->store) {
        ksnprintf(err, cap, "out of memory");
        return -1;
    }
    kmemcpy(t->store, text, len);
    char *pos = t->store, *end = t->store + len, *line, *field[CSV_MAX_COLS];
    size_t line_no = 0;
    while ((line = next_line(&pos, end)) != NULL) {
        line_no++;
        if (skip_line(line))
            continue;
        if (t->ncols == 0) {
            if (parse_header(t, line, count_lines(pos, (size_t)(end - pos)), err, cap) != 0)
                goto fail;
            continue;
        }
        if (split(line, field, CSV_MAX_COLS) != t->ncols) {
            t->bad_rows++;
            continue;
        }
        if (add_row(t, field) != 0) {
            ksnprintf(err, cap, "too many rows or out of memory at line %zu", line_no);
            goto fail;
        }
    }
    if (t->ncols == 0) {
        ksnprintf(err, cap, "no header row");
        goto fail;
    }
    return 0;
fail:
    csv_free(t);
    return -1;
}

void csv_free(struct csv *t)
{
    plat_free(t->col);
    plat_free(t->cell);
    plat_free(t->num);
    plat_free(t->store);
    kmemset(t, 0, sizeof(*t));
}

int csv_col(const struct csv *t, const char *name)
{
    for (size_t i = 0; i < t->ncols; i++)
        if (kstrcmp(t->col[i], name) == 0)
            return (int)i;
    return -1;
}

double csv_num(const struct csv *t, size_t row, int col)
{
    if (col < 0 || (size_t)col >= t->ncols || row >= t->nrows)
        return KM_NAN;
    return t->num[row * t->ncols + (size_t)col];
}

const char *csv_text(const struct csv *t, size_t row, int col)
{
    if (col < 0 || (size_t)col >= t->ncols || row >= t->nrows)
        return "";
    return t->cell[row * t->ncols + (size_t)col];
}
