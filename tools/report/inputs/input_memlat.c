// SPDX-License-Identifier: MIT
// Reader of Chips and Cheese's MemoryLatency output: "KB,ns" rows under "Region,Latency (ns)".
#include "inputs/input_memlat.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "inputs/rtext.h"

/* Lines looked at to recognise the format (its stderr lines may come first). */
#define SNIFF_LINES 60
/* MemoryLatency -hugepages asks for 2 MiB pages (its Linux build's madvise or MAP_HUGETLB). */
#define MEMLAT_HUGE_PAGE_BYTES (2.0 * 1048576.0)
/* MemoryLatency's default pages (its PAGE_SIZE). */
#define MEMLAT_PAGE_BYTES 4096.0

static bool memlat_header(const char *l, size_t n)
{
    rtext_trim(&l, &n);
    return rtext_starts(l, n, "Region,Latency (ns)");
}

/* "Testing 48 KB only": a -sizekb run's line on stderr. */
static bool sizekb_line(const char *l, size_t n)
{
    rtext_trim(&l, &n);
    return rtext_starts(l, n, "Testing ") && rtext_contains(l, n, " KB only");
}

static bool memlat_line(const char *l, size_t n)
{
    return memlat_header(l, n) || sizekb_line(l, n);
}

bool foreign_is_memlat(const char *text, size_t len)
{
    return rtext_any_line(text, len, SNIFF_LINES, memlat_line);
}

/* "48,1.234567": a size in KB and a latency in ns. */
static bool memlat_row(const char *l, size_t n, double *kb, double *ns)
{
    rtext_trim(&l, &n);
    const char *comma = memchr(l, ',', n);
    if (!comma || memchr(comma + 1, ',', n - (size_t)(comma + 1 - l)))
        return false;
    return rtext_parse_double(l, (size_t)(comma - l), kb) &&
           rtext_parse_double(comma + 1, n - (size_t)(comma + 1 - l), ns) && *kb >= 1 && *ns > 0;
}

/* What a run's stderr lines say about it. */
struct memlat_run {
    const char *test; /* "C", "asm" ... as MemoryLatency names them */
    bool huge, tlb;
};

static void memlat_setting(struct memlat_run *m, const char *l, size_t n)
{
    if (rtext_starts(l, n, "Using simple C test"))
        m->test = "C";
    else if (rtext_starts(l, n, "Using ASM (simple address) test"))
        m->test = rtext_contains(l, n, "longer pattern") ? "asm, long pattern" : "asm";
    else if (rtext_starts(l, n, "Testing TLB"))
        m->tlb = true;
    else if (rtext_starts(l, n, "If applicable, will use huge pages"))
        m->huge = true;
}

static struct an_curve *memlat_curve(struct source *s, const struct memlat_run *m)
{
    char label[64];
    snprintf(label, sizeof(label), "MemoryLatency %s%s%s", m->test, m->huge ? ", huge pages" : "",
             m->tlb ? ", tlb" : "");
    struct an_curve *c = source_add_curve(s, label, m->tlb ? AN_ROLE_EXTRA : AN_ROLE_LEVELS);
    if (c)
        c->page_bytes = m->huge ? MEMLAT_HUGE_PAGE_BYTES : MEMLAT_PAGE_BYTES;
    if (c && m->tlb)
        source_warn(s, "MemoryLatency -test tlb subtracts cache latency: plotted, no levels");
    return c;
}

int foreign_parse_memlat(const char *text, size_t len, struct source *s, char *err, size_t cap)
{
    struct rline_iter it;
    const char *l;
    size_t n, points = 0;
    struct memlat_run m = {"C", false, false};
    struct an_curve *c = NULL;
    double kb, ns;
    rline_init(&it, text, len);
    while (rline_next(&it, &l, &n)) {
        rtext_trim(&l, &n);
        if (memlat_header(l, n)) {
            c = memlat_curve(s, &m); /* one curve per run printed; its settings came before */
            m = (struct memlat_run){"C", false, false};
        } else if (memlat_row(l, n, &kb, &ns)) {
            if (!c)
                c = memlat_curve(s, &m);
            points += c && curve_push(s, c, kb * 1024.0, ns, NAN);
        } else {
            memlat_setting(&m, l, n);
        }
    }
    if (points == 0) {
        snprintf(err, cap, "%s: MemoryLatency output without \"KB,ns\" rows", s->path);
        return -1;
    }
    return 0;
}
