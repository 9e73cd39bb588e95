// SPDX-License-Identifier: MIT
// The CPU facts measurement windows rest on: whether LFENCE serializes, and the paging mode.
#include "machine/window_rules.h"

#include "lib/fmt.h"
#include "lib/kstring.h"

#define AMD_FAMILY_K8 0x0f  /* LFENCE always serializing, no DE_CFG bit */
#define AMD_FAMILY_11H 0x11 /* the same */

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
        return "DE_CFG could not be read: LFENCE may not serialize; timed regions end with "
               "rdtscp where the CPU has it";
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
