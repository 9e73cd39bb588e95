// SPDX-License-Identifier: MIT
// On AArch64 the kernel's #include "arch/x86_64/chase_loop.h" finds this file (the AArch64 build
// puts kernel/arch/aarch64/x86_names first on its include path) and gets the AArch64 chase_loop.h.
#include "arch/aarch64/chase_loop.h"
