// SPDX-License-Identifier: MIT
// Where a processor sits in the machine (package, die, core, SMT thread), decoded from CPUID on
// that processor: Intel leaves 0x1F and 0xB (SDM vol. 2A, CPUID), AMD 0x80000026, 0xB and
// 0x8000001E (APM vol. 3, appendix E), leaves 1, 4 and 0x80000008 on older processors.
#include "machine/topology.h"

#include "arch/cpu.h"
#include "platform.h"

#define LEAF_VENDOR 0
#define LEAF_FEATURES 1
#define LEAF_CACHES 4
#define LEAF_TOPOLOGY 0xbU
#define LEAF_TOPOLOGY_V2 0x1fU
#define LEAF_EXT_MAX 0x80000000U
#define LEAF_AMD_SIZES 0x80000008U
#define LEAF_AMD_IDS 0x8000001eU
#define LEAF_AMD_TOPOLOGY 0x80000026U
#define VENDOR_AMD_EBX 0x68747541U             /* "Auth" */
#define VENDOR_HYGON_EBX 0x6f677948U           /* "Hygo" */
#define LEVEL_TYPE(ecx) (((ecx) >> 8) & 0xffU) /* ECX[15:8]; 0: no more levels */
#define LEVEL_SHIFT(eax) ((eax)&0x1fU)         /* EAX[4:0]: bits to the next level's ID */
#define LEVEL_TYPE_SMT 1                       /* Intel SMT, AMD "core" (its threads) */
#define INTEL_LEVEL_TYPE_DIE 5                 /* leaf 0x1F */
#define AMD_LEVEL_TYPE_DIE 3                   /* leaf 0x80000026 (CCD) */
#define LEAF_EXT_FEATURES 7
#define LEAF_HYBRID 0x1aU
#define LEAF7_EDX_HYBRID (1U << 15)
#define HYBRID_TYPE(eax) ((eax) >> 24)
#define LEVELS_MAX 8         /* subleaves read at most */
#define LEAF1_HTT (1U << 28) /* EDX: EBX[23:16] is valid */
#define LEAF1_LOGICAL(ebx) (((ebx) >> 16) & 0xffU)
#define LEAF1_APIC_ID(ebx) ((ebx) >> 24)
#define LEAF4_CORES(eax) ((((eax) >> 26) & 0x3fU) + 1)
#define AMD_APIC_ID_SIZE(ecx) (((ecx) >> 12) & 0xfU)           /* 0x80000008 ECX[15:12] */
#define AMD_THREADS(ecx) (((ecx)&0xffU) + 1)                   /* 0x80000008 ECX[7:0] + 1 */
#define AMD_THREADS_PER_CORE(ebx) ((((ebx) >> 8) & 0xffU) + 1) /* 0x8000001E EBX[15:8] */
#define AMD_NODE_ID(ecx) ((ecx)&0xffU)                         /* 0x8000001E ECX[7:0] */
#define AMD_NODES_PER_PKG(ecx) ((((ecx) >> 8) & 0x7U) + 1)     /* 0x8000001E ECX[10:8] */

static void cpuid(const struct topo_cpuid *c, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    r[0] = r[1] = r[2] = r[3] = 0;
    c->cpuid(c->ctx, leaf, sub, r);
}

/* Bits that hold n IDs (ceil(log2 n)). */
static unsigned bits_for(unsigned n)
{
    unsigned b = 0;
    while (b < 31 && (1U << b) < n)
        b++;
    return b;
}

/* The fields of t from its APIC ID and shifts; die_shift 0 when there is no die level. */
static void split(struct topology *t, unsigned die_shift)
{
    uint32_t in_pkg = t->pkg_bits >= 32 ? t->apic_id : t->apic_id & ((1U << t->pkg_bits) - 1);
    t->package = t->pkg_bits >= 32 ? 0 : t->apic_id >> t->pkg_bits;
    t->thread = t->apic_id & ((1U << t->smt_bits) - 1);
    t->core = in_pkg >> t->smt_bits;
    t->die = die_shift ? in_pkg >> die_shift : 0;
}

/*
 * An extended topology leaf (0x1F, 0xB, 0x80000026): the SMT level's shift, the last level's
 * (the package), and the shift of the level below die_type. False when the leaf is absent.
 */
static bool decode_levels(const struct topo_cpuid *c, uint32_t leaf, unsigned die_type,
                          struct topology *t)
{
    uint32_t r[4];
    unsigned below = 0, die_shift = 0, levels = 0;
    for (uint32_t sub = 0; sub < LEVELS_MAX; sub++) {
        cpuid(c, leaf, sub, r);
        unsigned type = LEVEL_TYPE(r[2]);
        if (type == 0 || (sub == 0 && r[1] == 0))
            break; /* EBX 0 at subleaf 0: the leaf is not implemented */
        if (sub == 0)
            t->apic_id = r[3];
        if (type == LEVEL_TYPE_SMT)
            t->smt_bits = LEVEL_SHIFT(r[0]);
        if (die_type && type == die_type)
            die_shift = below;
        below = LEVEL_SHIFT(r[0]);
        t->pkg_bits = below;
        levels++;
    }
    if (!levels)
        return false;
    split(t, die_shift);
    return true;
}

/* AMD family 17h on without leaf 0x80000026: the die from 0x8000001E's node ID. */
static void amd_die(const struct topo_cpuid *c, uint32_t ext_max, struct topology *t)
{
    uint32_t r[4];
    if (ext_max < LEAF_AMD_IDS)
        return;
    cpuid(c, LEAF_AMD_IDS, 0, r);
    t->die = AMD_NODE_ID(r[2]) % AMD_NODES_PER_PKG(r[2]);
}

/* Before the topology leaves: leaf 1's logical count, leaf 4 (Intel) or AMD's sizes. */
static void decode_legacy(const struct topo_cpuid *c, bool amd, uint32_t max, uint32_t ext_max,
                          struct topology *t)
{
    uint32_t r[4];
    cpuid(c, LEAF_FEATURES, 0, r);
    t->apic_id = LEAF1_APIC_ID(r[1]);
    unsigned logical = (r[3] & LEAF1_HTT) ? LEAF1_LOGICAL(r[1]) : 1, cores = 1;
    t->pkg_bits = bits_for(logical);
    t->source = "CPUID 1";
    if (amd && ext_max >= LEAF_AMD_SIZES) {
        cpuid(c, LEAF_AMD_SIZES, 0, r);
        t->pkg_bits = AMD_APIC_ID_SIZE(r[2]) ? AMD_APIC_ID_SIZE(r[2]) : bits_for(AMD_THREADS(r[2]));
        t->source = "CPUID 0x80000008";
        if (ext_max >= LEAF_AMD_IDS) {
            cpuid(c, LEAF_AMD_IDS, 0, r);
            t->smt_bits = bits_for(AMD_THREADS_PER_CORE(r[1]));
            t->source = "CPUID 0x80000008, 0x8000001E";
        }
    } else if (!amd && max >= LEAF_CACHES) {
        cpuid(c, LEAF_CACHES, 0, r);
        cores = LEAF4_CORES(r[0]);
        t->smt_bits = bits_for(logical > cores ? logical / cores : 1);
        t->source = "CPUID 1, 4";
    }
    if (t->smt_bits > t->pkg_bits)
        t->smt_bits = t->pkg_bits;
    split(t, 0);
    if (amd)
        amd_die(c, ext_max, t);
}

/* The core type of a hybrid part (leaf 0x1A), 0 elsewhere. */
static unsigned core_type(const struct topo_cpuid *c, uint32_t max)
{
    uint32_t r[4];
    if (max < LEAF_HYBRID)
        return 0;
    cpuid(c, LEAF_EXT_FEATURES, 0, r);
    if (!(r[3] & LEAF7_EDX_HYBRID))
        return 0;
    cpuid(c, LEAF_HYBRID, 0, r);
    return HYBRID_TYPE(r[0]);
}

/* The place from the first leaf that gives it. */
static void decode_place(const struct topo_cpuid *c, bool amd, uint32_t max, uint32_t ext_max,
                         struct topology *t)
{
    if (amd && ext_max >= LEAF_AMD_TOPOLOGY &&
        decode_levels(c, LEAF_AMD_TOPOLOGY, AMD_LEVEL_TYPE_DIE, t)) {
        t->source = "CPUID 0x80000026";
        return;
    }
    if (!amd && max >= LEAF_TOPOLOGY_V2 &&
        decode_levels(c, LEAF_TOPOLOGY_V2, INTEL_LEVEL_TYPE_DIE, t)) {
        t->source = "CPUID 0x1F";
        return;
    }
    if (max >= LEAF_TOPOLOGY && decode_levels(c, LEAF_TOPOLOGY, 0, t)) {
        t->source = "CPUID 0xB";
        if (amd)
            amd_die(c, ext_max, t);
        return;
    }
    decode_legacy(c, amd, max, ext_max, t);
}

void topo_decode(const struct topo_cpuid *c, struct topology *t)
{
    uint32_t r[4];
    *t = (struct topology){0};
    cpuid(c, LEAF_VENDOR, 0, r);
    uint32_t max = r[0];
    bool amd = r[1] == VENDOR_AMD_EBX || r[1] == VENDOR_HYGON_EBX;
    cpuid(c, LEAF_EXT_MAX, 0, r);
    uint32_t ext_max = r[0] >= LEAF_EXT_MAX ? r[0] : 0;
    decode_place(c, amd, max, ext_max, t);
    t->core_type = core_type(c, max);
}

void topo_fill_cpu(struct plat_cpu *p, const struct topology *t, const struct topo_firmware *fw)
{
    p->package = t->package;
    p->die = t->die;
    p->core = t->core;
    p->thread = t->thread;
    p->core_type = t->core_type;
    p->topology = t->source;
    p->fw_known = fw->known;
    p->fw_package = fw->package;
    p->fw_die = fw->die;
    p->fw_core = fw->core;
    p->fw_thread = fw->thread;
    p->fw_differs = fw->known && (fw->package != t->package || fw->core != t->core ||
                                  fw->thread != t->thread || (fw->has_die && fw->die != t->die));
}

static void cpuid_here(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
    (void)ctx;
    arch_cpuid(leaf, subleaf, regs);
}

const struct topo_cpuid topo_cpuid_here = {cpuid_here, 0};
