// SPDX-License-Identifier: MIT
// The fleet report's reference file (format chase-fleet-reference, version 1): the expected
// figures of one hardware configuration, written from a group's medians and read back to hold
// machines against it (docs/fleet-report.md).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "inputs/rjson.h"
#include "inputs/rtext.h"
#include "lib/json.h"

#define REFERENCE_FORMAT "chase-fleet-reference"
#define REFERENCE_VERSION 1
#define REFERENCE_MAX_BYTES (1u << 20) /* a reference lists tens of figures: a few KiB */

static const char *const better_names[] = {[FLEET_BETTER_LOWER] = "lower",
                                           [FLEET_BETTER_HIGHER] = "higher",
                                           [FLEET_BETTER_NEITHER] = "neither"};

/* Decimals a figure is written with: whole bytes, else enough for ns and GB/s. */
int fleet_decimals(const char *unit)
{
    return strcmp(unit, "bytes") == 0 ? 0 : 4;
}

int fleet_reference_write(const struct fleet *f, size_t gi, const char *path, char *err, size_t cap)
{
    const struct fleet_group *g = &f->group[gi];
    struct strbuf sb = {0};
    struct json j;
    json_init(&j, &sb);
    json_object_begin(&j, NULL);
    json_string(&j, "format", REFERENCE_FORMAT);
    json_u64(&j, "version", REFERENCE_VERSION);
    json_u64(&j, "machines", g->n);
    json_double(&j, "envelope_k", FLEET_ENVELOPE_K, 1);
    json_object_begin(&j, "configuration");
    json_string(&j, "cpu_model", g->cpu_model);
    json_string(&j, "dimms", g->dimms);
    json_object_end(&j);
    json_object_begin(&j, "identity");
    json_string(&j, "firmware", g->common.firmware);
    json_string(&j, "microcode", g->common.microcode);
    json_string(&j, "memory_encryption", g->common.encryption);
    json_string(&j, "dimm_part", g->common.dimm_part);
    json_double(&j, "dimm_count", g->common.dimm_count >= 0 ? g->common.dimm_count : NAN, 0);
    json_double(&j, "dimm_speed_mts", g->common.dimm_speed ? g->common.dimm_speed : NAN, 0);
    json_object_end(&j);
    json_array_begin(&j, "figures");
    for (size_t i = 0; i < g->nstat; i++) {
        const struct fleet_stat *st = &g->stat[i];
        json_object_begin(&j, NULL);
        json_string(&j, "name", st->name);
        json_string(&j, "unit", st->unit);
        json_string(&j, "better", better_names[st->better]);
        json_double(&j, "median", st->median, fleet_decimals(st->unit));
        json_double(&j, "spread", st->spread, fleet_decimals(st->unit) + 2);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_object_end(&j);
    strbuf_puts(&sb, "\n");
    FILE *out = fopen(path, "w");
    int rc = out && !sb.failed && fputs(strbuf_str(&sb), out) >= 0 ? 0 : -1;
    if (out && fclose(out) != 0)
        rc = -1;
    if (rc != 0)
        snprintf(err, cap, "cannot write the reference %s", path);
    strbuf_release(&sb);
    return rc;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *in = fopen(path, "rb");
    char *buf = in ? malloc(REFERENCE_MAX_BYTES + 1) : NULL;
    *len = buf ? fread(buf, 1, REFERENCE_MAX_BYTES + 1, in) : 0;
    if (in)
        fclose(in);
    if (buf && *len > REFERENCE_MAX_BYTES) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void identity_from(struct fleet_identity *c, const struct rjson *id)
{
    const char *v;
    double n;
    c->dimm_count = -1;
    if ((v = rjson_string(rjson_get(id, "firmware"))))
        rtext_sanitize(c->firmware, sizeof(c->firmware), v);
    if ((v = rjson_string(rjson_get(id, "microcode"))))
        rtext_sanitize(c->microcode, sizeof(c->microcode), v);
    if ((v = rjson_string(rjson_get(id, "memory_encryption"))))
        rtext_sanitize(c->encryption, sizeof(c->encryption), v);
    if ((v = rjson_string(rjson_get(id, "dimm_part"))))
        rtext_sanitize(c->dimm_part, sizeof(c->dimm_part), v);
    if (rjson_number(rjson_get(id, "dimm_count"), &n) && n >= 0)
        c->dimm_count = (int)n;
    if (rjson_number(rjson_get(id, "dimm_speed_mts"), &n) && n > 0)
        c->dimm_speed = (unsigned)n;
}

/* One figure of the reference: name, unit, better, median and spread (both finite). */
static bool figure_from(const struct rjson *x, struct fleet_stat *st)
{
    const char *name = rjson_string(rjson_get(x, "name"));
    const char *unit = rjson_string(rjson_get(x, "unit"));
    const char *better = rjson_string(rjson_get(x, "better"));
    memset(st, 0, sizeof(*st));
    if (!name || !rjson_number(rjson_get(x, "median"), &st->median) ||
        !rjson_number(rjson_get(x, "spread"), &st->spread) || !(st->spread >= 0))
        return false;
    rtext_sanitize(st->name, sizeof(st->name), name);
    rtext_sanitize(st->unit, sizeof(st->unit), unit ? unit : "");
    st->better = FLEET_BETTER_NEITHER;
    for (size_t b = 0; better && b < 3; b++)
        if (strcmp(better, better_names[b]) == 0)
            st->better = (enum fleet_better)b;
    st->lo = fmax(0, st->median - FLEET_ENVELOPE_K * st->spread);
    st->hi = st->median + FLEET_ENVELOPE_K * st->spread;
    return true;
}

int fleet_reference_read(struct fleet *f, const char *path, char *err, size_t cap)
{
    size_t len;
    char *text = slurp(path, &len), why[256] = "";
    struct rjson *root = text ? rjson_parse(text, len, why, sizeof(why)) : NULL;
    const char *format = rjson_string(rjson_get(root, "format"));
    double version = 0;
    rjson_number(rjson_get(root, "version"), &version);
    int rc = -1;
    struct fleet_group *g = &f->reference;
    memset(g, 0, sizeof(*g));
    if (!root || !format || strcmp(format, REFERENCE_FORMAT) != 0 || version != REFERENCE_VERSION) {
        snprintf(err, cap, "%s: not a %s version %d file%s%s", path, REFERENCE_FORMAT,
                 REFERENCE_VERSION, why[0] ? ": " : "", why);
        goto out;
    }
    const struct rjson *figs = rjson_get(root, "figures");
    for (const struct rjson *x = figs ? figs->child : NULL; x && g->nstat < FLEET_FIGURES;
         x = x->next)
        if (figure_from(x, &g->stat[g->nstat]))
            g->nstat++;
    if (!g->nstat) {
        snprintf(err, cap, "%s: no figure with a name, a median and a spread", path);
        goto out;
    }
    const char *v = rjson_string(rjson_path(root, "configuration.cpu_model"));
    rtext_sanitize(g->cpu_model, sizeof(g->cpu_model), v ? v : "");
    v = rjson_string(rjson_path(root, "configuration.dimms"));
    rtext_sanitize(g->dimms, sizeof(g->dimms), v ? v : "");
    identity_from(&g->common, rjson_get(root, "identity"));
    g->against = -1;
    f->has_reference = true;
    snprintf(f->reference_path, sizeof(f->reference_path), "%s", path);
    rc = 0;
out:
    rjson_free(root);
    free(text);
    return rc;
}
