// SPDX-License-Identifier: MIT
// Reference clocks on AArch64 firmware: the generic timer is the counter, checked against the
// UEFI Stall service (there is no ACPI PM timer or HPET on Arm); of the MSRs, APERF and MPERF's
// counterparts only.
#include "arch/cpu.h"
#include "aarch64/a64_internal.h"
#include "chase/timing.h"
#include "efi_internal.h"
#include "platform.h"

#define STALL_US 10000 /* 10 ms per calibration */

static struct tsc_reference references[1];
static unsigned nreferences;

static bool stall_sample(uint64_t *ticks, uint64_t *ref_ns)
{
    uint64_t t0 = arch_tsc_fenced();
    if (uefi_call_wrapper(BS->Stall, 1, STALL_US) != EFI_SUCCESS)
        return false;
    *ticks = arch_tsc_fenced() - t0;
    *ref_ns = STALL_US * 1000ULL;
    return true;
}

void efi_timers_init(void)
{
    references[0].name = "stall";
    references[0].sample = stall_sample;
    nreferences = 1;
}

unsigned plat_tsc_references(const struct tsc_reference **refs)
{
    *refs = references;
    return nreferences;
}

struct counter_read {
    uint32_t msr;
    uint64_t value;
};

static void counter_read_run(void *arg)
{
    struct counter_read *c = arg;
    c->value = arch_rdmsr(c->msr);
}

/*
 * AArch64 has no MSRs: every x86 register chase asks for is "not here", but for APERF and MPERF,
 * whose counterparts (arch_rdmsr in arch/aarch64/cpu.h) are PMCCNTR_EL0 and CNTVCT_EL0 where
 * windows can count core cycles. They are read in a window: the cycle counter runs only there.
 */
bool plat_read_msr(uint32_t msr, uint64_t *value)
{
    struct counter_read c = {msr, 0};
    struct fault_info fault;
    if ((msr != MSR_APERF && msr != MSR_MPERF) || !a64_window_pmu() ||
        plat_window_run(counter_read_run, &c, &fault) != 0)
        return false;
    *value = c.value;
    return true;
}
