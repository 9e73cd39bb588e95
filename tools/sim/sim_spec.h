// SPDX-License-Identifier: MIT
// Hierarchy descriptions: the NAME:SIZE:WAYSw:LATENCYc:POLICY,... parser, its errors, presets.
#ifndef SIM_SPEC_H
#define SIM_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "machine/cpuinfo.h"
#include "sim_hier.h"

#define SIM_DEFAULT_LINE_BYTES 64
#define SIM_DEFAULT_EPS 32
#define SIM_DEFAULT_LEADERS 32
#define SIM_DEFAULT_PSEL_BITS 10
#define SIM_DEFAULT_MLP 10

/* Where a description went wrong: the bad field as a byte range of the text, and why. */
struct sim_parse_error {
    size_t pos, len;
    char msg[200];
};

/*
 * Parse a hierarchy description into spec: items separated by commas or new lines,
 * outermost cache last, then DRAM. '#' starts a comment that runs to the end of its line.
 *   cache: NAME:SIZE:WAYSw:LATENCYc:POLICY[:incl|:excl|:nine][:slices=N][:hash=H][:line=B]
 *          [:eps=N][:leaders=N][:psel=BITS]
 *   TLB:   NAMETLB:ENTRIES:WAYSw:MISSc[:POLICY]  (a name ending in TLB)
 *   prefetcher: PF:STREAMS[:distance=N][:degree=N][:into=LEVEL][:region=SIZE] (off without)
 *   DRAM:  DRAM:LATENCYc[:mlp=N]
 * Returns true, or false with err naming the field and what would be accepted.
 */
bool sim_spec_parse(const char *text, struct sim_spec *spec, struct sim_parse_error *err);

/* Name of a slice hash as the parser reads it ("intel", "xor", "mix", "mod"). */
const char *sim_hash_name(enum sim_hash hash);

/* Write spec in the parser's syntax, one line, into buf (capacity cap). */
void sim_spec_format(const struct sim_spec *spec, char *buf, size_t cap);

/* Describe spec's cache levels the way CPUID would (level, type, size, ways, line, sets). */
void sim_spec_caches(const struct sim_spec *spec, struct cpu_info *ci);

/* A machine whose cache geometry is public, by name. */
struct sim_preset {
    const char *name;
    const char *machine; /* what it models */
    const char *spec;    /* its hierarchy description */
};

extern const struct sim_preset sim_presets[];
extern const size_t sim_preset_count;

/* The preset called name, or NULL. */
const struct sim_preset *sim_preset_find(const char *name);

#endif
