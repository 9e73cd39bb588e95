// SPDX-License-Identifier: MIT
// fleet.md and fleet.json: one row per machine (identity and headline figures), the groups with
// each figure's median, spread and envelope, and the machines outside it.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fleet/fleet.h"
#include "fleet/fleet_text.h"
#include "lib/fmt.h"
#include "lib/json.h"

void fleet_value_text(char *out, size_t cap, double v, const char *unit)
{
    if (!isfinite(v))
        snprintf(out, cap, "-");
    else if (strcmp(unit, "bytes") == 0)
        fmt_size(out, cap, v);
    else
        snprintf(out, cap, "%.2f", v);
}

void fleet_group_status(const struct fleet *f, size_t g, char *out, size_t cap)
{
    const struct fleet_group *gr = &f->group[g];
    if (gr->against == (int)g)
        snprintf(out, cap, "judged: %zu machines", gr->n);
    else if (gr->against >= 0)
        snprintf(out, cap,
                 "%zu machine%s: too few to judge on their own (fewer than %d); held against "
                 "group %d, the largest of the same CPU",
                 gr->n, gr->n == 1 ? "" : "s", FLEET_JUDGE_MIN, gr->against + 1);
    else
        snprintf(out, cap,
                 "%zu machine%s: the envelope cannot be judged (fewer than %d machines, and no "
                 "larger group of the same CPU)",
                 gr->n, gr->n == 1 ? "" : "s", FLEET_JUDGE_MIN);
}

void fleet_flag_text(const struct fleet *f, const struct fleet_flag *fl, char *out, size_t cap)
{
    char v[32], m[32], lo[32], hi[32], d[32];
    fleet_value_text(v, sizeof(v), fl->value, fl->unit);
    fleet_value_text(m, sizeof(m), fl->median, fl->unit);
    fleet_value_text(lo, sizeof(lo), fl->lo, fl->unit);
    fleet_value_text(hi, sizeof(hi), fl->hi, fl->unit);
    fleet_value_text(d, sizeof(d), fabs(fl->value - fl->median), fl->unit);
    const char *u = strcmp(fl->unit, "bytes") == 0 ? "" : fl->unit; /* sizes say "32M" */
    snprintf(out, cap,
             "%s: %s %s%s%s against %s's median %s (envelope %s to %s): %s%s%s%s (%+.1f%%), "
             "%s; identity: %s",
             f->machine[fl->machine].name, fl->figure, v, u[0] ? " " : "", u, fl->against, m, lo,
             hi, fl->value < fl->median ? "-" : "+", d, u[0] ? " " : "", u,
             100.0 * (fl->value - fl->median) / fl->median, fl->direction, fl->explain);
}

static void md_identity(FILE *o, const struct fleet *f)
{
    fprintf(o, "## Machines\n\nOne row per machine: its newest run (runs found in brackets). "
               "Grouped by CPU model and stepping and the DIMMs' part, count and speed; firmware "
               "and microcode are columns, not part of the grouping.\n\n");
    fprintf(o, "| machine | named by | group | vendor | product | serial | firmware | CPU | "
               "microcode | memory encryption | DIMMs | boot NIC MAC | run |\n");
    fprintf(o, "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < f->nmachines; i++) {
        const struct fleet_machine *m = &f->machine[i];
        const struct fleet_identity *id = &m->id;
        fprintf(o, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s (%u) |\n",
                m->name, m->name_from, m->group + 1, id->vendor, id->product, id->serial,
                id->firmware, id->cpu, id->microcode, id->encryption,
                id->smbios ? id->dimms : "unknown (no SMBIOS)", id->mac, m->run_id, m->runs);
    }
    fprintf(o, "\n");
}

static void md_group(FILE *o, const struct fleet *f, size_t g)
{
    const struct fleet_group *gr = &f->group[g];
    char status[256], v[32];
    fleet_group_status(f, g, status, sizeof(status));
    fprintf(o, "### Group %zu: %s\n\nCPU: %s. DIMMs: %s. %s.\n\n", g + 1, gr->key, gr->cpu_model,
            gr->dimms, status);
    if (!gr->common.smbios)
        fprintf(o, "Its runs hold no SMBIOS tables (chase-host reads what Linux gives): grouped "
                   "by the CPU alone, DIMMs unknown.\n\n");
    fprintf(o, "| machine |");
    for (size_t s = 0; s < gr->nstat; s++)
        fprintf(o, " %s (%s) |", gr->stat[s].name, gr->stat[s].unit);
    fprintf(o, "\n|---|");
    for (size_t s = 0; s < gr->nstat; s++)
        fprintf(o, "---|");
    fprintf(o, "\n");
    for (size_t i = 0; i < gr->n; i++) {
        const struct fleet_machine *m = &f->machine[gr->member[i]];
        fprintf(o, "| %s |", m->name);
        for (size_t s = 0; s < gr->nstat; s++) {
            const struct fleet_figure *x = fleet_figure_of(m, gr->stat[s].name);
            fleet_value_text(v, sizeof(v), x ? x->value : NAN, gr->stat[s].unit);
            fprintf(o, " %s |", v);
        }
        fprintf(o, "\n");
    }
    static const char *const rows[] = {"(median)", "(robust spread)", "(envelope low)",
                                       "(envelope high)"};
    for (size_t r = 0; r < 4 && gr->n; r++) {
        fprintf(o, "| %s |", rows[r]);
        for (size_t s = 0; s < gr->nstat; s++) {
            const struct fleet_stat *st = &gr->stat[s];
            double x = r == 0 ? st->median : r == 1 ? st->spread : r == 2 ? st->lo : st->hi;
            fleet_value_text(v, sizeof(v), x, st->unit);
            fprintf(o, " %s |", r >= 1 && gr->against != (int)g ? "-" : v);
        }
        fprintf(o, "\n");
    }
    fprintf(o, "\n");
}

int fleet_write_md(const struct fleet *f, const char *out, char *err, size_t cap)
{
    char path[4200], line[1024];
    snprintf(path, sizeof(path), "%s/fleet.md", out);
    FILE *o = fopen(path, "w");
    if (!o) {
        snprintf(err, cap, "cannot write %s", path);
        return -1;
    }
    fprintf(o, "# Fleet report\n\nInputs: %s. %zu machines in %zu groups.\n\n", f->inputs,
            f->nmachines, f->ngroups);
    fprintf(o, "%s\n\n", FLEET_RULE_TEXT);
    md_identity(o, f);
    fprintf(o, "## Outside the envelope\n\n");
    for (size_t i = 0; i < f->nflags; i++) {
        fleet_flag_text(f, &f->flag[i], line, sizeof(line));
        fprintf(o, "- %s\n", line);
    }
    fprintf(o, "%s\n## Groups\n\n", f->nflags ? "" : "No machine is outside its envelope.\n");
    for (size_t g = 0; g < f->ngroups; g++)
        md_group(o, f, g);
    for (size_t i = 0; i < f->nskipped && i < 8; i++)
        fprintf(o, "- left out: %s\n", f->skipped[i]);
    return fclose(o) == 0 ? 0 : -1;
}

static void json_identity(struct json *j, const struct fleet_identity *id)
{
    json_object_begin(j, "identity");
    json_bool(j, "smbios", id->smbios);
    json_string(j, "vendor", id->vendor[0] ? id->vendor : NULL);
    json_string(j, "product", id->product[0] ? id->product : NULL);
    json_string(j, "serial", id->serial[0] ? id->serial : NULL);
    json_string(j, "uuid", id->uuid[0] ? id->uuid : NULL);
    json_string(j, "boot_nic_mac", id->mac[0] ? id->mac : NULL);
    json_string(j, "firmware", id->firmware[0] ? id->firmware : NULL);
    json_string(j, "cpu", id->cpu);
    json_string(j, "cpu_model", id->cpu_model);
    json_string(j, "microcode", id->microcode[0] ? id->microcode : NULL);
    json_string(j, "memory_encryption", id->encryption[0] ? id->encryption : NULL);
    json_string(j, "dimms", id->smbios ? id->dimms : NULL);
    json_string(j, "dimm_part", id->dimm_part[0] ? id->dimm_part : NULL);
    json_double(j, "dimm_count", id->dimm_count >= 0 ? id->dimm_count : NAN, 0);
    json_double(j, "dimm_speed_mts", id->dimm_speed ? id->dimm_speed : NAN, 0);
    json_object_end(j);
}

static void json_machines(struct json *j, const struct fleet *f)
{
    json_array_begin(j, "machines");
    for (size_t i = 0; i < f->nmachines; i++) {
        const struct fleet_machine *m = &f->machine[i];
        json_object_begin(j, NULL);
        json_string(j, "name", m->name);
        json_string(j, "named_by", m->name_from);
        json_u64(j, "group", (uint64_t)m->group + 1);
        json_string(j, "run", m->run_path);
        json_string(j, "run_id", m->run_id);
        json_string(j, "start_time", m->start_time[0] ? m->start_time : NULL);
        json_u64(j, "runs_found", m->runs);
        json_identity(j, &m->id);
        json_object_begin(j, "figures");
        for (size_t k = 0; k < m->nfig; k++)
            json_double(j, m->fig[k].name, m->fig[k].value, fleet_decimals(m->fig[k].unit));
        json_object_end(j);
        json_object_end(j);
    }
    json_array_end(j);
}

static void json_groups(struct json *j, const struct fleet *f)
{
    json_array_begin(j, "machine_groups");
    for (size_t g = 0; g < f->ngroups; g++) {
        const struct fleet_group *gr = &f->group[g];
        char status[256];
        fleet_group_status(f, g, status, sizeof(status));
        json_object_begin(j, NULL);
        json_u64(j, "group", g + 1);
        json_string(j, "cpu_model", gr->cpu_model);
        json_string(j, "dimms", gr->dimms);
        json_bool(j, "judged", gr->against == (int)g);
        json_double(j, "held_against", gr->against >= 0 ? gr->against + 1 : NAN, 0);
        json_string(j, "status", status);
        json_array_begin(j, "machines");
        for (size_t i = 0; i < gr->n; i++)
            json_string(j, NULL, f->machine[gr->member[i]].name);
        json_array_end(j);
        json_array_begin(j, "figures");
        for (size_t s = 0; s < gr->nstat; s++) {
            const struct fleet_stat *st = &gr->stat[s];
            int dec = fleet_decimals(st->unit);
            json_object_begin(j, NULL);
            json_string(j, "name", st->name);
            json_string(j, "unit", st->unit);
            json_u64(j, "machines", st->n);
            json_double(j, "median", st->median, dec);
            json_double(j, "spread", gr->against == (int)g ? st->spread : NAN, dec + 2);
            json_double(j, "envelope_low", gr->against == (int)g ? st->lo : NAN, dec);
            json_double(j, "envelope_high", gr->against == (int)g ? st->hi : NAN, dec);
            json_object_end(j);
        }
        json_array_end(j);
        json_object_end(j);
    }
    json_array_end(j);
}

static void json_flags(struct json *j, const struct fleet *f)
{
    json_array_begin(j, "flags");
    for (size_t i = 0; i < f->nflags; i++) {
        const struct fleet_flag *fl = &f->flag[i];
        int dec = fleet_decimals(fl->unit);
        json_object_begin(j, NULL);
        json_string(j, "machine", f->machine[fl->machine].name);
        json_string(j, "figure", fl->figure);
        json_string(j, "unit", fl->unit);
        json_double(j, "value", fl->value, dec);
        json_double(j, "median", fl->median, dec);
        json_double(j, "difference", fl->value - fl->median, dec);
        json_double(j, "difference_pct", 100.0 * (fl->value - fl->median) / fl->median, 2);
        json_double(j, "envelope_low", fl->lo, dec);
        json_double(j, "envelope_high", fl->hi, dec);
        json_string(j, "against", fl->against);
        json_string(j, "direction", fl->direction);
        json_string(j, "identity_difference", fl->explain);
        json_object_end(j);
    }
    json_array_end(j);
}

int fleet_write_json(const struct fleet *f, const char *out, char *err, size_t cap)
{
    char path[4200];
    struct strbuf sb = {0};
    struct json j;
    json_init(&j, &sb);
    json_object_begin(&j, NULL);
    json_string(&j, "format", "chase-fleet");
    json_u64(&j, "version", 1);
    json_string(&j, "tool_version", CHASE_VERSION);
    json_string(&j, "inputs", f->inputs);
    json_object_begin(&j, "rule");
    json_double(&j, "envelope_k", FLEET_ENVELOPE_K, 1);
    json_double(&j, "mad_to_sd", FLEET_MAD_TO_SD, 4);
    json_u64(&j, "judge_min_machines", FLEET_JUDGE_MIN);
    json_string(&j, "text", FLEET_RULE_TEXT);
    json_object_end(&j);
    json_string(&j, "reference", f->has_reference ? f->reference_path : NULL);
    json_machines(&j, f);
    json_groups(&j, f);
    json_flags(&j, f);
    json_u64(&j, "runs_left_out", f->nskipped);
    json_object_end(&j);
    strbuf_puts(&sb, "\n");
    snprintf(path, sizeof(path), "%s/fleet.json", out);
    FILE *o = fopen(path, "w");
    int rc = o && !sb.failed && fputs(strbuf_str(&sb), o) >= 0 ? 0 : -1;
    if (o && fclose(o) != 0)
        rc = -1;
    if (rc != 0)
        snprintf(err, cap, "cannot write %s", path);
    strbuf_release(&sb);
    return rc;
}
