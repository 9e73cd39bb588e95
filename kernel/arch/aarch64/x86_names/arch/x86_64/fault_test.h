// SPDX-License-Identifier: MIT
// On AArch64 the kernel's #include "arch/x86_64/fault_test.h" finds this file (the AArch64 build
// puts kernel/arch/aarch64/x86_names first on its include path) and gets the AArch64 fault_test.h.
#include "arch/aarch64/fault_test.h"
