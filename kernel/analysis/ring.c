// SPDX-License-Identifier: MIT
// The ring experiment's report side: the levels each backward-stride ring shows; its plot.
#include "analysis/judge.h"
#include "lib/fmt.h"
#include "lib/kmath.h"

/* One table row: a ring curve's levels and DRAM. */
static void ring_row(struct verdict *v, const struct an_curve *c, const struct an_curve_result *cr)
{
    char row[VERDICT_CHARS] = "", dram[32] = "not reached";
    for (size_t k = 0; k < cr->det.nlevels; k++) {
        char sz[32];
        const struct level *lv = &cr->det.level[k];
        fmt_size(sz, sizeof(sz), lv->size_bytes);
        judge_append(row, sizeof(row), "%s%s @ %.2f ns", k ? ", " : "",
                     lv->size_known ? sz : "open", lv->latency_ns);
    }
    if (kisfinite(cr->det.dram_ns))
        ksnprintf(dram, sizeof(dram), "%s%.1f ns", cr->det.dram_lower_bound ? ">= " : "",
                  cr->det.dram_ns);
    verdict_line(v, "| %s | %s | %s |", c->label, row[0] ? row : "none", dram);
}

static void judge_ring(const struct an_judge *j, struct verdict *v)
{
    for (size_t i = 0; i < j->in->ncurves && i < AN_MAX_CURVES; i++) {
        const struct an_curve_result *cr = &j->r->cr[i];
        if (!cr->analysed || j->in->curve[i].role != AN_ROLE_RING)
            continue;
        if (!v->present) {
            verdict_line(v, "| curve | levels (size @ latency) | DRAM |");
            verdict_line(v, "|---|---|---|");
        }
        v->present = true;
        ring_row(v, &j->in->curve[i], cr);
    }
    if (v->present)
        verdict_headline(v, "levels seen by each backward-stride ring; small strides are helped "
                            "by prefetching and several loads per line");
}

const struct an_experiment analysis_ring = {
    .name = "ring",
    .curves = {AN_ROLE_RING, "stride_bytes", "size_bytes"},
    .plot = {.stem = "ring",
             .from_curves = true,
             .xlabel = "size (bytes, log2 scale)",
             .ylabel = "ns per load",
             .x_size = true,
             .logy = true,
             .mark_levels = true,
             .mark_cpuid = true,
             .what = "backward-stride ring, one curve per stride",
             .caption = "Latency of a ring of pointers one stride apart, one curve per stride "
                        "(lmbench lat_mem_rd's figure)."},
    .judge = judge_ring,
};
