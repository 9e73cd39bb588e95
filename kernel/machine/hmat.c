// SPDX-License-Identifier: MIT
// The ACPI HMAT (heterogeneous memory attributes): each memory domain's attached initiator, the
// latency and bandwidth the firmware advertises per initiator-target pair, memory-side caches.
#include "machine/hmat.h"

#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/acpi.h"

#define PS_PER_NS 1000.0
#define HMAT_REVISION_UNITS 2 /* ACPI 6.3's table: latency base units in ps, bandwidth in MB/s */

/* A little-endian 16-bit field. */
static unsigned rd16(const uint8_t *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

/* Type 0: a memory domain and the initiator attached to it. */
static void read_domain(const uint8_t *s, struct hmat *h)
{
    if (h->ndomains == HMAT_DOMAINS_MAX) {
        h->dropped++;
        return;
    }
    struct hmat_domain *d = &h->domain[h->ndomains++];
    d->initiator_valid = (rd16(s + 8) & HMAT_DOMAIN_INITIATOR_VALID) != 0;
    d->initiator = acpi_rd32(s + 12);
    d->mem_domain = acpi_rd32(s + 16);
}

/* The pair (initiator, target, hierarchy), found or added; NULL when the table is full. */
static struct hmat_pair *pair_slot(struct hmat *h, uint32_t init, uint32_t target, unsigned hier)
{
    for (unsigned i = 0; i < h->npairs; i++) {
        struct hmat_pair *p = &h->pair[i];
        if (p->initiator == init && p->target == target && p->hierarchy == hier)
            return p;
    }
    if (h->npairs == HMAT_PAIRS_MAX)
        return NULL;
    struct hmat_pair *p = &h->pair[h->npairs++];
    kmemset(p, 0, sizeof(*p));
    p->initiator = init;
    p->target = target;
    p->hierarchy = hier;
    return p;
}

/* Type 1 whose lists fit its length (checked by the caller): every pair's figure. */
static void read_lb(const uint8_t *s, struct hmat *h)
{
    unsigned hier = s[8] & HMAT_LB_HIERARCHY_MASK, type = s[9];
    uint32_t ni = acpi_rd32(s + 12), nt = acpi_rd32(s + 16);
    uint64_t base = acpi_rd64(s + 24);
    const uint8_t *inits = s + HMAT_LB_HEAD_BYTES, *targets = inits + 4 * (uint64_t)ni;
    const uint8_t *entries = targets + 4 * (uint64_t)nt;
    h->lb_structs++;
    if (type >= HMAT_DATA_TYPES) {
        h->unknown++;
        return;
    }
    for (uint64_t i = 0; i < ni; i++)
        for (uint64_t t = 0; t < nt; t++) {
            unsigned e = rd16(entries + 2 * (i * nt + t));
            if (e == HMAT_LB_ENTRY_UNREACHABLE || e == HMAT_LB_ENTRY_UNKNOWN)
                continue;
            if (base > UINT64_MAX / e) {
                h->figure_overflow = true;
                continue;
            }
            struct hmat_pair *p =
                pair_slot(h, acpi_rd32(inits + 4 * i), acpi_rd32(targets + 4 * t), hier);
            if (!p) {
                h->dropped++;
                continue;
            }
            p->value[type] = (uint64_t)e * base;
            p->have |= 1u << type;
        }
}

/* Type 2: a memory-side cache in front of a memory domain. */
static void read_cache(const uint8_t *s, struct hmat *h)
{
    if (h->ncaches == HMAT_CACHES_MAX) {
        h->dropped++;
        return;
    }
    struct hmat_cache *c = &h->cache[h->ncaches++];
    uint32_t attr = acpi_rd32(s + 24);
    c->mem_domain = acpi_rd32(s + 8);
    c->size_bytes = acpi_rd64(s + 16);
    c->total_levels = attr & 0xf;
    c->level = attr >> 4 & 0xf;
    c->associativity = attr >> 8 & 0xf;
    c->write_policy = attr >> 12 & 0xf;
    c->line_bytes = attr >> 16;
    c->address_mode = rd16(s + 28);
    c->smbios_handles = rd16(s + 30);
}

/*
 * The bytes structure s (of type type, len bytes, at least its 8-byte head) needs: its fixed
 * part and the lists its counts announce (64-bit sums: counts are hostile). 0 for other types.
 */
static uint64_t needed_bytes(const uint8_t *s, unsigned type, uint32_t len)
{
    if (type == HMAT_TYPE_DOMAIN)
        return HMAT_DOMAIN_BYTES;
    if (type == HMAT_TYPE_CACHE)
        return len < HMAT_CACHE_HEAD_BYTES ? HMAT_CACHE_HEAD_BYTES
                                           : HMAT_CACHE_HEAD_BYTES + 2ull * rd16(s + 30);
    if (type != HMAT_TYPE_LB)
        return 0;
    if (len < HMAT_LB_HEAD_BYTES)
        return HMAT_LB_HEAD_BYTES;
    uint64_t ni = acpi_rd32(s + 12), nt = acpi_rd32(s + 16);
    return HMAT_LB_HEAD_BYTES + 4 * ni + 4 * nt + 2 * ni * nt;
}

/* Check the structure at at; false with why when its length is wrong for its type or table. */
static bool check_struct(const uint8_t *t, uint32_t len, uint32_t at, char *why, size_t why_cap)
{
    if (len - at < HMAT_STRUCT_HEAD) {
        ksnprintf(why, why_cap, "HMAT: %u bytes left at byte %u, less than a structure's head",
                  len - at, at);
        return false;
    }
    const uint8_t *s = t + at;
    unsigned type = rd16(s);
    uint32_t slen = acpi_rd32(s + 4);
    if (slen < HMAT_STRUCT_HEAD || slen > len - at) {
        ksnprintf(why, why_cap,
                  "HMAT structure at byte %u (type %u) has length %u: it must be at least %u and "
                  "end within the table's %u bytes",
                  at, type, slen, HMAT_STRUCT_HEAD, len);
        return false;
    }
    uint64_t need = needed_bytes(s, type, slen);
    if (need > slen) {
        ksnprintf(why, why_cap,
                  "HMAT structure at byte %u (type %u) has length %u; its fields and lists need "
                  "%llu",
                  at, type, slen, (unsigned long long)need);
        return false;
    }
    return true;
}

bool hmat_read(const void *table, size_t len, struct hmat *h, char *why, size_t why_cap)
{
    const uint8_t *t = table;
    kmemset(h, 0, sizeof(*h));
    if (len < HMAT_FIRST_STRUCT || kmemcmp(t, "HMAT", 4) != 0) {
        ksnprintf(why, why_cap, "not an HMAT: %llu bytes, signature checked",
                  (unsigned long long)len);
        return false;
    }
    uint32_t tlen = acpi_rd32(t + 4);
    if (tlen < HMAT_FIRST_STRUCT || tlen > len) {
        ksnprintf(why, why_cap,
                  "HMAT's length %u is not within its %u-byte header and the %llu "
                  "bytes given",
                  tlen, HMAT_FIRST_STRUCT, (unsigned long long)len);
        return false;
    }
    h->revision = t[8];
    h->units_known = h->revision >= HMAT_REVISION_UNITS;
    for (uint32_t at = HMAT_FIRST_STRUCT; at < tlen; at += acpi_rd32(t + at + 4)) {
        if (!check_struct(t, tlen, at, why, why_cap))
            return false;
        unsigned type = rd16(t + at);
        if (type == HMAT_TYPE_DOMAIN)
            read_domain(t + at, h);
        else if (type == HMAT_TYPE_LB)
            read_lb(t + at, h);
        else if (type == HMAT_TYPE_CACHE)
            read_cache(t + at, h);
        else
            h->unknown++;
    }
    h->present = true;
    return true;
}

const struct hmat_pair *hmat_pair_of(const struct hmat *h, uint32_t initiator, uint32_t target)
{
    for (unsigned i = 0; h && i < h->npairs; i++)
        if (h->pair[i].initiator == initiator && h->pair[i].target == target &&
            h->pair[i].hierarchy == 0)
            return &h->pair[i];
    return NULL;
}

/* The first of two figures p has (a before b), its type in *which; false when neither. */
static bool first_of(const struct hmat_pair *p, enum hmat_data a, enum hmat_data b,
                     enum hmat_data *which)
{
    if (!p)
        return false;
    *which = p->have & (1u << a) ? a : b;
    return (p->have & (1u << *which)) != 0;
}

bool hmat_latency_ns(const struct hmat_pair *p, double *ns, const char **kind)
{
    enum hmat_data d;
    if (!first_of(p, HMAT_READ_LATENCY, HMAT_ACCESS_LATENCY, &d))
        return false;
    *ns = (double)p->value[d] / PS_PER_NS;
    *kind = d == HMAT_READ_LATENCY ? "read" : "access";
    return true;
}

bool hmat_bandwidth_mbs(const struct hmat_pair *p, uint64_t *mbs, const char **kind)
{
    enum hmat_data d;
    if (!first_of(p, HMAT_READ_BANDWIDTH, HMAT_ACCESS_BANDWIDTH, &d))
        return false;
    *mbs = p->value[d];
    *kind = d == HMAT_READ_BANDWIDTH ? "read" : "access";
    return true;
}

bool hmat_attached_initiator(const struct hmat *h, uint32_t mem, uint32_t *initiator)
{
    for (unsigned i = 0; h && i < h->ndomains; i++)
        if (h->domain[i].mem_domain == mem && h->domain[i].initiator_valid) {
            *initiator = h->domain[i].initiator;
            return true;
        }
    return false;
}

const char *hmat_data_name(enum hmat_data d)
{
    static const char *const names[HMAT_DATA_TYPES] = {"access_latency_ps",  "read_latency_ps",
                                                       "write_latency_ps",   "access_bandwidth_mbs",
                                                       "read_bandwidth_mbs", "write_bandwidth_mbs"};
    return d < HMAT_DATA_TYPES ? names[d] : "unknown";
}

const char *hmat_cache_associativity(unsigned a)
{
    return a == 0 ? "none" : a == 1 ? "direct mapped" : a == 2 ? "complex indexing" : "reserved";
}

const char *hmat_cache_policy(unsigned p)
{
    return p == 0 ? "none" : p == 1 ? "write-back" : p == 2 ? "write-through" : "reserved";
}
