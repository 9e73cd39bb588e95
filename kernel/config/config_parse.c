// SPDX-License-Identifier: MIT
// Parsing one key's value: numbers, sizes, lists, auto values, choices and experiment lists.
#include "config/config_parse.h"

#include "lib/fmt.h"
#include "machine/cpu_select.h"
#include "lib/kstring.h"

/* "LEAD name, name, ...": a key's choices after the words that lead them. */
static void describe_choices(char *buf, size_t cap, const char *lead, const char *const *choices)
{
    size_t n = (size_t)ksnprintf(buf, cap, "%s", lead);
    for (int i = 0; choices[i] && n < cap; i++)
        n += (size_t)ksnprintf(buf + n, cap - n, "%s %s", i ? "," : "", choices[i]);
}

void cfg_describe_accepted(const struct cfg_table *t, const struct key_desc *k, char *buf,
                           size_t cap)
{
    char lo[24], hi[24];
    switch (k->type) {
    case KEY_U64:
        ksnprintf(buf, cap, "an integer from %llu to %llu", (unsigned long long)k->min,
                  (unsigned long long)k->max);
        break;
    case KEY_SIZE:
        fmt_size(lo, sizeof(lo), (double)k->min);
        fmt_size(hi, sizeof(hi), (double)k->max);
        ksnprintf(buf, cap, "a size in bytes from %s to %s (suffixes K, M, G)", lo, hi);
        break;
    case KEY_CHOICE:
        describe_choices(buf, cap, "one of", k->choices);
        break;
    case KEY_CHOICE_LIST: {
        char lead[64];
        ksnprintf(lead, sizeof(lead), "a comma-separated list of 1 to %d of", CFG_LIST_MAX);
        describe_choices(buf, cap, lead, k->choices);
        break;
    }
    case KEY_EXPERIMENTS: {
        size_t n = (size_t)ksnprintf(buf, cap, "'all' or a comma-separated list of");
        for (size_t i = 0; i < t->n && n < cap; i++)
            n += (size_t)ksnprintf(buf + n, cap - n, "%s %s", i ? "," : "", t->section(i)->name);
        break;
    }
    case KEY_SIZE_LIST:
        fmt_size(lo, sizeof(lo), (double)k->min);
        fmt_size(hi, sizeof(hi), (double)k->max);
        ksnprintf(buf, cap, "a comma-separated list of 1 to %d sizes in bytes, each from %s to %s",
                  CFG_LIST_MAX, lo, hi);
        break;
    case KEY_U64_AUTO:
        ksnprintf(buf, cap, "'auto' or an integer from %llu to %llu", (unsigned long long)k->min,
                  (unsigned long long)k->max);
        break;
    case KEY_SIZE_AUTO:
        fmt_size(lo, sizeof(lo), (double)k->min);
        fmt_size(hi, sizeof(hi), (double)k->max);
        ksnprintf(buf, cap, "'auto' or a size in bytes from %s to %s (suffixes K, M, G)", lo, hi);
        break;
    case KEY_CPUS:
        ksnprintf(buf, cap,
                  "'all', 'p' (P-cores), 'e' (E-cores), a count from %llu to %llu, or a list of "
                  "up to %d processor numbers and ranges ('0-3,8')",
                  (unsigned long long)k->min, (unsigned long long)k->max, CPU_CHOICE_RANGES_MAX);
        break;
    case KEY_PERCENT:
        cfg_format_percent(lo, sizeof(lo), k->min);
        cfg_format_percent(hi, sizeof(hi), k->max);
        ksnprintf(buf, cap, "a percentage from %s to %s (at most 4 decimals, '%%' optional)", lo,
                  hi);
        break;
    case KEY_TEXT:
    case KEY_SECRET:
        ksnprintf(buf, cap, "text of at most %llu characters", (unsigned long long)k->max - 1);
        break;
    }
}

/* Decimal places a percentage may have: 0.0001% is one part per million. */
#define PERCENT_DECIMALS 4

/* "0.5", "0.5%", "2" as parts per million of the whole (0.5% = 5000); false when malformed. */
static bool parse_percent(const char *value, uint64_t *ppm)
{
    const char *p = value;
    uint64_t whole = 0, frac = 0;
    unsigned decimals = 0;
    if (!kisdigit(*p))
        return false;
    for (; kisdigit(*p); p++) {
        whole = whole * 10 + (uint64_t)(*p - '0');
        if (whole > 100)
            return false;
    }
    if (*p == '.') {
        if (!kisdigit(*++p))
            return false;
        for (; kisdigit(*p); p++) {
            if (++decimals > PERCENT_DECIMALS)
                return false;
            frac = frac * 10 + (uint64_t)(*p - '0');
        }
    }
    if (*p == '%')
        p++;
    if (*p)
        return false;
    for (; decimals < PERCENT_DECIMALS; decimals++)
        frac *= 10;
    *ppm = whole * CFG_PPM_PER_PERCENT + frac;
    return true;
}

static bool parse_experiments(struct global_params *g, const char *value)
{
    unsigned n = 0;
    if (kstrcmp(value, "all") == 0) {
        for (size_t i = 0; i < g->table->n && i < EXPERIMENTS_MAX; i++)
            g->experiments[n++] = (unsigned)i;
        g->n_experiments = n;
        return true;
    }
    const char *p = value;
    while (*p) {
        char name[32];
        size_t len = 0;
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p)
            break;
        while (p[len] && p[len] != ',' && p[len] != ' ')
            len++;
        if (len >= sizeof(name))
            return false;
        kmemcpy(name, p, len);
        name[len] = 0;
        p += len;
        int idx = cfg_table_find(g->table, name);
        if (idx < 0 || n >= EXPERIMENTS_MAX)
            return false;
        for (unsigned i = 0; i < n; i++) {
            if (g->experiments[i] == (unsigned)idx)
                return false;
        }
        g->experiments[n++] = (unsigned)idx;
    }
    if (!n)
        return false;
    g->n_experiments = n;
    return true;
}

/* Parse one number of a key (a size, or a plain integer for KEY_U64*) and range-check it. */
static enum value_error parse_number(const struct key_desc *k, const char *value, uint64_t *out)
{
    bool plain = k->type == KEY_U64 || k->type == KEY_U64_AUTO || k->type == KEY_CPUS;
    size_t len = kstrlen(value);
    if (!len || !cfg_parse_size(value, out))
        return VALUE_MALFORMED;
    if (plain && !kisdigit(value[len - 1]) && !(value[0] == '0' && ktolower(value[1]) == 'x'))
        return VALUE_MALFORMED;
    return *out < k->min || *out > k->max ? VALUE_OUT_OF_RANGE : VALUE_OK;
}

/* A comma-separated list of numbers into a cfg_list. */
/* One item of a list: a size (KEY_SIZE_LIST) or the index of a choice (KEY_CHOICE_LIST). */
static enum value_error parse_item(const struct key_desc *k, const char *item, uint64_t *v)
{
    if (k->type != KEY_CHOICE_LIST)
        return parse_number(k, item, v);
    for (unsigned i = 0; k->choices[i]; i++)
        if (kstrcasecmp(k->choices[i], item) == 0) {
            *v = i;
            return VALUE_OK;
        }
    return VALUE_MALFORMED;
}

static enum value_error parse_list(const struct key_desc *k, const char *value,
                                   struct cfg_list *out)
{
    struct cfg_list l = {{0}, 0};
    const char *p = value;
    enum value_error worst = VALUE_OK;
    for (;;) {
        char item[32];
        size_t n = 0;
        while (*p == ' ')
            p++;
        while (p[n] && p[n] != ',')
            n++;
        size_t t = n;
        while (t && p[t - 1] == ' ')
            t--;
        if (t == 0 || t >= sizeof(item) || l.n >= CFG_LIST_MAX)
            return VALUE_MALFORMED;
        kmemcpy(item, p, t);
        item[t] = 0;
        enum value_error e = parse_item(k, item, &l.v[l.n++]);
        if (e == VALUE_MALFORMED)
            return e;
        worst = e != VALUE_OK ? e : worst;
        p += n;
        if (!*p)
            break;
        p++; /* the comma */
    }
    if (worst == VALUE_OK)
        *out = l;
    return worst;
}

/* One processor number of a list, up to end; false when it is not one. */
static bool parse_cpu_id(const char *p, const char *end, uint32_t *id)
{
    uint64_t v = 0;
    if (p == end)
        return false;
    for (; p < end; p++) {
        if (!kisdigit(*p) || (v = v * 10 + (uint64_t)(*p - '0')) > CPU_CHOICE_ID_MAX)
            return false;
    }
    *id = (uint32_t)v;
    return true;
}

/* "0-3,8,10-11": up to CPU_CHOICE_RANGES_MAX numbers or ranges (lo <= hi), no spaces inside an
 * item. */
static enum value_error parse_cpu_list(const char *value, struct cpu_choice *c)
{
    struct cpu_choice l = {.kind = CPU_CHOICE_LIST};
    for (const char *p = value;;) {
        while (*p == ' ')
            p++;
        const char *end = p, *dash = NULL;
        for (; *end && *end != ',' && *end != ' '; end++)
            dash = *end == '-' && !dash ? end : dash;
        if (l.n >= CPU_CHOICE_RANGES_MAX || !parse_cpu_id(p, dash ? dash : end, &l.lo[l.n]) ||
            !parse_cpu_id(dash ? dash + 1 : p, end, &l.hi[l.n]) || l.hi[l.n] < l.lo[l.n])
            return VALUE_MALFORMED;
        l.n++;
        for (p = end; *p == ' ';)
            p++;
        if (!*p)
            break;
        if (*p++ != ',')
            return VALUE_MALFORMED;
    }
    *c = l;
    return VALUE_OK;
}

/* all | p | e | a count | a list (a comma or a range in it). */
static enum value_error parse_cpus(const struct key_desc *k, const char *value,
                                   struct cpu_choice *c)
{
    static const char *const kinds[] = {"all", "p", "e"};
    static const enum cpu_choice_kind kind_of[] = {CPU_CHOICE_ALL, CPU_CHOICE_P, CPU_CHOICE_E};
    for (unsigned i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (kstrcasecmp(value, kinds[i]) == 0) {
            *c = (struct cpu_choice){.kind = kind_of[i]};
            return VALUE_OK;
        }
    for (const char *p = value; *p; p++)
        if (*p == ',' || *p == '-')
            return parse_cpu_list(value, c);
    uint64_t v;
    enum value_error e = parse_number(k, value, &v);
    if (e == VALUE_OK)
        *c = (struct cpu_choice){.kind = CPU_CHOICE_COUNT, .count = v};
    return e;
}

enum value_error cfg_apply_value(const struct key_desc *k, void *params, const char *value)
{
    char *field = (char *)params + k->offset;
    uint64_t v;
    enum value_error e;
    switch (k->type) {
    case KEY_U64:
    case KEY_SIZE:
        e = parse_number(k, value, &v);
        if (e == VALUE_OK)
            *(uint64_t *)field = v;
        return e;
    case KEY_U64_AUTO:
    case KEY_SIZE_AUTO: {
        struct cfg_auto *a = (struct cfg_auto *)field;
        if (kstrcasecmp(value, "auto") == 0) {
            a->is_auto = true;
            a->value = 0;
            return VALUE_OK;
        }
        e = parse_number(k, value, &v);
        if (e == VALUE_OK) {
            a->is_auto = false;
            a->value = v;
        }
        return e;
    }
    case KEY_SIZE_LIST:
    case KEY_CHOICE_LIST:
        return parse_list(k, value, (struct cfg_list *)field);
    case KEY_CPUS:
        return parse_cpus(k, value, (struct cpu_choice *)field);
    case KEY_PERCENT:
        if (!parse_percent(value, &v))
            return VALUE_MALFORMED;
        if (v < k->min || v > k->max)
            return VALUE_OUT_OF_RANGE;
        *(uint64_t *)field = v;
        return VALUE_OK;
    case KEY_CHOICE:
        for (unsigned i = 0; k->choices[i]; i++) {
            if (kstrcasecmp(k->choices[i], value) == 0) {
                *(unsigned *)field = i;
                return VALUE_OK;
            }
        }
        return VALUE_MALFORMED;
    case KEY_EXPERIMENTS:
        return parse_experiments((struct global_params *)params, value) ? VALUE_OK
                                                                        : VALUE_MALFORMED;
    case KEY_TEXT:
    case KEY_SECRET:
        if (kstrlen(value) + 1 > k->max)
            return VALUE_OUT_OF_RANGE;
        kstrlcpy(field, value, k->max);
        return VALUE_OK;
    }
    return VALUE_MALFORMED;
}
