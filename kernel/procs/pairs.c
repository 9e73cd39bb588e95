// SPDX-License-Identifier: MIT
// Which ordered pairs of processors c2c measures: every pair up to a count, beyond it a sample
// in which every package, die, node and core type is represented.
//
// Over 64 processors the pairs grow as n^2 (9,120 at 96, 36,672 at 192) while the relations
// they can show are few: same core, shared L2, shared L3, same package, and which packages,
// dies, nodes and core types. So a sample takes, in order, one pair for every ordered pair of
// places, each place's first processor with its nearest relations, a ring that has every
// processor time once and answer once, and seeded random pairs for the spread within a relation.
#include "procs/pairs.h"

#include "lib/kstring.h"
#include "lib/rng.h"
#include "platform.h"

/* The plan under construction: a bitmap of the pairs taken, the list, its room. */
struct plan {
    const struct mp_cpu *cpus;
    unsigned n;
    uint8_t *taken;
    struct pair *out;
    size_t len, max;
};

static bool usable(const struct plan *p, unsigned i)
{
    return !p->cpus[i].p.lost;
}

/* Take pair (a, b) unless it is one already, a processor with itself, or there is no room. */
static bool take(struct plan *p, unsigned a, unsigned b)
{
    size_t bit = (size_t)a * p->n + b;
    if (a == b || p->len >= p->max || !usable(p, a) || !usable(p, b) ||
        (p->taken[bit / 8] & (1u << (bit % 8))))
        return false;
    p->taken[bit / 8] |= (uint8_t)(1u << (bit % 8));
    p->out[p->len++] = (struct pair){a, b};
    return true;
}

static bool same_place(const struct plat_cpu *x, const struct plat_cpu *y)
{
    return x->node == y->node && x->package == y->package && x->die == y->die &&
           x->core_type == y->core_type;
}

/* The first usable processor of i's place (itself when it is). */
static unsigned place_first(const struct plan *p, unsigned i)
{
    for (unsigned j = 0; j < i; j++)
        if (usable(p, j) && same_place(&p->cpus[j].p, &p->cpus[i].p))
            return j;
    return i;
}

/* Sort out[from..len) timer by timer (insertion: the parts are small, or already in order). */
static void sort_rows(struct plan *p, size_t from)
{
    for (size_t i = from + 1; i < p->len; i++) {
        struct pair x = p->out[i];
        size_t j = i;
        for (; j > from &&
               (p->out[j - 1].a > x.a || (p->out[j - 1].a == x.a && p->out[j - 1].b > x.b));
             j--)
            p->out[j] = p->out[j - 1];
        p->out[j] = x;
    }
}

/* How r relates to f (its place's first): 0 same core, 1 its L2, 2 its L3, 3 nothing. */
static unsigned relation(const struct mp_cpu *f, const struct mp_cpu *r)
{
    return r->p.core == f->p.core       ? 0
           : r->l2_group == f->l2_group ? 1
           : r->l3_group == f->l3_group ? 2
                                        : 3;
}

/* In each place: its first processor with the first other of each relation, both ways. */
static size_t take_within(struct plan *p)
{
    size_t before = p->len;
    for (unsigned f = 0; f < p->n; f++) {
        if (!usable(p, f) || place_first(p, f) != f)
            continue;
        bool seen[4] = {false};
        for (unsigned r = f + 1; r < p->n; r++) {
            if (!usable(p, r) || !same_place(&p->cpus[f].p, &p->cpus[r].p))
                continue;
            unsigned rel = relation(&p->cpus[f], &p->cpus[r]);
            if (!seen[rel]) {
                seen[rel] = true;
                take(p, f, r);
                take(p, r, f);
            }
        }
    }
    return p->len - before;
}

/* Every ordered pair of places: their first processors. Returns the places' count in *places. */
static size_t take_between(struct plan *p, size_t *places)
{
    size_t before = p->len;
    *places = 0;
    for (unsigned f = 0; f < p->n; f++) {
        if (!usable(p, f) || place_first(p, f) != f)
            continue;
        ++*places;
        for (unsigned g = 0; g < p->n; g++)
            if (g != f && usable(p, g) && place_first(p, g) == g)
                take(p, f, g);
    }
    return p->len - before;
}

/* A ring through the usable processors: each times its successor once. */
static size_t take_ring(struct plan *p)
{
    size_t before = p->len;
    for (unsigned i = 0; i < p->n; i++) {
        unsigned j = (i + 1) % p->n;
        while (j != i && !usable(p, j))
            j = (j + 1) % p->n;
        take(p, i, j);
    }
    return p->len - before;
}

/* Seeded random pairs up to max; bounded draws (a nearly full plan stops short). */
static size_t take_random(struct plan *p, uint64_t seed, size_t usable_pairs)
{
    size_t before = p->len;
    struct rng r;
    rng_seed(&r, seed);
    size_t want = p->max < usable_pairs ? p->max : usable_pairs;
    for (size_t tries = 0; p->len < want && tries < 64 * want; tries++)
        take(p, (unsigned)rng_below(&r, p->n), (unsigned)rng_below(&r, p->n));
    return p->len - before;
}

size_t pairs_plan(const struct mp_cpu *cpus, unsigned n, size_t max, uint64_t seed,
                  struct pair *out, struct pairs_counts *counts)
{
    struct pairs_counts c = {0};
    struct plan p = {cpus, n, plat_alloc((size_t)n * n / 8 + 1), out, 0, max};
    unsigned usable_n = 0;
    for (unsigned i = 0; i < n; i++)
        usable_n += usable(&p, i);
    if (p.taken && pairs_total(usable_n) <= max) {
        for (unsigned a = 0; a < n; a++)
            for (unsigned b = 0; b < n; b++)
                take(&p, a, b);
        c.all = true;
    } else if (p.taken) {
        c.between = take_between(&p, &c.places);
        c.within = take_within(&p);
        c.ring = take_ring(&p);
        sort_rows(&p, 0);
        size_t drawn = p.len;
        c.random = take_random(&p, seed, pairs_total(usable_n));
        sort_rows(&p, drawn);
    }
    plat_free(p.taken);
    if (counts)
        *counts = c;
    return p.len;
}
