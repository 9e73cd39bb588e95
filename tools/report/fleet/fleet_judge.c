// SPDX-License-Identifier: MIT
// The fleet's groups (machines of one hardware configuration), each figure's median and robust
// spread per group, and the machines outside their group's envelope with what may explain it.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "lib/stats.h"

const struct fleet_figure *fleet_figure_of(const struct fleet_machine *m, const char *name)
{
    for (size_t i = 0; i < m->nfig; i++)
        if (strcmp(m->fig[i].name, name) == 0)
            return &m->fig[i];
    return NULL;
}

/* The configuration a machine is grouped by: CPU model and stepping, and the DIMMs' part,
 * count and speed where SMBIOS lists them. */
static void config_of(const struct fleet_identity *id, char *dimms, size_t cap)
{
    if (id->dimm_count < 0)
        snprintf(dimms, cap, "unknown (no SMBIOS in the run)");
    else
        snprintf(dimms, cap, "%d x %.80s at %u MT/s", id->dimm_count,
                 id->dimm_part[0] ? id->dimm_part : "(part not given)", id->dimm_speed);
}

static size_t group_of(struct fleet *f, const struct fleet_machine *m)
{
    char dimms[FLEET_TEXT], key[512];
    config_of(&m->id, dimms, sizeof(dimms));
    snprintf(key, sizeof(key), "%s | %s", m->id.cpu_model, dimms);
    for (size_t g = 0; g < f->ngroups; g++)
        if (strcmp(f->group[g].key, key) == 0)
            return g;
    if (f->ngroups >= FLEET_GROUPS)
        return FLEET_GROUPS - 1; /* full: the last group takes the rest (said by its key) */
    struct fleet_group *g = &f->group[f->ngroups];
    memset(g, 0, sizeof(*g));
    snprintf(g->key, sizeof(g->key), "%s", key);
    snprintf(g->cpu_model, sizeof(g->cpu_model), "%s", m->id.cpu_model);
    snprintf(g->dimms, sizeof(g->dimms), "%s", dimms);
    return f->ngroups++;
}

/* Median and floored robust spread of figure name over group g's machines into st. */
static void stat_of(const struct fleet *f, const struct fleet_group *g,
                    const struct fleet_figure *proto, struct fleet_stat *st)
{
    double v[FLEET_MACHINES], res[FLEET_MACHINES];
    size_t n = 0;
    for (size_t i = 0; i < g->n; i++) {
        const struct fleet_figure *x = fleet_figure_of(&f->machine[g->member[i]], proto->name);
        if (x) {
            v[n] = x->value;
            res[n++] = x->resolution;
        }
    }
    memset(st, 0, sizeof(*st));
    snprintf(st->name, sizeof(st->name), "%s", proto->name);
    snprintf(st->unit, sizeof(st->unit), "%s", proto->unit);
    st->better = proto->better;
    st->rank = proto->rank;
    st->n = n;
    stats_sort(v, n);
    stats_sort(res, n);
    st->median = stats_quantile_sorted(v, n, 0.5);
    double sd = FLEET_MAD_TO_SD * stats_mad_sorted(v, n, st->median);
    double floor = stats_quantile_sorted(res, n, 0.5) * fabs(st->median);
    st->spread = fmax(sd, floor);
    st->lo = fmax(0, st->median - FLEET_ENVELOPE_K * st->spread); /* every figure is >= 0 */
    st->hi = st->median + FLEET_ENVELOPE_K * st->spread;
}

static bool has_stat(const struct fleet_group *g, const char *name)
{
    for (size_t i = 0; i < g->nstat; i++)
        if (strcmp(g->stat[i].name, name) == 0)
            return true;
    return false;
}

/* The most common value of one identity field among the group's machines. */
static void common_text(const struct fleet *f, const struct fleet_group *g, size_t off, char *out,
                        size_t cap)
{
    size_t best = 0;
    out[0] = '\0';
    for (size_t i = 0; i < g->n; i++) {
        const char *a = (const char *)&f->machine[g->member[i]].id + off;
        size_t c = 0;
        for (size_t k = 0; k < g->n; k++)
            c += strcmp(a, (const char *)&f->machine[g->member[k]].id + off) == 0;
        if (c > best) {
            best = c;
            snprintf(out, cap, "%s", a);
        }
    }
}

static void group_common(const struct fleet *f, struct fleet_group *g)
{
    struct fleet_identity *c = &g->common;
    common_text(f, g, offsetof(struct fleet_identity, firmware), c->firmware, sizeof(c->firmware));
    common_text(f, g, offsetof(struct fleet_identity, microcode), c->microcode,
                sizeof(c->microcode));
    common_text(f, g, offsetof(struct fleet_identity, encryption), c->encryption,
                sizeof(c->encryption));
    common_text(f, g, offsetof(struct fleet_identity, dimm_part), c->dimm_part,
                sizeof(c->dimm_part));
    common_text(f, g, offsetof(struct fleet_identity, dimms), c->dimms, sizeof(c->dimms));
    const struct fleet_identity *first = &f->machine[g->member[0]].id;
    c->dimm_count = first->dimm_count; /* one per group: part of its key */
    c->dimm_speed = first->dimm_speed;
    c->smbios = first->smbios;
}

static int by_rank(const void *a, const void *b)
{
    const struct fleet_stat *x = a, *y = b;
    int d = x->rank - y->rank;
    return d ? d : strcmp(x->name, y->name);
}

static void group_stats(const struct fleet *f, struct fleet_group *g)
{
    g->nstat = 0;
    for (size_t i = 0; i < g->n; i++) {
        const struct fleet_machine *m = &f->machine[g->member[i]];
        for (size_t k = 0; k < m->nfig && g->nstat < FLEET_FIGURES; k++)
            if (!has_stat(g, m->fig[k].name))
                stat_of(f, g, &m->fig[k], &g->stat[g->nstat++]);
    }
    qsort(g->stat, g->nstat, sizeof(g->stat[0]), by_rank);
    group_common(f, g);
}

/* A group too small to judge is held against the largest judged group of the same CPU. */
static void choose_against(struct fleet *f)
{
    for (size_t g = 0; g < f->ngroups; g++) {
        struct fleet_group *a = &f->group[g];
        a->against = a->n >= FLEET_JUDGE_MIN ? (int)g : -1;
        for (size_t h = 0; a->n < FLEET_JUDGE_MIN && h < f->ngroups; h++) {
            const struct fleet_group *b = &f->group[h];
            if (b->n >= FLEET_JUDGE_MIN && strcmp(a->cpu_model, b->cpu_model) == 0 &&
                (a->against < 0 || b->n > f->group[a->against].n))
                a->against = (int)h;
        }
    }
}

static size_t add_text(char *out, size_t cap, size_t n, const char *fmt, const char *a,
                       const char *b)
{
    if (n >= cap)
        return n;
    return n + (size_t)snprintf(out + n, cap - n, fmt, n ? "; " : "", a, b);
}

/* The identity differences between a machine and what its group (or the reference) has. */
static void fleet_explain(const struct fleet_identity *id, const struct fleet_identity *c,
                          char *out, size_t cap)
{
    size_t n = 0;
    char a[32], b[32];
    out[0] = '\0';
    if (id->dimm_count >= 0 && c->dimm_count >= 0 && id->dimm_count != c->dimm_count) {
        snprintf(a, sizeof(a), "%d", id->dimm_count);
        snprintf(b, sizeof(b), "%d", c->dimm_count);
        n = add_text(out, cap, n,
                     id->dimm_count < c->dimm_count ? "%sfewer DIMMs: %s where the group has %s"
                                                    : "%smore DIMMs: %s where the group has %s",
                     a, b);
    }
    if (id->dimm_part[0] && c->dimm_part[0] && strcmp(id->dimm_part, c->dimm_part) != 0)
        n = add_text(out, cap, n, "%sa different DIMM part: %s, the group's %s", id->dimm_part,
                     c->dimm_part);
    if (id->dimm_speed && c->dimm_speed && id->dimm_speed != c->dimm_speed) {
        snprintf(a, sizeof(a), "%u", id->dimm_speed);
        snprintf(b, sizeof(b), "%u", c->dimm_speed);
        n = add_text(out, cap, n, "%sDIMMs at %s MT/s, the group's at %s", a, b);
    }
    if (id->firmware[0] && c->firmware[0] && strcmp(id->firmware, c->firmware) != 0)
        n = add_text(out, cap, n, "%sother firmware: %s, the group's %s", id->firmware,
                     c->firmware);
    if (id->microcode[0] && c->microcode[0] && strcmp(id->microcode, c->microcode) != 0)
        n = add_text(out, cap, n, "%sother microcode: %s, the group's %s", id->microcode,
                     c->microcode);
    if (id->encryption[0] && c->encryption[0] && strcmp(id->encryption, c->encryption) != 0)
        n = add_text(out, cap, n, "%smemory encryption %s, the group's %s", id->encryption,
                     c->encryption);
    if (!n)
        snprintf(out, cap,
                 "no difference in the recorded identity (firmware, microcode, "
                 "memory encryption, DIMMs): look at the machine itself");
}

static const char *direction(const struct fleet_stat *st, double v)
{
    bool above = v > st->median;
    if (st->better == FLEET_BETTER_NEITHER)
        return above ? "larger" : "smaller";
    return above == (st->better == FLEET_BETTER_HIGHER) ? "better" : "worse";
}

/* Flag machine i's figures outside group g's envelopes (against: how the flag names it). */
static void fleet_flag_against(struct fleet *f, size_t i, const struct fleet_group *g,
                               const char *against)
{
    const struct fleet_machine *m = &f->machine[i];
    for (size_t s = 0; s < g->nstat; s++) {
        const struct fleet_stat *st = &g->stat[s];
        const struct fleet_figure *x = fleet_figure_of(m, st->name);
        if (!x || (x->value >= st->lo && x->value <= st->hi) || f->nflags >= FLEET_FLAGS)
            continue;
        struct fleet_flag *fl = &f->flag[f->nflags++];
        fl->machine = i;
        snprintf(fl->figure, sizeof(fl->figure), "%s", st->name);
        snprintf(fl->unit, sizeof(fl->unit), "%s", st->unit);
        fl->value = x->value;
        fl->median = st->median;
        fl->lo = st->lo;
        fl->hi = st->hi;
        snprintf(fl->against, sizeof(fl->against), "%s", against);
        snprintf(fl->direction, sizeof(fl->direction), "%s", direction(st, x->value));
        fleet_explain(&m->id, &g->common, fl->explain, sizeof(fl->explain));
    }
}

void fleet_judge(struct fleet *f)
{
    f->ngroups = 0;
    f->nflags = 0;
    for (size_t i = 0; i < f->nmachines; i++) {
        size_t g = group_of(f, &f->machine[i]);
        f->machine[i].group = (int)g;
        if (f->group[g].n < FLEET_MACHINES)
            f->group[g].member[f->group[g].n++] = i;
    }
    for (size_t g = 0; g < f->ngroups; g++)
        group_stats(f, &f->group[g]);
    choose_against(f);
    for (size_t i = 0; i < f->nmachines; i++) {
        int a = f->group[f->machine[i].group].against;
        char name[FLEET_TEXT];
        if (a < 0)
            continue;
        snprintf(name, sizeof(name), "group %d", a + 1);
        fleet_flag_against(f, i, &f->group[a], name);
    }
}

void fleet_judge_reference(struct fleet *f)
{
    char name[FLEET_TEXT + 16];
    snprintf(name, sizeof(name), "the reference %s", f->reference_path);
    for (size_t i = 0; f->has_reference && i < f->nmachines; i++)
        fleet_flag_against(f, i, &f->reference, name);
}
