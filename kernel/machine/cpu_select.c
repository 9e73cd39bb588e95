// SPDX-License-Identifier: MIT
// Which processors an experiment uses: those the user named (all, P-cores or E-cores by CPUID
// leaf 0x1A's core type, a list of numbers), or when it cannot use them all, a subset spread
// over the machine's memory nodes, packages, dies and core types, one thread of each core
// before any second thread.
#include "machine/cpu_select.h"

static bool same_group(const struct plat_cpu *a, const struct plat_cpu *b)
{
    return a->node == b->node && a->package == b->package && a->die == b->die &&
           a->core_type == b->core_type;
}

/* The group of cpus[i]: the index of the first processor in its group. */
static unsigned group_of(const struct plat_cpu *cpus, unsigned i)
{
    unsigned g = 0;
    while (!same_group(&cpus[g], &cpus[i]))
        g++;
    return g;
}

/* Its place in its group's order (lost ones left out): first threads ascending, then second
 * threads, ... */
static unsigned rank_in_group(const struct plat_cpu *cpus, unsigned n, unsigned i)
{
    unsigned rank = 0;
    for (unsigned q = 0; q < n; q++)
        if (q != i && !cpus[q].lost && same_group(&cpus[q], &cpus[i]) &&
            (cpus[q].thread < cpus[i].thread || (cpus[q].thread == cpus[i].thread && q < i)))
            rank++;
    return rank;
}

/* Is cpus[i] ahead of cpus[j] in the order of choice (round, then group)? */
static bool ahead(const unsigned *rank, const unsigned *group, unsigned i, unsigned j)
{
    return rank[i] != rank[j] ? rank[i] < rank[j] : group[i] < group[j];
}

unsigned cpu_select_spread(const struct plat_cpu *cpus, unsigned n, unsigned k, unsigned *chosen)
{
    unsigned *rank = plat_alloc(n * sizeof(*rank)), *group = plat_alloc(n * sizeof(*group));
    bool *taken = plat_alloc(n * sizeof(*taken));
    unsigned m = 0;
    for (unsigned i = 0; rank && group && taken && i < n; i++) {
        rank[i] = rank_in_group(cpus, n, i);
        group[i] = group_of(cpus, i);
        if (cpus[i].bsp && !cpus[i].lost && m < k) {
            taken[i] = true;
            m++;
        }
    }
    while (rank && group && taken && m < k) {
        int best = -1; /* the next in the order of choice: a selection, fine for hundreds */
        for (unsigned i = 0; i < n; i++)
            if (!taken[i] && !cpus[i].lost && (best < 0 || ahead(rank, group, i, (unsigned)best)))
                best = (int)i;
        if (best < 0)
            break;
        taken[best] = true;
        m++;
    }
    unsigned out = 0;
    for (unsigned i = 0; taken && i < n; i++)
        if (taken[i])
            chosen[out++] = i;
    plat_free(rank);
    plat_free(group);
    plat_free(taken);
    return out;
}

bool cpu_select_named(const struct plat_cpu *c, const struct cpu_choice *want)
{
    switch (want->kind) {
    case CPU_CHOICE_P:
        return c->core_type == CPU_TYPE_CORE;
    case CPU_CHOICE_E:
        return c->core_type == CPU_TYPE_ATOM;
    case CPU_CHOICE_LIST:
        for (unsigned i = 0; i < want->n; i++)
            if (c->id >= want->lo[i] && c->id <= want->hi[i])
                return true;
        return false;
    default:
        return true;
    }
}

unsigned cpu_select(const struct plat_cpu *cpus, unsigned n, const struct cpu_choice *want,
                    unsigned spread_max, unsigned cap, unsigned *chosen)
{
    if (want->kind == CPU_CHOICE_COUNT) {
        unsigned k = want->count && want->count < spread_max ? (unsigned)want->count : spread_max;
        return cpu_select_spread(cpus, n, k < cap ? k : cap, chosen);
    }
    unsigned k = 0;
    for (unsigned i = 0; i < n && k < cap; i++)
        if (!cpus[i].lost && cpu_select_named(&cpus[i], want))
            chosen[k++] = i;
    return k;
}

unsigned cpu_choice_most(const struct cpu_choice *want, unsigned held, unsigned spread_max)
{
    unsigned n = held;
    if (want->kind == CPU_CHOICE_COUNT) {
        unsigned k = want->count && want->count < spread_max ? (unsigned)want->count : spread_max;
        n = n < k ? n : k;
    } else if (want->kind == CPU_CHOICE_LIST) {
        n = 0;
        for (unsigned i = 0; i < want->n; i++)
            n += want->lo[i] >= held
                     ? 0
                     : (want->hi[i] < held ? want->hi[i] : held - 1) - want->lo[i] + 1;
        n = n < held ? n : held;
    }
    return n ? n : 1;
}
