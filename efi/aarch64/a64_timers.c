// SPDX-License-Identifier: MIT
// Reference clocks on AArch64 firmware: the generic timer is the counter, checked against the
// UEFI Stall service (there is no ACPI PM timer or HPET on Arm); of the MSRs, APERF and MPERF's
// counterparts only.
#include "arch/cpu.h"
#include "aarch64/a64_internal.h"
#include "chase/timing.h"
#include "efi_internal.h"
#include "platform.h"

void efi_timers_init(void)
{
    efi_references_clear();
    efi_reference_add("stall", efi_stall_sample);
}

/*
 * AArch64 has no MSRs: every x86 register chase asks for is "not here", but for APERF and MPERF,
 * whose counterparts (arch_rdmsr in arch/aarch64/cpu.h) are PMCCNTR_EL0 and CNTVCT_EL0 where
 * windows can count core cycles. They are read in a window: the cycle counter runs only there.
 */
bool plat_read_msr(uint32_t msr, uint64_t *value)
{
    return (msr == MSR_APERF || msr == MSR_MPERF) && a64_window_pmu() &&
           efi_window_rdmsr(msr, value);
}
