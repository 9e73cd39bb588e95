// SPDX-License-Identifier: MIT
// chase's own AArch64 translation tables (4 KiB granule): RAM identity-mapped with the largest
// blocks the firmware's attributes allow, the buffer with the page size and MAIR index asked.
#include "a64_tables_build.h"

#include "lib/kstring.h"

#define SIZE_4K (1ULL << 12)
#define SIZE_2M (1ULL << 21)
#define SIZE_1G (1ULL << 30)

enum fw_span { FW_UNIFORM, FW_MIXED, FW_UNMAPPED };

struct build {
    struct a64_tables *t;
    const struct a64_plan *p;
    bool full, failed;
    char *why;
    unsigned why_cap;
};

static uint64_t *table_at(uint64_t pa)
{
    return (uint64_t *)(uintptr_t)pa;
}

static uint64_t new_table(struct build *b)
{
    if (b->t->used >= b->t->pages) {
        b->full = true;
        return 0;
    }
    uint64_t *page = b->t->pool + (uint64_t)A64_ENTRIES * b->t->used++;
    kmemset(page, 0, A64_GRANULE_BYTES);
    return (uint64_t)(uintptr_t)page;
}

static unsigned shift_of(unsigned level)
{
    return 12 + 9 * (3 - level);
}

/*
 * The firmware's attributes over [a, a + size): one set over identity-mapped leaves (uniform),
 * mixed, or not mapped at a (*hole: the size of the unmapped, aligned region around a). Outside
 * the buffer a leaf of chase's is never larger than the firmware's there, so that no address
 * the window's code or stack uses can have TLB entries of two sizes while TTBR0 is switched (a
 * TLB conflict abort, Arm ARM D8.16.1); the buffer is touched only after the TLB invalidation.
 */
static enum fw_span fw_attrs(struct build *b, uint64_t a, uint64_t size, bool in_buffer,
                             uint64_t *attrs, uint64_t *hole)
{
    const struct a64_plan *p = b->p;
    for (uint64_t x = a; x < a + size;) {
        struct a64_leaf l;
        if (!a64_walk(p->fw_ttbr, p->tcr, x, p->read, p->ctx, &l, b->why, b->why_cap)) {
            b->failed = true;
            return FW_MIXED;
        }
        if (!l.mapped && x == a) {
            *hole = l.bytes;
            return FW_UNMAPPED;
        }
        if (!l.mapped || l.out != x || (!in_buffer && l.bytes < size))
            return FW_MIXED; /* outside the buffer no leaf is larger than the firmware's */
        uint64_t at = l.desc & A64_DESC_ATTRS;
        if (x != a && at != *attrs)
            return FW_MIXED;
        *attrs = at;
        x = (x & ~(l.bytes - 1)) + l.bytes;
    }
    return FW_UNIFORM;
}

/* Whether [a, a + size) may be one leaf as far as the buffer goes: wholly outside it, or
   inside it and no larger than its page. *in says which. */
static bool buffer_allows(const struct a64_plan *p, uint64_t a, uint64_t size, bool *in)
{
    uint64_t bb = p->buffer_base, be = p->buffer_base + p->buffer_bytes;
    *in = a >= bb && a + size <= be;
    bool outside = a + size <= bb || a >= be;
    return outside || (*in && size <= p->buffer_page);
}

static void map_leaf(struct build *b, uint64_t va, unsigned level, uint64_t desc)
{
    uint64_t table = b->t->root;
    for (unsigned l = b->t->start; l < level; l++) {
        uint64_t *e = &table_at(table)[(va >> shift_of(l)) & (A64_ENTRIES - 1)];
        if (!(*e & A64_DESC_VALID)) {
            uint64_t n = new_table(b);
            if (!n)
                return;
            *e = n | A64_DESC_VALID | A64_DESC_TABLE;
        }
        table = *e & A64_DESC_OA_MASK;
    }
    table_at(table)[(va >> shift_of(level)) & (A64_ENTRIES - 1)] = desc;
}

/* Map the largest leaf that fits at a (below end), or skip the firmware's hole there; returns
   the next address to map. */
static uint64_t map_step(struct build *b, uint64_t a, uint64_t end)
{
    static const uint64_t sizes[] = {SIZE_1G, SIZE_2M, SIZE_4K};
    for (unsigned i = 0; i < 3; i++) {
        uint64_t size = sizes[i], attrs = 0, hole = 0;
        unsigned level = 1 + i;
        bool in;
        if (level < b->t->start || (a & (size - 1)) || a + size > end ||
            !buffer_allows(b->p, a, size, &in))
            continue;
        enum fw_span span = fw_attrs(b, a, size, in, &attrs, &hole);
        if (span == FW_UNMAPPED) /* what the firmware does not map, chase does not either */
            return (a & ~(hole - 1)) + hole;
        if (span == FW_MIXED && size != SIZE_4K)
            continue;
        if (span == FW_UNIFORM) {
            if (in)
                attrs = (attrs & ~(A64_DESC_ATTRINDX_MASK << A64_DESC_ATTRINDX_SHIFT)) |
                        ((uint64_t)b->p->wb_indx << A64_DESC_ATTRINDX_SHIFT);
            map_leaf(b, a, level, a | attrs | A64_DESC_VALID | (level == 3 ? A64_DESC_TABLE : 0));
        }
        return a + size;
    }
    return a + SIZE_4K; /* cannot happen: ranges are 4 KiB-aligned */
}

int a64_tables_build(struct a64_tables *t, const struct a64_plan *plan, bool *need_more, char *why,
                     unsigned why_cap)
{
    struct build b = {t, plan, false, false, why, why_cap};
    *need_more = false;
    int start = a64_start_level(64 - (unsigned)(plan->tcr & A64_TCR_T0SZ_MASK));
    if (start < 0 || plan->buffer_page == 0) {
        kstrlcpy(why, "TCR.T0SZ or the buffer's page size is out of range", why_cap);
        return -1;
    }
    t->start = (unsigned)start;
    t->used = 0;
    t->root = new_table(&b);
    for (unsigned r = 0; t->root && r < plan->nranges && !b.full && !b.failed; r++) {
        uint64_t end = plan->base[r] + plan->bytes[r];
        for (uint64_t a = plan->base[r] & ~(SIZE_4K - 1); a < end && !b.full && !b.failed;)
            a = map_step(&b, a, end);
    }
    *need_more = b.full || !t->root;
    if (*need_more)
        kstrlcpy(why, "the pool for chase's translation tables is too small", why_cap);
    return b.full || b.failed || !t->root ? -1 : 0;
}
