// SPDX-License-Identifier: MIT
// The documented L1 data bandwidth per core cycle of the cores chase knows, per vector width.
#include "machine/cpuinfo.h"
#include "machine/simd.h"

#include "lib/kstring.h"

/*
 * Bytes per core cycle the L1 data cache serves to one core: loads, stores, for SSE2, AVX2
 * and AVX-512 vectors (0: that width does not exist there). Each is the number of load (or
 * store) operations the core can do per cycle at that width times the bytes of one:
 * - Intel: Intel 64 and IA-32 Architectures Optimization Reference Manual (order 248966),
 *   the L1 data cache tables of each microarchitecture: Haswell, Broadwell and Skylake
 *   client do two 32-byte loads and one 32-byte store per cycle; Skylake-SP and Cascade Lake
 *   two 64-byte loads and one 64-byte store (Skylake server section: "2x64B loads + 1x64B
 *   store" per cycle). 16-byte SSE operations use the same ports: two loads, one store.
 *   Golden Cove (Sapphire Rapids; Emerald Rapids' Raptor Cove is the same load-store unit):
 *   three loads per cycle up to 256 bits, two at 512; two stores per cycle up to 256 bits,
 *   one at 512.
 * - AMD: Software Optimization Guides for family 17h (Zen, Zen 2) and 19h (Zen 3, Zen 4),
 *   load-store unit: Zen does two 128-bit loads and one 128-bit store per cycle (256-bit
 *   operations are split in two); Zen 2 two 256-bit loads and one 256-bit store; Zen 3 and
 *   Zen 4 three loads and two stores per cycle up to 128 bits, two loads and one store at
 *   256 bits (Zen 4 splits a 512-bit operation into two 256-bit halves).
 * Other cores are not in the table: their peak is not claimed.
 */
struct l1_core {
    const char *vendor;
    unsigned family, model_lo, model_hi; /* display family and model range */
    const char *name;
    double load_bpc[SIMD_WIDTHS], store_bpc[SIMD_WIDTHS]; /* indexed by enum simd_width */
    const char *source;
};

#define INTEL_ORM "Intel Optimization Reference Manual (248966), L1 data cache peak bandwidth"
#define AMD_17H "AMD Software Optimization Guide for family 17h, load-store unit"
#define AMD_19H "AMD Software Optimization Guide for family 19h, load-store unit"

static const struct l1_core cores[] = {
    {"GenuineIntel", 6, 0x3c, 0x3c, "Haswell", {0, 32, 64, 0}, {0, 16, 32, 0}, INTEL_ORM},
    {"GenuineIntel", 6, 0x3f, 0x3f, "Haswell-E", {0, 32, 64, 0}, {0, 16, 32, 0}, INTEL_ORM},
    {"GenuineIntel", 6, 0x45, 0x46, "Haswell", {0, 32, 64, 0}, {0, 16, 32, 0}, INTEL_ORM},
    {"GenuineIntel", 6, 0x3d, 0x3d, "Broadwell", {0, 32, 64, 0}, {0, 16, 32, 0}, INTEL_ORM},
    {"GenuineIntel", 6, 0x47, 0x47, "Broadwell", {0, 32, 64, 0}, {0, 16, 32, 0}, INTEL_ORM},
    {"GenuineIntel", 6, 0x4f, 0x4f, "Broadwell-E", {0, 32, 64, 0}, {0, 16, 32, 0}, INTEL_ORM},
    {"GenuineIntel", 6, 0x56, 0x56, "Broadwell-DE", {0, 32, 64, 0}, {0, 16, 32, 0}, INTEL_ORM},
    {"GenuineIntel", 6, 0x4e, 0x4e, "Skylake", {0, 32, 64, 0}, {0, 16, 32, 0}, INTEL_ORM},
    {"GenuineIntel", 6, 0x5e, 0x5e, "Skylake", {0, 32, 64, 0}, {0, 16, 32, 0}, INTEL_ORM},
    {"GenuineIntel", 6, 0x8e, 0x8e, "Kaby/Coffee Lake", {0, 32, 64, 0}, {0, 16, 32, 0}, INTEL_ORM},
    {"GenuineIntel", 6, 0x9e, 0x9e, "Kaby/Coffee Lake", {0, 32, 64, 0}, {0, 16, 32, 0}, INTEL_ORM},
    {"GenuineIntel", 6, 0xa5, 0xa6, "Comet Lake", {0, 32, 64, 0}, {0, 16, 32, 0}, INTEL_ORM},
    {"GenuineIntel",
     6,
     0x55,
     0x55,
     "Skylake-SP/Cascade Lake",
     {0, 32, 64, 128},
     {0, 16, 32, 64},
     INTEL_ORM},
    {"GenuineIntel",
     6,
     0x8f,
     0x8f,
     "Sapphire Rapids",
     {0, 48, 96, 128},
     {0, 32, 64, 64},
     INTEL_ORM},
    {"GenuineIntel", 6, 0xcf, 0xcf, "Emerald Rapids", {0, 48, 96, 128}, {0, 32, 64, 64}, INTEL_ORM},
    {"AuthenticAMD", 0x17, 0x00, 0x2f, "Zen/Zen+", {0, 32, 32, 0}, {0, 16, 16, 0}, AMD_17H},
    {"AuthenticAMD", 0x17, 0x30, 0xff, "Zen 2", {0, 32, 64, 0}, {0, 16, 32, 0}, AMD_17H},
    {"AuthenticAMD", 0x19, 0x00, 0x0f, "Zen 3", {0, 48, 64, 0}, {0, 32, 32, 0}, AMD_19H},
    {"AuthenticAMD", 0x19, 0x20, 0x5f, "Zen 3", {0, 48, 64, 0}, {0, 32, 32, 0}, AMD_19H},
    {"AuthenticAMD", 0x19, 0x10, 0x1f, "Zen 4", {0, 48, 64, 64}, {0, 32, 32, 32}, AMD_19H},
    {"AuthenticAMD", 0x19, 0x60, 0x7f, "Zen 4", {0, 48, 64, 64}, {0, 32, 32, 32}, AMD_19H},
    {"AuthenticAMD", 0x19, 0xa0, 0xaf, "Zen 4", {0, 48, 64, 64}, {0, 32, 32, 32}, AMD_19H},
};

bool simd_l1_peak(const struct cpu_info *ci, enum simd_width w, double *load_bpc, double *store_bpc,
                  const char **core, const char **source)
{
    if (w == SIMD_AUTO || w >= SIMD_WIDTHS)
        return false;
    for (size_t i = 0; i < sizeof(cores) / sizeof(cores[0]); i++) {
        const struct l1_core *c = &cores[i];
        if (kstrcmp(ci->vendor, c->vendor) != 0 || ci->family != c->family ||
            ci->model < c->model_lo || ci->model > c->model_hi || c->load_bpc[w] <= 0)
            continue;
        *load_bpc = c->load_bpc[w];
        *store_bpc = c->store_bpc[w];
        *core = c->name;
        *source = c->source;
        return true;
    }
    return false;
}
