// SPDX-License-Identifier: MIT
// chase-report --json: the analysis as one JSON document (kernel/json.c writes it).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "inputs/rjson.h"
#include "lib/json.h"
#include "outputs/output.h"
#include "lib/strbuf.h"

/* The list item whose offsets a simulated run's leader_sets name (the offset experiment's). */
#define SIM_LEADER_ITEM "leader_offsets_bytes"

static const char *const format_names[] = {
    [FMT_RUN] = "chase run",
    [FMT_CSV] = "chase csv",
    [FMT_LMBENCH] = "lmbench lat_mem_rd",
    [FMT_RANDOM_CHASE] = "random-chase",
    [FMT_TINYMEMBENCH] = "tinymembench",
    [FMT_MULTICHASE] = "multichase",
    [FMT_MEMLAT] = "MemoryLatency",
    [FMT_RAMLAT] = "ramlat",
    [FMT_SBCBENCH] = "sbc-bench",
};

static void level_json(struct json *j, const struct curve_result *cr, size_t i, int cpuid_index,
                       const struct source *s)
{
    const struct level *lv = &cr->an->det.level[i];
    const struct fit_result *f = cr->fitted ? &cr->fit[cr->form] : NULL;
    char nm[8];
    level_name_of(nm, sizeof(nm), &cr->an->det, i);
    json_object_begin(j, NULL);
    json_string(j, "name", nm);
    json_double(j, "size_bytes", lv->size_known ? lv->size_bytes : NAN, 0);
    json_double(j, "effective_bytes", lv->size_known ? lv->effective_bytes : NAN, 0);
    json_double(j, "size_lo_bytes", lv->size_known ? lv->size_lo_bytes : NAN, 0);
    json_double(j, "size_hi_bytes", lv->size_known ? lv->size_hi_bytes : NAN, 0);
    json_bool(j, "size_known", lv->size_known);
    json_double(j, "latency_ns", lv->latency_ns, 3);
    json_double(j, "core_cycles", lv->cycles, 2);
    json_double(j, "plateau_from_bytes", lv->from_bytes, 0);
    json_double(j, "plateau_to_bytes", lv->to_bytes, 0);
    json_string(j, "kind", level_kind_name(lv->kind));
    json_double(j, "confidence", lv->confidence, 2);
    json_double(j, "evidence", lv->evidence, 3);
    json_double(j, "cpuid_size_bytes", cpuid_index >= 0 ? s->cache[cpuid_index].size_bytes : NAN,
                0);
    json_bool(j, "shared", lv->shared);
    if (f && i < f->model.m) {
        bool sized = i + 1 < f->model.m;
        json_double(j, "fit_size_bytes", sized ? f->model.size_bytes[i] : NAN, 0);
        json_double(j, "fit_size_sigma_bytes", sized ? f->size_sd[i] : NAN, 0);
        json_double(j, "fit_latency_ns", f->model.lat_ns[i], 3);
        json_double(j, "fit_latency_sigma_ns", f->lat_sd[i], 3);
    }
    json_object_end(j);
}

static void tlb_steps_json(struct json *j, const struct source_result *r)
{
    json_array_begin(j, "tlb_steps");
    for (size_t i = 0; i < r->src->ncurves; i++)
        for (size_t k = 0; k < r->an.cr[i].ntlb; k++) {
            json_object_begin(j, NULL);
            json_string(j, "curve", r->src->curve[i].label);
            json_double(j, "size_bytes", r->an.cr[i].tlb[k].size_bytes, 0);
            json_double(j, "penalty_ns", r->an.cr[i].tlb[k].penalty_ns, 3);
            json_object_end(j);
        }
    json_array_end(j);
}

static void fit_json(struct json *j, const struct curve_result *cr)
{
    json_object_begin(j, "fit");
    json_bool(j, "ok", cr->fitted);
    if (cr->fitted) {
        const struct fit_result *f = &cr->fit[cr->form];
        json_string(j, "form", cr->form ? "exclusive" : "inclusive");
        json_double(j, "sharpness", f->model.sharpness, 3);
        json_double(j, "sharpness_sigma", f->sharpness_sd, 3);
        json_double(j, "rms_ln", f->rms, 4);
        json_bool(j, "agrees_with_detection", cr->check.agrees);
        json_u64(j, "preferred_levels",
                 (uint64_t)(cr->check.preferred_levels > 0 ? cr->check.preferred_levels : 0));
        json_array_begin(j, "disagreements");
        for (size_t i = 0; i < cr->check.nnotes; i++)
            json_string(j, NULL, cr->check.note[i]);
        json_array_end(j);
    } else {
        json_string(j, "why", cr->fit[0].why);
    }
    json_object_end(j);
}

/* levels, DRAM, TLB steps, fit and notes of the primary curve of r (the document's core). */
static void levels_json(struct json *j, const struct source_result *r)
{
    const struct curve_result *cr = r->an.primary >= 0 ? &r->cr[r->an.primary] : NULL;
    json_array_begin(j, "levels");
    for (size_t i = 0; cr && i < cr->an->det.nlevels; i++)
        level_json(j, cr, i, r->cache_match[i], r->src);
    json_array_end(j);
    json_double(j, "dram_latency_ns", cr ? cr->an->det.dram_ns : NAN, 3);
    json_bool(j, "dram_lower_bound", cr && cr->an->det.dram_lower_bound);
    json_double(j, "dram_core_cycles", cr ? cr->an->det.dram_cycles : NAN, 2);
    /* A memory controller logged machine checks during the run (run.json machine_checks). */
    json_bool(j, "dram_suspect",
              r->src->run && rjson_true(rjson_path(r->src->run, "machine_checks.dram_suspect")));
    json_string(j, "latency_reference", cr && cr->c->relative ? "added to an L1 hit" : "absolute");
    json_string(j, "curve", cr ? cr->c->label : NULL);
    tlb_steps_json(j, r);
    if (cr)
        fit_json(j, cr);
    json_array_begin(j, "notes");
    for (size_t i = 0; cr && i < cr->an->det.nnotes; i++)
        json_string(j, NULL, cr->an->det.note[i]);
    for (size_t i = 0; i < r->src->nwarnings; i++)
        json_string(j, NULL, r->src->warning[i]);
    json_array_end(j);
}

/* Whether set is in the JSON list of numbers l. */
static bool in_list(const struct rjson *l, double set)
{
    for (const struct rjson *c = l ? l->child : NULL; c; c = c->next)
        if (c->type == RJSON_NUMBER && c->number == set)
            return true;
    return false;
}

/* A simulated run: each leader-set candidate offset (a verdict's list item SIM_LEADER_ITEM)
 * named against the layout chase-sim placed (run.json's leader_sets): its set within a slice
 * and whether it leads a or b. The simulator's truth is the report's, not the experiment's. */
static void leader_truth_json(struct json *j, const struct source *s, const struct verdict *v)
{
    const struct rjson *ls = s->run ? rjson_get(s->run, "leader_sets") : NULL;
    const struct vtable *cand = verdict_item_table(v, verdict_find(v, SIM_LEADER_ITEM));
    if (!ls || ls->type != RJSON_ARRAY || !cand)
        return;
    json_array_begin(j, "simulator_leader_sets");
    for (const struct rjson *lv = ls->child; lv; lv = lv->next) {
        double per = 0, line = 0;
        if (!rjson_number(rjson_get(lv, "sets_per_slice"), &per) ||
            !rjson_number(rjson_get(lv, "line_bytes"), &line) || per < 1 || line < 1)
            continue;
        const struct rjson *a = rjson_get(lv, "a"), *b = rjson_get(lv, "b");
        json_object_begin(j, NULL);
        json_string(j, "level", rjson_string(rjson_get(lv, "level")));
        json_u64(j, "leaders_a", rjson_count(a));
        json_u64(j, "leaders_b", rjson_count(b));
        json_array_begin(j, "candidates");
        for (size_t i = 0; i < cand->nrows; i++) {
            double off = vtable_cell(cand, i, 0)->num, set = fmod(floor(off / line), per);
            json_object_begin(j, NULL);
            json_double(j, "offset_bytes", off, 0);
            json_double(j, "set", set, 0);
            json_string(j, "role", in_list(a, set) ? "a" : in_list(b, set) ? "b" : "follower");
            json_object_end(j);
        }
        json_array_end(j);
        json_object_end(j);
    }
    json_array_end(j);
}

static void verdicts_json(struct json *j, const struct source_result *r)
{
    json_object_begin(j, "verdicts");
    for (size_t e = 0; exp_name(e); e++) {
        const struct verdict *v = &r->an.verdict[e];
        if (!v->present)
            continue;
        json_object_begin(j, exp_name(e));
        json_string(j, "verdict", v->headline);
        verdict_items_json(j, v);
        leader_truth_json(j, r->src, v);
        json_object_end(j);
    }
    json_object_end(j);
}

static void curves_json(struct json *j, const struct source_result *r)
{
    json_array_begin(j, "curves");
    for (size_t i = 0; i < r->src->ncurves; i++) {
        const struct curve_result *cr = &r->cr[i];
        if (!cr->an->analysed)
            continue;
        json_object_begin(j, NULL);
        json_string(j, "label", cr->c->label);
        json_u64(j, "page_bytes", (uint64_t)cr->c->page_bytes);
        json_u64(j, "stride_bytes", (uint64_t)cr->c->stride_bytes);
        json_u64(j, "points", cr->c->n);
        json_array_begin(j, "levels");
        for (size_t k = 0; k < cr->an->det.nlevels; k++)
            level_json(j, cr, k, -1, r->src);
        json_array_end(j);
        json_double(j, "dram_latency_ns", cr->an->det.dram_ns, 3);
        json_object_end(j);
    }
    json_array_end(j);
}

static void source_json(struct json *j, const struct source_result *r)
{
    const struct source *s = r->src;
    json_object_begin(j, NULL);
    json_string(j, "path", s->path);
    json_string(j, "format", format_names[s->format]);
    json_string(j, "name", s->name);
    json_string(j, "machine", s->machine);
    json_bool(j, "simulated", s->simulated);
    json_string(j, "cache_description", s->cache_from[0] ? s->cache_from : NULL);
    levels_json(j, r);
    verdicts_json(j, r);
    json_string(j, "summary", r->summary);
    curves_json(j, r);
    json_object_end(j);
}

void report_json_print(FILE *f, const struct source_result *r, size_t n)
{
    struct strbuf sb = {0};
    struct json j;
    size_t first = 0;
    while (first < n && r[first].an.primary < 0)
        first++;
    json_init(&j, &sb);
    json_object_begin(&j, NULL);
    json_string(&j, "tool", "chase-report");
    json_string(&j, "version", CHASE_VERSION);
    json_string(&j, "machine", n ? r[first < n ? first : 0].src->machine : NULL);
    if (n) {
        /* The first input with a curve speaks for the document (its levels may be empty). */
        levels_json(&j, &r[first < n ? first : 0]);
        verdicts_json(&j, &r[first < n ? first : 0]);
        json_string(&j, "summary", r[first < n ? first : 0].summary);
    }
    json_array_begin(&j, "sources");
    for (size_t i = 0; i < n; i++)
        source_json(&j, &r[i]);
    json_array_end(&j);
    json_object_end(&j);
    fputs(strbuf_str(&sb), f);
    if (sb.failed)
        fprintf(stderr, "chase-report: out of memory: the JSON output is truncated\n");
    strbuf_release(&sb);
}
