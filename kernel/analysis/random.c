// SPDX-License-Identifier: MIT
// The random experiment's report side: its curves are the run's cache levels; its plot.
#include "analysis/judge.h"
#include "lib/fmt.h"
#include "lib/kmath.h"

/* The levels of the primary curve in one line: "3 cache levels (32K, 1M, 8M), DRAM 85.3 ns". */
static void judge_random(const struct an_judge *j, struct verdict *v)
{
    const struct an_curve *c = judge_primary(j);
    if (!j->t || !c || c->role != AN_ROLE_LEVELS)
        return;
    const struct detection *d = &j->r->cr[j->r->primary].det;
    char sizes[VERDICT_CHARS] = "", count[64] = "";
    size_t caches = 0, tlbs = 0;
    v->present = true;
    int lat = verdict_list(v, "level_ns", "ns", "each level's latency, smallest level first");
    for (size_t i = 0; i < d->nlevels; i++) {
        char sz[32];
        fmt_size(sz, sizeof(sz), d->level[i].size_bytes);
        /* A level that may be a TLB reach or memory plus walks says so where it is listed. */
        bool cache = d->level[i].kind == LEVEL_CACHE;
        caches += cache;
        tlbs += d->level[i].kind == LEVEL_TLB;
        judge_append(sizes, sizeof(sizes), "%s%s%s%s", i ? ", " : "",
                     d->level[i].size_known ? sz : "open", cache ? "" : " ",
                     cache ? "" : level_kind_name(d->level[i].kind));
        verdict_list_add(v, lat, d->level[i].latency_ns);
    }
    verdict_number(v, "dram_ns", d->dram_ns, "ns", "the DRAM plateau's latency");
    judge_append(count, sizeof(count), "%zu cache level%s", caches, caches == 1 ? "" : "s");
    if (tlbs)
        judge_append(count, sizeof(count), ", %zu TLB step%s", tlbs, tlbs == 1 ? "" : "s");
    if (caches + tlbs < d->nlevels)
        judge_append(count, sizeof(count), " and %zu uncertain", d->nlevels - caches - tlbs);
    if (!kisfinite(d->dram_ns))
        verdict_headline(v, "%s (%s) in \"%s\"; DRAM not reached", count, sizes, c->label);
    else
        verdict_headline(v, "%s (%s) in \"%s\"; DRAM %s%.1f ns", count, sizes, c->label,
                         d->dram_lower_bound ? "at least " : "", d->dram_ns);
}

const struct an_experiment analysis_random = {
    .name = "random",
    .curves = {AN_ROLE_LEVELS, "page_bytes", "size_bytes"},
    .plot = {.stem = "random",
             .from_curves = true,
             .xlabel = "size (bytes, log2 scale)",
             .ylabel = "ns per load",
             .x_size = true,
             .logy = true,
             .mark_levels = true,
             .mark_cpuid = true,
             .what = "latency per load against size",
             .caption = "Latency of a random pointer chase against the size of its buffer: each "
                        "plateau is a cache level, the last one DRAM."},
    .judge = judge_random,
};
