// SPDX-License-Identifier: MIT
// Per-core MSR settings (prefetchers off, DE_CFG[1]) applied on each other processor for its
// work and restored after it, once per core where the MSR is the core's, with what every
// processor found and did.
//
// MSR 0x1A4, DE_CFG and AMD's prefetch control have core scope on many models: two threads of
// a core at work together share one value, and the first to finish must not give it back under
// the other. Which scope a model has is not in a table chase can trust, so it is seen: a thread
// that finds set the bits its sibling (at work) set learns the MSR is the core's; the one that
// set them then leaves its restore to the last of them. Where the sibling finds them clear the
// MSR is the thread's, and each restores its own.
#include "machine/ap_msr.h"

#include "lib/fmt.h"
#include "lib/kstring.h"

struct ap_msr_book *ap_msr_book(void)
{
    /* Hardware bookkeeping, like the windows' counters: one machine, one book per run. */
    static struct ap_msr_book book;
    return &book;
}

void ap_msr_want(struct ap_msr_book *b, enum ap_msr_which w, uint32_t msr, uint64_t bits)
{
    if (w >= AP_MSR_SETTINGS)
        return;
    b->want[w].msr = bits ? msr : 0;
    b->want[w].bits = msr ? bits : 0;
}

/*
 * Where the bits together fail (a core of another type in a hybrid CPU may define fewer of
 * them), each bit alone: returns the bits of want that hold now (0: none; the MSR as before).
 */
static uint64_t bit_by_bit(const struct ap_msr_want *want, const struct ap_msr_ops *ops,
                           uint64_t before)
{
    uint64_t cur = before, after;
    for (unsigned i = 0; i < 64; i++) {
        uint64_t bit = 1ULL << i;
        if (!(want->bits & bit) || (cur & bit))
            continue;
        if (ops->write(ops->ctx, want->msr, cur | bit) && ops->read(ops->ctx, want->msr, &after) &&
            (after & bit))
            cur |= bit;
        else
            ops->write(ops->ctx, want->msr, cur);
    }
    return cur == before ? 0 : cur & want->bits;
}

/* Set want's bits on this processor for one piece of work, recording what came of it in r;
   true when they were found set. */
static bool apply_one(const struct ap_msr_want *want, struct ap_msr_record *r,
                      const struct ap_msr_ops *ops, struct ap_msr_held *h, unsigned w)
{
    uint64_t before, after;
    if (r->msr != want->msr || r->bits != want->bits) {
        kmemset(r, 0, sizeof(*r)); /* a new setting: a new record */
        r->msr = want->msr;
        r->bits = want->bits;
    }
    if (!ops->read(ops->ctx, want->msr, &before)) {
        r->unreadable++;
        return false;
    }
    if (!r->read) {
        r->read = true;
        r->found = before;
    }
    if ((before & want->bits) == want->bits) {
        r->already++;
        return true;
    }
    if (!ops->write(ops->ctx, want->msr, before | want->bits) ||
        !ops->read(ops->ctx, want->msr, &after) || (after & want->bits) != want->bits) {
        ops->write(ops->ctx, want->msr, before); /* a partial change is not left behind */
        uint64_t held = bit_by_bit(want, ops, before);
        if (!held) {
            r->not_stuck++;
            return false;
        }
        r->partly++;
        r->partly_bits = held;
    } else {
        r->set++;
    }
    h->changed[w] = true;
    h->msr[w] = want->msr;
    h->saved[w] = before;
    return false;
}

uint64_t ap_msr_core_key(const struct plat_cpu *c)
{
    /* package, die and core within them: 20 bits each hold every count CPUID can encode here */
    return ((uint64_t)c->package << 40 | (uint64_t)(c->die & 0xfffff) << 20 | (c->core & 0xfffff)) +
           1;
}

static void book_lock(struct ap_msr_book *b)
{
    while (__atomic_exchange_n(&b->lock, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(&b->lock, __ATOMIC_RELAXED))
            ;
}

static void book_unlock(struct ap_msr_book *b)
{
    __atomic_store_n(&b->lock, 0, __ATOMIC_RELEASE);
}

/* The entry of core key (a free one taken, cleared); -1 when the table is full. Locked. */
static int core_entry(struct ap_msr_book *b, uint64_t key)
{
    int free_at = -1;
    for (int i = 0; i < AP_MSR_CORES_MAX; i++) {
        if (b->core[i].key == key)
            return i;
        if (free_at < 0 && !b->core[i].key)
            free_at = i;
    }
    if (free_at >= 0) {
        kmemset(&b->core[free_at], 0, sizeof(b->core[free_at]));
        b->core[free_at].key = key;
    }
    return free_at;
}

/* What this thread's apply tells its core about setting w (locked). */
static void core_note_apply(struct ap_msr_core *k, struct ap_msr_record *r,
                            const struct ap_msr_held *h, unsigned w, unsigned slot, bool found_set)
{
    if (h->changed[w] && !k->changer[w]) {
        k->changer[w] = (int)slot + 1;
        k->msr[w] = h->msr[w];
        k->saved[w] = h->saved[w];
    } else if (found_set && k->changer[w]) {
        k->shared[w] = true; /* the bits a sibling set, seen here: one value for the core */
        r->shared_found++;
    }
}

void ap_msr_apply(struct ap_msr_book *b, unsigned slot, unsigned cpu_id, uint64_t core,
                  const struct ap_msr_ops *ops, struct ap_msr_held *h)
{
    struct ap_msr_record unbooked[AP_MSR_SETTINGS]; /* beyond the book: done, not recorded */
    struct ap_msr_record *rec = slot < PLAT_CPUS_MAX ? b->rec[slot] : unbooked;
    kmemset(h, 0, sizeof(*h));
    kmemset(unbooked, 0, sizeof(unbooked));
    book_lock(b);
    h->core = core_entry(b, core);
    struct ap_msr_core *k = h->core >= 0 ? &b->core[h->core] : NULL;
    if (k)
        k->users++;
    if (slot < PLAT_CPUS_MAX) {
        b->used[slot] = true;
        b->cpu_id[slot] = cpu_id;
    }
    for (unsigned w = 0; w < AP_MSR_SETTINGS; w++) {
        if (!b->want[w].msr)
            continue;
        bool found_set = apply_one(&b->want[w], &rec[w], ops, h, w);
        if (k)
            core_note_apply(k, &rec[w], h, w, slot, found_set);
    }
    book_unlock(b);
}

/* Write value back into msr; false when that faulted or did not hold. */
static bool write_back(const struct ap_msr_ops *ops, uint32_t msr, uint64_t value)
{
    uint64_t now;
    return ops->write(ops->ctx, msr, value) && ops->read(ops->ctx, msr, &now) && now == value;
}

/* Setting w at this thread's restore, its core k (NULL: none followed): whether to write back
   now, and what (locked). */
static bool core_restore_one(struct ap_msr_core *k, struct ap_msr_record *r,
                             const struct ap_msr_held *h, unsigned w, uint32_t *msr, uint64_t *v)
{
    *msr = h->msr[w];
    *v = h->saved[w];
    if (!k)
        return h->changed[w];
    if (h->changed[w] && k->shared[w] && k->users) { /* a sibling still measures: it restores */
        k->pending[w] = true;
        r->restore_left++;
        return false;
    }
    if (!h->changed[w] && !(k->pending[w] && !k->users))
        return false;
    if (!h->changed[w]) { /* the last of the core: the value its sibling found */
        *msr = k->msr[w];
        *v = k->saved[w];
        r->restore_taken++;
    }
    k->pending[w] = k->shared[w] = false;
    k->changer[w] = 0;
    return true;
}

void ap_msr_restore(struct ap_msr_book *b, unsigned slot, const struct ap_msr_ops *ops,
                    const struct ap_msr_held *h)
{
    struct ap_msr_record unbooked[AP_MSR_SETTINGS];
    struct ap_msr_record *rec = slot < PLAT_CPUS_MAX ? b->rec[slot] : unbooked;
    kmemset(unbooked, 0, sizeof(unbooked));
    book_lock(b);
    struct ap_msr_core *k = h->core >= 0 ? &b->core[h->core] : NULL;
    if (k)
        k->users--;
    for (unsigned w = 0; w < AP_MSR_SETTINGS; w++) {
        uint32_t msr;
        uint64_t v;
        if (core_restore_one(k, &rec[w], h, w, &msr, &v) && !write_back(ops, msr, v))
            rec[w].restore_failed++;
    }
    if (k && !k->users)
        k->key = 0; /* all its threads are done: the entry is free again */
    book_unlock(b);
}

void ap_msr_summary(const struct ap_msr_book *b, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = 0;
    for (unsigned w = 0; w < AP_MSR_SETTINGS; w++) {
        unsigned asked = 0, set = 0, kept_not = 0, unreadable = 0, unrestored = 0, partly = 0;
        const struct ap_msr_record *last = NULL;
        for (unsigned i = 0; i < PLAT_CPUS_MAX; i++) {
            const struct ap_msr_record *r = &b->rec[i][w];
            if (!b->used[i] || !r->msr)
                continue;
            last = r;
            asked++;
            set += r->set > 0;
            kept_not += r->not_stuck > 0;
            unreadable += r->unreadable > 0;
            unrestored += r->restore_failed > 0;
            partly += r->partly > 0;
        }
        if (!asked || n >= cap)
            continue;
        n += (size_t)ksnprintf(out + n, cap - n,
                               "  per core   %s (MSR 0x%x bits 0x%llx) on the other processors: "
                               "set for their work on %u, not kept on %u, unreadable on %u, not "
                               "restored on %u",
                               ap_msr_name(w), last->msr, (unsigned long long)last->bits, set,
                               kept_not, unreadable, unrestored);
        if (partly && n < cap)
            n += (size_t)ksnprintf(out + n, cap - n, ", only some of the bits on %u", partly);
        if (n < cap)
            n += (size_t)ksnprintf(out + n, cap - n, " (of %u)\n", asked);
    }
}

const char *ap_msr_name(enum ap_msr_which w)
{
    return w == AP_MSR_DE_CFG ? "de_cfg" : w == AP_MSR_PREFETCH ? "prefetch" : "unknown";
}
