// SPDX-License-Identifier: MIT
// On AArch64 the kernel's #include "arch/x86_64/bw_kernels.h" finds this file (see cpu.h here).
#include "arch/aarch64/bw_kernels.h"
