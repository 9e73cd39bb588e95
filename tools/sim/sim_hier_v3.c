// SPDX-License-Identifier: MIT
// sim_hier_load.c built again for x86-64-v3 hosts (AVX2, BMI, POPCNT), run where the CPU has them.

/* The condition of SIM_HAVE_V3 (sim_simd.h): the target must come before every header. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC target("avx2,bmi,bmi2,popcnt")
#define SIM_VARIANT_BUILD
#define SIM_VARIANT(name) name##_v3
#include "sim_hier_load.c"
#endif
