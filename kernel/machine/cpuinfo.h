// SPDX-License-Identifier: MIT
// CPU identity and cache geometry decoded from CPUID, through a replaceable CPUID function.
#ifndef CHASE_CPUINFO_H
#define CHASE_CPUINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/simd.h"

/* Executes CPUID(leaf, subleaf) into out = {eax, ebx, ecx, edx}. */
typedef void (*cpuid_fn)(uint32_t leaf, uint32_t subleaf, uint32_t out[4]);

enum cache_type { CACHE_DATA = 1, CACHE_INSTRUCTION = 2, CACHE_UNIFIED = 3 };

struct cache_info {
    unsigned level;
    enum cache_type type;
    uint64_t size_bytes;
    unsigned ways; /* 0 = fully associative */
    unsigned line_bytes;
    unsigned sets;
    unsigned shared_by; /* logical processors sharing it; 0 if not reported */
};

#define CPU_MAX_CACHES 8

struct cpu_info {
    char vendor[13];
    char brand[49];
    unsigned family, model, stepping;
    uint32_t max_leaf, max_ext_leaf;
    struct cache_info caches[CPU_MAX_CACHES];
    unsigned ncaches;
    const char *cache_source; /* "cpuid 4", "cpuid 0x8000001d", "cpuid 0x80000005/6", "none";
                                 with CACHE_SIZES_UNKNOWN after it when some were dropped */
    bool invariant_tsc;
    bool has_rdtscp;
    bool has_1g_pages;
    bool hypervisor;
    char hypervisor_vendor[13];
    uint64_t cpuid_tsc_hz;      /* from leaf 0x15 (or 0x16 base MHz); 0 when not given */
    const char *cpuid_tsc_leaf; /* "0x15", "0x16" or NULL */
    struct simd_caps simd;      /* the vector units */
};

/* Fill ci from CPUID as executed by fn. */
void cpuinfo_read(struct cpu_info *ci, cpuid_fn fn);

/* What cache_source adds when cpuinfo_drop_unbelievable dropped caches. */
#define CACHE_SIZES_UNKNOWN " (sizes unknown: a cache no larger than its line, made up)"

/*
 * Drop the caches whose geometry cannot be true: no larger than one line (KVM on Arm makes up
 * CCSIDR: every level one 64-byte line; a hypervisor's CPUID can be as bad). Their sizes are
 * unknown rather than wrong. Returns how many were dropped.
 */
unsigned cpuinfo_drop_unbelievable(struct cpu_info *ci);

/* Name of a cache type: "data", "instruction" or "unified". */
const char *cache_type_name(enum cache_type t);

/* The largest data or unified cache (the last level), or NULL when none is known. */
const struct cache_info *cpuinfo_llc(const struct cpu_info *ci);
/* The data or unified cache of the given level, or NULL. */
const struct cache_info *cpuinfo_data_cache(const struct cpu_info *ci, unsigned level);

#endif
