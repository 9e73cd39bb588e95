// SPDX-License-Identifier: MIT
// Key values as people and run.json see them: formatted for help and console, written as JSON.
#include "config/config.h"

#include "lib/fmt.h"
#include "machine/cpu_select.h"
#include "lib/json.h"
#include "lib/kstring.h"

/* A list as written: sizes with K/M/G where the unit is bytes, plain integers otherwise (ns),
   choices by name. */
static void format_list(char *buf, size_t cap, const struct cfg_list *l, bool bytes,
                        const char *const *choices)
{
    size_t n = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < l->n && n < cap; i++) {
        char one[24];
        if (choices)
            ksnprintf(one, sizeof(one), "%s", choices[l->v[i]]);
        else if (bytes)
            fmt_size(one, sizeof(one), (double)l->v[i]);
        else
            ksnprintf(one, sizeof(one), "%llu", (unsigned long long)l->v[i]);
        n += (size_t)ksnprintf(buf + n, cap - n, "%s%s", i ? "," : "", one);
    }
}

static void format_auto(char *buf, size_t cap, const struct cfg_auto *a, bool size)
{
    char v[24];
    if (size)
        fmt_size(v, sizeof(v), (double)a->value);
    else
        ksnprintf(v, sizeof(v), "%llu", (unsigned long long)a->value);
    if (!a->is_auto)
        ksnprintf(buf, cap, "%s", v);
    else if (a->value)
        ksnprintf(buf, cap, "auto (%s)", v);
    else
        ksnprintf(buf, cap, "auto");
}

/* A processor choice as written: all, p, e, the count or the list. */
static void format_cpus(char *buf, size_t cap, const struct cpu_choice *c)
{
    static const char *const kinds[] = {"", "all", "p", "e"};
    size_t n = 0;
    buf[0] = 0;
    if (c->kind == CPU_CHOICE_COUNT)
        ksnprintf(buf, cap, "%llu", (unsigned long long)c->count);
    else if (c->kind != CPU_CHOICE_LIST)
        ksnprintf(buf, cap, "%s", kinds[c->kind]);
    for (unsigned i = 0; c->kind == CPU_CHOICE_LIST && i < c->n && n < cap; i++)
        n += (size_t)(c->lo[i] == c->hi[i]
                          ? ksnprintf(buf + n, cap - n, "%s%u", i ? "," : "", c->lo[i])
                          : ksnprintf(buf + n, cap - n, "%s%u-%u", i ? "," : "", c->lo[i],
                                      c->hi[i]));
}

void cfg_format_value(char *buf, size_t cap, const struct key_desc *k, const void *params)
{
    const char *field = (const char *)params + k->offset;
    switch (k->type) {
    case KEY_U64:
        ksnprintf(buf, cap, "%llu", (unsigned long long)*(const uint64_t *)field);
        break;
    case KEY_SIZE:
        fmt_size(buf, cap, (double)*(const uint64_t *)field);
        break;
    case KEY_CHOICE:
        ksnprintf(buf, cap, "%s", k->choices[*(const unsigned *)field]);
        break;
    case KEY_EXPERIMENTS:
        ksnprintf(buf, cap, "all");
        break;
    case KEY_SIZE_LIST:
    case KEY_CHOICE_LIST:
        format_list(buf, cap, (const struct cfg_list *)field,
                    k->unit && kstrcmp(k->unit, "bytes") == 0,
                    k->type == KEY_CHOICE_LIST ? k->choices : NULL);
        break;
    case KEY_U64_AUTO:
    case KEY_SIZE_AUTO:
        format_auto(buf, cap, (const struct cfg_auto *)field, k->type == KEY_SIZE_AUTO);
        break;
    case KEY_PERCENT:
        cfg_format_percent(buf, cap, *(const uint64_t *)field);
        break;
    case KEY_TEXT:
        ksnprintf(buf, cap, "%s", field);
        break;
    case KEY_SECRET:
        ksnprintf(buf, cap, "%s", field[0] ? "(set)" : "");
        break;
    case KEY_CPUS:
        format_cpus(buf, cap, (const struct cpu_choice *)field);
        break;
    }
}

void cfg_format_percent(char *buf, size_t cap, uint64_t ppm)
{
    uint64_t whole = ppm / CFG_PPM_PER_PERCENT, frac = ppm % CFG_PPM_PER_PERCENT;
    int digits = 4;
    while (frac && frac % 10 == 0) {
        frac /= 10;
        digits--;
    }
    if (frac)
        ksnprintf(buf, cap, "%llu.%0*llu%%", (unsigned long long)whole, digits,
                  (unsigned long long)frac);
    else
        ksnprintf(buf, cap, "%llu%%", (unsigned long long)whole);
}

void cfg_value_json(struct json *j, const struct key_desc *k, const void *params)
{
    const char *field = (const char *)params + k->offset;
    switch (k->type) {
    case KEY_U64:
    case KEY_SIZE:
        json_u64(j, k->name, *(const uint64_t *)field);
        break;
    case KEY_CHOICE:
        json_string(j, k->name, k->choices[*(const unsigned *)field]);
        break;
    case KEY_EXPERIMENTS: {
        const struct global_params *g = params;
        json_array_begin(j, k->name);
        for (unsigned i = 0; i < g->n_experiments; i++)
            json_string(j, NULL, g->table->section(g->experiments[i])->name);
        json_array_end(j);
        break;
    }
    case KEY_SIZE_LIST: {
        const struct cfg_list *l = (const struct cfg_list *)field;
        json_array_begin(j, k->name);
        for (unsigned i = 0; i < l->n; i++)
            json_u64(j, NULL, l->v[i]);
        json_array_end(j);
        break;
    }
    case KEY_CHOICE_LIST: {
        const struct cfg_list *l = (const struct cfg_list *)field;
        json_array_begin(j, k->name);
        for (unsigned i = 0; i < l->n; i++)
            json_string(j, NULL, k->choices[l->v[i]]);
        json_array_end(j);
        break;
    }
    case KEY_TEXT:
        json_string(j, k->name, field);
        break;
    case KEY_SECRET: /* whether it is set, never the secret */
        json_bool(j, k->name, field[0] != 0);
        break;
    case KEY_CPUS: { /* as written: "all", "p", "e", "4", "0-3,8" */
        char v[160];
        format_cpus(v, sizeof(v), (const struct cpu_choice *)field);
        json_string(j, k->name, v);
        break;
    }
    case KEY_PERCENT: /* in percent, as written */
        json_double(j, k->name, (double)*(const uint64_t *)field / CFG_PPM_PER_PERCENT, 4);
        break;
    case KEY_U64_AUTO:
    case KEY_SIZE_AUTO: {
        const struct cfg_auto *a = (const struct cfg_auto *)field;
        char name[64];
        json_u64(j, k->name, a->value);
        ksnprintf(name, sizeof(name), "%s_auto", k->name);
        json_bool(j, name, a->is_auto);
        break;
    }
    }
}
