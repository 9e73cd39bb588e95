// SPDX-License-Identifier: MIT
// report.md's latency distributions: the percentiles per level, the refresh line and why no
// period stood out, and several runs (the firmware's and the host's) side by side.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/fmt.h"
#include "outputs/dist.h"
#include "outputs/output.h"
#include "point/refresh.h"

static void md_ns(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, " %.1f |", v);
    else
        fprintf(f, " - |");
}

static void md_count(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, " %.0f |", v);
    else
        fprintf(f, " - |");
}

static void point_cells(FILE *f, const struct dist_point *p)
{
    md_count(f, p->batches);
    md_ns(f, p->p50_ns);
    md_ns(f, p->p90_ns);
    md_ns(f, p->p99_ns);
    md_ns(f, p->p999_ns);
    md_ns(f, p->max_ns);
    md_count(f, p->slow_batches);
    md_count(f, p->stalls);
    fprintf(f, "\n");
}

static const char table_head[] = " batches | p50 ns | p90 ns | p99 ns | p99.9 ns | max ns | slow "
                                 "batches | stalls |\n";

static void percentiles_table(FILE *f, const struct dist_run *d)
{
    fprintf(f, "| level | size |%s|---|---|---|---|---|---|---|---|---|---|\n", table_head);
    for (size_t i = 0; i < d->n; i++) {
        fprintf(f, "| %s | %s |", d->p[i].level[0] ? d->p[i].level : "-", d->p[i].size);
        point_cells(f, &d->p[i]);
    }
    fprintf(f, "\n");
}

/* Why no period stood out, from what the table's refresh row (the one the refresh line is read
 * from) and run.json say: each reason that holds. */
static void no_period_why(FILE *f, const struct dist_run *d)
{
    const struct dist_point *p = dist_refresh_row(d);
    const char *sep = " ";
    fprintf(f, "No period stands out:");
    if (strcmp(p->level, "DRAM") != 0) {
        fprintf(f,
                "%sthe largest size (%s) is not beyond the last cache, so its batches seldom "
                "reach DRAM",
                sep, p->label);
        sep = "; ";
    }
    if (isfinite(p->slow_batches) && p->slow_batches < REFRESH_MIN_BEATS) {
        fprintf(f, "%s%s has %.0f slow batches, fewer than the %d a period needs", sep, p->label,
                p->slow_batches, REFRESH_MIN_BEATS);
        sep = "; ";
    } else if (p->strays > p->beats) {
        fprintf(f,
                "%sat %s, %.0f slow batches fall off the best comb and %.0f on it: interrupts, "
                "page walks or other stalls outnumber any refresh",
                sep, p->label, p->strays, p->beats);
        sep = "; ";
    }
    if (isfinite(p->confidence) && p->confidence < REFRESH_MIN_CONFIDENCE) {
        fprintf(f, "%sthe best candidate period scores %.2f, below the %.2f a period needs", sep,
                p->confidence, REFRESH_MIN_CONFIDENCE);
        sep = "; ";
    }
    if (d->r->src->hypervisor) {
        fprintf(f,
                "%sthe run was under a hypervisor, whose exits and host interrupts scatter the "
                "slow batches",
                sep);
        sep = "; ";
    }
    if (d->r->src->simulated)
        fprintf(f, "%sthe simulated DRAM refreshes only when its description says so", sep);
    fprintf(f, ".\n\n");
}

/* The refresh line as the console's summary gives it (the verdict's headline: the kernel's
 * refresh_summary_for, beside the DIMMs' type), and the period or why none stood out. */
static void refresh_paragraph(FILE *f, const struct dist_run *d)
{
    int k = dist_refresh_point(d);
    fprintf(f, "Refresh line: **%s**.\n\n", d->r->an.verdict[d->e].headline);
    if (k >= 0) {
        const struct dist_point *p = &d->p[k];
        fprintf(f,
                "At %s: a period of %.1f ns costing %.1f ns, confidence %.2f, %.0f slow batches "
                "on its comb and %.0f off it.\n\n",
                p->label, p->period_ns, p->stall_ns, p->confidence, p->beats, p->strays);
    } else {
        no_period_why(f, d);
    }
    const struct dist_point *last = dist_refresh_row(d);
    if (last->stalls > 0)
        fprintf(f,
                "Stalls no memory explains at %s: %.0f (SMIs, or the host under an operating "
                "system or hypervisor).\n\n",
                last->label, last->stalls);
}

/* The points of the largest size under its smallest and its largest pages (as the kernel's
 * page-walk items compare them) into *small, *large; false without two page sizes there. */
static bool walk_points(const struct dist_run *d, const struct dist_point **small,
                        const struct dist_point **large)
{
    const struct dist_point *top = dist_refresh_row(d);
    *small = *large = NULL;
    for (size_t i = 0; i < d->n; i++) {
        const struct dist_point *p = &d->p[i];
        if (p->size_bytes != top->size_bytes || !(p->page_bytes > 0))
            continue;
        *small = !*small || p->page_bytes < (*small)->page_bytes ? p : *small;
        *large = !*large || p->page_bytes > (*large)->page_bytes ? p : *large;
    }
    return *small && *large && *small != *large;
}

/* What page walks add to the tail: the verdict's items (x->walk_p50, x->walk_p999) in words. */
static void page_walk_paragraph(FILE *f, const struct dist_run *d)
{
    const struct verdict *v = &d->r->an.verdict[d->e];
    const struct dist_point *a, *b;
    if (!d->x->walk_p50 || !d->x->walk_p999 || !verdict_find(v, d->x->walk_p50) ||
        !(d->p[0].page_bytes > 0))
        return; /* no page sizes in the table (one from before them), or no such items */
    double p50 = verdict_value(v, d->x->walk_p50), p999 = verdict_value(v, d->x->walk_p999);
    if (!walk_points(d, &a, &b) || !isfinite(p50)) {
        fprintf(f,
                "Page walks: the largest size ran under one page size, so there is nothing to "
                "set its tail against (%s and %s null).\n\n",
                d->x->walk_p50, d->x->walk_p999);
        return;
    }
    char sz[32], pa[32], pb[32];
    fmt_size(sz, sizeof(sz), a->size_bytes);
    fmt_size(pa, sizeof(pa), a->page_bytes);
    fmt_size(pb, sizeof(pb), b->page_bytes);
    fprintf(f,
            "Page walks at %s %s: %s pages add %+.1f ns to the median batch and %+.1f ns to its "
            "p99.9 against %s pages (%s, %s).\n\n",
            a->level[0] ? a->level : "size", sz, pa, p50, p999, pb, d->x->walk_p50,
            d->x->walk_p999);
}

/* Links to the distribution's plots among pl's (those named <exp>-hist.png, <exp>-slow.png). */
static void plot_links(FILE *f, const struct dist_run *d, const struct plot_list *pl)
{
    const char *sep = "Plots: ";
    char hist[64], slow[64];
    snprintf(hist, sizeof(hist), "%s-hist.png", exp_name(d->e));
    snprintf(slow, sizeof(slow), "%s-slow.png", exp_name(d->e));
    for (size_t i = 0; i < pl->n; i++) {
        size_t len = strlen(pl->p[i].file);
        bool is_hist = len >= strlen(hist) && !strcmp(pl->p[i].file + len - strlen(hist), hist);
        bool is_slow = len >= strlen(slow) && !strcmp(pl->p[i].file + len - strlen(slow), slow);
        if (!pl->p[i].ok || !(is_hist || is_slow))
            continue;
        fprintf(f, "%s[%s](%s)", sep, is_hist ? "the histogram per level" : "the slow batches",
                pl->p[i].file);
        sep = ", ";
    }
    fprintf(f, "%s", *sep == ',' ? ".\n\n" : "");
}

int report_md_dist(FILE *f, const struct source_result *r, const struct plot_list *pl)
{
    static struct dist_run d;
    if (!dist_of(r, &d))
        return -1;
    fprintf(f, "#### Latency distribution (%s)\n\n", exp_name(d.e));
    fprintf(f,
            "The timed batches at each size (%s.csv; the histograms in %s.hist.csv, the slow "
            "batches in %s.samples.csv).\n\n",
            exp_name(d.e), exp_name(d.e), exp_name(d.e));
    plot_links(f, &d, pl);
    percentiles_table(f, &d);
    refresh_paragraph(f, &d);
    page_walk_paragraph(f, &d);
    return (int)d.e;
}

/* What the host adds over the firmware at each level both measured (groups g, ng of them). */
static void host_over_firmware(FILE *f, const struct dist_run *d, size_t runs,
                               const struct dist_group *g, size_t ng)
{
    int fw = -1, host = -1;
    for (size_t k = 0; k < runs; k++) {
        fw = fw < 0 && strcmp(dist_platform(d[k].r), "firmware") == 0 ? (int)k : fw;
        host = host < 0 && strcmp(dist_platform(d[k].r), "host") == 0 ? (int)k : host;
    }
    if (fw < 0 || host < 0)
        return;
    fprintf(f, "What the operating system adds (the host's run against the firmware's):\n\n");
    if (d[fw].r->src->hypervisor)
        fprintf(f, "(The firmware ran under a hypervisor, an emulator perhaps: its batch times are "
                   "the virtual machine's, and these differences say little of the operating "
                   "system.)\n\n");
    for (size_t i = 0; i < ng; i++) {
        const struct dist_point *a = NULL, *b = NULL;
        for (size_t k = 0; k < g[i].n; k++) {
            a = g[i].run[k] == (size_t)fw ? g[i].pt[k] : a;
            b = g[i].run[k] == (size_t)host ? g[i].pt[k] : b;
        }
        if (a && b)
            fprintf(f,
                    "- %s (firmware %s, host %s): p50 %+.1f ns, p99 %+.1f ns, p99.9 %+.1f ns, "
                    "max %+.1f ns\n",
                    a->level[0] ? a->level : "-", a->size, b->size, b->p50_ns - a->p50_ns,
                    b->p99_ns - a->p99_ns, b->p999_ns - a->p999_ns, b->max_ns - a->max_ns);
    }
    fprintf(f, "\n");
}

void report_md_dist_compare(FILE *f, const struct source_result *r, size_t n)
{
    static struct dist_run d[DIST_MAX_RUNS];
    static struct dist_group g[DIST_MAX_POINTS * DIST_MAX_RUNS];
    size_t runs = 0;
    for (size_t i = 0; i < n && runs < DIST_MAX_RUNS; i++)
        runs += dist_of(&r[i], &d[runs]);
    if (runs < 2)
        return;
    size_t ng = dist_groups(d, runs, g, DIST_MAX_POINTS * DIST_MAX_RUNS);
    fprintf(f, "## Latency distributions side by side\n\n"
               "Each level as every run measured it (matched by the level, and by the pages: "
               "the same page size where both runs have it, else the same kind, 4K or large); "
               "the histograms together are plotted below.\n\n");
    fprintf(f, "| level | run | size |%s|---|---|---|---|---|---|---|---|---|---|---|\n",
            table_head);
    for (size_t i = 0; i < ng; i++)
        for (size_t k = 0; k < g[i].n; k++) {
            const struct dist_point *p = g[i].pt[k];
            fprintf(f, "| %s | %s: %s | %s |", p->level[0] ? p->level : "-",
                    dist_platform(d[g[i].run[k]].r), d[g[i].run[k]].r->src->name, p->size);
            point_cells(f, p);
        }
    fprintf(f, "\n");
    host_over_firmware(f, d, runs, g, ng);
}
