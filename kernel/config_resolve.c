// SPDX-License-Identifier: MIT
// Turning collected settings into the effective configuration, with every error named.
#include "config.h"

#include "experiment.h"
#include "fmt.h"
#include "kstring.h"

static const struct key_desc *find_key(const struct key_desc *keys, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        if (kstrcmp(keys[i].name, name) == 0)
            return &keys[i];
    }
    return NULL;
}

/* The nearest known full key name to `key`, or NULL when none is close. */
static const char *suggest_key(const char *key, char *buf, size_t cap)
{
    unsigned best = 4;
    const char *found = NULL;
    char full[96];
    for (size_t i = 0; i < global_key_count; i++) {
        unsigned d = kstr_distance(key, global_keys[i].name);
        if (d < best) {
            best = d;
            kstrlcpy(buf, global_keys[i].name, cap);
            found = buf;
        }
    }
    for (size_t x = 0; x < experiment_count; x++) {
        const struct experiment *e = experiment_table[x];
        for (size_t i = 0; i < e->nkeys; i++) {
            ksnprintf(full, sizeof(full), "%s.%s", e->name, e->keys[i].name);
            unsigned d = kstr_distance(key, full);
            if (d < best) {
                best = d;
                kstrlcpy(buf, full, cap);
                found = buf;
            }
        }
    }
    return found;
}

static void describe_accepted(const struct key_desc *k, char *buf, size_t cap)
{
    char lo[24], hi[24];
    switch (k->type) {
    case KEY_U64:
        ksnprintf(buf, cap, "an integer from %llu to %llu", (unsigned long long)k->min,
                  (unsigned long long)k->max);
        break;
    case KEY_SIZE:
        cfg_format_size(lo, sizeof(lo), k->min);
        cfg_format_size(hi, sizeof(hi), k->max);
        ksnprintf(buf, cap, "a size in bytes from %s to %s (suffixes K, M, G)", lo, hi);
        break;
    case KEY_CHOICE: {
        size_t n = (size_t)ksnprintf(buf, cap, "one of");
        for (int i = 0; k->choices[i] && n < cap; i++)
            n += (size_t)ksnprintf(buf + n, cap - n, "%s %s", i ? "," : "", k->choices[i]);
        break;
    }
    case KEY_EXPERIMENTS: {
        size_t n = (size_t)ksnprintf(buf, cap, "'all' or a comma-separated list of");
        for (size_t i = 0; i < experiment_count && n < cap; i++)
            n += (size_t)ksnprintf(buf + n, cap - n, "%s %s", i ? "," : "",
                                   experiment_table[i]->name);
        break;
    }
    }
}

static bool parse_experiments(struct global_params *g, const char *value)
{
    unsigned n = 0;
    if (kstrcmp(value, "all") == 0) {
        for (size_t i = 0; i < experiment_count && i < EXPERIMENTS_MAX; i++)
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
        int idx = experiment_index(name);
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

/* Store value into the key's field; false when it is malformed or out of range. */
static bool apply_value(const struct key_desc *k, void *params, const char *value)
{
    char *field = (char *)params + k->offset;
    uint64_t v;
    switch (k->type) {
    case KEY_U64:
    case KEY_SIZE:
        if (!cfg_parse_size(value, &v))
            return false;
        if (k->type == KEY_U64 && !kisdigit(value[kstrlen(value) - 1]) &&
            !(value[0] == '0' && (value[1] == 'x' || value[1] == 'X')))
            return false;
        if (v < k->min || v > k->max)
            return false;
        *(uint64_t *)field = v;
        return true;
    case KEY_CHOICE:
        for (unsigned i = 0; k->choices[i]; i++) {
            if (kstrcasecmp(k->choices[i], value) == 0) {
                *(unsigned *)field = i;
                return true;
            }
        }
        return false;
    case KEY_EXPERIMENTS:
        return parse_experiments((struct global_params *)params, value);
    }
    return false;
}

/* Find the key an entry names and the parameter struct it lives in. */
static const struct key_desc *lookup(struct chase_config *cfg, const char *key, void **params)
{
    const char *dot = kstrchr(key, '.');
    if (!dot) {
        *params = &cfg->global;
        return find_key(global_keys, global_key_count, key);
    }
    char name[32];
    size_t n = (size_t)(dot - key);
    if (n >= sizeof(name))
        return NULL;
    kmemcpy(name, key, n);
    name[n] = 0;
    const struct experiment *x = experiment_find(name);
    if (!x)
        return NULL;
    *params = experiment_params(x, cfg);
    return find_key(x->keys, x->nkeys, dot + 1);
}

void cfg_check_fail(struct cfg_check *c, const char *key, const char *fmt, ...)
{
    char full[96], msg[256];
    ksnprintf(full, sizeof(full), "%s.%s", c->experiment, key);
    struct cfg_source src = {"defaults", 0};
    for (unsigned i = 0; i < c->entries->n; i++) {
        if (kstrcmp(c->entries->e[i].key, full) == 0)
            src = c->entries->e[i].src;
    }
    va_list ap;
    va_start(ap, fmt);
    kvsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    cfg_error(c->errs, &src, "key '%s': %s", full, msg);
}

/* Where the last setting of key came from ("defaults" when it was never set). */
static const struct cfg_source *source_of(const struct cfg_entries *entries, const char *key)
{
    static const struct cfg_source defaults = {"defaults", 0};
    const struct cfg_source *src = &defaults;
    for (unsigned i = 0; i < entries->n; i++) {
        if (kstrcmp(entries->e[i].key, key) == 0)
            src = &entries->e[i].src;
    }
    return src;
}

static unsigned chosen_profile(const struct cfg_entries *entries)
{
    unsigned p = PROFILE_FULL;
    for (unsigned i = 0; i < entries->n; i++) {
        if (kstrcmp(entries->e[i].key, "profile") != 0)
            continue;
        for (unsigned k = 0; profile_names[k]; k++) {
            if (kstrcasecmp(profile_names[k], entries->e[i].value) == 0)
                p = k;
        }
    }
    return p;
}

static void set_defaults(struct chase_config *cfg, const struct machine *m, unsigned profile)
{
    kmemset(cfg, 0, sizeof(*cfg));
    struct global_params *g = &cfg->global;
    for (size_t i = 0; i < experiment_count && i < EXPERIMENTS_MAX; i++)
        g->experiments[g->n_experiments++] = (unsigned)i;
    g->profile = profile;
    g->on_exit = ON_EXIT_WAIT;
    g->seed = 1;
    g->reps = 5;
    for (size_t i = 0; i < experiment_count; i++) {
        const struct experiment *x = experiment_table[i];
        x->defaults(experiment_params(x, cfg), m, (enum profile)profile);
    }
}

bool cfg_resolve(struct chase_config *cfg, const struct cfg_entries *entries,
                 const struct machine *m, struct cfg_errors *errs)
{
    unsigned before = errs->count;
    set_defaults(cfg, m, chosen_profile(entries));
    for (unsigned i = 0; i < entries->n; i++) {
        const struct cfg_entry *e = &entries->e[i];
        void *params = NULL;
        const struct key_desc *k = lookup(cfg, e->key, &params);
        if (!k) {
            char buf[96];
            const char *near = suggest_key(e->key, buf, sizeof(buf));
            if (near)
                cfg_error(errs, &e->src, "unknown key '%s' (did you mean '%s'?)", e->key, near);
            else
                cfg_error(errs, &e->src, "unknown key '%s' ('help' lists the keys)", e->key);
            continue;
        }
        if (!apply_value(k, params, e->value)) {
            char accepted[256];
            describe_accepted(k, accepted, sizeof(accepted));
            cfg_error(errs, &e->src, "key '%s': bad value '%s'; expected %s", e->key, e->value,
                      accepted);
        }
    }
    if (cfg->global.fault_test && kstrcmp(m->platform, "uefi") != 0)
        cfg_error(errs, source_of(entries, "fault_test"),
                  "key 'fault_test': only chase.efi can recover from a fault");
    if (cfg_page_bytes(cfg->global.page) == (1ULL << 30) && !m->cpu.has_1g_pages &&
        kstrcmp(m->platform, "uefi") == 0)
        cfg_error(errs, source_of(entries, "page"),
                  "key 'page': this CPU has no 1 GiB pages (CPUID 0x80000001 EDX bit 26); "
                  "use 2M or 4K");
    for (unsigned i = 0; i < cfg->global.n_experiments; i++) {
        const struct experiment *x = experiment_table[cfg->global.experiments[i]];
        struct cfg_check c = {entries, errs, x->name};
        x->check(experiment_params_const(x, cfg), m, &c);
    }
    return errs->count == before;
}
