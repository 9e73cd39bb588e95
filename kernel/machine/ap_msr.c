// SPDX-License-Identifier: MIT
// Per-core MSR settings (prefetchers off, DE_CFG[1]) applied on each other processor for its
// work and restored after it, with what every processor found and did.
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

/* Set want's bits on this processor for one piece of work, recording what came of it in r. */
static void apply_one(const struct ap_msr_want *want, struct ap_msr_record *r,
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
        return;
    }
    if (!r->read) {
        r->read = true;
        r->found = before;
    }
    if ((before & want->bits) == want->bits) {
        r->already++;
        return;
    }
    if (!ops->write(ops->ctx, want->msr, before | want->bits) ||
        !ops->read(ops->ctx, want->msr, &after) || (after & want->bits) != want->bits) {
        ops->write(ops->ctx, want->msr, before); /* a partial change is not left behind */
        uint64_t held = bit_by_bit(want, ops, before);
        if (!held) {
            r->not_stuck++;
            return;
        }
        r->partly++;
        r->partly_bits = held;
    } else {
        r->set++;
    }
    h->changed[w] = true;
    h->msr[w] = want->msr;
    h->saved[w] = before;
}

void ap_msr_apply(struct ap_msr_book *b, unsigned slot, unsigned cpu_id,
                  const struct ap_msr_ops *ops, struct ap_msr_held *h)
{
    struct ap_msr_record unbooked[AP_MSR_SETTINGS]; /* beyond the book: done, not recorded */
    struct ap_msr_record *rec = slot < PLAT_CPUS_MAX ? b->rec[slot] : unbooked;
    kmemset(h, 0, sizeof(*h));
    kmemset(unbooked, 0, sizeof(unbooked));
    if (slot < PLAT_CPUS_MAX) {
        b->used[slot] = true;
        b->cpu_id[slot] = cpu_id;
    }
    for (unsigned w = 0; w < AP_MSR_SETTINGS; w++)
        if (b->want[w].msr)
            apply_one(&b->want[w], &rec[w], ops, h, w);
}

void ap_msr_restore(struct ap_msr_book *b, unsigned slot, const struct ap_msr_ops *ops,
                    const struct ap_msr_held *h)
{
    for (unsigned w = 0; w < AP_MSR_SETTINGS; w++) {
        if (!h->changed[w])
            continue;
        uint64_t now;
        if (!ops->write(ops->ctx, h->msr[w], h->saved[w]) ||
            !ops->read(ops->ctx, h->msr[w], &now) || now != h->saved[w]) {
            if (slot < PLAT_CPUS_MAX)
                b->rec[slot][w].restore_failed++;
        }
    }
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
