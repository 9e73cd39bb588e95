// SPDX-License-Identifier: MIT
// What changes latency besides the caches, recorded with each run: the hardware prefetchers'
// control MSR, SMT (a sibling thread on the core) and the P-state/boost state.
#include "machine/cpufacts.h"

#include "lib/kstring.h"

#define CPUFACTS_BIT(n) (1ULL << (n))
#define LEAF1_EDX_HTT CPUFACTS_BIT(28)
#define LEAF6_EAX_TURBO CPUFACTS_BIT(1)
#define EXT7_EDX_CPB CPUFACTS_BIT(9)
#define EXT1_ECX_TOPOLOGY_EXT CPUFACTS_BIT(22)
#define LEAF_B_TYPE_SMT 1
#define INTEL_MISC_ENABLE_TURBO_DISABLE CPUFACTS_BIT(38)
#define AMD_HWCR_CPB_DIS CPUFACTS_BIT(25)
#define AMD_DC_CFG_DIS_HW_PF CPUFACTS_BIT(13)
#define AMD_PREFETCH_BITS 0x2fULL /* L1 stream, L1 stride, L1 region, L2 stream, up/down */

static bool is_vendor(const struct cpu_info *ci, const char *v)
{
    return kstrcmp(ci->vendor, v) == 0;
}

void cpufacts_prefetch_ctl(const struct cpu_info *ci, struct prefetch_ctl *p)
{
    kmemset(p, 0, sizeof(*p));
    if (is_vendor(ci, "GenuineIntel") && ci->family == 6) {
        prefetch_models_intel(ci->model, p);
    } else if (is_vendor(ci, "AuthenticAMD") && ci->family >= 0x19) {
        static const struct prefetcher amd19[] = {{"L1 stream", CPUFACTS_BIT(0)},
                                                  {"L1 stride", CPUFACTS_BIT(1)},
                                                  {"L1 region", CPUFACTS_BIT(2)},
                                                  {"L2 stream", CPUFACTS_BIT(3)},
                                                  {"L2 up/down", CPUFACTS_BIT(5)}};
        p->msr = MSR_AMD_PREFETCH_CONTROL;
        p->disable_bits = AMD_PREFETCH_BITS;
        p->nprefetchers = sizeof(amd19) / sizeof(amd19[0]);
        kmemcpy(p->prefetcher, amd19, sizeof(amd19));
        p->names = "L1 stream, L1 stride, L1 region, L2 stream, L2 up/down";
        p->doc = "AMD PPR family 19h: MSR C000_0108 PrefetchControl bits 0..3 and 5";
    } else if (is_vendor(ci, "AuthenticAMD") && ci->family >= 0x10 && ci->family <= 0x16) {
        p->msr = MSR_AMD_DC_CFG;
        p->disable_bits = AMD_DC_CFG_DIS_HW_PF;
        p->nprefetchers = 1;
        p->prefetcher[0] = (struct prefetcher){"L1D hardware prefetcher", AMD_DC_CFG_DIS_HW_PF};
        p->names = "L1D hardware prefetcher";
        p->doc = "AMD BKDG families 10h..16h: MSR C001_1022 DC_CFG bit 13 DisHwPf";
    } else {
        p->doc = "no documented prefetcher control for this vendor and family";
    }
}

static void read_smt(struct cpu_facts *f, const struct cpu_info *ci, cpuid_fn fn)
{
    uint32_t r[4];
    f->smt_source = "none";
    if (ci->max_leaf >= 1) {
        fn(1, 0, r);
        f->htt = (r[3] & LEAF1_EDX_HTT) != 0;
    }
    if (is_vendor(ci, "GenuineIntel") && ci->max_leaf >= 0xb) {
        fn(0xb, 0, r);
        if (((r[2] >> 8) & 0xff) == LEAF_B_TYPE_SMT) {
            f->threads_per_core = r[1] & 0xffff;
            f->smt_source = "cpuid 0xb";
        }
        return;
    }
    if (ci->max_ext_leaf >= 0x8000001e) {
        fn(0x80000001, 0, r);
        if (r[2] & EXT1_ECX_TOPOLOGY_EXT) {
            fn(0x8000001e, 0, r);
            f->threads_per_core = ((r[1] >> 8) & 0xff) + 1;
            f->smt_source = "cpuid 0x8000001e";
        }
    }
}

static void read_boost(struct cpu_facts *f, const struct cpu_info *ci, cpuid_fn fn,
                       msr_read_fn rdmsr)
{
    uint32_t r[4];
    uint64_t v;
    f->boost_disabled = f->base_ratio = f->current_ratio = f->current_pstate = -1;
    if (is_vendor(ci, "GenuineIntel")) {
        if (ci->max_leaf >= 6) {
            fn(6, 0, r);
            f->boost_supported = (r[0] & LEAF6_EAX_TURBO) != 0;
        }
        if (rdmsr(MSR_INTEL_MISC_ENABLE, &v))
            f->boost_disabled = (v & INTEL_MISC_ENABLE_TURBO_DISABLE) != 0;
        if (rdmsr(MSR_INTEL_PLATFORM_INFO, &v))
            f->base_ratio = (int)((v >> 8) & 0xff);
        if (rdmsr(MSR_INTEL_PERF_STATUS, &v))
            f->current_ratio = (int)((v >> 8) & 0xff);
    } else if (is_vendor(ci, "AuthenticAMD")) {
        if (ci->max_ext_leaf >= 0x80000007) {
            fn(0x80000007, 0, r);
            f->boost_supported = (r[3] & EXT7_EDX_CPB) != 0;
        }
        if (rdmsr(MSR_AMD_HWCR, &v))
            f->boost_disabled = (v & AMD_HWCR_CPB_DIS) != 0;
        if (rdmsr(MSR_AMD_PSTATE_STATUS, &v))
            f->current_pstate = (int)(v & 7);
    }
}

void cpufacts_read(struct cpu_facts *f, const struct cpu_info *ci, cpuid_fn fn, msr_read_fn rdmsr)
{
    kmemset(f, 0, sizeof(*f));
    f->read = true;
    cpufacts_prefetch_ctl(ci, &f->prefetch);
    if (f->prefetch.msr)
        f->prefetch_read = rdmsr(f->prefetch.msr, &f->prefetch_value);
    read_smt(f, ci, fn);
    read_boost(f, ci, fn, rdmsr);
}
