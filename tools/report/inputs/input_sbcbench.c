// SPDX-License-Identifier: MIT
// Reader of whole sbc-bench result logs: every tinymembench and ramlat table, labelled by cpu.
//
// sbc-bench (ThomasKaiser/sbc-bench) runs tinymembench and then ramlat once per cluster, each
// run after an "Executing benchmark on cpuN (core):" or "Executing ramlat on cpuN (core),
// results in ns:" line (older logs name no core; the oldest have no tinymembench cpu line and no
// ramlat), deep inside a log of thousands of lines; its first line is "sbc-bench vX.Y.Z
// <machine> (<date>)". Every table becomes its curves (inputs/input_tinymem.h,
// inputs/input_ramlat.h); a levels curve for each table is kept before any plotted-only one.
#include "inputs/input_sbcbench.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "inputs/input_ramlat.h"
#include "inputs/input_tinymem.h"
#include "inputs/rtext.h"

/* A core name kept in a label: sbc-bench prints RISC-V ISA strings of 60 characters there. */
#define SBC_CORE_CHARS 16

bool sbc_executing(const char *l, size_t n, const char *tool, char *cpu, size_t cap)
{
    char head[48];
    snprintf(head, sizeof(head), "Executing %s on cpu", tool);
    rtext_trim(&l, &n);
    size_t h = strlen(head), d = 0;
    if (!rtext_starts(l, n, head))
        return false;
    while (h + d < n && l[h + d] >= '0' && l[h + d] <= '9')
        d++;
    uint64_t id;
    if (d == 0 || d > 6 || !rtext_parse_u64(l + h, d, &id))
        return false;
    const char *rest = l + h + d;
    size_t rn = n - h - d;
    const char *close = rn > 2 && rest[0] == ' ' && rest[1] == '(' ? memchr(rest, ')', rn) : NULL;
    if (!close) {
        snprintf(cpu, cap, "cpu%u", (unsigned)id);
        return true;
    }
    char core[SBC_CORE_CHARS + 1], clean[SBC_CORE_CHARS + 1];
    size_t cl = (size_t)(close - rest) - 2;
    rtext_copy(core, sizeof(core), rest + 2, cl);
    rtext_sanitize(clean, sizeof(clean), core);
    snprintf(cpu, cap, "cpu%u (%s)", (unsigned)id, clean);
    return true;
}

static bool sbc_first_line(const char *text, size_t len)
{
    struct rline_iter it;
    const char *l;
    size_t n;
    rline_init(&it, text, len);
    return rline_next(&it, &l, &n) && rtext_starts(l, n, "sbc-bench v");
}

bool foreign_is_sbcbench(const char *text, size_t len)
{
    return sbc_first_line(text, len) ||
           (tiny_count_tables(text, len) > 0 && ramlat_count_tables(text, len) > 0);
}

/* "sbc-bench v0.9.9 Raspberry Pi 3 Model B Rev 1.2 (Mon, 05 Dec 2022 17:44:55 +0100)": the
 * machine as "Raspberry Pi 3 Model B Rev 1.2 (sbc-bench v0.9.9)". */
static void sbc_machine(struct source *s, const char *text, size_t len)
{
    struct rline_iter it;
    const char *l, *f[2];
    size_t n, fl[2];
    rline_init(&it, text, len);
    if (!rline_next(&it, &l, &n) || !rtext_starts(l, n, "sbc-bench v") ||
        rtext_fields(l, n, f, fl, 2) < 2)
        return;
    const char *m = f[1] + fl[1];
    size_t mn = (size_t)(l + n - m);
    for (size_t i = mn; i >= 2; i--) /* the date in the last parentheses */
        if (m[i - 2] == ' ' && m[i - 1] == '(') {
            mn = i - 2;
            break;
        }
    rtext_trim(&m, &mn);
    if (mn > 0)
        snprintf(s->machine, sizeof(s->machine), "%.*s (%.*s)", (int)(mn > 120 ? 120 : mn), m,
                 (int)fl[1] + 10, l);
}

int foreign_parse_sbcbench(const char *text, size_t len, struct source *s, char *err, size_t cap)
{
    struct rline_iter it;
    const char *l;
    size_t n;
    struct tiny_table tiny = {0};
    struct ramlat_table rl = {0};
    struct curve_budget b = {tiny_count_tables(text, len) + ramlat_count_tables(text, len), 0};
    rline_init(&it, text, len);
    while (rline_next(&it, &l, &n)) {
        tiny_feed(s, &b, &tiny, l, n);
        ramlat_feed(s, &b, &rl, l, n);
    }
    if (tiny.points + rl.points == 0) {
        snprintf(err, cap, "%s: sbc-bench log without a tinymembench or ramlat table", s->path);
        return -1;
    }
    sbc_machine(s, text, len);
    if (tiny.points)
        tiny_warn_relative(s);
    ramlat_warn(s, &rl);
    source_warn_budget(s, &b);
    return 0;
}
