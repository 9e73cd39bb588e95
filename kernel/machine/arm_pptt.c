// SPDX-License-Identifier: MIT
// The ACPI PPTT (Processor Properties Topology Table): processors, clusters and their caches.
#include "machine/arm_pptt.h"

#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/acpi.h"

#define PPTT_WALK_MAX 32 /* parents or next levels followed before a loop is assumed */

static uint16_t rd16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

/* The bytes structure type needs (0: unknown type, any length of at least 2). */
static unsigned needed_bytes(const uint8_t *s, uint8_t revision)
{
    if (s[0] == PPTT_TYPE_CACHE)
        return revision >= PPTT_REVISION_CACHE_ID ? PPTT_CACHE_BYTES_REV3 : PPTT_CACHE_BYTES;
    return s[0] == PPTT_TYPE_PROCESSOR ? PPTT_PROCESSOR_BYTES : 0;
}

static void read_node(const uint8_t *s, uint32_t at, struct pptt_node *n)
{
    uint32_t count = acpi_rd32(s + 16);
    kmemset(n, 0, sizeof(*n));
    n->offset = at;
    n->flags = acpi_rd32(s + 4);
    n->parent = acpi_rd32(s + 8);
    n->acpi_id = acpi_rd32(s + 12);
    n->n_private = count < PPTT_PRIVATE_MAX ? count : PPTT_PRIVATE_MAX;
    for (unsigned i = 0; i < n->n_private; i++)
        n->private_res[i] = acpi_rd32(s + PPTT_PROCESSOR_BYTES + 4 * i);
}

static void read_cache(const uint8_t *s, uint32_t at, uint8_t revision, struct pptt_cache *c)
{
    kmemset(c, 0, sizeof(*c));
    c->offset = at;
    c->flags = acpi_rd32(s + 4);
    c->next_level = acpi_rd32(s + 8);
    c->size_bytes = acpi_rd32(s + 12);
    c->sets = acpi_rd32(s + 16);
    c->ways = s[20];
    c->attributes = s[21];
    c->line_bytes = rd16(s + 22);
    if (revision >= PPTT_REVISION_CACHE_ID)
        c->cache_id = acpi_rd32(s + 24);
    else
        c->flags &= ~PPTT_CACHE_ID_VALID; /* the field does not exist before revision 3 */
}

/* Read one structure at `at` (len bytes, checked); false with why when it is malformed. */
static bool read_struct(const uint8_t *t, uint32_t at, uint32_t len, struct pptt *p, char *why,
                        size_t why_cap)
{
    const uint8_t *s = t + at;
    unsigned slen = at + 1 < len ? s[1] : 0, need = needed_bytes(s, p->revision);
    if (slen < 2 || slen > len - at || (need && slen < need)) {
        ksnprintf(why, why_cap,
                  "PPTT structure at byte %u (type %u) has length %u: it must be at least %u and "
                  "end within the table's %u bytes",
                  at, s[0], slen, need ? need : 2, len);
        return false;
    }
    if (s[0] == PPTT_TYPE_PROCESSOR) {
        uint32_t count = acpi_rd32(s + 16);
        if (count > (slen - PPTT_PROCESSOR_BYTES) / 4) {
            ksnprintf(why, why_cap,
                      "PPTT processor node at byte %u lists %u private resources in %u bytes", at,
                      count, slen);
            return false;
        }
        if (p->n_nodes == PPTT_NODES_MAX) {
            ksnprintf(why, why_cap, "PPTT has more than %u processor nodes", PPTT_NODES_MAX);
            return false;
        }
        read_node(s, at, &p->nodes[p->n_nodes++]);
    } else if (s[0] == PPTT_TYPE_CACHE) {
        if (p->n_caches == PPTT_CACHES_MAX) {
            ksnprintf(why, why_cap, "PPTT has more than %u caches", PPTT_CACHES_MAX);
            return false;
        }
        read_cache(s, at, p->revision, &p->caches[p->n_caches++]);
    }
    return true;
}

static const struct pptt_node *node_at(const struct pptt *p, uint32_t offset)
{
    for (unsigned i = 0; i < p->n_nodes; i++)
        if (p->nodes[i].offset == offset)
            return &p->nodes[i];
    return NULL;
}

static const struct pptt_cache *cache_at(const struct pptt *p, uint32_t offset)
{
    for (unsigned i = 0; i < p->n_caches; i++)
        if (p->caches[i].offset == offset)
            return &p->caches[i];
    return NULL;
}

/* Every reference leads to a structure of the right type; false with why at the first not. */
static bool check_references(const struct pptt *p, char *why, size_t why_cap)
{
    for (unsigned i = 0; i < p->n_nodes; i++) {
        const struct pptt_node *n = &p->nodes[i];
        if (n->parent && !node_at(p, n->parent)) {
            ksnprintf(why, why_cap, "PPTT node at byte %u names parent %u, not a processor node",
                      n->offset, n->parent);
            return false;
        }
        for (unsigned r = 0; r < n->n_private; r++)
            if (!node_at(p, n->private_res[r]) && !cache_at(p, n->private_res[r])) {
                ksnprintf(why, why_cap,
                          "PPTT node at byte %u names private resource %u, not a structure",
                          n->offset, n->private_res[r]);
                return false;
            }
    }
    for (unsigned i = 0; i < p->n_caches; i++) {
        const struct pptt_cache *c = &p->caches[i];
        if (c->next_level && !cache_at(p, c->next_level)) {
            ksnprintf(why, why_cap, "PPTT cache at byte %u names next level %u, not a cache",
                      c->offset, c->next_level);
            return false;
        }
    }
    return true;
}

bool pptt_parse(const void *table, size_t buf_len, struct pptt *p, char *why, size_t why_cap)
{
    const uint8_t *t = table;
    kmemset(p, 0, sizeof(*p));
    if (buf_len < PPTT_FIRST_STRUCT) {
        ksnprintf(why, why_cap, "PPTT buffer is %u bytes, shorter than the %u-byte header",
                  (unsigned)buf_len, PPTT_FIRST_STRUCT);
        return false;
    }
    uint32_t len = acpi_rd32(t + 4);
    if (kmemcmp(t, "PPTT", 4) != 0 || len < PPTT_FIRST_STRUCT || len > buf_len) {
        ksnprintf(why, why_cap,
                  "not a PPTT of %u bytes or fewer: signature %.4s, length %u (header %u)",
                  (unsigned)buf_len, (const char *)t, len, PPTT_FIRST_STRUCT);
        return false;
    }
    p->revision = t[8];
    for (uint32_t at = PPTT_FIRST_STRUCT; at < len; at += t[at + 1])
        if (!read_struct(t, at, len, p, why, why_cap))
            return false;
    return check_references(p, why, why_cap);
}

/* Add c at level to out unless listed already; returns the new count. */
static unsigned add_cache(struct pptt_cpu_cache *out, unsigned n, unsigned cap,
                          const struct pptt_cache *c, unsigned level)
{
    for (unsigned i = 0; i < n; i++)
        if (out[i].cache == c)
            return n;
    if (n < cap) {
        out[n].cache = c;
        out[n].level = level;
        n++;
    }
    return n;
}

/* List node's private caches and their chains from level first; returns the deepest level. */
static unsigned node_caches(const struct pptt *p, const struct pptt_node *node, unsigned first,
                            struct pptt_cpu_cache *out, unsigned *n, unsigned cap)
{
    unsigned deepest = first - 1;
    for (unsigned r = 0; r < node->n_private; r++) {
        const struct pptt_cache *c = cache_at(p, node->private_res[r]);
        for (unsigned level = first; c && level < first + PPTT_WALK_MAX; level++) {
            *n = add_cache(out, *n, cap, c, level);
            deepest = level > deepest ? level : deepest;
            c = c->next_level ? cache_at(p, c->next_level) : NULL;
        }
    }
    return deepest;
}

int pptt_cpu_caches(const struct pptt *p, uint32_t acpi_id, struct pptt_cpu_cache *out,
                    unsigned cap)
{
    const struct pptt_node *node = NULL;
    for (unsigned i = 0; i < p->n_nodes && !node; i++)
        if ((p->nodes[i].flags & (PPTT_IS_LEAF | PPTT_ACPI_ID_VALID)) ==
                (PPTT_IS_LEAF | PPTT_ACPI_ID_VALID) &&
            p->nodes[i].acpi_id == acpi_id)
            node = &p->nodes[i];
    if (!node)
        return -1;
    unsigned n = 0, level = 0;
    for (unsigned up = 0; node && up < PPTT_WALK_MAX; up++) {
        level = node_caches(p, node, level + 1, out, &n, cap);
        node = node->parent ? node_at(p, node->parent) : NULL;
    }
    return (int)n;
}

unsigned pptt_cache_sharers(const struct pptt *p, uint32_t cache_offset)
{
    struct pptt_cpu_cache list[PPTT_CPU_CACHES_MAX];
    unsigned sharers = 0;
    for (unsigned i = 0; i < p->n_nodes; i++) {
        if (!(p->nodes[i].flags & PPTT_IS_LEAF) || !(p->nodes[i].flags & PPTT_ACPI_ID_VALID))
            continue;
        int n = pptt_cpu_caches(p, p->nodes[i].acpi_id, list, PPTT_CPU_CACHES_MAX);
        for (int k = 0; k < n; k++)
            if (list[k].cache->offset == cache_offset) {
                sharers++;
                break;
            }
    }
    return sharers;
}

enum pptt_cache_type pptt_cache_type_of(const struct pptt_cache *c)
{
    if (!(c->flags & PPTT_CACHE_TYPE_VALID))
        return PPTT_CACHE_UNIFIED;
    unsigned t = (c->attributes >> PPTT_ATTR_TYPE_SHIFT) & PPTT_ATTR_TYPE_MASK;
    return t == 0 ? PPTT_CACHE_DATA : t == 1 ? PPTT_CACHE_INSTRUCTION : PPTT_CACHE_UNIFIED;
}

bool pptt_cache_groups(const struct pptt *p, uint32_t acpi_id, uint32_t *l2, uint32_t *l3)
{
    struct pptt_cpu_cache list[PPTT_CPU_CACHES_MAX];
    int n = pptt_cpu_caches(p, acpi_id, list, PPTT_CPU_CACHES_MAX);
    *l2 = *l3 = 0;
    for (int i = 0; i < n; i++) {
        if (pptt_cache_type_of(list[i].cache) == PPTT_CACHE_INSTRUCTION)
            continue;
        if (list[i].level == 2 && !*l2)
            *l2 = list[i].cache->offset;
        if (list[i].level == 3 && !*l3)
            *l3 = list[i].cache->offset;
    }
    return n > 0;
}
