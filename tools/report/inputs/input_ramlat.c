// SPDX-License-Identifier: MIT
// Reader of ramlat's latency tables (Willy Tarreau's RAM latency tester, wtarreau/ramspeed).
//
// What ramlat measures, as its ramlat.c does it (read for these facts, none of it copied):
//
// - Sizes: 4 KiB, doubling, to 16 MiB by default (or the second argument, in KiB); `-w 12,13,..`
//   picks powers of two from 2^12 to 2^31. sbc-bench runs `ramlat -n -w 12,...,27 200`: 4 KiB
//   to 128 MiB, 200 ms a cell, and indents the table by four blanks. Rows are "  4096k:" (KiB,
//   never another unit); -q drops the header and the "k:", and is not read here.
// - The walk: the first `size` bytes of one buffer are filled so that, from word 0, following the
//   words visits every word once, in the bit-reversed order of its index (0, 1/2, 1/4, 3/4, 1/8
//   of the way ...), and comes back to word 0. Not random, but a line's words are an eighth of
//   the cycle apart (8-byte words): between two loads of one line every other line is loaded,
//   so an LRU cache keeps it only when it holds the whole buffer, and successive loads are far
//   apart (half the buffer, a quarter ...), which a plain stride prefetcher does not follow
//   (the newest Arm cores' seem to: tests/report/corpus/real-curves-ramlat/INDEX.md). A round is
//   2^20 loads from word 0, so up to 64 MiB each round loads every line; above that a round
//   reaches part of them (every other line at 128 MiB).
// - The columns: NxW walks N copies of that cycle at once, started 64 bytes (2x32, 2x64) or
//   512 bytes (NxPTR) apart. W = 32 or 64: the word is an offset added to the buffer's base (a load
//   and an add a step); W = PTR: the word is the next address (a load feeds the next load: the
//   pointer chase of lmbench and chase). 1xPTR is the single dependent chase: the levels curve.
//   2x/4x/8x keep that many independent loads in flight: the memory-level parallelism, plotted
//   only.
// - The time: -n prints ns per step (10^6 over the steps per ms, wall clock, 4 significant
//   digits): a step of NxW is N loads, so with full overlap 2xPTR reads as 1xPTR. Absolute: the
//   whole time of a load, an L1 hit included, not time added to an L1 hit as tinymembench's.
//   Without -n the cells are integers (steps per ms, or MB/s with -b): such tables are left out.
// - Pages: one posix_memalign'd buffer of the largest size, no madvise and no MAP_HUGETLB: the
//   system's default pages (4 KiB on most, 64 KiB on some arm64 kernels; 2 MiB blocks where
//   transparent huge pages are "always"), so the curve's page size is unknown (0).
#include "inputs/input_ramlat.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "inputs/rtext.h"

#define SNIFF_LINES 400
/* -n prints 4 significant digits ("1.881", "11.98", "133.5", "1234"): fewer is a cut cell. */
#define RAMLAT_CELL_DIGITS 4
/* The largest size -w can ask for, 2^31 bytes, in KiB: a larger row is no ramlat row. */
#define RAMLAT_MAX_KIB (1u << 21)

/* "1x32", "2x64", "8xPTR": a count of walks, 'x', the word. */
static bool column_name(const char *f, size_t n)
{
    if (n < 3 || f[0] < '1' || f[0] > '8' || f[1] != 'x')
        return false;
    return (n == 4 && (memcmp(f + 2, "32", 2) == 0 || memcmp(f + 2, "64", 2) == 0)) ||
           (n == 5 && memcmp(f + 2, "PTR", 3) == 0);
}

/* "   size:  1x32  2x32 ... 8xPTR": the column names into t (when t is not NULL). */
static bool ramlat_header(const char *l, size_t n, struct ramlat_table *t)
{
    rtext_trim(&l, &n);
    if (!rtext_starts(l, n, "size:"))
        return false;
    const char *f[RAMLAT_MAX_COLUMNS + 1];
    size_t fl[RAMLAT_MAX_COLUMNS + 1];
    size_t k = rtext_fields(l + 5, n - 5, f, fl, RAMLAT_MAX_COLUMNS + 1);
    if (k == 0 || k > RAMLAT_MAX_COLUMNS)
        return false;
    for (size_t i = 0; i < k; i++)
        if (!column_name(f[i], fl[i]))
            return false;
    if (t) {
        for (size_t i = 0; i < k; i++)
            rtext_copy(t->name[i], sizeof(t->name[i]), f[i], fl[i]);
        t->ncols = k;
        t->rows = false;
    }
    return true;
}

static bool header_line(const char *l, size_t n)
{
    return ramlat_header(l, n, NULL);
}

bool foreign_is_ramlat(const char *text, size_t len)
{
    return rtext_any_line(text, len, SNIFF_LINES, header_line);
}

size_t ramlat_count_tables(const char *text, size_t len)
{
    return rtext_count_lines(text, len, header_line);
}

/* A whole cell as -n prints it: digits and at most one '.', RAMLAT_CELL_DIGITS digits or more. */
static bool cell(const char *f, size_t n, double *v, bool *dot)
{
    size_t digits = 0, dots = 0;
    for (size_t i = 0; i < n; i++) {
        digits += f[i] >= '0' && f[i] <= '9';
        dots += f[i] == '.';
    }
    if (dots > 1 || digits + dots != n || digits < RAMLAT_CELL_DIGITS)
        return false;
    *dot = dots == 1;
    return rtext_parse_double(f, n, v) && *v > 0;
}

/* "  4096k: 1.881 1.864 ...": the size in bytes and the whole cells (a cut row keeps the cells
 * before the cut); the count of cells, 0 when the line is no row. */
static size_t ramlat_row(const char *l, size_t n, double *size, double *v, bool *dot)
{
    const char *f[RAMLAT_MAX_COLUMNS + 1];
    size_t fl[RAMLAT_MAX_COLUMNS + 1];
    size_t k = rtext_fields(l, n, f, fl, RAMLAT_MAX_COLUMNS + 1);
    uint64_t kib;
    if (k < 2 || fl[0] < 3 || memcmp(f[0] + fl[0] - 2, "k:", 2) != 0 ||
        !rtext_parse_u64(f[0], fl[0] - 2, &kib) || kib < 1 || kib > RAMLAT_MAX_KIB)
        return 0;
    *size = (double)kib * 1024.0;
    *dot = false;
    size_t cells = 0;
    for (size_t i = 1; i < k && i <= RAMLAT_MAX_COLUMNS; i++) {
        bool d;
        if (!cell(f[i], fl[i], &v[cells], &d))
            break;
        *dot |= d;
        cells++;
    }
    return cells;
}

/* The levels column: the single pointer chase, else a single offset chase (a -c choice). */
static size_t levels_column(const struct ramlat_table *t)
{
    static const char *const order[] = {"1xPTR", "1x64", "1x32"};
    for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++)
        for (size_t i = 0; i < t->ncols; i++)
            if (strcmp(t->name[i], order[o]) == 0)
                return i;
    return t->ncols;
}

/* The curves of a table at its first row: the levels column first, the others while b leaves
 * room for the tables to come. */
static void ramlat_curves(struct source *s, struct curve_budget *b, struct ramlat_table *t)
{
    char label[2 * sizeof(s->curve[0].label)], which[32] = "";
    size_t lv = levels_column(t);
    if (!t->cpu[0] && t->tables > 1)
        snprintf(which, sizeof(which), "table %zu ", t->tables);
    for (size_t pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < t->ncols; i++) {
            if ((i == lv) != (pass == 0))
                continue;
            snprintf(label, sizeof(label), "%s%s%sramlat %s", t->cpu, t->cpu[0] ? " " : "", which,
                     t->name[i]);
            t->col[i] = i == lv ? source_add_curve(s, label, AN_ROLE_LEVELS)
                                : source_add_extra(s, b, label);
        }
    }
}

/* One row of the open table; false when the line is none (and the table has had rows). */
static bool ramlat_take_row(struct source *s, struct curve_budget *b, struct ramlat_table *t,
                            const char *l, size_t n)
{
    double size, v[RAMLAT_MAX_COLUMNS];
    bool dot;
    size_t cells = ramlat_row(l, n, &size, v, &dot);
    if (cells == 0)
        return false;
    if (!t->rows) {
        t->rows = true;
        if (!dot) { /* integers in the first row (4 KiB, an L1 hit): not ns */
            t->not_ns++;
            t->ncols = 0;
            return true;
        }
        ramlat_curves(s, b, t);
    }
    size_t lv = levels_column(t);
    for (size_t i = 0; i < cells && i < t->ncols; i++)
        if (t->col[i] && curve_push(s, t->col[i], size, v[i], NAN))
            t->points += i == lv;
    return true;
}

void ramlat_feed(struct source *s, struct curve_budget *b, struct ramlat_table *t, const char *l,
                 size_t n)
{
    if (sbc_executing(l, n, "ramlat", t->cpu, sizeof(t->cpu)))
        return;
    if (ramlat_header(l, n, t)) {
        memset(t->col, 0, sizeof(t->col));
        t->tables++;
        if (b->tables_left > 0)
            b->tables_left--;
        return;
    }
    if (t->ncols == 0 || ramlat_take_row(s, b, t, l, n))
        return;
    const char *p = l;
    size_t k = n;
    rtext_trim(&p, &k);
    if (t->rows || k > 0) /* blank lines may come before the first row */
        t->ncols = 0;
}

void ramlat_warn(struct source *s, const struct ramlat_table *t)
{
    if (t->not_ns)
        source_warn(s,
                    "%zu ramlat tables left out: their cells are not ns (ramlat without -n "
                    "prints loads per ms, -b MB/s); chase-report reads ramlat -n",
                    t->not_ns);
}

int foreign_parse_ramlat(const char *text, size_t len, struct source *s, char *err, size_t cap)
{
    struct rline_iter it;
    const char *l;
    size_t n;
    struct ramlat_table t = {0};
    struct curve_budget b = {ramlat_count_tables(text, len), 0};
    rline_init(&it, text, len);
    while (rline_next(&it, &l, &n))
        ramlat_feed(s, &b, &t, l, n);
    if (t.points == 0) {
        snprintf(err, cap, "%s: ramlat output without a row in ns%s", s->path,
                 t.not_ns ? " (run without -n: loads per ms or MB/s; chase-report reads ramlat -n)"
                          : "");
        return -1;
    }
    ramlat_warn(s, &t);
    source_warn_budget(s, &b);
    return 0;
}
