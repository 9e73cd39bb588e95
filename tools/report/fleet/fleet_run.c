// SPDX-License-Identifier: MIT
// One run folder as a row of the fleet report: who the machine is (run.json's identity) and
// its headline figures, taken from the same analysis chase-report makes of one run (levels,
// DRAM, the bandwidth, bw_cores and c2c verdicts), not a second reading of the CSVs.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit/analysis.h"
#include "fleet/fleet.h"
#include "inputs/load.h"
#include "inputs/rtext.h"

/* run.json's precision is a percentage (the 95% interval of a point's median, either side). */
#define PERCENT 100.0
/* When a run does not record its settings: the defaults of chase's configuration. */
#define DEFAULT_PRECISION_PCT 0.5
#define DEFAULT_POINTS_PER_OCTAVE 4

static void text_at(char *dst, size_t cap, const struct rjson *root, const char *path)
{
    const char *v = rjson_string(rjson_path(root, path));
    rtext_sanitize(dst, cap, v ? v : "");
}

static void add_fig(struct fleet_machine *m, const char *name, const char *unit,
                    enum fleet_better better, double value, double resolution)
{
    if (!isfinite(value) || m->nfig >= FLEET_FIGURES)
        return;
    struct fleet_figure *f = &m->fig[m->nfig++];
    snprintf(f->name, sizeof(f->name), "%s", name);
    snprintf(f->unit, sizeof(f->unit), "%s", unit);
    f->better = better;
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

/* The figures of the levels and DRAM (the primary curve's detection). */
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
        snprintf(name, sizeof(name), "%s_latency_ns", nm);
        add_fig(m, name, "ns", FLEET_BETTER_LOWER, lv->latency_ns, prec);
        snprintf(name, sizeof(name), "%s_size_bytes", nm);
        if (lv->size_known)
            add_fig(m, name, "bytes", FLEET_BETTER_NEITHER, lv->size_bytes, step);
    }
    if (d && !d->dram_lower_bound)
        add_fig(m, "DRAM_latency_ns", "ns", FLEET_BETTER_LOWER, d->dram_ns, prec);
}

/* The verdict of the experiment called name (an empty one when the run has none). */
static const struct verdict *verdict_of(const struct source_result *r, const char *name)
{
    static const struct verdict none;
    for (size_t e = 0; exp_name(e); e++)
        if (strcmp(exp_name(e), name) == 0)
            return &r->an.verdict[e];
    return &none;
}

/* Bandwidth per level (read), the all-core peak and the c2c group medians: verdict items. */
static void verdict_figures(struct fleet_machine *m, const struct source_result *r, double prec)
{
    const struct verdict *bw = verdict_of(r, "bandwidth");
    const struct vtable *t = verdict_item_table(bw, verdict_find(bw, "levels"));
    char name[FLEET_NAME];
    for (size_t i = 0; t && i < t->nrows; i++) {
        snprintf(name, sizeof(name), "%s_read_gbs", vtable_cell(t, i, 0)->text);
        add_fig(m, name, "GB/s", FLEET_BETTER_HIGHER, vtable_cell(t, i, 3)->num, prec);
    }
    const struct verdict *bc = verdict_of(r, "bw_cores");
    const struct vtable *pk = verdict_item_table(bc, verdict_find(bc, "peak"));
    double peak = NAN;
    for (size_t i = 0; pk && i < pk->nrows; i++)
        if (!(vtable_cell(pk, i, 1)->num <= peak))
            peak = vtable_cell(pk, i, 1)->num;
    add_fig(m, "all_core_peak_gbs", "GB/s", FLEET_BETTER_HIGHER, peak, prec);
    const struct verdict *cc = verdict_of(r, "c2c");
    double noise = verdict_value(cc, "noise_ns");
    for (size_t i = 0; cc->present && i < cc->nitems; i++) {
        const struct vitem *it = &cc->item[i];
        if (it->type != VITEM_NUMBER || strcmp(it->name, "noise_ns") == 0)
            continue;
        snprintf(name, sizeof(name), "c2c_%s_ns", it->name);
        add_fig(m, name, "ns", FLEET_BETTER_LOWER, it->value,
                isfinite(noise) && it->value > 0 ? fmax(prec, noise / it->value) : prec);
    }
}

/* The run's resolution: its precision (relative) and random's size step (2^(1/ppo) - 1). */
static void resolution(const struct rjson *run, double *prec, double *step)
{
    double p = DEFAULT_PRECISION_PCT, ppo = DEFAULT_POINTS_PER_OCTAVE;
    rjson_number(rjson_path(run, "config.precision"), &p);
    rjson_number(rjson_path(run, "config.random.points_per_octave"), &ppo);
    *prec = p > 0 ? p / PERCENT : DEFAULT_PRECISION_PCT / PERCENT;
    *step = exp2(1.0 / (ppo >= 1 ? ppo : DEFAULT_POINTS_PER_OCTAVE)) - 1;
}

/* The machine's name: SMBIOS serial, UUID, boot NIC MAC, else the caller's (the folder). */
static void name_machine(struct fleet_machine *m, const char *fallback)
{
    const struct fleet_identity *id = &m->id;
    const char *from = "folder", *name = fallback;
    if (id->serial[0]) /* run.json marks a placeholder serial; identity_read drops it */
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
    resolution(src->run, &prec, &step);
    level_figures(m, res, prec, step);
    verdict_figures(m, res, prec);
    name_machine(m, fallback_name);
    m->runs = 1;
    analyse_free(res, 1);
    source_free(src);
    rc = 0;
out:
    free(src);
    free(res);
    return rc;
}
