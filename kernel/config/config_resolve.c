// SPDX-License-Identifier: MIT
// Turning collected settings into the effective configuration, with every error named.
#include "config/config.h"

#include "config/config_parse.h"
#include "chase/measure.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/url.h"

/* Key parts shorter than this are not matched inside other names. */
#define SUGGEST_MIN_PART 3

/* Repetitions until the median is known to 0.5%, at most 1 s a point (25 ms when quick). */
#define DEFAULT_PRECISION_PPM 5000
#define DEFAULT_RESULTS_RETRIES                                                                    \
    3 /* rides out a collector restarting, without holding a machine                               \
       */
#define FULL_POINT_MAX_MS 1000
#define QUICK_POINT_MAX_MS 25
#define DEFAULT_WINDOW_MAX_MS 10 /* repetitions last about 1 ms: the cap is a safety bound */
#define FULL_PASSES 3
#define QUICK_PASSES 1 /* emulators: each pass rebuilds and warms every chain again */

/* True when needle occurs in haystack. */
static bool kstr_contains(const char *haystack, const char *needle)
{
    size_t n = kstrlen(needle), h = kstrlen(haystack);
    for (size_t i = 0; n <= h && i + n <= h; i++) {
        if (kstrncmp(haystack + i, needle, n) == 0)
            return true;
    }
    return false;
}

static const struct key_desc *find_key(const struct key_desc *keys, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        if (kstrcmp(keys[i].name, name) == 0)
            return &keys[i];
    }
    return NULL;
}

/*
 * For "experiment.name" where name is part of one of the experiment's keys (or the other
 * way round), that key: "x.chains" -> "x.max_chains". NULL when none.
 */
static const char *suggest_within_section(const struct cfg_table *t, const char *key, char *buf,
                                          size_t cap)
{
    const char *dot = kstrchr(key, '.');
    char section[32];
    if (!dot || (size_t)(dot - key) >= sizeof(section) || kstrlen(dot + 1) < SUGGEST_MIN_PART)
        return NULL;
    kmemcpy(section, key, (size_t)(dot - key));
    section[dot - key] = 0;
    int idx = cfg_table_find(t, section);
    const struct cfg_section *x = idx < 0 ? NULL : t->section((size_t)idx);
    for (size_t i = 0; x && i < x->nkeys; i++) {
        const char *name = x->keys[i].name;
        if (kstr_contains(name, dot + 1) || kstr_contains(dot + 1, name)) {
            ksnprintf(buf, cap, "%s.%s", x->name, name);
            return buf;
        }
    }
    return NULL;
}

/* The nearest known full key name to `key`, or NULL when none is close. */
static const char *suggest_key(const struct cfg_table *t, const char *key, char *buf, size_t cap)
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
    for (size_t x = 0; x < t->n; x++) {
        const struct cfg_section *e = t->section(x);
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
    return found ? found : suggest_within_section(t, key, buf, cap);
}

/* Find the key an entry names and the parameter struct it lives in. */
static const struct key_desc *lookup(struct chase_config *cfg, const char *key, void **params)
{
    const struct cfg_table *t = cfg->global.table;
    const char *dot = kstrchr(key, '.');
    const struct key_desc *global = find_key(global_keys, global_key_count, key);
    if (!dot || global) { /* a global key's name may hold a dot ("results.token") */
        *params = &cfg->global;
        return global;
    }
    char name[32];
    size_t n = (size_t)(dot - key);
    if (n >= sizeof(name))
        return NULL;
    kmemcpy(name, key, n);
    name[n] = 0;
    int idx = cfg_table_find(t, name);
    if (idx < 0)
        return NULL;
    const struct cfg_section *x = t->section((size_t)idx);
    *params = cfg_params(cfg, (size_t)idx);
    const struct key_desc *k = find_key(x->keys, x->nkeys, dot + 1);
    if (k || idx >= EXPERIMENTS_MAX)
        return k;
    *params = &cfg->common[idx]; /* a key every section has */
    return find_key(section_common_keys, section_common_key_count, dot + 1);
}

const struct key_desc *cfg_key(const struct chase_config *cfg, const char *name,
                               const void **params)
{
    void *p = NULL;
    /* lookup only locates the struct; nothing is written through it here */
    const struct key_desc *k = lookup((struct chase_config *)cfg, name, &p);
    *params = p;
    return k;
}

void cfg_check_fail(struct cfg_check *c, const char *key, const char *fmt, ...)
{
    char full[96], msg[256];
    ksnprintf(full, sizeof(full), "%s.%s", c->section, key);
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

static void set_defaults(struct chase_config *cfg, const struct cfg_table *t,
                         const struct machine *m, unsigned profile)
{
    kmemset(cfg, 0, sizeof(*cfg));
    struct global_params *g = &cfg->global;
    g->table = t;
    for (size_t i = 0; i < t->n && i < EXPERIMENTS_MAX; i++)
        g->experiments[g->n_experiments++] = (unsigned)i;
    g->profile = profile;
    g->on_exit = ON_EXIT_WAIT;
    g->seed = 1;
    g->reps = 5;
    g->precision_ppm = DEFAULT_PRECISION_PPM;
    g->point_max_ms = profile == PROFILE_QUICK ? QUICK_POINT_MAX_MS : FULL_POINT_MAX_MS;
    g->window_max_ms = DEFAULT_WINDOW_MAX_MS;
    g->passes = profile == PROFILE_QUICK ? QUICK_PASSES : FULL_PASSES;
    g->warm_laps.is_auto = true;
    g->node.is_auto = true;
    g->results_retries = DEFAULT_RESULTS_RETRIES;
    for (size_t i = 0; i < t->n && i < EXPERIMENTS_MAX; i++)
        t->section(i)->defaults(cfg_params(cfg, i), m, (enum profile)profile);
}

/* The largest size key value whose buffer_bytes on m fits its limit (0: none); 1 or 1.5 x 2^k. */
static uint64_t largest_fitting(const struct cfg_section *x, const struct key_desc *k,
                                const void *params, const struct machine *m)
{
    uint64_t limit = m->buffer_limit_bytes;
    struct cfg_params copy;
    if (x->params_size > sizeof(copy.bytes))
        return 0;
    kmemcpy(copy.bytes, params, x->params_size);
    uint64_t *field = (uint64_t *)(copy.bytes + k->offset); /* cfg_auto starts with value */
    uint64_t best = 0;
    for (uint64_t p = 1ULL << 62; p >= 8 && !best; p >>= 1) {
        uint64_t tries[2] = {p + p / 2, p};
        for (unsigned i = 0; i < 2 && !best; i++) {
            *field = tries[i];
            if (tries[i] >= k->min && tries[i] <= k->max && x->buffer_bytes(copy.bytes, m) <= limit)
                best = tries[i];
        }
    }
    return best;
}

/* Every experiment's buffer must fit in what the platform can give. */
static void check_plan(const struct chase_config *cfg, const struct cfg_entries *entries,
                       const struct machine *m, struct cfg_errors *errs)
{
    uint64_t limit = m->buffer_limit_bytes;
    for (unsigned i = 0; limit && i < cfg->global.n_experiments; i++) {
        const struct cfg_section *x = cfg->global.table->section(cfg->global.experiments[i]);
        const void *params = cfg_params_const(cfg, cfg->global.experiments[i]);
        uint64_t need = x->buffer_bytes(params, m);
        if (need <= limit)
            continue;
        char key[64], a[24], b[24], c[24];
        ksnprintf(key, sizeof(key), "%s.%s", x->name, x->size_key);
        const struct key_desc *k = find_key(x->keys, x->nkeys, x->size_key);
        uint64_t fits = k ? largest_fitting(x, k, params, m) : 0;
        fmt_size(a, sizeof(a), (double)need);
        fmt_size(b, sizeof(b), (double)limit);
        fmt_size(c, sizeof(c), (double)fits);
        if (fits)
            cfg_error(errs, source_of(entries, key),
                      "key '%s': the plan needs a %s buffer but at most %s fits in memory; "
                      "the largest %s that fits is %s",
                      key, a, b, key, c);
        else
            cfg_error(errs, source_of(entries, key),
                      "key '%s': the plan needs a %s buffer but at most %s fits in memory", key, a,
                      b);
    }
}

/* An unknown key without a section that is an experiment's key: say which experiments. */
static bool suggest_section(const struct cfg_table *t, const struct cfg_entry *e,
                            struct cfg_errors *errs)
{
    char names[160];
    size_t n = 0;
    names[0] = 0;
    for (size_t x = 0; x < t->n; x++) {
        const struct cfg_section *ex = t->section(x);
        if (kstrchr(e->key, '.') || !find_key(ex->keys, ex->nkeys, e->key) || n >= sizeof(names))
            continue;
        n += (size_t)ksnprintf(names + n, sizeof(names) - n, "%s'%s.%s'", n ? ", " : "", ex->name,
                               e->key);
    }
    if (!n)
        return false;
    cfg_error(errs, &e->src,
              "unknown key '%s': it is an experiment's key; write %s (or put it "
              "in an [experiment] section)",
              e->key, names);
    return true;
}

/* Apply every entry in order; unknown keys and bad values go to errs. */
static void apply_entries(struct chase_config *cfg, const struct cfg_entries *entries,
                          struct cfg_errors *errs)
{
    const struct cfg_table *t = cfg->global.table;
    for (unsigned i = 0; i < entries->n; i++) {
        const struct cfg_entry *e = &entries->e[i];
        void *params = NULL;
        const struct key_desc *k = lookup(cfg, e->key, &params);
        if (!k && suggest_section(t, e, errs))
            continue;
        if (!k) {
            char buf[96];
            const char *near = suggest_key(t, e->key, buf, sizeof(buf));
            if (near)
                cfg_error(errs, &e->src, "unknown key '%s' (did you mean '%s'?)", e->key, near);
            else
                cfg_error(errs, &e->src, "unknown key '%s' ('help' lists the keys)", e->key);
            continue;
        }
        enum value_error ve = cfg_apply_value(k, params, e->value);
        if (ve != VALUE_OK) {
            char accepted[256];
            cfg_describe_accepted(t, k, accepted, sizeof(accepted));
            cfg_error(errs, &e->src, "key '%s': bad value '%s'%s; expected %s", e->key, e->value,
                      ve == VALUE_OUT_OF_RANGE ? " (out of range)" : "", accepted);
        }
    }
}

/* prefetch=off, globally or for an experiment, is an error here: no_prefetch says why. */
static void check_prefetch_off(const struct chase_config *cfg, const struct cfg_table *t,
                               const struct cfg_entries *entries, const char *no_prefetch,
                               struct cfg_errors *errs)
{
    if (cfg->global.prefetch == PREFETCH_OFF)
        cfg_error(errs, source_of(entries, "prefetch"), no_prefetch, "prefetch");
    for (size_t i = 0; i < t->n && i < EXPERIMENTS_MAX; i++) {
        char key[48];
        ksnprintf(key, sizeof(key), "%s.prefetch", t->section(i)->name);
        if (cfg->common[i].prefetch == 1 + PREFETCH_OFF)
            cfg_error(errs, source_of(entries, key), no_prefetch, key);
    }
}

/* Keys only chase.efi can honour: prefetch=off (MSR writes, x86-64 only), memtype_test and node. */
static void check_firmware_only(const struct chase_config *cfg, const struct cfg_table *t,
                                const struct cfg_entries *entries, const struct machine *m,
                                struct cfg_errors *errs)
{
    bool firmware = kstrcmp(m->platform, "uefi") == 0;
    bool arm = m->arm.read; /* chase.efi on AArch64 */
#if defined(__aarch64__)
    arm = true; /* and chase-host there */
#endif
    if (arm)
        check_prefetch_off(cfg, t, entries,
                           "key '%s': not on this architecture: AArch64's prefetcher controls are "
                           "implementation-defined registers (each core's own CPUACTLR/CPUECTLR "
                           "bits), which chase does not write; accepted here: as-is",
                           errs);
    else if (!firmware)
        check_prefetch_off(cfg, t, entries,
                           "key '%s': chase-host cannot turn the hardware prefetchers off (a user "
                           "process writes no MSR); accepted here: as-is, or run chase.efi",
                           errs);
    if (firmware)
        return;
    if (cfg->global.memtype_test)
        cfg_error(errs, source_of(entries, "memtype_test"),
                  "key 'memtype_test': only chase.efi places its buffer by memory type");
    if (!cfg->global.node.is_auto)
        cfg_error(errs, source_of(entries, "node"),
                  "key 'node': chase-host takes its memory where the OS gives it; accepted here: "
                  "auto, or run it under numactl --membind, or run chase.efi");
}

/* results: "", "serial" or an http(s) URL (lib/url.h); only chase.efi sends a run anywhere. */
static void check_results(const struct chase_config *cfg, const struct cfg_entries *entries,
                          const struct machine *m, struct cfg_errors *errs)
{
    const char *r = cfg->global.results;
    struct url u;
    char why[128];
    if (!r[0])
        return;
    if (kstrcmp(m->platform, "uefi") != 0)
        cfg_error(errs, source_of(entries, "results"),
                  "key 'results': chase-host writes its run folder to DIR only; sending a run "
                  "to a collector or the serial port is chase.efi's (docs/fleet.md)");
    else if (kstrcmp(r, "serial") != 0 && !url_parse(r, &u, why, sizeof(why)))
        cfg_error(errs, source_of(entries, "results"),
                  "key 'results': bad value '%s': %s; expected serial, http://HOST[:PORT][/PATH] "
                  "or https://HOST[:PORT][/PATH]",
                  r, why);
}

bool cfg_resolve(struct chase_config *cfg, const struct cfg_table *t,
                 const struct cfg_entries *entries, const struct machine *m,
                 struct cfg_errors *errs)
{
    unsigned before = errs->count;
    set_defaults(cfg, t, m, chosen_profile(entries));
    apply_entries(cfg, entries, errs);
    for (size_t i = 0; i < t->n && i < EXPERIMENTS_MAX; i++) {
        if (t->section(i)->resolve)
            t->section(i)->resolve(cfg_params(cfg, i), m);
    }
    if (cfg->global.fault_test && kstrcmp(m->platform, "uefi") != 0)
        cfg_error(errs, source_of(entries, "fault_test"),
                  "key 'fault_test': only chase.efi can recover from a fault");
    else if (m->arm.read && cfg->global.fault_test != FAULT_TEST_NONE &&
             cfg->global.fault_test != FAULT_TEST_PAGE_FAULT &&
             cfg->global.fault_test != FAULT_TEST_GENERAL_PROTECTION)
        cfg_error(errs, source_of(entries, "fault_test"),
                  "key 'fault_test': chase.efi on AArch64 loads its exception vectors only inside "
                  "windows and has no NMI or machine-check entry to provoke: page_fault and "
                  "general_protection (both data aborts there) are accepted");
    check_firmware_only(cfg, t, entries, m, errs);
    check_results(cfg, entries, m, errs);
    if (cfg_page_bytes(cfg->global.page) == (1ULL << 30) && !m->cpu.has_1g_pages &&
        kstrcmp(m->platform, "uefi") == 0)
        cfg_error(errs, source_of(entries, "page"),
                  "key 'page': this CPU has no 1 GiB pages (CPUID 0x80000001 EDX bit 26); "
                  "use 2M or 4K");
    for (unsigned i = 0; i < cfg->global.n_experiments; i++) {
        const struct cfg_section *x = t->section(cfg->global.experiments[i]);
        struct cfg_check c = {entries, errs, x->name};
        x->check(cfg_params_const(cfg, cfg->global.experiments[i]), m, &c);
    }
    if (errs->count == before)
        check_plan(cfg, entries, m, errs);
    return errs->count == before;
}
