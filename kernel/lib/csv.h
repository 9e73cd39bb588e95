// SPDX-License-Identifier: MIT
// A comma-separated table read by column name: the one reader of chase's experiment CSVs.
#ifndef CHASE_CSV_H
#define CHASE_CSV_H

#include <stdbool.h>
#include <stddef.h>

#define CSV_MAX_COLS 256
#define CSV_MAX_ROWS 1000000
/* Most cells one table holds (rows times columns), whatever its shape. */
#define CSV_MAX_CELLS (4u << 20)

struct csv {
    size_t ncols;
    size_t nrows;
    size_t bad_rows; /* rows skipped because their field count did not match the header */
    char **col;      /* ncols column names */
    char **cell;     /* nrows * ncols cell texts, trimmed, quotes removed */
    double *num;     /* nrows * ncols values, NaN where a cell is not a finite number */
    char *store;     /* the text the names and cells point into */
};

/*
 * Parse the len bytes at text: a header row naming the columns, then one row per line (LF,
 * CRLF or CR; blank lines and lines starting with '#' are skipped). Memory comes from
 * plat_alloc. Returns 0, or -1 with err (capacity cap) saying why: no header, a header with an
 * empty or repeated name, too many rows, out of memory.
 */
int csv_parse(const char *text, size_t len, struct csv *t, char *err, size_t cap);
/* Release what csv_parse allocated (t is zeroed). */
void csv_free(struct csv *t);
/* Index of the column named name, or -1 when there is none. */
int csv_col(const struct csv *t, const char *name);
/* The value in row at column index col; NaN when col < 0, row is out of range or not a number. */
double csv_num(const struct csv *t, size_t row, int col);
/* The text in row at column index col; "" when col < 0 or row is out of range. */
const char *csv_text(const struct csv *t, size_t row, int col);
/*
 * Read [s, s + n) as a decimal number (digits, one '.', a sign, an exponent; surrounding
 * white space allowed; no "nan", "inf" or hex). Returns false when it is not one or is not
 * finite; *out is the nearest double for up to 19 significant digits and exponents within 22.
 */
bool csv_parse_number(const char *s, size_t n, double *out);

#endif
