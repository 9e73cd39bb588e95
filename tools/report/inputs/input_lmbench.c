// SPDX-License-Identifier: MIT
// Readers of lmbench lat_mem_rd and afborchert random-chase output: size and latency per line.
#include "inputs/input_lmbench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "inputs/rtext.h"

/* Lines looked at to recognise a format. */
#define SNIFF_LINES 40

/* The two numbers of a "size latency" line; false for anything else. */
static bool two_numbers(const char *l, size_t n, double *a, double *b)
{
    const char *f[3];
    size_t fl[3];
    if (rtext_fields(l, n, f, fl, 3) != 2)
        return false;
    return rtext_parse_double(f[0], fl[0], a) && rtext_parse_double(f[1], fl[1], b);
}

/* A lat_mem_rd block header: "stride=N (with or without the leading quote). */
static bool stride_header(const char *l, size_t n, double *stride)
{
    rtext_trim(&l, &n);
    if (n > 0 && l[0] == '"') {
        l++;
        n--;
    }
    if (!rtext_starts(l, n, "stride="))
        return false;
    return rtext_parse_double(l + 7, n - 7, stride) && *stride >= 1 && *stride < 1e9;
}

bool foreign_is_lmbench(const char *text, size_t len)
{
    struct rline_iter it;
    const char *l;
    size_t n;
    double stride;
    rline_init(&it, text, len);
    while (rline_next(&it, &l, &n) && it.line_no <= SNIFF_LINES)
        if (stride_header(l, n, &stride))
            return true;
    return false;
}

/* lat_mem_rd prints sizes in MiB with five decimals: recover whole multiples of 512 bytes. */
static double lmbench_bytes(double mib)
{
    double bytes = mib * 1048576.0;
    double snapped = round(bytes / 512.0) * 512.0;
    return fabs(bytes - snapped) <= 6.0 && snapped > 0 ? snapped : round(bytes);
}

int foreign_parse_lmbench(const char *text, size_t len, struct source *s, char *err, size_t cap)
{
    struct rline_iter it;
    const char *l;
    size_t n, bad = 0, points = 0;
    struct an_curve *c = NULL;
    double stride, a, b;
    rline_init(&it, text, len);
    while (rline_next(&it, &l, &n)) {
        if (stride_header(l, n, &stride)) {
            char label[64];
            snprintf(label, sizeof(label), "stride %.0f", stride);
            c = source_add_curve(s, label, AN_ROLE_RING);
            if (c)
                c->stride_bytes = trunc(stride);
        } else if (two_numbers(l, n, &a, &b)) {
            if (c && a > 0 && b > 0 && curve_push(s, c, lmbench_bytes(a), b, NAN))
                points++;
            else
                bad++;
        } else {
            rtext_trim(&l, &n);
            bad += n > 0;
        }
    }
    if (bad)
        source_warn(s, "%zu lines that are not lat_mem_rd data were ignored", bad);
    if (points == 0) {
        snprintf(err, cap, "%s: lat_mem_rd output without data lines", s->path);
        return -1;
    }
    return 0;
}

static bool chase_header(const char *l, size_t n)
{
    return rtext_contains(l, n, "memsize") && rtext_contains(l, n, "time in ns");
}

bool foreign_is_random_chase(const char *text, size_t len)
{
    struct rline_iter it;
    const char *l;
    size_t n;
    rline_init(&it, text, len);
    while (rline_next(&it, &l, &n) && it.line_no <= SNIFF_LINES)
        if (chase_header(l, n))
            return true;
    return false;
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
        if (two_numbers(l, n, &a, &b) && a >= 1 && b > 0)
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
