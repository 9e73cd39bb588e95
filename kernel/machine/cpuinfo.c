// SPDX-License-Identifier: MIT
// CPU identity and cache geometry decoded from CPUID, through a replaceable CPUID function.
#include "machine/cpuinfo.h"

#include "lib/kstring.h"

#define CPUID1_ECX_HYPERVISOR (1u << 31)
#define CPUID_EXT1_EDX_PAGE1GB (1u << 26)
#define CPUID_EXT1_EDX_RDTSCP (1u << 27)
#define CPUID_EXT1_ECX_TOPOEXT (1u << 22)
#define CPUID_EXT7_EDX_INVARIANT_TSC (1u << 8)
#define CPUID1_EDX_SSE2 (1u << 26)
#define CPUID1_ECX_XSAVE (1u << 26)
#define CPUID1_ECX_OSXSAVE (1u << 27)
#define CPUID1_ECX_AVX (1u << 28)
#define CPUID7_EBX_AVX2 (1u << 5)
#define CPUID7_EBX_ERMS (1u << 9)
#define CPUID7_EBX_AVX512F (1u << 16)
#define CPUID_LEAF_XSTATE 0xd

static inline uint32_t bits(uint32_t v, unsigned lo, unsigned hi)
{
    return (v >> lo) & ((hi - lo == 31) ? 0xffffffffu : ((1u << (hi - lo + 1)) - 1));
}

static void put_regs(char *dst, const uint32_t *regs, int n)
{
    for (int i = 0; i < n; i++)
        kmemcpy(dst + 4 * i, &regs[i], 4);
}

static void trim(char *s)
{
    size_t start = 0, n = kstrlen(s);
    while (s[start] == ' ')
        start++;
    while (n > start && (s[n - 1] == ' ' || s[n - 1] == 0))
        n--;
    kmemcpy(s, s + start, n - start);
    s[n - start] = 0;
}

/* Leaf 4 (Intel) and 0x8000001D (AMD) share one layout. */
static void read_deterministic_caches(struct cpu_info *ci, cpuid_fn fn, uint32_t leaf)
{
    for (uint32_t sub = 0; sub < 16 && ci->ncaches < CPU_MAX_CACHES; sub++) {
        uint32_t r[4];
        fn(leaf, sub, r);
        uint32_t type = bits(r[0], 0, 4);
        if (type == 0)
            break;
        struct cache_info *c = &ci->caches[ci->ncaches++];
        c->type = (enum cache_type)type;
        c->level = bits(r[0], 5, 7);
        c->shared_by = bits(r[0], 14, 25) + 1;
        c->line_bytes = bits(r[1], 0, 11) + 1;
        unsigned partitions = bits(r[1], 12, 21) + 1;
        c->ways = bits(r[1], 22, 31) + 1;
        c->sets = r[2] + 1;
        if (r[0] & (1u << 9)) /* fully associative */
            c->ways = 0;
        unsigned ways = c->ways ? c->ways : 1;
        c->size_bytes = (uint64_t)ways * partitions * c->line_bytes * c->sets;
        if (!c->ways)
            c->size_bytes = (uint64_t)partitions * c->line_bytes * c->sets;
    }
}

/* AMD's 0x80000006 associativity code to ways (0 = fully associative). */
static unsigned amd_l2_ways(uint32_t code)
{
    static const unsigned ways[16] = {0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 96, 128, 0};
    return ways[code & 15];
}

static void add_cache(struct cpu_info *ci, unsigned level, enum cache_type type, uint64_t size,
                      unsigned ways, unsigned line)
{
    if (!size || ci->ncaches >= CPU_MAX_CACHES)
        return;
    struct cache_info *c = &ci->caches[ci->ncaches++];
    c->level = level;
    c->type = type;
    c->size_bytes = size;
    c->ways = ways;
    c->line_bytes = line;
    c->sets = (ways && line) ? (unsigned)(size / ((uint64_t)ways * line)) : 0;
    c->shared_by = 0;
}

static void read_amd_legacy_caches(struct cpu_info *ci, cpuid_fn fn)
{
    uint32_t r[4];
    if (ci->max_ext_leaf >= 0x80000005) {
        fn(0x80000005, 0, r);
        unsigned l1d_ways = bits(r[2], 16, 23), l1i_ways = bits(r[3], 16, 23);
        add_cache(ci, 1, CACHE_DATA, (uint64_t)bits(r[2], 24, 31) << 10,
                  l1d_ways == 0xff ? 0 : l1d_ways, bits(r[2], 0, 7));
        add_cache(ci, 1, CACHE_INSTRUCTION, (uint64_t)bits(r[3], 24, 31) << 10,
                  l1i_ways == 0xff ? 0 : l1i_ways, bits(r[3], 0, 7));
    }
    if (ci->max_ext_leaf >= 0x80000006) {
        fn(0x80000006, 0, r);
        add_cache(ci, 2, CACHE_UNIFIED, (uint64_t)bits(r[2], 16, 31) << 10,
                  amd_l2_ways(bits(r[2], 12, 15)), bits(r[2], 0, 7));
        add_cache(ci, 3, CACHE_UNIFIED, (uint64_t)bits(r[3], 18, 31) << 19,
                  amd_l2_ways(bits(r[3], 12, 15)), bits(r[3], 0, 7));
    }
}

static void read_identity(struct cpu_info *ci, cpuid_fn fn)
{
    uint32_t r[4];
    fn(0, 0, r);
    ci->max_leaf = r[0];
    uint32_t vendor[3] = {r[1], r[3], r[2]};
    put_regs(ci->vendor, vendor, 3);
    ci->vendor[12] = 0;

    fn(1, 0, r);
    unsigned base_family = bits(r[0], 8, 11), base_model = bits(r[0], 4, 7);
    ci->family = base_family == 0xf ? base_family + bits(r[0], 20, 27) : base_family;
    ci->model = (base_family == 0x6 || base_family == 0xf) ? (bits(r[0], 16, 19) << 4) | base_model
                                                           : base_model;
    ci->stepping = bits(r[0], 0, 3);
    ci->hypervisor = (r[2] & CPUID1_ECX_HYPERVISOR) != 0;
    if (ci->hypervisor) {
        fn(0x40000000, 0, r);
        uint32_t hv[3] = {r[1], r[2], r[3]};
        put_regs(ci->hypervisor_vendor, hv, 3);
        ci->hypervisor_vendor[12] = 0;
        for (int i = 0; i < 12; i++) {
            char c = ci->hypervisor_vendor[i];
            if (c && (c < 32 || c > 126))
                ci->hypervisor_vendor[i] = '?';
        }
    }

    fn(0x80000000, 0, r);
    ci->max_ext_leaf = r[0] >= 0x80000000 ? r[0] : 0;
    if (ci->max_ext_leaf >= 0x80000004) {
        for (uint32_t i = 0; i < 3; i++) {
            fn(0x80000002 + i, 0, r);
            put_regs(ci->brand + 16 * i, r, 4);
        }
        ci->brand[48] = 0;
        trim(ci->brand);
    }
    if (!ci->brand[0])
        kstrlcpy(ci->brand, "(no brand string)", sizeof(ci->brand));
}

static void read_features(struct cpu_info *ci, cpuid_fn fn)
{
    uint32_t r[4];
    if (ci->max_ext_leaf >= 0x80000001) {
        fn(0x80000001, 0, r);
        ci->has_1g_pages = (r[3] & CPUID_EXT1_EDX_PAGE1GB) != 0;
        ci->has_rdtscp = (r[3] & CPUID_EXT1_EDX_RDTSCP) != 0;
    }
    if (ci->max_ext_leaf >= 0x80000007) {
        fn(0x80000007, 0, r);
        ci->invariant_tsc = (r[3] & CPUID_EXT7_EDX_INVARIANT_TSC) != 0;
    }
    if (ci->max_leaf >= 0x15) {
        fn(0x15, 0, r);
        if (r[0] && r[1] && r[2]) {
            ci->cpuid_tsc_hz = (uint64_t)r[2] * r[1] / r[0];
            ci->cpuid_tsc_leaf = "0x15";
        }
    }
    if (!ci->cpuid_tsc_hz && ci->max_leaf >= 0x16) {
        fn(0x16, 0, r);
        if (bits(r[0], 0, 15)) {
            ci->cpuid_tsc_hz = (uint64_t)bits(r[0], 0, 15) * 1000000;
            ci->cpuid_tsc_leaf = "0x16";
        }
    }
}

static void read_caches(struct cpu_info *ci, cpuid_fn fn)
{
    bool intel = kstrcmp(ci->vendor, "GenuineIntel") == 0;
    bool amd = kstrcmp(ci->vendor, "AuthenticAMD") == 0 || kstrcmp(ci->vendor, "HygonGenuine") == 0;
    uint32_t r[4] = {0, 0, 0, 0};
    if (ci->max_ext_leaf >= 0x80000001)
        fn(0x80000001, 0, r);
    bool topoext = (r[2] & CPUID_EXT1_ECX_TOPOEXT) != 0;

    /* each source, and the same when some of its caches' sizes cannot be true */
    const char *src = NULL, *src_unknown = NULL;
    if (amd && topoext && ci->max_ext_leaf >= 0x8000001d) {
        read_deterministic_caches(ci, fn, 0x8000001d);
        src = "cpuid 0x8000001d", src_unknown = "cpuid 0x8000001d" CACHE_SIZES_UNKNOWN;
    } else if (!amd && ci->max_leaf >= 4) {
        read_deterministic_caches(ci, fn, 4);
        src = "cpuid 4", src_unknown = "cpuid 4" CACHE_SIZES_UNKNOWN;
    }
    if (ci->ncaches == 0 && !intel) {
        read_amd_legacy_caches(ci, fn);
        if (ci->ncaches)
            src = "cpuid 0x80000005/6", src_unknown = "cpuid 0x80000005/6" CACHE_SIZES_UNKNOWN;
    }
    bool dropped = cpuinfo_drop_unbelievable(ci) != 0;
    ci->cache_source = dropped ? src_unknown : ci->ncaches ? src : "none";
}

unsigned cpuinfo_drop_unbelievable(struct cpu_info *ci)
{
    unsigned kept = 0, n = ci->ncaches;
    for (unsigned i = 0; i < n; i++)
        if (ci->caches[i].size_bytes > ci->caches[i].line_bytes)
            ci->caches[kept++] = ci->caches[i];
    ci->ncaches = kept;
    return n - kept;
}

/* The vector units (leaves 1, 7 and 0xD); xcr0_os is the front end's to fill. */
static void read_simd(struct simd_caps *c, cpuid_fn fn, uint32_t max_leaf)
{
    uint32_t r[4];
    kmemset(c, 0, sizeof(*c));
    if (max_leaf < 1)
        return;
    fn(1, 0, r);
    c->sse2 = (r[3] & CPUID1_EDX_SSE2) != 0;
    c->xsave = (r[2] & CPUID1_ECX_XSAVE) != 0;
    c->os_xsave = (r[2] & CPUID1_ECX_OSXSAVE) != 0;
    c->avx = (r[2] & CPUID1_ECX_AVX) != 0;
    if (max_leaf >= 7) {
        fn(7, 0, r);
        c->avx2 = c->avx && (r[1] & CPUID7_EBX_AVX2);
        c->avx512f = c->avx && (r[1] & CPUID7_EBX_AVX512F);
        c->erms = (r[1] & CPUID7_EBX_ERMS) != 0;
    }
    if (max_leaf >= CPUID_LEAF_XSTATE && c->xsave) {
        fn(CPUID_LEAF_XSTATE, 0, r);
        c->xcr0_cpu = ((uint64_t)r[3] << 32) | r[0];
    }
}

void cpuinfo_read(struct cpu_info *ci, cpuid_fn fn)
{
    kmemset(ci, 0, sizeof(*ci));
    read_identity(ci, fn);
    read_features(ci, fn);
    read_caches(ci, fn);
    read_simd(&ci->simd, fn, ci->max_leaf);
}

const char *cache_type_name(enum cache_type t)
{
    switch (t) {
    case CACHE_DATA:
        return "data";
    case CACHE_INSTRUCTION:
        return "instruction";
    case CACHE_UNIFIED:
        return "unified";
    }
    return "unknown";
}

const struct cache_info *cpuinfo_data_cache(const struct cpu_info *ci, unsigned level)
{
    for (unsigned i = 0; i < ci->ncaches; i++) {
        const struct cache_info *c = &ci->caches[i];
        if (c->level == level && c->type != CACHE_INSTRUCTION)
            return c;
    }
    return NULL;
}

const struct cache_info *cpuinfo_llc(const struct cpu_info *ci)
{
    const struct cache_info *best = NULL;
    for (unsigned i = 0; i < ci->ncaches; i++) {
        const struct cache_info *c = &ci->caches[i];
        if (c->type != CACHE_INSTRUCTION && (!best || c->level > best->level))
            best = c;
    }
    return best;
}
