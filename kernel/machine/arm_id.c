// SPDX-License-Identifier: MIT
// AArch64 identification registers decoded: MIDR_EL1, MPIDR_EL1, CLIDR_EL1, CCSIDR_EL1, CTR_EL0.
#include "machine/arm_id.h"

#include <stddef.h>

#include "lib/kstring.h"
#include "machine/simd.h"

/* Implementer codes (MIDR_EL1 [31:24], Arm ARM D23.2 and the vendors' manuals). */
#define ARM_IMPL_ARM 0x41
#define ARM_IMPL_BROADCOM 0x42
#define ARM_IMPL_CAVIUM 0x43
#define ARM_IMPL_FUJITSU 0x46
#define ARM_IMPL_HISILICON 0x48
#define ARM_IMPL_NVIDIA 0x4E
#define ARM_IMPL_QUALCOMM 0x51
#define ARM_IMPL_APPLE 0x61
#define ARM_IMPL_MICROSOFT 0x6D
#define ARM_IMPL_AMPERE 0xC0

struct arm_name {
    uint8_t implementer;
    uint16_t part; /* ignored in the implementer table */
    const char *name;
};

static const struct arm_name implementers[] = {
    {ARM_IMPL_ARM, 0, "Arm"},
    {ARM_IMPL_BROADCOM, 0, "Broadcom"},
    {ARM_IMPL_CAVIUM, 0, "Cavium"},
    {ARM_IMPL_FUJITSU, 0, "Fujitsu"},
    {ARM_IMPL_HISILICON, 0, "HiSilicon"},
    {ARM_IMPL_NVIDIA, 0, "Nvidia"},
    {ARM_IMPL_QUALCOMM, 0, "Qualcomm"},
    {ARM_IMPL_APPLE, 0, "Apple"},
    {ARM_IMPL_MICROSOFT, 0, "Microsoft"},
    {ARM_IMPL_AMPERE, 0, "Ampere"},
};

/*
 * Part numbers (MIDR_EL1 [15:4]) from each core's Technical Reference Manual, "MIDR_EL1"
 * (e.g. Cortex-A53 TRM 0xD03, Cortex-A72 TRM 0xD08, Neoverse N1 TRM 0xD0C, Neoverse V1 TRM
 * 0xD40). Ampere Altra reports Arm's Neoverse N1 (0x41/0xD0C); Nvidia Grace reports Arm's
 * Neoverse V2 (0x41/0xD4F); AWS Graviton2/3/4 report Neoverse N1/V1/V2.
 */
static const struct arm_name parts[] = {
    {ARM_IMPL_ARM, 0xD03, "Cortex-A53"},
    {ARM_IMPL_ARM, 0xD04, "Cortex-A35"},
    {ARM_IMPL_ARM, 0xD05, "Cortex-A55"},
    {ARM_IMPL_ARM, 0xD06, "Cortex-A65"},
    {ARM_IMPL_ARM, 0xD07, "Cortex-A57"},
    {ARM_IMPL_ARM, 0xD08, "Cortex-A72"},
    {ARM_IMPL_ARM, 0xD09, "Cortex-A73"},
    {ARM_IMPL_ARM, 0xD0A, "Cortex-A75"},
    {ARM_IMPL_ARM, 0xD0B, "Cortex-A76"},
    {ARM_IMPL_ARM, 0xD0C, "Neoverse N1"},
    {ARM_IMPL_ARM, 0xD0D, "Cortex-A77"},
    {ARM_IMPL_ARM, 0xD0E, "Cortex-A76AE"},
    {ARM_IMPL_ARM, 0xD40, "Neoverse V1"},
    {ARM_IMPL_ARM, 0xD41, "Cortex-A78"},
    {ARM_IMPL_ARM, 0xD42, "Cortex-A78AE"},
    {ARM_IMPL_ARM, 0xD43, "Cortex-A65AE"},
    {ARM_IMPL_ARM, 0xD44, "Cortex-X1"},
    {ARM_IMPL_ARM, 0xD46, "Cortex-A510"},
    {ARM_IMPL_ARM, 0xD47, "Cortex-A710"},
    {ARM_IMPL_ARM, 0xD48, "Cortex-X2"},
    {ARM_IMPL_ARM, 0xD49, "Neoverse N2"},
    {ARM_IMPL_ARM, 0xD4A, "Neoverse E1"},
    {ARM_IMPL_ARM, 0xD4B, "Cortex-A78C"},
    {ARM_IMPL_ARM, 0xD4C, "Cortex-X1C"},
    {ARM_IMPL_ARM, 0xD4D, "Cortex-A715"},
    {ARM_IMPL_ARM, 0xD4E, "Cortex-X3"},
    {ARM_IMPL_ARM, 0xD4F, "Neoverse V2"},
    {ARM_IMPL_ARM, 0xD80, "Cortex-A520"},
    {ARM_IMPL_ARM, 0xD81, "Cortex-A720"},
    {ARM_IMPL_ARM, 0xD82, "Cortex-X4"},
    {ARM_IMPL_ARM, 0xD84, "Neoverse V3"},
    {ARM_IMPL_ARM, 0xD85, "Cortex-X925"},
    {ARM_IMPL_ARM, 0xD87, "Cortex-A725"},
    {ARM_IMPL_ARM, 0xD8E, "Neoverse N3"},
    {ARM_IMPL_AMPERE, 0xAC3, "AmpereOne"},
    {ARM_IMPL_AMPERE, 0xAC4, "AmpereOne AC04"},
    {ARM_IMPL_APPLE, 0x022, "Apple M1 Icestorm"},
    {ARM_IMPL_APPLE, 0x023, "Apple M1 Firestorm"},
    {ARM_IMPL_APPLE, 0x024, "Apple M1 Pro Icestorm"},
    {ARM_IMPL_APPLE, 0x025, "Apple M1 Pro Firestorm"},
    {ARM_IMPL_APPLE, 0x028, "Apple M1 Max Icestorm"},
    {ARM_IMPL_APPLE, 0x029, "Apple M1 Max Firestorm"},
    {ARM_IMPL_APPLE, 0x032, "Apple M2 Blizzard"},
    {ARM_IMPL_APPLE, 0x033, "Apple M2 Avalanche"},
    {ARM_IMPL_QUALCOMM, 0x001, "Qualcomm Oryon"},
    {ARM_IMPL_QUALCOMM, 0x800, "Qualcomm Kryo 2xx Gold"},
    {ARM_IMPL_QUALCOMM, 0x801, "Qualcomm Kryo 2xx Silver"},
    {ARM_IMPL_QUALCOMM, 0x802, "Qualcomm Kryo 3xx Gold"},
    {ARM_IMPL_QUALCOMM, 0x803, "Qualcomm Kryo 3xx Silver"},
    {ARM_IMPL_QUALCOMM, 0x804, "Qualcomm Kryo 4xx Gold"},
    {ARM_IMPL_QUALCOMM, 0x805, "Qualcomm Kryo 4xx Silver"},
    {ARM_IMPL_QUALCOMM, 0xC00, "Qualcomm Falkor"},
    {ARM_IMPL_NVIDIA, 0x003, "Nvidia Denver"},
    {ARM_IMPL_NVIDIA, 0x004, "Nvidia Carmel"},
    {ARM_IMPL_CAVIUM, 0x0AF, "Cavium ThunderX2"},
    {ARM_IMPL_BROADCOM, 0x516, "Broadcom Vulcan"},
    {ARM_IMPL_FUJITSU, 0x001, "Fujitsu A64FX"},
    {ARM_IMPL_HISILICON, 0xD01, "HiSilicon TSV110"},
    {ARM_IMPL_MICROSOFT, 0xD49, "Microsoft Azure Cobalt 100"},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

void arm_midr_decode(uint32_t midr, struct arm_midr *m)
{
    m->implementer = (uint8_t)(midr >> 24);
    m->variant = (uint8_t)((midr >> 20) & 0xF);
    m->architecture = (uint8_t)((midr >> 16) & 0xF);
    m->part = (uint16_t)((midr >> 4) & 0xFFF);
    m->revision = (uint8_t)(midr & 0xF);
}

const char *arm_implementer_name(uint8_t implementer)
{
    for (size_t i = 0; i < COUNT(implementers); i++)
        if (implementers[i].implementer == implementer)
            return implementers[i].name;
    return NULL;
}

const char *arm_part_name(uint8_t implementer, uint16_t part)
{
    for (size_t i = 0; i < COUNT(parts); i++)
        if (parts[i].implementer == implementer && parts[i].part == part)
            return parts[i].name;
    return NULL;
}

void arm_mpidr_decode(uint64_t mpidr, struct arm_mpidr *m)
{
    m->aff[0] = (uint8_t)mpidr;
    m->aff[1] = (uint8_t)(mpidr >> 8);
    m->aff[2] = (uint8_t)(mpidr >> 16);
    m->aff[3] = (uint8_t)(mpidr >> 32);
    m->mt = (mpidr >> 24) & 1;
    m->up = (mpidr >> 30) & 1;
}

#define CLIDR_CTYPE_BITS 3
#define CLIDR_LOUIS_SHIFT 21
#define CLIDR_LOC_SHIFT 24
#define CLIDR_LOUU_SHIFT 27
#define CLIDR_ICB_SHIFT 30

void arm_clidr_decode(uint64_t clidr, struct arm_clidr *c)
{
    kmemset(c, 0, sizeof(*c));
    bool ended = false;
    for (unsigned i = 0; i < ARM_CACHE_LEVELS_MAX; i++) {
        unsigned t = (unsigned)(clidr >> (CLIDR_CTYPE_BITS * i)) & 7;
        /* Arm ARM: once a Ctype reads "no cache", no higher level is present. */
        if (t == ARM_CTYPE_NONE || t > ARM_CTYPE_UNIFIED)
            ended = true;
        c->ctype[i] = ended ? ARM_CTYPE_NONE : (enum arm_ctype)t;
        if (!ended)
            c->levels = i + 1;
    }
    c->louis = (unsigned)(clidr >> CLIDR_LOUIS_SHIFT) & 7;
    c->loc = (unsigned)(clidr >> CLIDR_LOC_SHIFT) & 7;
    c->louu = (unsigned)(clidr >> CLIDR_LOUU_SHIFT) & 7;
    c->icb = (unsigned)(clidr >> CLIDR_ICB_SHIFT) & 7;
}

const char *arm_ctype_name(enum arm_ctype t)
{
    switch (t) {
    case ARM_CTYPE_INSTRUCTION:
        return "instruction";
    case ARM_CTYPE_DATA:
        return "data";
    case ARM_CTYPE_SEPARATE:
        return "separate";
    case ARM_CTYPE_UNIFIED:
        return "unified";
    default:
        return "none";
    }
}

void arm_ccsidr_decode(uint64_t ccsidr, bool ccidx, struct arm_ccsidr *c)
{
    uint64_t sets, ways;
    if (ccidx) {
        sets = ((ccsidr >> 32) & 0xFFFFFF) + 1; /* NumSets [55:32] */
        ways = ((ccsidr >> 3) & 0x1FFFFF) + 1;  /* Associativity [23:3] */
    } else {
        sets = ((ccsidr >> 13) & 0x7FFF) + 1; /* NumSets [27:13] */
        ways = ((ccsidr >> 3) & 0x3FF) + 1;   /* Associativity [12:3] */
    }
    c->line_bytes = 1u << ((ccsidr & 7) + 4);
    c->ways = (uint32_t)ways;
    c->sets = (uint32_t)sets;
    c->size_bytes = (uint64_t)c->line_bytes * ways * sets;
}

/* A CTR_EL0 field that counts log2 of 4-byte words; 0 means "not given" where zero_unknown. */
static uint32_t ctr_words(uint64_t ctr, unsigned shift, bool zero_unknown)
{
    unsigned v = (unsigned)(ctr >> shift) & 0xF;
    return zero_unknown && v == 0 ? 0 : 4u << v;
}

void arm_ctr_decode(uint64_t ctr, struct arm_ctr *c)
{
    c->imin_line_bytes = ctr_words(ctr, 0, false);
    c->dmin_line_bytes = ctr_words(ctr, 16, false);
    c->erg_bytes = ctr_words(ctr, 20, true);
    c->cwg_bytes = ctr_words(ctr, 24, true);
    c->l1ip = (unsigned)(ctr >> 14) & 3;
    c->idc = (ctr >> 28) & 1;
    c->dic = (ctr >> 29) & 1;
}

const char *arm_l1ip_name(unsigned l1ip)
{
    static const char *const names[] = {"VPIPT", "AIVIVT", "VIPT", "PIPT"};
    return names[l1ip & 3];
}

void arm_pfr0_simd(uint64_t pfr0, struct simd_caps *c)
{
    unsigned advsimd = (unsigned)(pfr0 >> ARM_PFR0_ADVSIMD_SHIFT) & ARM_PFR0_FIELD_MASK;
    unsigned sve = (unsigned)(pfr0 >> ARM_PFR0_SVE_SHIFT) & ARM_PFR0_FIELD_MASK;
    c->neon = advsimd != ARM_PFR0_ADVSIMD_NONE;
    c->sve = sve != 0;
}
