// SPDX-License-Identifier: MIT
// AArch64 identification registers decoded: MIDR_EL1, MPIDR_EL1, CLIDR_EL1, CCSIDR_EL1, CTR_EL0.
#ifndef CHASE_ARM_ID_H
#define CHASE_ARM_ID_H

#include <stdbool.h>
#include <stdint.h>

/* MIDR_EL1 (Arm ARM D23.2 "MIDR_EL1, Main ID Register"). */
struct arm_midr {
    uint8_t implementer;  /* [31:24]: 0x41 Arm, 0x61 Apple, 0xC0 Ampere ... */
    uint8_t variant;      /* [23:20]: the "r" of rNpM */
    uint8_t architecture; /* [19:16]: 0xF: features are in the ID registers */
    uint16_t part;        /* [15:4]: the implementer's part number */
    uint8_t revision;     /* [3:0]: the "p" of rNpM */
};

/* Split midr into its fields. */
void arm_midr_decode(uint32_t midr, struct arm_midr *m);
/* The implementer's name ("Arm", "Apple" ...), or NULL when the code is not in chase's table. */
const char *arm_implementer_name(uint8_t implementer);
/* The part's name ("Cortex-A72", "Neoverse N1" ...), or NULL when not in chase's table. */
const char *arm_part_name(uint8_t implementer, uint16_t part);

/* MPIDR_EL1 (Arm ARM D23.2 "MPIDR_EL1, Multiprocessor Affinity Register"). */
struct arm_mpidr {
    uint8_t aff[4]; /* Aff0 [7:0], Aff1 [15:8], Aff2 [23:16], Aff3 [39:32] */
    bool mt;        /* [24]: Aff0 numbers threads of one core (multithreaded lowest level) */
    bool up;        /* [30]: a uniprocessor system */
};

/* Split mpidr into affinity levels and flags. */
void arm_mpidr_decode(uint64_t mpidr, struct arm_mpidr *m);

#define ARM_CACHE_LEVELS_MAX 7 /* CLIDR_EL1 describes levels 1..7 */

/* CLIDR_EL1 Ctype<n> values. */
enum arm_ctype {
    ARM_CTYPE_NONE = 0,
    ARM_CTYPE_INSTRUCTION = 1,
    ARM_CTYPE_DATA = 2,
    ARM_CTYPE_SEPARATE = 3, /* separate instruction and data caches */
    ARM_CTYPE_UNIFIED = 4
};

/* CLIDR_EL1 (Arm ARM D23.2 "CLIDR_EL1, Cache Level ID Register"). */
struct arm_clidr {
    enum arm_ctype ctype[ARM_CACHE_LEVELS_MAX]; /* ctype[0] is level 1 */
    unsigned levels; /* levels before the first "no cache" (a Ctype of 5..7 also ends it) */
    unsigned louis;  /* [23:21] Level of Unification Inner Shareable */
    unsigned loc;    /* [26:24] Level of Coherence */
    unsigned louu;   /* [29:27] Level of Unification Uniprocessor */
    unsigned icb;    /* [32:30] Inner cache boundary (0: not disclosed) */
};

/* Decode clidr. */
void arm_clidr_decode(uint64_t clidr, struct arm_clidr *c);
/* "instruction", "data", "separate", "unified" or "none" (also for reserved values). */
const char *arm_ctype_name(enum arm_ctype t);

/*
 * CCSIDR_EL1 (Arm ARM D23.2 "CCSIDR_EL1, Current Cache Size ID Register"), for the cache that
 * CSSELR_EL1 selected. Arm warns that NumSets, Associativity and LineSize describe the cache
 * as set/way maintenance sees it and are "not guaranteed to represent the actual
 * microarchitectural features of a design": size_bytes is a claim to be checked against PPTT
 * and the measurement, never a fact.
 */
struct arm_ccsidr {
    uint32_t line_bytes; /* 2^(LineSize + 4) */
    uint32_t ways;       /* Associativity + 1 */
    uint32_t sets;       /* NumSets + 1 */
    uint64_t size_bytes; /* line_bytes * ways * sets */
};

/*
 * Decode ccsidr in the format FEAT_CCIDX selects (ID_AA64MMFR2_EL1.CCIDX != 0: 64-bit,
 * NumSets [55:32], Associativity [23:3]; else 32-bit, NumSets [27:13], Associativity [12:3]).
 */
void arm_ccsidr_decode(uint64_t ccsidr, bool ccidx, struct arm_ccsidr *c);

/* CTR_EL0 (Arm ARM D23.2 "CTR_EL0, Cache Type Register"). */
struct arm_ctr {
    uint32_t imin_line_bytes; /* IminLine [3:0]: smallest I-cache line, 4 << IminLine */
    uint32_t dmin_line_bytes; /* DminLine [19:16]: smallest D-/unified line, 4 << DminLine */
    uint32_t erg_bytes;       /* ERG [23:20]: exclusives reservation granule, 0: not given */
    uint32_t cwg_bytes;       /* CWG [27:24]: cache writeback granule, 0: not given */
    unsigned l1ip;            /* L1Ip [15:14]: 1 AIVIVT, 2 VIPT, 3 PIPT */
    bool idc;                 /* [28]: D-cache clean to PoU not needed for I/D coherence */
    bool dic;                 /* [29]: I-cache invalidation to PoU not needed */
};

/* ID_AA64PFR0_EL1 fields (Arm ARM D23.2 "ID_AA64PFR0_EL1, AArch64 Processor Feature Register
   0"): AdvSIMD [23:20] is signed (0xF: not implemented, 0 or 1: implemented), SVE [35:32] is
   0 when there is no SVE. */
#define ARM_PFR0_ADVSIMD_SHIFT 20
#define ARM_PFR0_SVE_SHIFT 32
#define ARM_PFR0_FIELD_MASK 0xFu
#define ARM_PFR0_ADVSIMD_NONE 0xFu

struct simd_caps;
/*
 * The AArch64 vector units of c from ID_AA64PFR0_EL1: neon and sve (what exists; sve_enabled
 * and sve_vector_bytes are the front end's to set, as they depend on the exception level).
 */
void arm_pfr0_simd(uint64_t pfr0, struct simd_caps *c);

/* Decode ctr. */
void arm_ctr_decode(uint64_t ctr, struct arm_ctr *c);
/* "VPIPT", "AIVIVT", "VIPT" or "PIPT" for CTR_EL0.L1Ip. */
const char *arm_l1ip_name(unsigned l1ip);

#endif
