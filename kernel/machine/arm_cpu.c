// SPDX-License-Identifier: MIT
// The kernel's cpu_info for an AArch64 processor: MIDR's names, CLIDR/CCSIDR or PPTT caches.
#include "machine/arm_cpu.h"

#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/acpi.h"

void arm_cpu_describe_midr(struct cpu_info *ci, uint32_t midr)
{
    struct arm_midr m;
    arm_midr_decode(midr, &m);
    const char *impl = arm_implementer_name(m.implementer);
    const char *part = arm_part_name(m.implementer, m.part);
    if (impl)
        kstrlcpy(ci->vendor, impl, sizeof(ci->vendor));
    else
        ksnprintf(ci->vendor, sizeof(ci->vendor), "0x%02x", m.implementer);
    if (part)
        ksnprintf(ci->brand, sizeof(ci->brand), "%s r%up%u (MIDR 0x%08x)", part, m.variant,
                  m.revision, midr);
    else
        ksnprintf(ci->brand, sizeof(ci->brand), "part 0x%03x r%up%u (MIDR 0x%08x)", m.part,
                  m.variant, m.revision, midr);
    ci->family = m.implementer;
    ci->model = m.part;
    ci->stepping = m.revision;
}

static void add_cache(struct cpu_info *ci, unsigned level, enum cache_type type, uint64_t ccsidr,
                      bool ccidx)
{
    if (ci->ncaches >= CPU_MAX_CACHES)
        return;
    struct arm_ccsidr c;
    arm_ccsidr_decode(ccsidr, ccidx, &c);
    struct cache_info *k = &ci->caches[ci->ncaches++];
    kmemset(k, 0, sizeof(*k));
    k->level = level;
    k->type = type;
    k->size_bytes = c.size_bytes;
    k->ways = c.ways;
    k->line_bytes = c.line_bytes;
    k->sets = c.sets;
}

void arm_cpu_describe(struct cpu_info *ci, const struct arm_regs *r)
{
    kmemset(ci, 0, sizeof(*ci));
    arm_cpu_describe_midr(ci, (uint32_t)r->midr);
    struct arm_clidr cl;
    arm_clidr_decode(r->clidr, &cl);
    bool ccidx = ((r->mmfr2 >> A64_MMFR2_CCIDX_SHIFT) & A64_MMFR2_CCIDX_MASK) != 0;
    for (unsigned i = 0; i < cl.levels; i++) {
        enum arm_ctype t = cl.ctype[i];
        if (t == ARM_CTYPE_DATA || t == ARM_CTYPE_SEPARATE)
            add_cache(ci, i + 1, CACHE_DATA, r->ccsidr[i][0], ccidx);
        if (t == ARM_CTYPE_UNIFIED)
            add_cache(ci, i + 1, CACHE_UNIFIED, r->ccsidr[i][0], ccidx);
        if (t == ARM_CTYPE_INSTRUCTION || t == ARM_CTYPE_SEPARATE)
            add_cache(ci, i + 1, CACHE_INSTRUCTION, r->ccsidr[i][1], ccidx);
    }
    bool dropped = cpuinfo_drop_unbelievable(ci) != 0; /* KVM's CCSIDR: one line a level */
    ci->cache_source = dropped       ? "CLIDR_EL1/CCSIDR_EL1" CACHE_SIZES_UNKNOWN
                       : ci->ncaches ? "CLIDR_EL1/CCSIDR_EL1"
                                     : "none";
    ci->invariant_tsc = true;
    ci->cpuid_tsc_hz = r->timer_hz;
    ci->cpuid_tsc_leaf = "CNTFRQ_EL0";
}

static enum cache_type type_of(const struct pptt_cache *c)
{
    enum pptt_cache_type t = pptt_cache_type_of(c);
    return t == PPTT_CACHE_DATA          ? CACHE_DATA
           : t == PPTT_CACHE_INSTRUCTION ? CACHE_INSTRUCTION
                                         : CACHE_UNIFIED;
}

bool arm_cpu_caches_from_pptt(struct cpu_info *ci, const struct pptt *p, uint32_t acpi_id)
{
    struct pptt_cpu_cache list[PPTT_CPU_CACHES_MAX];
    int n = pptt_cpu_caches(p, acpi_id, list, PPTT_CPU_CACHES_MAX);
    struct cache_info out[CPU_MAX_CACHES];
    unsigned k = 0;
    for (int i = 0; i < n && k < CPU_MAX_CACHES; i++) {
        const struct pptt_cache *c = list[i].cache;
        if (!(c->flags & PPTT_CACHE_SIZE_VALID) || !c->size_bytes)
            continue;
        kmemset(&out[k], 0, sizeof(out[k]));
        out[k].level = list[i].level;
        out[k].type = type_of(c);
        out[k].size_bytes = c->size_bytes;
        out[k].ways = (c->flags & PPTT_CACHE_WAYS_VALID) ? c->ways : 0;
        out[k].sets = (c->flags & PPTT_CACHE_SETS_VALID) ? c->sets : 0;
        out[k].line_bytes = (c->flags & PPTT_CACHE_LINE_VALID) ? c->line_bytes : 0;
        out[k].shared_by = pptt_cache_sharers(p, c->offset);
        k++;
    }
    if (!k)
        return false;
    kmemcpy(ci->caches, out, k * sizeof(out[0]));
    ci->ncaches = k;
    ci->cache_source = "ACPI PPTT";
    return true;
}
