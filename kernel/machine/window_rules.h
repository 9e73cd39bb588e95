// SPDX-License-Identifier: MIT
// The CPU facts measurement windows rest on: whether LFENCE serializes, and the paging mode.
#ifndef CHASE_WINDOW_RULES_H
#define CHASE_WINDOW_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MSR_AMD_DE_CFG 0xc0011029u          /* AMD decode configuration */
#define DE_CFG_LFENCE_SERIALIZE (1ULL << 1) /* LFENCE is dispatch-serializing when set */
#define CPUID_AMD_EXT_FEATURES2 0x80000021u /* AMD extended feature identifiers 2 */
#define EXT21_EAX_LFENCE_ALWAYS (1u << 2)   /* LfenceAlwaysSerializing */
#define CR4_LA57_BIT (1ULL << 12)           /* 57-bit linear addresses: 5-level paging */

/* What a CPU's LFENCE is, from its CPUID. */
enum lfence_rule {
    LFENCE_SERIALIZING,  /* dispatch-serializing by itself (Intel; AMD 0Fh/11h; AMD with
                            CPUID 8000_0021 EAX[2]) */
    LFENCE_NEEDS_DE_CFG, /* AMD/Hygon whose LFENCE serializes only with DE_CFG[1] set */
    LFENCE_UNKNOWN       /* another vendor: nothing documented to check */
};

/* The CPUID values the rule reads. */
struct lfence_cpuid {
    const char *vendor;    /* leaf 0 vendor string */
    unsigned family;       /* display family (base + extended) */
    uint32_t max_ext_leaf; /* CPUID 0x80000000 EAX */
    uint32_t ext21_eax;    /* CPUID 0x80000021 EAX (read only when max_ext_leaf reaches it) */
};

/*
 * Whether LFENCE is dispatch-serializing on this CPU without help (Intel SDM: LFENCE waits
 * for all prior instructions; AMD "Software techniques for managing speculation": families
 * 10h-17h need MSR C001_1029[1], 0Fh/11h always serialize, CPUID 8000_0021 EAX[2] says
 * "always" on the parts that have it, Zen 4 and some Zen 3).
 */
enum lfence_rule lfence_rule_of(const struct lfence_cpuid *c);

/* What to do about DE_CFG, given the rule and what reading it gave. */
enum lfence_action {
    LFENCE_NOTHING_TO_DO, /* serializing by itself, or unknown vendor */
    LFENCE_ALREADY_SET,   /* DE_CFG[1] found set (by the firmware or the OS) */
    LFENCE_SET_FOR_RUN,   /* DE_CFG[1] found clear: set it for the run, restore after */
    LFENCE_UNREADABLE,    /* DE_CFG could not be read: rdtscp ends the timed regions */
    LFENCE_SET_FAILED     /* found clear, and setting it faulted or did not stick */
};

/* Read the CPUID values lfence_rule_of needs into c; vendor (13 bytes) holds its string. */
void lfence_cpuid_read(struct lfence_cpuid *c, char vendor[13]);

/* The action for rule when DE_CFG read gave value (readable false: it faulted or no MSRs). */
enum lfence_action lfence_action_of(enum lfence_rule rule, bool readable, uint64_t value);

/*
 * The action once setting DE_CFG[1] was tried: LFENCE_SET_FAILED when a was
 * LFENCE_SET_FOR_RUN and the bit did not stick (stuck: the write did not fault and a read
 * back showed the bit); a otherwise.
 */
enum lfence_action lfence_after_set(enum lfence_action a, bool stuck);

/* A sentence for run.json and the console: what was found and done. */
const char *lfence_action_text(enum lfence_action a);

/*
 * Whether LFENCE may fail to serialize after action: DE_CFG[1] was needed and is neither
 * known set nor set for the run (unreadable, or the write faulted or did not stick).
 */
bool lfence_unsure(enum lfence_action a);

/* How timed regions end (the add chain's always; a chase's where the CPU has RDTSCP). */
enum timed_end {
    TIMED_END_LFENCE, /* lfence; rdtsc; lfence: LFENCE serializes, the add chain ends so */
    TIMED_END_RDTSCP, /* rdtscp; lfence: LFENCE may not serialize, RDTSCP waits for the work */
    TIMED_END_UNSURE  /* LFENCE may not serialize and there is no RDTSCP: fenced rdtsc, said */
};

/*
 * The add chain's end, from whether LFENCE is unsure and whether the CPU has RDTSCP (inline:
 * the timing code that asks links without the rest of this file).
 */
static inline enum timed_end timed_end_of(bool unsure, bool has_rdtscp)
{
    if (!unsure)
        return TIMED_END_LFENCE;
    return has_rdtscp ? TIMED_END_RDTSCP : TIMED_END_UNSURE;
}

/* The instructions that end a region under e, and why (for run.json and the console). */
const char *timed_end_fence(enum timed_end e);
const char *timed_end_why(enum timed_end e);

/*
 * Whether chase may load its own page tables under control register cr4: its tables are
 * 4-level, and loading them with CR4.LA57 set would be read as 5-level (a triple fault).
 * Returns true when it may; false with a message for people in why otherwise.
 */
bool paging_mode_supported(uint64_t cr4, char *why, size_t why_cap);

#endif
