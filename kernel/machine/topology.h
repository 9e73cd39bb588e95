// SPDX-License-Identifier: MIT
// Where a processor sits in the machine (package, die, core, SMT thread), decoded from CPUID on
// that processor: Intel leaves 0x1F and 0xB (SDM vol. 2A, CPUID), AMD 0x80000026, 0xB and
// 0x8000001E (APM vol. 3, appendix E), leaves 1, 4 and 0x80000008 on older processors.
#ifndef CHASE_TOPOLOGY_H
#define CHASE_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>

/* A CPUID source: the instruction on the processor, or register values in the tests. */
struct topo_cpuid {
    void (*cpuid)(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);
    void *ctx;
};

/* One processor's place. IDs are the APIC ID's fields: unique, not necessarily dense. */
struct topology {
    uint32_t apic_id;   /* x2APIC ID (leaf 0xB/0x1F/0x80000026 EDX), else the initial APIC ID */
    unsigned package;   /* APIC ID bits above the package shift */
    unsigned die;       /* die in the package (0 when the CPU reports no die level) */
    unsigned core;      /* core in the package: the bits between the SMT and package shifts */
    unsigned thread;    /* SMT thread in the core */
    unsigned core_type; /* hybrid parts: CPUID 0x1A EAX[31:24] (0x20 Atom, 0x40 Core); else 0 */
    unsigned smt_bits;  /* APIC ID bits of the thread */
    unsigned pkg_bits;  /* APIC ID bits below the package */
    const char *source; /* the leaf it came from ("CPUID 0x1F", ...) */
};

/* Decode this processor's place from the CPUID values c gives (run on the processor itself). */
void topo_decode(const struct topo_cpuid *c, struct topology *t);

/* The firmware's word for a processor's place (the MP services processor information: Location,
 * Location2). */
struct topo_firmware {
    bool known;
    bool has_die; /* PI 1.7 Location2 was given */
    unsigned package, die, core, thread;
};

struct plat_cpu;
/*
 * Set p's package, die, core and thread from t (CPUID on the processor), keep the firmware's
 * location fw beside them as a cross-check, and mark where they differ (a firmware that fills
 * zeros, as some do, differs on every processor but the first).
 */
void topo_fill_cpu(struct plat_cpu *p, const struct topology *t, const struct topo_firmware *fw);

/* The CPUID instruction on the processor that calls it, as a topo_cpuid (firmware, host). */
extern const struct topo_cpuid topo_cpuid_here;

#endif
