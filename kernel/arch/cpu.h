// SPDX-License-Identifier: MIT
// The portable kernel's way to kernel/arch/<arch>/cpu.h: the architecture the compiler targets.
#if defined(__x86_64__)
#include "arch/x86_64/cpu.h"
#elif defined(__aarch64__)
#include "arch/aarch64/cpu.h"
#else
#error "chase supports x86-64 and AArch64"
#endif
