// SPDX-License-Identifier: MIT
// Vector widths: what CPUID or the Arm ID registers offer, what the OS (or chase, in ring 0)
// enables, which to use.
#ifndef CHASE_SIMD_H
#define CHASE_SIMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The vector units the bandwidth kernels come in, each architecture's narrowest first
 * (SIMD_AUTO: the widest usable): SSE2, AVX2, AVX-512 on x86-64; NEON (Advanced SIMD) and
 * SVE on AArch64. A width of the other architecture is never usable (its caps stay false).
 */
enum simd_width { SIMD_AUTO, SIMD_SSE2, SIMD_AVX2, SIMD_AVX512, SIMD_NEON, SIMD_SVE, SIMD_WIDTHS };

/* XCR0 state components (Intel SDM vol. 1, 13.1). */
#define XCR0_X87 (1ULL << 0)
#define XCR0_SSE (1ULL << 1)
#define XCR0_AVX (1ULL << 2)       /* upper halves of ymm0-15 */
#define XCR0_OPMASK (1ULL << 5)    /* k0-k7 */
#define XCR0_ZMM_HI256 (1ULL << 6) /* upper halves of zmm0-15 */
#define XCR0_HI16_ZMM (1ULL << 7)  /* zmm16-31 */

/* What CPUID says about the vector units (cpuinfo_read fills it; the front end xcr0_os), or on
   AArch64 the ID registers and the OS (arm_pfr0_simd, the front end). */
struct simd_caps {
    bool sse2, avx, avx2, avx512f; /* the instructions exist (leaves 1 and 7) */
    bool xsave;                    /* XSAVE/XSETBV exist (leaf 1 ECX bit 26) */
    bool erms;                     /* enhanced rep movsb/stosb (leaf 7 EBX bit 9) */
    uint64_t xcr0_cpu;             /* the state components the CPU supports (leaf 0xD) */
    bool os_xsave;                 /* CR4.OSXSAVE was set when CPUID was read (leaf 1 ECX 27) */
    uint64_t xcr0_os;              /* XCR0 as the OS set it (the front end reads it); 0: unknown */
    bool neon, sve;                /* AArch64: Advanced SIMD and SVE exist (ID_AA64PFR0_EL1) */
    bool sve_enabled;              /* ... SVE may run where chase runs: Linux's HWCAP_SVE; the
                                      firmware front end sets it once CPACR_EL1.ZEN allows it */
    unsigned sve_vector_bytes;     /* ... SVE's vector length (RDVL), 0: not known */
};

struct cpu_info;

/* The XCR0 components a width's kernels need enabled (0 for SSE2: CR4.OSFXSR is enough). */
uint64_t simd_xcr0_needed(enum simd_width w);

/*
 * Whether width w can be used: the CPU has its instructions and its state is enabled, by the
 * OS (ring0 false: xcr0_os) or, in ring 0, can be enabled by chase (XSAVE and the components
 * in xcr0_cpu). why (capacity cap, may be NULL) says why not.
 */
bool simd_usable(const struct simd_caps *c, bool ring0, enum simd_width w, char *why, size_t cap);

/*
 * The width to use for asked: SIMD_AUTO gives the widest usable; another gives itself when
 * usable. Returns SIMD_AUTO (none) when asked is not usable, with why saying what this
 * machine supports ("avx512 is not usable here (the CPU lacks it); this machine supports
 * sse2, avx2"; "sve is not usable here (...); this machine supports neon").
 */
enum simd_width simd_choose(const struct simd_caps *c, bool ring0, enum simd_width asked, char *why,
                            size_t cap);

/* "auto", "sse2", "avx2", "avx512", "neon", "sve"; and a width's vector bits (128, 256, 512,
   128; 0 for auto and for SVE, whose length the implementation chooses). */
const char *simd_width_name(enum simd_width w);
unsigned simd_width_bits(enum simd_width w);
/* The vector bits of width w on the machine c describes: SVE's from sve_vector_bytes (0 when
   not known), the others' simd_width_bits. */
unsigned simd_vector_bits(const struct simd_caps *c, enum simd_width w);
/* The names above in order, NULL-terminated (for a configuration choice key). */
extern const char *const simd_width_names[];

/*
 * The core's documented L1 data bandwidth for vectors of width w: bytes per core cycle it can
 * load and store, from the per-microarchitecture table in simd.c (its source named in *source
 * and the core's name in *core). false when the core is not in the table or w is not usable
 * on it.
 */
bool simd_l1_peak(const struct cpu_info *ci, enum simd_width w, double *load_bpc, double *store_bpc,
                  const char **core, const char **source);

#endif
