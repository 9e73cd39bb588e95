// SPDX-License-Identifier: MIT
// report.md's sections on the machine a run saw and on how the run was configured.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/fmt.h"
#include "outputs/output.h"
#include "inputs/rtext.h"

#define CONFIG_DEPTH 6

static void row_text(FILE *f, const char *what, const char *value)
{
    if (value && *value) {
        char clean[SOURCE_TEXT];
        rtext_sanitize(clean, sizeof(clean), value);
        fprintf(f, "| %s | %s |\n", what, clean);
    }
}

static void row_json_text(FILE *f, const struct rjson *run, const char *what, const char *path)
{
    row_text(f, what, rjson_string(rjson_path(run, path)));
}

static void row_tsc(FILE *f, const struct rjson *run)
{
    double hz, spread;
    const char *method = rjson_string(rjson_path(run, "tsc.method"));
    if (!rjson_number(rjson_path(run, "tsc.hz"), &hz))
        return;
    char clean[SOURCE_TEXT] = "";
    if (method)
        rtext_sanitize(clean, sizeof(clean), method);
    fprintf(f, "| TSC | %.4f GHz, %s, by %s", hz / 1e9,
            rjson_true(rjson_path(run, "tsc.invariant")) ? "invariant" : "not invariant", clean);
    if (rjson_number(rjson_path(run, "tsc.spread"), &spread))
        fprintf(f, " (spread %.2g)", spread);
    fprintf(f, " |\n");
}

/* The state of the hardware prefetchers each experiment measured in (run.json's prefetch). */
static void row_prefetch(FILE *f, const struct rjson *run)
{
    const struct rjson *per = rjson_path(run, "prefetch.experiments");
    if (!per || per->type != RJSON_OBJECT || !per->child)
        return;
    char text[SOURCE_TEXT] = "", clean[SOURCE_TEXT];
    size_t n = 0;
    for (const struct rjson *c = per->child; c; c = c->next) {
        const char *state = rjson_string(c);
        n += (size_t)snprintf(text + n, n < sizeof(text) ? sizeof(text) - n : 0, "%s%s %s",
                              n ? ", " : "", c->key ? c->key : "?", state ? state : "?");
        if (n >= sizeof(text))
            break;
    }
    rtext_sanitize(clean, sizeof(clean), text);
    fprintf(f, "| prefetchers | %s |\n", clean);
    row_json_text(f, run, "prefetch note", "prefetch.note");
}

/* "a b c" from the strings at the three paths under base (missing ones left out). */
static void joined(char *out, size_t cap, const struct rjson *base, const char *const paths[3])
{
    size_t n = 0;
    out[0] = '\0';
    for (unsigned i = 0; i < 3; i++) {
        const char *v = rjson_string(rjson_path(base, paths[i]));
        if (v && *v && n < cap)
            n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? " " : "", v);
    }
}

/* One inventory field under obj: its text, "(placeholder)" after one run.json marks so. */
static size_t ident_add(char *out, size_t cap, size_t n, const struct rjson *obj, const char *key,
                        const char *label)
{
    char flag[64];
    const char *v = rjson_string(rjson_get(obj, key));
    snprintf(flag, sizeof(flag), "%s_placeholder", key);
    if (!v || !*v || n >= cap)
        return n;
    return n + (size_t)snprintf(out + n, cap - n, "%s%s %s%s", n ? ", " : "", label, v,
                                rjson_true(rjson_get(obj, flag)) ? " (placeholder)" : "");
}

/* What an inventory knows the machine by: serial, UUID, SKU, family, chassis asset tag, the
 * boot NIC's MAC, and each installed memory device's serial and asset tag. */
static void rows_inventory(FILE *f, const struct rjson *s)
{
    char text[SOURCE_TEXT];
    const struct rjson *sys = rjson_get(s, "system");
    size_t n = ident_add(text, sizeof(text), 0, sys, "serial_number", "serial");
    n = ident_add(text, sizeof(text), n, sys, "uuid", "uuid");
    n = ident_add(text, sizeof(text), n, sys, "sku_number", "SKU");
    n = ident_add(text, sizeof(text), n, sys, "family", "family");
    ident_add(text, sizeof(text), n, rjson_get(s, "chassis"), "asset_tag", "chassis asset tag");
    row_text(f, "inventory", text);
    const struct rjson *devs = rjson_get(s, "memory_devices");
    for (const struct rjson *d = devs ? devs->child : NULL; d; d = d->next) {
        if (!rjson_true(rjson_get(d, "installed")))
            continue;
        n = ident_add(text, sizeof(text), 0, d, "serial_number", "serial");
        ident_add(text, sizeof(text), n, d, "asset_tag", "asset tag");
        char what[SOURCE_TEXT];
        const char *loc = rjson_string(rjson_get(d, "locator"));
        snprintf(what, sizeof(what), "memory device %s", loc ? loc : "?");
        row_text(f, what, text);
    }
}

/* The machine's identity: SMBIOS board, firmware and memory; microcode; DRAM encryption. */
static void rows_identity(FILE *f, const struct rjson *run)
{
    const struct rjson *s = rjson_path(run, "machine_identity.smbios");
    char text[SOURCE_TEXT];
    double v;
    if (s && !rjson_true(rjson_get(s, "found")))
        row_json_text(f, run, "SMBIOS", "machine_identity.smbios.why");
    if (s && rjson_true(rjson_get(s, "found"))) {
        static const char *const board[3] = {"board.manufacturer", "board.product",
                                             "board.version"};
        static const char *const system[3] = {"system.manufacturer", "system.product",
                                              "system.version"};
        static const char *const firmware[3] = {"firmware.vendor", "firmware.version",
                                                "firmware.date"};
        joined(text, sizeof(text), s, board);
        row_text(f, "board", text);
        joined(text, sizeof(text), s, system);
        row_text(f, "system", text);
        rows_inventory(f, s);
        joined(text, sizeof(text), s, firmware);
        row_text(f, "firmware (SMBIOS)", text);
        row_json_text(f, run, "memory devices", "machine_identity.smbios.memory_summary");
        double channels = 0;
        rjson_number(rjson_get(s, "channels"), &channels);
        if (rjson_number(rjson_get(s, "dram_bandwidth_bytes_per_s"), &v))
            fprintf(f, "| DRAM bandwidth, theoretical | %.1f GB/s over %.0f channel%s |\n", v / 1e9,
                    channels, channels == 1 ? "" : "s");
    }
    row_json_text(f, run, "boot NIC MAC", "boot_nic.mac");
    row_json_text(f, run, "microcode", "machine_identity.microcode.revision");
    row_json_text(f, run, "memory encryption", "machine_identity.memory_encryption.state");
}

void report_md_machine(FILE *f, const struct source_result *r)
{
    const struct source *s = r->src;
    const struct rjson *run = s->run;
    double v;
    fprintf(f, "| | |\n|---|---|\n");
    row_text(f, "machine", s->machine);
    row_text(f, "input", s->path);
    if (s->simulated)
        row_text(f, "simulated hierarchy", s->hierarchy[0] ? s->hierarchy : "(not given)");
    if (!run) {
        fprintf(f, "\nNo run.json: nothing more is known about the machine.\n\n");
        return;
    }
    row_json_text(f, run, "tool version", "version");
    row_json_text(f, run, "run status", "status");
    row_json_text(f, run, "platform", "platform");
    row_json_text(f, run, "firmware", "firmware.vendor");
    row_json_text(f, run, "CPU vendor", "cpu.vendor");
    rows_identity(f, run);
    if (rjson_true(rjson_get(run, "hypervisor")))
        row_text(f, "hypervisor", "present: timings are from a guest");
    if (rjson_true(rjson_path(run, "machine_checks.dram_suspect")))
        row_text(f, "machine checks",
                 "a memory controller logged errors during the run: DRAM "
                 "figures are SUSPECT (run.json machine_checks)");
    row_tsc(f, run);
    if (s->core_hz > 0)
        fprintf(f, "| core clock | %.3f GHz (estimated next to each point) |\n", s->core_hz / 1e9);
    if (rjson_number(rjson_get(run, "memory_total_bytes"), &v))
        fprintf(f, "| memory | %.1f GiB |\n", v / 1073741824.0);
    if (s->page_bytes > 0) {
        char pg[32];
        fmt_size(pg, sizeof(pg), s->page_bytes);
        fprintf(f, "| buffer pages | %s |\n", pg);
    }
    row_json_text(f, run, "buffer page source", "buffer.page_source");
    row_json_text(f, run, "buffer memory type", "buffer.mem_type");
    row_prefetch(f, run);
    row_json_text(f, run, "cache source", "cache_source");
    row_json_text(f, run, "started", "start_time");
    row_json_text(f, run, "ended", "end_time");
    fprintf(f, "\n");
}

static void print_value(FILE *f, const struct rjson *v)
{
    char clean[SOURCE_TEXT];
    switch (v->type) {
    case RJSON_NUMBER:
        fprintf(f, "%.12g", v->number);
        break;
    case RJSON_STRING:
        rtext_sanitize(clean, sizeof(clean), v->string);
        fprintf(f, "%s", clean);
        break;
    case RJSON_BOOL:
        fprintf(f, "%s", v->boolean ? "true" : "false");
        break;
    case RJSON_ARRAY:
        for (const struct rjson *c = v->child; c; c = c->next) {
            if (c->type == RJSON_ARRAY || c->type == RJSON_OBJECT)
                continue;
            print_value(f, c);
            fprintf(f, "%s", c->next ? ", " : "");
        }
        break;
    default:
        fprintf(f, "null");
    }
}

/* The configuration in chase.cfg's own syntax: key = value, experiment.key = value. */
static void config_lines(FILE *f, const struct rjson *obj, const char *prefix, int depth)
{
    for (const struct rjson *c = obj->child; c && depth < CONFIG_DEPTH; c = c->next) {
        char key[160], clean[96];
        rtext_sanitize(clean, sizeof(clean), c->key ? c->key : "?");
        snprintf(key, sizeof(key), "%s%s", prefix, clean);
        if (c->type == RJSON_OBJECT) {
            char sub[170];
            snprintf(sub, sizeof(sub), "%s.", key);
            config_lines(f, c, sub, depth + 1);
            continue;
        }
        fprintf(f, "%s = ", key);
        print_value(f, c);
        fprintf(f, "\n");
    }
}

void report_md_config(FILE *f, const struct source_result *r)
{
    const struct source *s = r->src;
    const struct rjson *cfg = rjson_get(s->run, "config");
    fprintf(f, "#### Configuration\n\n");
    if (!cfg || cfg->type != RJSON_OBJECT) {
        fprintf(f, "Not recorded in this input.\n\n");
    } else {
        fprintf(f,
                "The effective configuration (defaults included), in chase.cfg syntax:\n\n```\n");
        config_lines(f, cfg, "", 0);
        fprintf(f, "```\n\n");
    }
    bool any = false;
    for (size_t e = 0; exp_name(e); e++) {
        if (!s->status[e][0])
            continue;
        if (!any)
            fprintf(f, "| experiment | status |\n|---|---|\n");
        any = true;
        fprintf(f, "| %s | %s |\n", exp_name(e), s->status[e]);
    }
    if (any)
        fprintf(f, "\n");
}
