// SPDX-License-Identifier: MIT
// Vector widths: what CPUID offers, what the OS (or chase, in ring 0) enables, which to use.
#include "machine/simd.h"

#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/cpuinfo.h"

const char *const simd_width_names[] = {"auto", "sse2", "avx2", "avx512", NULL};

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
    static const unsigned bits[SIMD_WIDTHS] = {0, 128, 256, 512};
    return w < SIMD_WIDTHS ? bits[w] : 0;
}

bool simd_usable(const struct simd_caps *c, bool ring0, enum simd_width w, char *why, size_t cap)
{
    bool has = w == SIMD_SSE2 ? c->sse2 : w == SIMD_AVX2 ? c->avx2 : w == SIMD_AVX512 && c->avx512f;
    uint64_t need = simd_xcr0_needed(w);
    const char *no = NULL;
    if (w == SIMD_AUTO || w >= SIMD_WIDTHS)
        no = "not a width";
    else if (!has)
        no = "the CPU lacks it";
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
            ksnprintf(why, cap, "no vector width is usable here (not even SSE2)");
        return widest;
    }
    if (simd_usable(c, ring0, asked, reason, sizeof(reason)))
        return asked;
    if (why)
        ksnprintf(why, cap, "%s is not usable here (%s); this machine supports %s",
                  simd_width_name(asked), reason, *list ? list : "none");
    return SIMD_AUTO;
}
