// SPDX-License-Identifier: MIT
// The CPU facts measurement windows rest on: whether LFENCE serializes, and the paging mode.
#include "machine/window_rules.h"

#include "arch/cpu.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

#define AMD_FAMILY_K8 0x0f  /* LFENCE always serializing, no DE_CFG bit */
#define AMD_FAMILY_11H 0x11 /* the same */

#define CPUID_VENDOR_LEAF 0
#define CPUID_FAMILY_LEAF 1
#define CPUID_EXT_MAX_LEAF 0x80000000u
#define FAMILY_BASE(eax) (((eax) >> 8) & 0xf)
#define FAMILY_EXT(eax) (((eax) >> 20) & 0xff)
#define FAMILY_BASE_EXTENDED 0xf /* the base family that adds the extended family */

void lfence_cpuid_read(struct lfence_cpuid *c, char vendor[13])
{
    uint32_t r[4];
    arch_cpuid(CPUID_VENDOR_LEAF, 0, r);
    kmemcpy(vendor, &r[1], 4);
    kmemcpy(vendor + 4, &r[3], 4);
    kmemcpy(vendor + 8, &r[2], 4);
    vendor[12] = 0;
    c->vendor = vendor;
    arch_cpuid(CPUID_FAMILY_LEAF, 0, r);
    c->family = FAMILY_BASE(r[0]);
    if (c->family == FAMILY_BASE_EXTENDED)
        c->family += FAMILY_EXT(r[0]);
    arch_cpuid(CPUID_EXT_MAX_LEAF, 0, r);
    c->max_ext_leaf = r[0];
    c->ext21_eax = 0;
    if (c->max_ext_leaf >= CPUID_AMD_EXT_FEATURES2) {
        arch_cpuid(CPUID_AMD_EXT_FEATURES2, 0, r);
        c->ext21_eax = r[0];
    }
}

enum lfence_rule lfence_rule_of(const struct lfence_cpuid *c)
{
    if (kstrcmp(c->vendor, "GenuineIntel") == 0)
        return LFENCE_SERIALIZING;
    if (kstrcmp(c->vendor, "AuthenticAMD") != 0 && kstrcmp(c->vendor, "HygonGenuine") != 0)
        return LFENCE_UNKNOWN;
    if (c->family == AMD_FAMILY_K8 || c->family == AMD_FAMILY_11H)
        return LFENCE_SERIALIZING;
    if (c->max_ext_leaf >= CPUID_AMD_EXT_FEATURES2 && (c->ext21_eax & EXT21_EAX_LFENCE_ALWAYS))
        return LFENCE_SERIALIZING;
    return LFENCE_NEEDS_DE_CFG;
}

enum lfence_action lfence_action_of(enum lfence_rule rule, bool readable, uint64_t value)
{
    if (rule != LFENCE_NEEDS_DE_CFG)
        return LFENCE_NOTHING_TO_DO;
    if (!readable)
        return LFENCE_UNREADABLE;
    return value & DE_CFG_LFENCE_SERIALIZE ? LFENCE_ALREADY_SET : LFENCE_SET_FOR_RUN;
}

enum lfence_action lfence_after_set(enum lfence_action a, bool stuck)
{
    return a == LFENCE_SET_FOR_RUN && !stuck ? LFENCE_SET_FAILED : a;
}

const char *lfence_action_text(enum lfence_action a)
{
    switch (a) {
    case LFENCE_NOTHING_TO_DO:
        return "LFENCE serializes by itself on this CPU: nothing to set";
    case LFENCE_ALREADY_SET:
        return "DE_CFG[1] (LFENCE serializing) found set: left as it was";
    case LFENCE_SET_FOR_RUN:
        return "DE_CFG[1] (LFENCE serializing) found clear: set for the run, restored at exit";
    case LFENCE_UNREADABLE:
        return "DE_CFG could not be read: LFENCE may not serialize; timed chases and the add "
               "chain end with rdtscp where the CPU has it, their starts may be early";
    case LFENCE_SET_FAILED:
        return "DE_CFG[1] (LFENCE serializing) found clear and could not be set: timed chases "
               "and the add chain end with rdtscp where the CPU has it, their starts may be "
               "early";
    }
    return "unknown";
}

bool lfence_unsure(enum lfence_action a)
{
    return a == LFENCE_UNREADABLE || a == LFENCE_SET_FAILED;
}

const char *timed_end_fence(enum timed_end e)
{
    return e == TIMED_END_RDTSCP ? "rdtscp; lfence" : "lfence; rdtsc; lfence";
}

const char *timed_end_why(enum timed_end e)
{
    switch (e) {
    case TIMED_END_LFENCE:
        return "LFENCE serializes here";
    case TIMED_END_RDTSCP:
        return "LFENCE may not serialize here (DE_CFG[1] not known set): RDTSCP waits for the "
               "work before it";
    case TIMED_END_UNSURE:
        return "LFENCE may not serialize here and the CPU has no RDTSCP: the end may be read "
               "early";
    }
    return "unknown";
}

bool paging_mode_supported(uint64_t cr4, char *why, size_t why_cap)
{
    if (!(cr4 & CR4_LA57_BIT))
        return true;
    ksnprintf(why, why_cap,
              "the firmware runs with 5-level paging (CR4.LA57 set, CR4 0x%llx); chase's own "
              "page tables are 4-level and cannot be loaded under it. Boot with 5-level paging "
              "off in the firmware setup (often \"5-level paging\" or \"LA57\") to run chase",
              (unsigned long long)cr4);
    return false;
}
