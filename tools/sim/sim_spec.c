// SPDX-License-Identifier: MIT
// The hierarchy description parser: every field checked, every error pointing at its field.
#include "sim_spec.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sim_policy.h"

#define MAX_FIELDS 16
#define MAX_VALUE (1ULL << 40)

struct field {
    const char *s;
    size_t len;
    size_t pos; /* in the whole text */
};

struct parser {
    const char *text;
    struct sim_spec *spec;
    struct sim_parse_error *err;
    bool dram_seen;
    struct field pf_into; /* where the prefetcher named its level (resolved at the end) */
};

__attribute__((format(printf, 3, 4))) static bool fail(struct parser *ps, const struct field *f,
                                                       const char *fmt, ...)
{
    va_list ap;
    ps->err->pos = f->pos;
    ps->err->len = f->len ? f->len : 1;
    va_start(ap, fmt);
    vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
    va_end(ap);
    return false;
}

static bool is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

static bool field_is(const struct field *f, const char *word)
{
    return strlen(word) == f->len && !strncasecmp(f->s, word, f->len);
}

/* Digits, then an optional suffix: K/M/G multipliers when sizes, else exactly `unit`. */
static bool number(const struct field *f, bool size, char unit, uint64_t *out)
{
    size_t i = 0;
    uint64_t v = 0;
    while (i < f->len && f->s[i] >= '0' && f->s[i] <= '9') {
        v = v * 10 + (uint64_t)(f->s[i] - '0');
        if (v > MAX_VALUE)
            return false;
        i++;
    }
    if (i == 0)
        return false;
    if (size && i + 1 == f->len) {
        const char *units = "KkMmGg";
        const char *u = strchr(units, f->s[i]);
        if (!u)
            return false;
        v <<= 10 * (1 + (u - units) / 2);
        i++;
    } else if (unit && i < f->len && (f->s[i] == unit || f->s[i] == unit - 32)) {
        i++;
    } else if (unit) {
        return false;
    }
    *out = v;
    return i == f->len && v <= MAX_VALUE;
}

/* "key=value" option with a number value in [min, max]. */
static bool option_number(struct parser *ps, const struct field *f, size_t key_len, uint64_t min,
                          uint64_t max, bool size, unsigned *out)
{
    struct field v = {f->s + key_len + 1, f->len - key_len - 1, f->pos + key_len + 1};
    uint64_t n;
    if (!number(&v, size, 0, &n) || n < min || n > max)
        return fail(ps, &v, "%.*s must be a number from %llu to %llu", (int)key_len, f->s,
                    (unsigned long long)min, (unsigned long long)max);
    *out = (unsigned)n;
    return true;
}

static bool option_key(const struct field *f, const char *key)
{
    size_t n = strlen(key);
    return f->len > n && !strncasecmp(f->s, key, n) && f->s[n] == '=';
}

static bool parse_name(struct parser *ps, const struct field *f, char *name)
{
    if (f->len == 0 || f->len >= SIM_NAME_MAX)
        return fail(ps, f, "a level needs a name of 1 to %d characters", SIM_NAME_MAX - 1);
    for (size_t i = 0; i < f->len; i++) {
        char ch = f->s[i];
        bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
                  (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
        if (!ok)
            return fail(ps, f, "a name takes letters, digits, '_' and '-'");
    }
    memcpy(name, f->s, f->len);
    name[f->len] = 0;
    return true;
}

static bool parse_ways_latency(struct parser *ps, const struct field *fw, const struct field *fl,
                               struct sim_level_spec *l)
{
    uint64_t v;
    if (!number(fw, false, 'w', &v) || v < 1 || v > SIM_MAX_WAYS)
        return fail(ps, fw, "ways must look like 8w (1w to %dw)", SIM_MAX_WAYS);
    l->ways = (unsigned)v;
    if (!number(fl, false, 'c', &v) || v > 1000000)
        return fail(ps, fl, "latency must be core cycles like 12c");
    l->latency_cycles = (unsigned)v;
    return true;
}

static bool parse_policy(struct parser *ps, const struct field *f, struct sim_level_spec *l)
{
    int k = sim_policy_parse(f->s, (unsigned)f->len);
    if (k < 0)
        return fail(ps, f,
                    "unknown policy; one of lru, plru, fifo, random, nru, bip, dip, "
                    "srrip, brrip, drrip");
    l->policy = (enum sim_policy_kind)k;
    return true;
}

static bool parse_hash(struct parser *ps, const struct field *f, struct sim_level_spec *l)
{
    struct field v = {f->s + 5, f->len - 5, f->pos + 5};
    for (int h = 0; h < SIM_HASH_COUNT; h++) {
        if (field_is(&v, sim_hash_name((enum sim_hash)h))) {
            l->hash = (enum sim_hash)h;
            return true;
        }
    }
    return fail(ps, &v, "unknown slice hash; one of intel, xor, mix, mod");
}

/* Where each part of a level was written, for errors found after parsing it. */
struct level_fields {
    struct field name, size, ways, policy, incl, slices, hash, line, eps, leaders, psel;
};

/* One ":option" of a cache level; which options a policy allows is checked later. */
static bool parse_option(struct parser *ps, const struct field *f, struct sim_level_spec *l,
                         struct level_fields *lf)
{
    if (field_is(f, "incl") || field_is(f, "excl") || field_is(f, "nine")) {
        l->incl = field_is(f, "incl") ? SIM_INCL : field_is(f, "excl") ? SIM_EXCL : SIM_NINE;
        lf->incl = *f;
        return true;
    }
    if (option_key(f, "slices")) {
        lf->slices = *f;
        return option_number(ps, f, 6, 1, 64, false, &l->slices);
    }
    if (option_key(f, "hash")) {
        lf->hash = *f;
        return parse_hash(ps, f, l);
    }
    if (option_key(f, "line")) {
        lf->line = *f;
        return option_number(ps, f, 4, 8, 4096, true, &l->line_bytes);
    }
    if (option_key(f, "eps")) {
        lf->eps = *f;
        return option_number(ps, f, 3, 0, 1u << 20, false, &l->eps);
    }
    if (option_key(f, "leaders")) {
        lf->leaders = *f;
        return option_number(ps, f, 7, 1, 1u << 16, false, &l->leaders);
    }
    if (option_key(f, "psel")) {
        lf->psel = *f;
        return option_number(ps, f, 4, 1, 16, false, &l->psel_bits);
    }
    return fail(ps, f,
                "unknown option; one of incl, excl, nine, slices=N, hash=H, line=B, "
                "eps=N, leaders=N, psel=BITS");
}

static bool check_policy_options(struct parser *ps, const struct level_fields *lf,
                                 struct sim_level_spec *l)
{
    const char *name = sim_policy_name(l->policy);
    if (lf->eps.len && !sim_policy_bimodal(l->policy))
        return fail(ps, &lf->eps, "eps= is for bip, dip, brrip and drrip, not %s", name);
    if ((lf->leaders.len || lf->psel.len) && !sim_policy_duels(l->policy))
        return fail(ps, lf->leaders.len ? &lf->leaders : &lf->psel,
                    "leaders= and psel= are for dip and drrip, not %s", name);
    if (l->policy == SIM_PLRU && !is_pow2(l->ways))
        return fail(ps, &lf->ways, "plru needs a power-of-two number of ways, not %u", l->ways);
    if (!sim_policy_duels(l->policy))
        return true;
    uint32_t sets = (uint32_t)(l->size_bytes / ((uint64_t)l->ways * l->line_bytes * l->slices));
    if (sets < 4)
        return fail(ps, &lf->policy, "%s needs at least 4 sets per slice for its leader sets",
                    name);
    if (lf->leaders.len && (!is_pow2(l->leaders) || l->leaders > sets / 2))
        return fail(ps, &lf->leaders,
                    "leaders must be a power of two up to %u (half the sets "
                    "of a slice)",
                    sets / 2);
    if (!lf->leaders.len)
        l->leaders = SIM_DEFAULT_LEADERS < sets / 4 ? SIM_DEFAULT_LEADERS : sets / 4;
    return true;
}

static bool check_slices(struct parser *ps, const struct level_fields *lf, struct sim_level_spec *l)
{
    if (!lf->hash.len)
        l->hash = is_pow2(l->slices) ? SIM_HASH_XOR : SIM_HASH_MIX;
    if (l->slices == 1)
        return true;
    if (l->hash == SIM_HASH_INTEL && l->slices > 8)
        return fail(ps, &lf->hash, "hash=intel is known for 2, 4 and 8 slices, not %u", l->slices);
    if ((l->hash == SIM_HASH_INTEL || l->hash == SIM_HASH_XOR) && !is_pow2(l->slices))
        return fail(ps, &lf->slices,
                    "hash=%s needs a power-of-two slice count (hash=mix "
                    "takes any)",
                    sim_hash_name(l->hash));
    return true;
}

/* The geometry: a whole, power-of-two number of sets in each slice. */
static bool check_geometry(struct parser *ps, const struct level_fields *lf,
                           struct sim_level_spec *l)
{
    uint64_t per_set = (uint64_t)l->ways * l->line_bytes * l->slices;
    if (l->size_bytes == 0 || l->size_bytes % per_set)
        return fail(ps, &lf->size,
                    "%llu bytes is not a whole number of sets of %u ways x %u "
                    "bytes x %u slices",
                    (unsigned long long)l->size_bytes, l->ways, l->line_bytes, l->slices);
    uint64_t sets = l->size_bytes / per_set;
    if (!is_pow2(sets) || sets > (1u << 30))
        return fail(ps, &lf->size,
                    "this gives %llu sets per slice; sets must be a power of two "
                    "(size / (ways x line x slices))",
                    (unsigned long long)sets);
    return true;
}

/* How the level relates to the one inside it; needs the inner level's line size. */
static bool check_inclusion(struct parser *ps, const struct level_fields *lf,
                            const struct sim_level_spec *l, const struct sim_level_spec *inner)
{
    if (!lf->incl.len || l->incl == SIM_NINE)
        return true;
    if (!inner)
        return fail(ps, &lf->incl, "the first level has no inner level to include or exclude");
    if (inner->line_bytes != l->line_bytes)
        return fail(ps, &lf->incl,
                    "an inclusive or exclusive level needs the line size of the "
                    "level inside it (%u, not %u)",
                    inner->line_bytes, l->line_bytes);
    return true;
}

static bool parse_cache(struct parser *ps, const struct field *f, unsigned n)
{
    struct sim_spec *spec = ps->spec;
    struct level_fields lf;
    memset(&lf, 0, sizeof(lf));
    if (spec->nlevels == SIM_MAX_LEVELS)
        return fail(ps, &f[0], "at most %d cache levels", SIM_MAX_LEVELS);
    if (n < 5)
        return fail(ps, &f[n - 1], "a cache level is NAME:SIZE:WAYSw:LATENCYc:POLICY[:options]");
    struct sim_level_spec *l = &spec->level[spec->nlevels];
    memset(l, 0, sizeof(*l));
    l->slices = 1;
    l->line_bytes = SIM_DEFAULT_LINE_BYTES;
    l->eps = SIM_DEFAULT_EPS;
    l->psel_bits = SIM_DEFAULT_PSEL_BITS;
    lf.name = f[0];
    lf.size = f[1];
    lf.ways = f[2];
    lf.policy = f[4];
    if (!parse_name(ps, &f[0], l->name))
        return false;
    if (!number(&f[1], true, 0, &l->size_bytes) || l->size_bytes == 0)
        return fail(ps, &f[1], "size must look like 32K, 1M or 6M (K, M, G are binary)");
    if (!parse_ways_latency(ps, &f[2], &f[3], l) || !parse_policy(ps, &f[4], l))
        return false;
    for (unsigned i = 5; i < n; i++)
        if (!parse_option(ps, &f[i], l, &lf))
            return false;
    const struct sim_level_spec *inner = spec->nlevels ? &spec->level[spec->nlevels - 1] : NULL;
    if (!check_slices(ps, &lf, l) || !check_geometry(ps, &lf, l) ||
        !check_policy_options(ps, &lf, l) || !check_inclusion(ps, &lf, l, inner))
        return false;
    spec->nlevels++;
    return true;
}

static bool parse_tlb(struct parser *ps, const struct field *f, unsigned n)
{
    struct sim_spec *spec = ps->spec;
    if (spec->ntlbs == SIM_MAX_TLBS)
        return fail(ps, &f[0], "at most %d TLBs", SIM_MAX_TLBS);
    if (n < 4 || n > 5)
        return fail(ps, &f[n < 4 ? n - 1 : 5], "a TLB is NAME:ENTRIES:WAYSw:MISSc[:POLICY]");
    struct sim_level_spec *t = &spec->tlb[spec->ntlbs];
    memset(t, 0, sizeof(*t));
    t->slices = 1;
    t->policy = SIM_LRU;
    t->psel_bits = SIM_DEFAULT_PSEL_BITS;
    t->eps = SIM_DEFAULT_EPS;
    if (!parse_name(ps, &f[0], t->name))
        return false;
    if (!number(&f[1], false, 0, &t->size_bytes) || t->size_bytes == 0 || t->size_bytes > 65536)
        return fail(ps, &f[1], "TLB entries must be a number from 1 to 65536");
    if (!parse_ways_latency(ps, &f[2], &f[3], t))
        return false;
    if (t->size_bytes % t->ways || !is_pow2(t->size_bytes / t->ways))
        return fail(ps, &f[2], "entries / ways must be a power of two (the TLB's sets)");
    if (n == 5 && !parse_policy(ps, &f[4], t))
        return false;
    if (sim_policy_duels(t->policy) || (t->policy == SIM_PLRU && !is_pow2(t->ways)))
        return fail(ps, &f[4],
                    "a TLB takes lru, plru (power-of-two ways), fifo, random, nru, "
                    "bip, srrip or brrip");
    spec->ntlbs++;
    return true;
}

static bool parse_dram(struct parser *ps, const struct field *f, unsigned n)
{
    uint64_t v;
    struct sim_spec *spec = ps->spec;
    if (n < 2 || n > 5)
        return fail(ps, &f[n < 2 ? 0 : 5], "DRAM is DRAM:LATENCYc[:mlp=N][:refresh=P/S][:smi=P/S]");
    if (!number(&f[1], false, 'c', &v) || v == 0 || v > 1000000)
        return fail(ps, &f[1], "DRAM latency must be core cycles like 200c");
    spec->dram_cycles = (unsigned)v;
    spec->mlp = SIM_DEFAULT_MLP;
    for (unsigned i = 2; i < n; i++) {
        bool smi = option_key(&f[i], "smi"), refresh = option_key(&f[i], "refresh");
        size_t k = smi ? 4 : 8;
        if (!smi && !refresh && !option_key(&f[i], "mlp"))
            return fail(ps, &f[i], "DRAM takes mlp=N, refresh=PERIOD/STALL and smi=PERIOD/STALL");
        if ((smi || refresh) &&
            !sim_stall_parse(f[i].s + k, f[i].len - k, smi ? &spec->smi : &spec->refresh))
            return fail(ps, &f[i], "a stall is PERIOD/STALL in ns, us or ms, like 3.9us/350ns");
        if (!smi && !refresh && !option_number(ps, &f[i], 3, 1, 64, false, &spec->mlp))
            return false;
    }
    if (spec->nlevels == 0)
        return fail(ps, &f[0], "no cache level comes before DRAM");
    ps->dram_seen = true;
    return true;
}

/* One ":key=value" of the prefetcher. */
static bool parse_pf_option(struct parser *ps, const struct field *f, struct sim_pf_spec *pf)
{
    unsigned region;
    if (option_key(f, "distance"))
        return option_number(ps, f, 8, 1, SIM_PF_MAX_DISTANCE, false, &pf->distance);
    if (option_key(f, "degree"))
        return option_number(ps, f, 6, 1, SIM_PF_MAX_DEGREE, false, &pf->degree);
    if (option_key(f, "into")) {
        ps->pf_into = (struct field){f->s + 5, f->len - 5, f->pos + 5};
        return true;
    }
    if (!option_key(f, "region"))
        return fail(ps, f,
                    "unknown prefetcher option; one of distance=N, degree=N, into=LEVEL, "
                    "region=SIZE");
    if (!option_number(ps, f, 6, 64, 1u << 30, true, &region))
        return false;
    if (!is_pow2(region))
        return fail(ps, f, "region must be a power of two like 4K (from 64 bytes to 1G)");
    pf->region_bytes = region;
    return true;
}

/* PF:STREAMS[:distance=N][:degree=N][:into=LEVEL][:region=SIZE] */
static bool parse_pf(struct parser *ps, const struct field *f, unsigned n)
{
    struct sim_pf_spec *pf = &ps->spec->pf;
    uint64_t v;
    if (!number(&f[1 % n], false, 0, &v) || v < 1 || v > SIM_PF_MAX_STREAMS || n < 2)
        return fail(ps, &f[1 % n],
                    "PF needs the streams it tracks, 1 to %d: "
                    "PF:STREAMS[:distance=N][:degree=N][:into=LEVEL][:region=SIZE]",
                    SIM_PF_MAX_STREAMS);
    *pf = (struct sim_pf_spec){(unsigned)v, SIM_PF_DEFAULT_DISTANCE, SIM_PF_DEFAULT_DEGREE, 0,
                               SIM_PF_DEFAULT_REGION_BYTES};
    ps->pf_into = (struct field){"", 0, f[0].pos};
    for (unsigned i = 2; i < n; i++)
        if (!parse_pf_option(ps, &f[i], pf))
            return false;
    return true;
}

/* The level the prefetcher fills: the first (default) or second, by name. */
static bool resolve_pf_level(struct parser *ps)
{
    struct sim_spec *spec = ps->spec;
    if (!spec->pf.streams || !ps->pf_into.len)
        return true;
    for (unsigned i = 0; i < spec->nlevels && i < 2; i++)
        if (field_is(&ps->pf_into, spec->level[i].name)) {
            spec->pf.level = i;
            return true;
        }
    return fail(ps, &ps->pf_into, "into= names the first or second cache level (%s%s%s)",
                spec->level[0].name, spec->nlevels > 1 ? " or " : "",
                spec->nlevels > 1 ? spec->level[1].name : "");
}

static bool name_ends_tlb(const struct field *f)
{
    return f->len >= 3 && !strncasecmp(f->s + f->len - 3, "TLB", 3);
}

static void trim(struct field *f)
{
    while (f->len && (f->s[0] == ' ' || f->s[0] == '\t')) {
        f->s++;
        f->pos++;
        f->len--;
    }
    while (f->len &&
           (f->s[f->len - 1] == ' ' || f->s[f->len - 1] == '\t' || f->s[f->len - 1] == '\r'))
        f->len--;
}

static bool parse_item(struct parser *ps, struct field item)
{
    struct field f[MAX_FIELDS];
    unsigned n = 0;
    size_t start = 0;
    for (size_t i = 0; i <= item.len; i++) {
        if (i < item.len && item.s[i] != ':')
            continue;
        if (n == MAX_FIELDS) {
            struct field extra = {item.s + start, item.len - start, item.pos + start};
            return fail(ps, &extra, "too many fields");
        }
        f[n] = (struct field){item.s + start, i - start, item.pos + start};
        trim(&f[n]);
        n++;
        start = i + 1;
    }
    if (ps->dram_seen)
        return fail(ps, &item, "nothing may follow DRAM (it is the outermost level)");
    if (field_is(&f[0], "DRAM"))
        return parse_dram(ps, f, n);
    if (field_is(&f[0], "PF"))
        return parse_pf(ps, f, n);
    if (name_ends_tlb(&f[0]))
        return parse_tlb(ps, f, n);
    return parse_cache(ps, f, n);
}

bool sim_spec_parse(const char *text, struct sim_spec *spec, struct sim_parse_error *err)
{
    struct parser ps = {text, spec, err, false, {0}};
    memset(spec, 0, sizeof(*spec));
    memset(err, 0, sizeof(*err));
    size_t len = strlen(text), start = 0, i = 0;
    for (;;) {
        char ch = i < len ? text[i] : 0;
        if (ch && ch != ',' && ch != '\n' && ch != '#') {
            i++;
            continue;
        }
        struct field item = {text + start, i - start, start};
        trim(&item);
        if (item.len && !parse_item(&ps, item))
            return false;
        if (ch == '#') { /* a comment runs to the end of its line, commas included */
            const char *nl = strchr(text + i, '\n');
            i = nl ? (size_t)(nl - text) : len;
        }
        if (i >= len)
            break;
        start = ++i;
    }
    if (!ps.dram_seen) {
        struct field end = {text + len, 0, len};
        return fail(&ps, &end, "the hierarchy must end with DRAM:LATENCYc");
    }
    return resolve_pf_level(&ps);
}
