// SPDX-License-Identifier: MIT
// Readers of lmbench (lat_mem_rd as printed or pasted, its results files) and afborchert
// random-chase output: size and latency per line.
#include "inputs/input_lmbench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "inputs/rtext.h"

/* Lines looked at to recognise a format. */
#define SNIFF_LINES 40
/* Rows in a row, sizes rising from under 1 MiB, that make a headerless lat_mem_rd paste: the
 * first four sizes lat_mem_rd prints are 512 bytes to 4 KiB, so a real paste has them. */
#define HEADERLESS_MIN_ROWS 4
/* lat_mem_rd's sizes are whole multiples of this many bytes (its smallest size is 512). */
#define LMBENCH_SIZE_GRAIN_BYTES 512.0
#define MIB 1048576.0

/* A line without mail quoting ("> ", "> > ") and surrounding blanks. */
static void unquote(const char **l, size_t *n)
{
    rtext_trim(l, n);
    while (*n > 0 && (*l)[0] == '>') {
        (*l)++;
        (*n)--;
        rtext_trim(l, n);
    }
}

/* The two numbers of a "size latency" line; false for anything else. decimals gets the number
 * of digits after the first number's point (0 without one) when not NULL. */
static bool two_numbers(const char *l, size_t n, double *a, double *b, int *decimals)
{
    const char *f[3];
    size_t fl[3];
    if (rtext_fields(l, n, f, fl, 3) != 2)
        return false;
    if (!rtext_parse_double(f[0], fl[0], a) || !rtext_parse_double(f[1], fl[1], b))
        return false;
    if (decimals) {
        const char *dot = memchr(f[0], '.', fl[0]);
        *decimals = dot ? (int)(fl[0] - (size_t)(dot + 1 - f[0])) : 0;
    }
    return true;
}

/* A lat_mem_rd block header: "stride=N (with or without the leading quote). */
static bool stride_header(const char *l, size_t n, double *stride)
{
    unquote(&l, &n);
    if (n > 0 && l[0] == '"') {
        l++;
        n--;
    }
    if (!rtext_starts(l, n, "stride="))
        return false;
    return rtext_parse_double(l + 7, n - 7, stride) && *stride >= 1 && *stride < 1e9;
}

/* Whether the first lines hold HEADERLESS_MIN_ROWS rows in a row of a rising size in MiB that
 * starts under 1 MiB: lat_mem_rd's data lines pasted without their "stride=N line. Blank lines
 * do not break the run: wikis and comment boxes often render a paste with one between rows. */
static bool headerless_rows(const char *text, size_t len)
{
    struct rline_iter it;
    const char *l;
    size_t n, run = 0;
    double a, b, last = 0;
    rline_init(&it, text, len);
    while (rline_next(&it, &l, &n) && it.line_no <= SNIFF_LINES) {
        unquote(&l, &n);
        if (n == 0)
            continue;
        bool row = two_numbers(l, n, &a, &b, NULL) && a > 0 && b > 0;
        if (row && (run ? a > last : a < 1))
            run++;
        else
            run = row && a < 1;
        last = a;
        if (run >= HEADERLESS_MIN_ROWS)
            return true;
    }
    return false;
}

static bool any_stride_header(const char *l, size_t n)
{
    double stride;
    return stride_header(l, n, &stride);
}

bool foreign_is_lmbench(const char *text, size_t len)
{
    return rtext_any_line(text, len, SNIFF_LINES, any_stride_header) || headerless_rows(text, len);
}

/* lat_mem_rd prints sizes in MiB (five decimals; pastes may keep more or fewer): the whole
 * multiple of 512 bytes the printed digits allow, else the bytes the number says. */
static double lmbench_bytes(double mib, int decimals)
{
    double bytes = mib * MIB;
    double snapped = round(bytes / LMBENCH_SIZE_GRAIN_BYTES) * LMBENCH_SIZE_GRAIN_BYTES;
    double half_unit = 0.5 * pow(10.0, -(decimals < 15 ? decimals : 15)) * MIB;
    return fabs(bytes - snapped) <= half_unit + 1.0 && snapped > 0 ? snapped : round(bytes);
}

/* A curve for lat_mem_rd's rows: a stride block's, or one per sweep of a headerless paste. */
static struct an_curve *lm_curve(struct source *s, double stride, bool random, size_t sweep)
{
    char label[64];
    if (stride > 0)
        snprintf(label, sizeof(label), "%sstride %.0f", random ? "random, " : "", stride);
    else
        snprintf(label, sizeof(label), "sweep %zu, stride not given", sweep);
    struct an_curve *c = source_add_curve(s, label, random ? AN_ROLE_LEVELS : AN_ROLE_RING);
    if (c)
        c->stride_bytes = trunc(stride);
    return c;
}

/* The state of a reading of lat_mem_rd rows. */
struct lm_read {
    struct an_curve *c;
    double stride, last_bytes;
    bool random; /* the block follows lmbench's "Random load latency" banner (lat_mem_rd -t) */
    size_t sweeps, points, bad;
};

/* One row: into the current block; a row whose size falls starts a new sweep. */
static void lm_row(struct source *s, struct lm_read *r, double mib, double ns, int decimals)
{
    double bytes = lmbench_bytes(mib, decimals);
    if (!(mib > 0 && ns > 0 && bytes >= 1)) {
        r->bad++;
        return;
    }
    if (!r->c || bytes < r->last_bytes) {
        r->c = lm_curve(s, r->c ? 0 : r->stride, r->random, ++r->sweeps);
        r->stride = 0;
    }
    r->last_bytes = bytes;
    if (r->c && curve_push(s, r->c, bytes, ns, NAN))
        r->points++;
    else
        r->bad++;
}

/* lmbench's banners before lat_mem_rd's blocks in its results (kept in pastes of them): the
 * blocks after "Random load latency" are lat_mem_rd -t's. True when the line is one. */
static bool lm_banner(const char *l, size_t n, struct lm_read *r)
{
    bool seq = rtext_starts(l, n, "Memory load latency");
    bool rnd = rtext_starts(l, n, "Random load latency");
    if (seq || rnd)
        r->random = rnd;
    return seq || rnd;
}

int foreign_parse_lmbench(const char *text, size_t len, struct source *s, char *err, size_t cap)
{
    struct rline_iter it;
    const char *l;
    size_t n;
    struct lm_read r = {0};
    double a, b;
    int decimals;
    rline_init(&it, text, len);
    while (rline_next(&it, &l, &n)) {
        unquote(&l, &n);
        if (lm_banner(l, n, &r))
            continue;
        if (stride_header(l, n, &r.stride)) {
            r.c = NULL; /* the next row starts the block's curve */
        } else if (two_numbers(l, n, &a, &b, &decimals)) {
            lm_row(s, &r, a, b, decimals);
        } else {
            r.bad += n > 0;
        }
    }
    if (r.bad)
        source_warn(s, "%zu lines that are not lat_mem_rd data were ignored", r.bad);
    if (r.points == 0) {
        snprintf(err, cap, "%s: lat_mem_rd output without data lines", s->path);
        return -1;
    }
    return 0;
}

/* A raw lmbench results file (results/<OS>/<host>.N): its first line names it. */
static bool results_first_line(const char *text, size_t len, const char **l, size_t *n)
{
    struct rline_iter it;
    rline_init(&it, text, len);
    while (rline_next(&it, l, n)) {
        unquote(l, n);
        if (*n > 0)
            return rtext_starts(*l, *n, "[lmbench") && rtext_contains(*l, *n, "results for");
    }
    return false;
}

bool foreign_is_lmbench_results(const char *text, size_t len)
{
    const char *l;
    size_t n;
    return results_first_line(text, len, &l, &n);
}

/* The host line and the MHZ line as the machine: "lmbench3.0 results for Linux host ...". */
static void results_machine(struct source *s, const char *text, size_t len)
{
    const char *l;
    size_t n;
    if (!results_first_line(text, len, &l, &n) || n < 2)
        return;
    char host[120];
    rtext_copy(host, sizeof(host), l + 1, n - 2);
    snprintf(s->machine, sizeof(s->machine), "unknown CPU (%s)", host);
}

int foreign_parse_lmbench_results(const char *text, size_t len, struct source *s, char *err,
                                  size_t cap)
{
    struct rline_iter it;
    const char *l;
    size_t n;
    struct lm_read r = {0};
    bool in_block = false;
    double a, b;
    int decimals;
    results_machine(s, text, len);
    rline_init(&it, text, len);
    while (rline_next(&it, &l, &n)) {
        unquote(&l, &n);
        lm_banner(l, n, &r);
        if (stride_header(l, n, &r.stride)) {
            r.c = NULL;
            in_block = true;
        } else if (in_block && two_numbers(l, n, &a, &b, &decimals)) {
            lm_row(s, &r, a, b, decimals);
        } else {
            in_block = false; /* a blank line or the next tool's output ends the block */
        }
    }
    if (r.points == 0) {
        snprintf(err, cap,
                 "%s: an lmbench results file without lat_mem_rd's \"stride=N blocks (lmbench "
                 "ran without its memory latency benchmark)",
                 s->path);
        return -1;
    }
    return 0;
}

bool foreign_is_lmbench_summary(const char *text, size_t len)
{
    struct rline_iter it;
    const char *l;
    size_t n;
    rline_init(&it, text, len);
    while (rline_next(&it, &l, &n)) {
        unquote(&l, &n);
        if (rtext_starts(l, n, "Memory latencies in nanoseconds"))
            return true;
    }
    return false;
}

int foreign_parse_lmbench_summary(const char *text, size_t len, struct source *s, char *err,
                                  size_t cap)
{
    (void)text;
    (void)len;
    snprintf(err, cap,
             "%s: an lmbench summary: its \"Memory latencies\" table gives each host's L1, L2, "
             "main and random memory latencies without sizes, so there is no curve to find "
             "levels on; give the results/<OS>/<host>.N file it was made from",
             s->path);
    return -1;
}

static bool chase_header(const char *l, size_t n)
{
    return rtext_contains(l, n, "memsize") && rtext_contains(l, n, "time in ns");
}

bool foreign_is_random_chase(const char *text, size_t len)
{
    return rtext_any_line(text, len, SNIFF_LINES, chase_header);
}

int foreign_parse_random_chase(const char *text, size_t len, struct source *s, char *err,
                               size_t cap)
{
    struct rline_iter it;
    const char *l;
    size_t n, bad = 0;
    bool header = false;
    double a, b;
    struct an_curve *c = source_add_curve(s, "random-chase", AN_ROLE_LEVELS);
    if (!c) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    rline_init(&it, text, len);
    while (rline_next(&it, &l, &n)) {
        if (!header) {
            header = chase_header(l, n);
            continue;
        }
        if (two_numbers(l, n, &a, &b, NULL) && a >= 1 && b > 0)
            curve_push(s, c, a, b, NAN);
        else {
            rtext_trim(&l, &n);
            bad += n > 0;
        }
    }
    if (bad)
        source_warn(s, "%zu lines that are not random-chase data were ignored", bad);
    if (c->n == 0) {
        snprintf(err, cap, "%s: random-chase output without data lines", s->path);
        return -1;
    }
    return 0;
}
