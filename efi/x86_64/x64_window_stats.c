// SPDX-License-Identifier: MIT
// What measurement windows did, kept per processor (no count shared between them) and summed.
#include "x64_window_stats.h"

bool window_stats_count(struct window_stats *s, uint64_t ticks, bool machine_check,
                        uint64_t nmis_before)
{
    s->windows++;
    s->longest_ticks = ticks > s->longest_ticks ? ticks : s->longest_ticks;
    s->machine_checks += machine_check;
    bool nmi = s->nmis != nmis_before;
    s->nmi_windows += nmi;
    return nmi;
}

void window_stats_add(struct window_stats *sum, const struct window_stats *s)
{
    sum->windows += s->windows;
    sum->longest_ticks =
        s->longest_ticks > sum->longest_ticks ? s->longest_ticks : sum->longest_ticks;
    sum->nmis += s->nmis;
    sum->nmi_windows += s->nmi_windows;
    sum->machine_checks += s->machine_checks;
}

void window_stats_report(struct window_report *r, const struct window_stats *s)
{
    struct window_stats sum = {r->windows, r->longest_ticks, r->nmis, r->nmi_windows,
                               r->machine_checks};
    window_stats_add(&sum, s);
    r->windows = sum.windows;
    r->longest_ticks = sum.longest_ticks;
    r->nmis = sum.nmis;
    r->nmi_windows = sum.nmi_windows;
    r->machine_checks = sum.machine_checks;
}
