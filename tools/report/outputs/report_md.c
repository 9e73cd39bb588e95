// SPDX-License-Identifier: MIT
// report.md: machine, levels, latency model, the comparison with the machine's cache description
// (CPUID, CLIDR/CCSIDR or PPTT, sysfs), plots and verdicts per input.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/detect_params.h"
#include "lib/fmt.h"
#include "outputs/output.h"
#include "inputs/rtext.h"

static void fmt_ns(char *dst, size_t cap, double v)
{
    if (isfinite(v))
        snprintf(dst, cap, "%.2f", v);
    else
        snprintf(dst, cap, "-");
}

static void md_size(char *dst, size_t cap, double v)
{
    if (isfinite(v) && v > 0)
        fmt_size(dst, cap, v);
    else
        snprintf(dst, cap, "-");
}

/* "1.25M +- 20K" from a fitted size and its uncertainty; the data may not pin it down. */
static void fmt_pm_size(char *dst, size_t cap, double v, double sd)
{
    char a[24], b[24];
    md_size(a, sizeof(a), v);
    md_size(b, sizeof(b), sd);
    if (!isfinite(sd) || sd <= 0 || sd > v)
        snprintf(dst, cap, "%s (not determined)", a);
    else
        snprintf(dst, cap, "%s +- %s", a, b);
}

/* "4.50 +- 0.02" or "24.4 (not determined)". */
static void fmt_pm(char *dst, size_t cap, double v, double sd)
{
    if (!isfinite(sd) || sd <= 0 || sd > fabs(v) + 1e-9)
        snprintf(dst, cap, "%.2f (not determined)", v);
    else
        snprintf(dst, cap, "%.2f +- %.2f", v, sd);
}

static const struct fit_result *best_fit(const struct curve_result *cr)
{
    return cr->fitted ? &cr->fit[cr->form] : NULL;
}

/* Fitted size of level i in the inclusive reading (what level i and faster ones hold). */
static double fit_reach(const struct fit_result *f, size_t i, double *sd)
{
    double s = 0, var = 0;
    for (size_t k = 0; k <= i; k++) {
        if (!f->model.exclusive && k < i)
            continue;
        s += f->model.size_bytes[k];
        var += f->size_sd[k] * f->size_sd[k];
    }
    *sd = sqrt(var);
    return s;
}

static void levels_table(FILE *f, const struct source_result *r)
{
    const struct curve_result *cr = &r->cr[r->an.primary];
    const struct detection *d = &cr->an->det;
    const struct fit_result *fit = best_fit(cr);
    char nm[8], sz[32], eff[32], from[32], to[32], lat[32], cyc[32], fs[64], fl[64];
    fprintf(f, "From the curve \"%s\"%s.\n\n", cr->c->label,
            cr->c->relative ? " (tinymembench: latencies are time added to an L1 hit)" : "");
    fprintf(f,
            "| level | size | effective size | latency ns | core cycles | plateau | model size | "
            "model latency ns |\n|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < d->nlevels; i++) {
        const struct level *lv = &d->level[i];
        level_name_of(nm, sizeof(nm), d, i);
        md_size(sz, sizeof(sz), lv->size_bytes);
        md_size(eff, sizeof(eff), lv->effective_bytes);
        md_size(from, sizeof(from), lv->from_bytes);
        md_size(to, sizeof(to), lv->to_bytes);
        fmt_ns(lat, sizeof(lat), lv->latency_ns);
        fmt_ns(cyc, sizeof(cyc), lv->cycles);
        snprintf(fs, sizeof(fs), "-");
        snprintf(fl, sizeof(fl), "-");
        if (fit && i < fit->model.m) {
            double sd, reach = i + 1 < fit->model.m ? fit_reach(fit, i, &sd) : NAN;
            if (i + 1 < fit->model.m)
                fmt_pm_size(fs, sizeof(fs), reach, sd);
            fmt_pm(fl, sizeof(fl), fit->model.lat_ns[i], fit->lat_sd[i]);
        }
        fprintf(f, "| %s | %s | %s | %s | %s | %s-%s | %s | %s |\n", nm,
                lv->size_known ? sz : "beyond the sizes tried", lv->size_known ? eff : "-", lat,
                cyc, from, to, fs, fl);
    }
    md_size(from, sizeof(from), d->dram_from_bytes);
    fmt_ns(lat, sizeof(lat), d->dram_ns);
    fmt_ns(cyc, sizeof(cyc), d->dram_cycles);
    if (isfinite(d->dram_ns)) {
        snprintf(fl, sizeof(fl), "-");
        if (fit && fit->model.m == d->nlevels + 1)
            fmt_pm(fl, sizeof(fl), fit->model.lat_ns[d->nlevels], fit->lat_sd[d->nlevels]);
        fprintf(f, "| DRAM | | %s%s | %s | %s%s | | %s |\n", d->dram_lower_bound ? ">= " : "", lat,
                cyc, isfinite(d->dram_from_bytes) ? "from " : "",
                isfinite(d->dram_from_bytes) ? from : "", fl);
    }
    char means[LEVELS_SIZE_MEANING_CHARS];
    levels_size_meaning(means, sizeof(means), d);
    fprintf(f,
            "\nThe size is %s; the effective size is where it has made %.0f%% of its rise, the "
            "largest buffer a chase still mostly finds in the cache (the same on a sparse "
            "curve); the model size is where the model's hit rate starts to fall.\n\n",
            means, 100 * LEVELS_STEP_FRACTION);
}

static void notes_list(FILE *f, const struct source_result *r)
{
    const struct source *s = r->src;
    for (size_t i = 0; i < s->ncurves; i++) {
        const struct curve_result *cr = &r->cr[i];
        for (size_t k = 0; k < cr->an->ntlb; k++) {
            char sz[32];
            fmt_size(sz, sizeof(sz), cr->an->tlb[k].size_bytes);
            fprintf(f,
                    "- TLB step in \"%s\" at %s: +%.2f ns per load (absent with larger "
                    "pages)\n",
                    s->curve[i].label, sz, cr->an->tlb[k].penalty_ns);
        }
        if (!cr->an->analysed || (int)i != r->an.primary)
            continue;
        for (size_t k = 0; k < cr->an->det.nnotes; k++)
            fprintf(f, "- %s\n", cr->an->det.note[k]);
    }
    for (size_t i = 0; i < s->nwarnings; i++)
        fprintf(f, "- input: %s\n", s->warning[i]);
    fprintf(f, "\n");
}

static void fit_section(FILE *f, const struct source_result *r)
{
    const struct curve_result *cr = &r->cr[r->an.primary];
    fprintf(f, "#### Latency model\n\n");
    if (!cr->fitted) {
        fprintf(f, "Not fitted: %s.\n\n", cr->fit[0].why[0] ? cr->fit[0].why : "no levels");
        return;
    }
    fprintf(f, "E[L](N) = sum of l_i * share_i(N), share_i = h_i - h_(i-1), h_i = min(1, S_i/N)^p, "
               "fitted by nonlinear least squares (GSL) on ln latency.\n\n");
    fprintf(
        f,
        "| form | sizes S_i | latencies l_i (ns) | sharpness p | rms |\n|---|---|---|---|---|\n");
    for (int form = 0; form < 2; form++) {
        const struct fit_result *ft = &cr->fit[form];
        if (!ft->ok) {
            fprintf(f, "| %s | failed: %s | | | |\n", form ? "exclusive" : "inclusive", ft->why);
            continue;
        }
        fprintf(f, "| %s%s | ", form ? "exclusive" : "inclusive",
                form == cr->form ? " (reported)" : "");
        for (size_t i = 0; i + 1 < ft->model.m; i++) {
            char sz[64];
            fmt_pm_size(sz, sizeof(sz), ft->model.size_bytes[i], ft->size_sd[i]);
            fprintf(f, "%s%s", i ? ", " : "", sz);
        }
        fprintf(f, " | ");
        char s[64];
        for (size_t i = 0; i < ft->model.m; i++) {
            fmt_pm(s, sizeof(s), ft->model.lat_ns[i], ft->lat_sd[i]);
            fprintf(f, "%s%s", i ? ", " : "", s);
        }
        fmt_pm(s, sizeof(s), ft->model.sharpness, ft->sharpness_sd);
        fprintf(f, " | %s | %.1f%% |\n", s, 100 * ft->rms);
    }
    fprintf(f, "\nInclusive sizes are what each level holds; exclusive sizes add up.\n\n");
    if (cr->check.agrees)
        fprintf(f, "Fit and detection agree.\n\n");
    for (size_t i = 0; i < cr->check.nnotes; i++)
        fprintf(f, "- disagreement: %s\n", cr->check.note[i]);
    if (cr->check.nnotes)
        fprintf(f, "\n");
}

static void cpuid_section(FILE *f, const struct source_result *r)
{
    const struct source *s = r->src;
    const struct detection *d = primary_detection(r);
    if (s->ncaches == 0)
        return;
    fprintf(f,
            "#### Against the machine's cache description (%s)\n\n| described cache | reported "
            "size | ways | line | shared by | measured size | measured/reported | "
            "latency ns | core cycles |\n|---|---|---|---|---|---|---|---|---|\n",
            s->cache_from[0] ? s->cache_from : "the machine");
    for (size_t k = 0; k < s->ncaches; k++) {
        const struct cache_info *ci = &s->cache[k];
        char rep[32], meas[64] = "-", ratio[32] = "-", lat[32] = "-", cyc[32] = "-";
        md_size(rep, sizeof(rep), ci->size_bytes);
        for (size_t i = 0; d && i < d->nlevels; i++) {
            if (r->cache_match[i] != (int)k)
                continue;
            const struct level *lv = &d->level[i];
            if (lv->size_known) {
                md_size(meas, sizeof(meas), lv->size_bytes);
                if (lv->shared)
                    strncat(meas, " (shared: this chase's share)", sizeof(meas) - strlen(meas) - 1);
                snprintf(ratio, sizeof(ratio), "%.2f", lv->size_bytes / ci->size_bytes);
            } else {
                snprintf(meas, sizeof(meas), "its end not reached");
            }
            fmt_ns(lat, sizeof(lat), lv->latency_ns);
            fmt_ns(cyc, sizeof(cyc), lv->cycles);
        }
        fprintf(f, "| L%d %s | %s | %.0f | %.0f | %.0f | %s | %s | %s | %s |\n", ci->level,
                ci->type, rep, ci->ways, ci->line_bytes, ci->shared_by, meas, ratio, lat, cyc);
    }
    for (size_t i = 0; d && i < d->nlevels; i++) {
        const struct level *lv = &d->level[i];
        char sz[32];
        if (r->cache_match[i] >= 0)
            continue;
        md_size(sz, sizeof(sz), lv->size_bytes);
        if (lv->kind == LEVEL_TLB)
            fprintf(f, "| (none) | | | | | the TLB step at %s: not a cache | | %.2f | |\n", sz,
                    lv->latency_ns);
        else
            fprintf(f,
                    "| (none) | | | | | %s step: not a described cache (TLB? shared-cache "
                    "slice?) | | %.2f | |\n",
                    lv->size_known ? "a" : "an open", lv->latency_ns);
    }
    fprintf(f, "\n");
}

static void plots_section(FILE *f, const struct plot_list *pl)
{
    for (size_t i = 0; i < pl->n; i++) {
        const struct plot_made *m = &pl->p[i];
        if (m->ok)
            fprintf(f, "![%s](%s)\n\n%s %s\n\n", m->file, m->file, m->caption[0], m->caption[1]);
        else
            fprintf(f, "(%s not drawn: %s)\n\n", m->file, m->err);
    }
}

/* Each verdict; the experiment dist_e's table of points (an_dist's levels) is the distribution
 * section's, not written twice. */
static void verdicts_section(FILE *f, const struct source_result *r, int dist_e)
{
    for (size_t e = 0; exp_name(e); e++) {
        const struct verdict *v = &r->an.verdict[e];
        if (!v->present)
            continue;
        fprintf(f, "#### %s\n\n%s.\n\n", exp_name(e), v->headline);
        for (size_t i = 0; i < v->nlines; i++)
            fprintf(f, "%s\n", v->line[i]);
        fprintf(f, "\n");
        const struct an_dist *x = analysis_experiment(e)->dist;
        verdict_items_md(f, v, (int)e == dist_e && x ? x->levels : NULL);
    }
}

static void other_curves(FILE *f, const struct source_result *r)
{
    const struct source *s = r->src;
    size_t count = 0;
    for (size_t i = 0; i < s->ncurves; i++)
        count += r->an.cr[i].analysed && s->curve[i].role == AN_ROLE_LEVELS;
    if (count < 2)
        return;
    fprintf(f, "| curve | levels (size @ latency ns) | DRAM ns | TLB steps |\n"
               "|---|---|---|---|\n");
    for (size_t i = 0; i < s->ncurves; i++) {
        const struct curve_result *cr = &r->cr[i];
        if (!cr->an->analysed || s->curve[i].role != AN_ROLE_LEVELS)
            continue;
        fprintf(f, "| %s | ", s->curve[i].label);
        for (size_t k = 0; k < cr->an->det.nlevels; k++) {
            char sz[32];
            md_size(sz, sizeof(sz), cr->an->det.level[k].size_bytes);
            fprintf(f, "%s%s @ %.2f", k ? ", " : "", cr->an->det.level[k].size_known ? sz : "open",
                    cr->an->det.level[k].latency_ns);
        }
        fprintf(f, " | %.1f | %zu |\n", cr->an->det.dram_ns, cr->an->ntlb);
    }
    fprintf(f, "\n");
}

/* The console's summary of the run, word for word (kernel/analysis writes both). */
static void summary_section(FILE *f, const struct source_result *r)
{
    if (!r->summary || !r->summary[0])
        return;
    fprintf(f, "#### Summary\n\n```\n%s```\n\n", r->summary);
}

static void source_section(FILE *f, const struct source_result *r, const struct plot_list *pl)
{
    fprintf(f, "## %s\n\n", r->src->name);
    report_md_machine(f, r);
    summary_section(f, r);
    fprintf(f, "#### Cache levels\n\n");
    if (r->an.primary >= 0) {
        levels_table(f, r);
        other_curves(f, r);
        notes_list(f, r);
        fit_section(f, r);
        cpuid_section(f, r);
    } else {
        fprintf(f, "No latency-against-size curve in this input.\n\n");
        notes_list(f, r);
    }
    fprintf(f, "#### Plots\n\n");
    plots_section(f, pl);
    verdicts_section(f, r, report_md_dist(f, r, pl));
    report_md_config(f, r);
}

int report_md_write(const char *outdir, const struct source_result *r, size_t n,
                    const struct plot_list *lists, char *err, size_t cap)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/report.md", outdir);
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, cap, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "# chase report\n\nMade by chase-report %s from %zu input%s.\n\n", CHASE_VERSION, n,
            n == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++)
        source_section(f, &r[i], &lists[i]);
    report_md_dist_compare(f, r, n);
    if (lists[n].n) {
        fprintf(f, "## All inputs together\n\n");
        plots_section(f, &lists[n]);
    }
    if (fclose(f) != 0) {
        snprintf(err, cap, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
