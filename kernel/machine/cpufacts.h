// SPDX-License-Identifier: MIT
// What changes latency besides the caches, recorded with each run: the hardware prefetchers'
// control MSR, SMT (a sibling thread on the core) and the P-state/boost state.
#ifndef CHASE_CPUFACTS_H
#define CHASE_CPUFACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/cpuinfo.h"

/* Reads an MSR that may not exist: false when it faults or cannot be read at all. */
typedef bool (*msr_read_fn)(uint32_t msr, uint64_t *value);

#define MSR_INTEL_MISC_FEATURE_CONTROL 0x1a4 /* Intel: bits 0..3 turn prefetchers off */
#define MSR_AMD_DC_CFG 0xc0011022u           /* AMD families 10h..16h: bit 13 DisHwPf */
#define MSR_AMD_PREFETCH_CONTROL 0xc0000108u /* AMD family 19h and later */
#define MSR_INTEL_PLATFORM_INFO 0xce
#define MSR_INTEL_PERF_STATUS 0x198
#define MSR_INTEL_MISC_ENABLE 0x1a0
#define MSR_AMD_HWCR 0xc0010015u
#define MSR_AMD_PSTATE_STATUS 0xc0010063u

#define PREFETCHERS_MAX 8 /* prefetchers one control MSR names at most (Granite Rapids: 8) */

/* One prefetcher and the bit of the control MSR that turns it off. */
struct prefetcher {
    const char *name;
    uint64_t bit;
};

/* The documented prefetcher control of a CPU: which MSR, which bits turn them off. */
struct prefetch_ctl {
    uint32_t msr;          /* 0: no documented control on this CPU */
    uint64_t disable_bits; /* set: prefetchers off (the prefetchers' bits together) */
    const char *names;     /* what those bits are, for people */
    const char *doc;       /* where it is documented, or why there is none */
    unsigned nprefetchers;
    struct prefetcher prefetcher[PREFETCHERS_MAX];
    bool unsure;              /* the model is not in the table: each bit is tried alone */
    const char *uncontrolled; /* prefetchers the core has besides these, left on; or NULL */
};

struct cpu_facts {
    bool read; /* cpufacts_read filled this (false: nothing known, as in chase-sim) */
    struct prefetch_ctl prefetch;
    bool prefetch_read; /* the control MSR was read (value below) */
    uint64_t prefetch_value;
    /* SMT, from CPUID */
    bool htt;                  /* leaf 1 EDX bit 28: more than one logical processor/package */
    unsigned threads_per_core; /* 0: not reported */
    const char *smt_source;    /* "cpuid 0xb", "cpuid 0x8000001e", "none" */
    /* Boost: from CPUID and, where readable, MSRs */
    bool boost_supported; /* Intel Turbo (leaf 6 EAX bit 1), AMD CPB (0x80000007 EDX bit 9) */
    int boost_disabled;   /* 1 disabled, 0 enabled, -1 not readable */
    int base_ratio;       /* Intel PLATFORM_INFO 15:8 (x 100 MHz); -1 unknown */
    int current_ratio;    /* Intel PERF_STATUS 15:8; -1 unknown */
    int current_pstate;   /* AMD PStateStat 2:0; -1 unknown */
};

/* The prefetch control the vendor documents for this CPU (msr 0 when none is). */
void cpufacts_prefetch_ctl(const struct cpu_info *ci, struct prefetch_ctl *p);

/*
 * Intel family 6: the prefetchers MSR 0x1a4 controls on this model, from the SDM's model
 * tables and Intel's disclosures (kernel/machine/prefetch_models.c): Core and Xeon bits 0..3,
 * Sapphire and Emerald Rapids bits 0..5, Granite Rapids bits 0..7, Atom cores bits 0 and 2,
 * Xeon Phi bits 0 and 1; a model not listed is "unsure".
 */
void prefetch_models_intel(unsigned model, struct prefetch_ctl *p);

/* Fill f from CPUID (fn) and the MSRs rdmsr can read. */
void cpufacts_read(struct cpu_facts *f, const struct cpu_info *ci, cpuid_fn fn, msr_read_fn rdmsr);

#endif
