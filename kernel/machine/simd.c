// SPDX-License-Identifier: MIT
// Vector widths: what CPUID or the Arm ID registers offer, what the OS (or chase, in ring 0)
// enables, which to use.
#include "machine/simd.h"

#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/cpuinfo.h"

const char *const simd_width_names[] = {"auto", "sse2", "avx2", "avx512", "neon", "sve", NULL};

uint64_t simd_xcr0_needed(enum simd_width w)
{
    switch (w) {
    case SIMD_AVX2:
        return XCR0_X87 | XCR0_SSE | XCR0_AVX;
    case SIMD_AVX512:
        return XCR0_X87 | XCR0_SSE | XCR0_AVX | XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM;
    default:
        return 0;
    }
}

const char *simd_width_name(enum simd_width w)
{
    return w < SIMD_WIDTHS ? simd_width_names[w] : "?";
}

unsigned simd_width_bits(enum simd_width w)
{
    static const unsigned bits[SIMD_WIDTHS] = {0, 128, 256, 512, 128, 0};
    return w < SIMD_WIDTHS ? bits[w] : 0;
}

unsigned simd_vector_bits(const struct simd_caps *c, enum simd_width w)
{
    return w == SIMD_SVE ? 8 * c->sve_vector_bytes : simd_width_bits(w);
}

/* Whether the CPU has width w's instructions. */
static bool simd_has(const struct simd_caps *c, enum simd_width w)
{
    switch (w) {
    case SIMD_SSE2:
        return c->sse2;
    case SIMD_AVX2:
        return c->avx2;
    case SIMD_AVX512:
        return c->avx512f;
    case SIMD_NEON:
        return c->neon;
    case SIMD_SVE:
        return c->sve;
    default:
        return false;
    }
}

bool simd_usable(const struct simd_caps *c, bool ring0, enum simd_width w, char *why, size_t cap)
{
    uint64_t need = simd_xcr0_needed(w);
    const char *no = NULL;
    if (w == SIMD_AUTO || w >= SIMD_WIDTHS)
        no = "not a width";
    else if (!simd_has(c, w))
        no = "the CPU lacks it";
    else if (w == SIMD_SVE && !c->sve_enabled)
        no = ring0 ? "SVE is not enabled at this exception level (CPACR_EL1.ZEN)"
                   : "the operating system has not enabled it (no HWCAP_SVE)";
    else if (need && ring0 && (!c->xsave || (c->xcr0_cpu & need) != need))
        no = "the CPU cannot enable its register state (XSAVE, CPUID leaf 0xD)";
    else if (need && !ring0 && (!c->os_xsave || (c->xcr0_os & need) != need))
        no = "the operating system has not enabled its register state (XCR0)";
    if (no && why)
        ksnprintf(why, cap, "%s", no);
    return no == NULL;
}

enum simd_width simd_choose(const struct simd_caps *c, bool ring0, enum simd_width asked, char *why,
                            size_t cap)
{
    char reason[120] = "", list[40] = "";
    enum simd_width widest = SIMD_AUTO;
    for (unsigned w = SIMD_SSE2; w < SIMD_WIDTHS; w++)
        if (simd_usable(c, ring0, (enum simd_width)w, NULL, 0)) {
            widest = (enum simd_width)w;
            ksnprintf(list + kstrlen(list), sizeof(list) - kstrlen(list), "%s%s", *list ? ", " : "",
                      simd_width_names[w]);
        }
    if (asked == SIMD_AUTO) {
        if (widest == SIMD_AUTO && why)
            ksnprintf(why, cap, "no vector width is usable here (not even SSE2 or NEON)");
        return widest;
    }
    if (simd_usable(c, ring0, asked, reason, sizeof(reason)))
        return asked;
    if (why)
        ksnprintf(why, cap, "%s is not usable here (%s); this machine supports %s",
                  simd_width_name(asked), reason, *list ? list : "none");
    return SIMD_AUTO;
}
