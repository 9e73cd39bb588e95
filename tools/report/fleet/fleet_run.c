// SPDX-License-Identifier: MIT
// One run folder as a row of the fleet report: who the machine is (run.json's identity) and
// its headline figures, taken from the same analysis chase-report makes of one run (levels,
// DRAM and every verdict's items), not a second reading of the CSVs.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit/analysis.h"
#include "fleet/fleet.h"
#include "inputs/load.h"
#include "inputs/rtext.h"
#include "lib/stats.h"

/* run.json's precision is a percentage (the 95% interval of a point's median, either side). */
#define PERCENT 100.0
/* Where a figure goes in tables and plots (struct fleet_figure's rank): the detection's
 * latencies by level, its sizes, then each experiment's items in the table's order. */
#define FIG_RANK_SIZES 100
#define FIG_RANK_VERDICTS 100000
#define FIG_RANK_ITEM 1000
/* When a run does not record its settings: the defaults of chase's configuration. */
#define DEFAULT_PRECISION_PCT 0.5
#define DEFAULT_SIZE_STEP 0.19 /* 4 sizes per doubling: 2^(1/4) - 1 */
#define CURVE_STEPS_MAX 4096   /* neighbouring sizes the step is taken from */

static void text_at(char *dst, size_t cap, const struct rjson *root, const char *path)
{
    const char *v = rjson_string(rjson_path(root, path));
    rtext_sanitize(dst, cap, v ? v : "");
}

/* A figure of machine m; which way is better follows from the unit (a time: lower; a rate:
 * higher; a size: neither). Left out when not finite, when m has FLEET_FIGURES, or when it
 * repeats a figure already taken (the same unit and value: a verdict quoting the levels). */
static void add_fig(struct fleet_machine *m, const char *name, const char *unit, int rank,
                    double value, double resolution)
{
    if (!isfinite(value) || m->nfig >= FLEET_FIGURES)
        return;
    for (size_t i = 0; i < m->nfig; i++)
        if (m->fig[i].value == value && strcmp(m->fig[i].unit, unit) == 0)
            return;
    struct fleet_figure *f = &m->fig[m->nfig++];
    snprintf(f->name, sizeof(f->name), "%s", name);
    snprintf(f->unit, sizeof(f->unit), "%s", unit);
    f->rank = rank;
    f->better = strcmp(unit, "ns") == 0     ? FLEET_BETTER_LOWER
                : strcmp(unit, "GB/s") == 0 ? FLEET_BETTER_HIGHER
                                            : FLEET_BETTER_NEITHER;
    f->value = value;
    f->resolution = resolution;
}

/* The installed memory devices: count, the first one's part and speed (configured, else
 * rated); the summary phrase chase wrote. */
static void dimms_read(struct fleet_identity *id, const struct rjson *s)
{
    const struct rjson *devs = rjson_get(s, "memory_devices");
    double v;
    id->dimm_count = 0;
    for (const struct rjson *d = devs ? devs->child : NULL; d; d = d->next) {
        if (!rjson_true(rjson_get(d, "installed")))
            continue;
        if (id->dimm_count++ == 0) {
            text_at(id->dimm_part, sizeof(id->dimm_part), d, "part_number");
            if (rjson_number(rjson_get(d, "configured_speed_mts"), &v) ||
                rjson_number(rjson_get(d, "speed_mts"), &v))
                id->dimm_speed = (unsigned)v;
        }
    }
    text_at(id->dimms, sizeof(id->dimms), s, "memory_summary");
}

static void smbios_read_id(struct fleet_identity *id, const struct rjson *s)
{
    char v[FLEET_TEXT], d[FLEET_TEXT];
    id->smbios = true;
    text_at(id->vendor, sizeof(id->vendor), s, "system.manufacturer");
    text_at(id->product, sizeof(id->product), s, "system.product");
    text_at(id->serial, sizeof(id->serial), s, "system.serial_number");
    if (rjson_true(rjson_path(s, "system.serial_number_placeholder")))
        id->serial[0] = '\0'; /* kept in run.json; not a name for the machine */
    if (!rjson_true(rjson_path(s, "system.uuid_placeholder")))
        text_at(id->uuid, sizeof(id->uuid), s, "system.uuid");
    text_at(v, sizeof(v), s, "firmware.vendor");
    text_at(d, sizeof(d), s, "firmware.date");
    char ver[FLEET_TEXT];
    text_at(ver, sizeof(ver), s, "firmware.version");
    snprintf(id->firmware, sizeof(id->firmware), "%.40s %.40s%s%.30s%s", v, ver, d[0] ? " (" : "",
             d, d[0] ? ")" : "");
    dimms_read(id, s);
}

static void identity_read(struct fleet_identity *id, const struct rjson *run)
{
    const struct rjson *s = rjson_path(run, "machine_identity.smbios");
    double fam = -1, model = -1, step = -1;
    char vendor[32];
    id->dimm_count = -1;
    if (s && rjson_true(rjson_get(s, "found")))
        smbios_read_id(id, s);
    else
        text_at(id->firmware, sizeof(id->firmware), run, "firmware.vendor");
    text_at(id->mac, sizeof(id->mac), run, "boot_nic.mac");
    text_at(id->cpu, sizeof(id->cpu), run, "cpu.brand");
    text_at(vendor, sizeof(vendor), run, "cpu.vendor");
    rjson_number(rjson_path(run, "cpu.family"), &fam);
    rjson_number(rjson_path(run, "cpu.model"), &model);
    rjson_number(rjson_path(run, "cpu.stepping"), &step);
    snprintf(id->cpu_model, sizeof(id->cpu_model), "%s family %.0f model %.0f stepping %.0f",
             vendor[0] ? vendor : "unknown", fam, model, step);
    text_at(id->microcode, sizeof(id->microcode), run, "machine_identity.microcode.revision");
    text_at(id->encryption, sizeof(id->encryption), run,
            "machine_identity.memory_encryption.state");
}

/* A level's place by its name: L1, L2 ... in order, DRAM after them; -1 for other names. */
static int level_place(const char *name)
{
    if (strcmp(name, "DRAM") == 0)
        return 9;
    return name[0] == 'L' && name[1] >= '1' && name[1] <= '8' && !name[2] ? name[1] - '0' : -1;
}

/* The figures of the levels and DRAM (the primary curve's detection): latencies, then sizes. */
static void level_figures(struct fleet_machine *m, const struct source_result *r, double prec,
                          double step)
{
    const struct detection *d = primary_detection(r);
    char nm[8], name[FLEET_NAME];
    for (size_t i = 0; d && i < d->nlevels; i++) {
        const struct level *lv = &d->level[i];
        if (lv->kind == LEVEL_TLB)
            continue;
        level_name_of(nm, sizeof(nm), d, i);
        int place = level_place(nm) < 0 ? 8 : level_place(nm);
        snprintf(name, sizeof(name), "%s_latency_ns", nm);
        add_fig(m, name, "ns", place, lv->latency_ns, prec);
        snprintf(name, sizeof(name), "%s_size_bytes", nm);
        if (lv->size_known)
            add_fig(m, name, "bytes", FIG_RANK_SIZES + place, lv->size_bytes, step);
    }
    if (d && !d->dram_lower_bound)
        add_fig(m, "DRAM_latency_ns", "ns", level_place("DRAM"), d->dram_ns, prec);
}

/* Whether a verdict item's unit is a physical figure's (a time, a size, a rate): counts and
 * ratios are not held against peers. */
static bool figure_unit(const char *unit)
{
    return strcmp(unit, "ns") == 0 || strcmp(unit, "bytes") == 0 || strcmp(unit, "GB/s") == 0;
}

/* The cells of a verdict table whose first column names the row: EXP_ROW_COLUMN for each
 * numeric column with a figure's unit. */
static void table_figures(struct fleet_machine *m, const char *exp, const struct vtable *t,
                          int rank, double prec, double step)
{
    char name[FLEET_NAME];
    for (size_t row = 0; t->ncols > 1 && t->text[0] && row < t->nrows; row++) {
        const char *label = vtable_cell(t, row, 0)->text;
        int place = level_place(label) >= 0 ? level_place(label) : (int)(row < 99 ? row : 99);
        for (size_t c = 1; c < t->ncols && c < 10; c++) {
            double v = vtable_cell(t, row, c)->num;
            if (t->text[c] || !figure_unit(t->unit[c]))
                continue;
            snprintf(name, sizeof(name), "%s_%s_%s", exp, label, t->name[c]);
            add_fig(m, name, t->unit[c], rank + place * 10 + (int)c, v,
                    strcmp(t->unit[c], "bytes") == 0 ? step : prec);
        }
    }
}

/*
 * Every verdict's figures, whatever the experiment (printers never name experiments): its
 * number items with a figure's unit as EXPERIMENT_ITEM, and its tables' cells as
 * EXPERIMENT_ROW_COLUMN (bandwidth per level, bw_cores' peak per mix, c2c's medians ...).
 */
static void verdict_figures(struct fleet_machine *m, const struct source_result *r, double prec,
                            double step)
{
    char name[FLEET_NAME];
    for (size_t e = 0; exp_name(e); e++) {
        const struct verdict *v = &r->an.verdict[e];
        for (size_t i = 0; v->present && i < v->nitems; i++) {
            const struct vitem *it = &v->item[i];
            int rank = FIG_RANK_VERDICTS * (int)(e + 1) + FIG_RANK_ITEM * (int)i;
            if (it->type == VITEM_TABLE) {
                table_figures(m, exp_name(e), verdict_item_table(v, it), rank, prec, step);
            } else if (it->type == VITEM_NUMBER && figure_unit(it->unit)) {
                snprintf(name, sizeof(name), "%s_%s", exp_name(e), it->name);
                add_fig(m, name, it->unit, rank, it->value,
                        strcmp(it->unit, "bytes") == 0 ? step : prec);
            }
        }
    }
}

/* The run's resolution: its precision (relative), and for sizes the step between the sizes of
 * the curve its levels come from (the median ratio of neighbours, less 1). */
static void resolution(const struct source_result *r, double *prec, double *step)
{
    double p = DEFAULT_PRECISION_PCT, ratio[CURVE_STEPS_MAX];
    rjson_number(rjson_path(r->src->run, "config.precision"), &p);
    *prec = p > 0 ? p / PERCENT : DEFAULT_PRECISION_PCT / PERCENT;
    *step = DEFAULT_SIZE_STEP;
    if (r->an.primary < 0)
        return;
    const struct an_curve *c = &r->src->curve[r->an.primary];
    size_t n = 0;
    for (size_t i = 1; i < c->n && n < CURVE_STEPS_MAX; i++)
        if (c->size[i - 1] > 0 && c->size[i] > c->size[i - 1])
            ratio[n++] = c->size[i] / c->size[i - 1];
    if (n)
        *step = stats_median(ratio, n) - 1;
}

/* The machine's name: the one chase uploaded the run under (run.json's machine: serial, UUID
 * or MAC, made safe for a path), else the SMBIOS serial, UUID, boot NIC MAC, else the caller's
 * (the folder). */
static void name_machine(struct fleet_machine *m, const struct rjson *run, const char *fallback)
{
    const struct fleet_identity *id = &m->id;
    const char *from = "folder", *name = fallback;
    char uploaded[FLEET_NAME], how[24];
    text_at(uploaded, sizeof(uploaded), run, "machine");
    text_at(how, sizeof(how), run, "machine_from");
    if (uploaded[0] && strcmp(how, "none") != 0)
        from = "the run's upload name", name = uploaded;
    else if (id->serial[0]) /* run.json marks a placeholder serial; identity_read drops it */
        from = "SMBIOS serial", name = id->serial;
    else if (id->uuid[0])
        from = "SMBIOS UUID", name = id->uuid;
    else if (id->mac[0])
        from = "boot NIC MAC", name = id->mac;
    snprintf(m->name, sizeof(m->name), "%.63s", name);
    snprintf(m->name_from, sizeof(m->name_from), "%s", from);
}

int fleet_read_run(const char *dir, const char *fallback_name, struct fleet_machine *m, char *err,
                   size_t cap)
{
    struct source *src = calloc(1, sizeof(*src));
    struct source_result *res = calloc(1, sizeof(*res));
    int rc = -1;
    if (!src || !res) {
        snprintf(err, cap, "out of memory");
        goto out;
    }
    if (source_load(dir, src, err, cap) != 0)
        goto out;
    if (src->format != FMT_RUN || !src->run) {
        snprintf(err, cap, "%s: not a chase run folder with run.json", dir);
        source_free(src);
        goto out;
    }
    struct analysis_opts ao = {0};
    analyse_all(res, src, 1, &ao);
    memset(m, 0, sizeof(*m));
    snprintf(m->run_path, sizeof(m->run_path), "%s", dir);
    identity_read(&m->id, src->run);
    text_at(m->start_time, sizeof(m->start_time), src->run, "start_time");
    text_at(m->run_id, sizeof(m->run_id), src->run, "run_id");
    if (!m->run_id[0]) {
        const char *slash = strrchr(dir, '/');
        rtext_sanitize(m->run_id, sizeof(m->run_id), slash ? slash + 1 : dir);
    }
    double prec, step;
    resolution(res, &prec, &step);
    level_figures(m, res, prec, step);
    verdict_figures(m, res, prec, step);
    name_machine(m, src->run, fallback_name);
    m->runs = 1;
    analyse_free(res, 1);
    source_free(src);
    rc = 0;
out:
    free(src);
    free(res);
    return rc;
}
