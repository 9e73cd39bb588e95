// SPDX-License-Identifier: MIT
// probeaa64.efi: the AArch64 probe.efi for the tests. It prints what a firmware program sees
// (the exception level, TTBR0, MAIR, TCR, SCTLR, VBAR and TPIDR of that level, DAIF, the PMU's
// PMCR, PMCNTENSET and PMCCFILTR, CPACR_EL1, free memory), so a test can run it before and
// after chase and show that chase left the machine as it found it. (QEMU's EL1: no trap.)
#include <stddef.h>

#include <efi.h>
#include <efilib.h>

#include "arch/aarch64/sysreg.h"
#include "probe_pages.h"

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
    InitializeLib(image, systab);
    unsigned el = a64_current_el();
    Print(L"probe: el=%d ttbr0=%lx mair=%lx tcr=%lx sctlr=%lx vbar=%lx tpidr=%lx daif=%lx", el,
          a64_ttbr0(el), a64_mair(el), a64_tcr(el), a64_sctlr(el), a64_vbar(el), a64_tpidr(el),
          a64_read_daif());
    Print(L" pmcr=%lx pmcntenset=%lx pmccfiltr=%lx cpacr=%lx", a64_read_pmcr_el0(),
          a64_read_pmcntenset_el0(), a64_read_pmccfiltr_el0(), a64_read_cpacr_el1());
    Print(L" free_pages=%ld\n", free_pages());
    return EFI_SUCCESS;
}
