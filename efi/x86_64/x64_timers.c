// SPDX-License-Identifier: MIT
// Reference clocks for TSC calibration on the firmware: the ACPI PM timer and the HPET found
// through the ACPI tables in the EFI configuration table, and the Stall service.
#include "machine/acpi.h"
#include "arch/cpu.h"
#include "efi_internal.h"
#include "lib/kstring.h"
#include "platform.h"
#include "chase/refclock.h"

#define CALIBRATION_NS 10000000ULL /* 10 ms per calibration */

/* What the ACPI tables offer; found once at start. Firmware facts, not configuration. */
static struct acpi_timers timers;
static struct counter pm_counter, hpet_counter;

static uint64_t read_pm_io(const struct counter *c)
{
    return arch_inl((uint16_t)c->addr);
}

static uint64_t read_pm_mmio(const struct counter *c)
{
    return *(volatile uint32_t *)(uintptr_t)c->addr;
}

static uint64_t read_hpet(const struct counter *c)
{
    volatile uint8_t *regs = (volatile uint8_t *)(uintptr_t)c->addr;
    if (c->bits == 64)
        return *(volatile uint64_t *)(regs + HPET_REG_COUNTER);
    return *(volatile uint32_t *)(regs + HPET_REG_COUNTER);
}

struct sample_job {
    const struct counter *c;
    uint64_t ticks, ns;
    bool ok;
};

static void sample_in_window(void *arg)
{
    struct sample_job *j = arg;
    j->ok = refclock_sample(j->c, CALIBRATION_NS, &j->ticks, &j->ns);
}

/* Sample with interrupts off, so nothing comes between the two clocks' reads. */
static bool sample_counter(const struct counter *c, uint64_t *ticks, uint64_t *ref_ns)
{
    struct sample_job job = {c, 0, 0, false};
    struct fault_info fault;
    if (plat_window_run(sample_in_window, &job, &fault) != 0 || !job.ok)
        return false;
    *ticks = job.ticks;
    *ref_ns = job.ns;
    return true;
}

static bool pm_timer_sample(uint64_t *ticks, uint64_t *ref_ns)
{
    return sample_counter(&pm_counter, ticks, ref_ns);
}

static bool hpet_sample(uint64_t *ticks, uint64_t *ref_ns)
{
    return sample_counter(&hpet_counter, ticks, ref_ns);
}

void efi_timers_init(void)
{
    efi_references_clear();
    if (acpi_find_timers(efi_find_rsdp(), &timers)) {
        if (timers.pm_timer) {
            pm_counter.read = timers.pm_timer_io ? read_pm_io : read_pm_mmio;
            pm_counter.addr = timers.pm_timer_addr;
            pm_counter.hz = ACPI_PM_TIMER_HZ;
            pm_counter.bits = timers.pm_timer_32bit ? 32 : 24;
            efi_reference_add("pm_timer", pm_timer_sample);
        }
        if (timers.hpet) {
            volatile uint64_t *regs = (volatile uint64_t *)(uintptr_t)timers.hpet_base;
            uint64_t cap = regs[HPET_REG_CAPABILITIES / 8];
            uint64_t period_fs = cap >> 32;
            /* A running counter with a sane period (the spec allows up to 100 ns). */
            if (period_fs && period_fs <= 100000000ULL &&
                (regs[HPET_REG_CONFIG / 8] & HPET_CONFIG_ENABLE)) {
                hpet_counter.read = read_hpet;
                hpet_counter.addr = timers.hpet_base;
                hpet_counter.hz = 1000000000000000ULL / period_fs;
                hpet_counter.bits = (cap & HPET_CAP_COUNT_64BIT) ? 64 : 32;
                efi_reference_add("hpet", hpet_sample);
            }
        }
    }
    efi_reference_add("stall", efi_stall_sample);
}

bool plat_read_msr(uint32_t msr, uint64_t *value)
{
    return efi_window_rdmsr(msr, value); /* a #GP: the MSR does not exist here */
}
