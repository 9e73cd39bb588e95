// SPDX-License-Identifier: MIT
// What both firmware builds' reference clocks share (efi/x86_64/x64_timers.c,
// efi/aarch64/a64_timers.c): the table plat_tsc_references gives, the Stall service as a
// clock, and a register read in a measurement window.
#include "arch/cpu.h"
#include "efi_internal.h"
#include "platform.h"

#define STALL_US 10000       /* one Stall calibration: 10 ms */
#define EFI_REFERENCES_MAX 3 /* the PM timer, the HPET and Stall at the most */

/* Firmware facts, found once at start. */
static struct tsc_reference references[EFI_REFERENCES_MAX];
static unsigned nreferences;

bool efi_stall_sample(uint64_t *ticks, uint64_t *ref_ns)
{
    uint64_t t0 = arch_tsc_fenced();
    if (uefi_call_wrapper(BS->Stall, 1, STALL_US) != EFI_SUCCESS)
        return false;
    *ticks = arch_tsc_fenced() - t0;
    *ref_ns = STALL_US * 1000ULL;
    return true;
}

void efi_references_clear(void)
{
    nreferences = 0;
}

void efi_reference_add(const char *name, bool (*sample)(uint64_t *ticks, uint64_t *ref_ns))
{
    if (nreferences < EFI_REFERENCES_MAX) {
        references[nreferences].name = name;
        references[nreferences].sample = sample;
        nreferences++;
    }
}

unsigned plat_tsc_references(const struct tsc_reference **refs)
{
    *refs = references;
    return nreferences;
}

struct register_read {
    uint32_t msr;
    uint64_t value;
};

static void register_read_run(void *arg)
{
    struct register_read *r = arg;
    r->value = arch_rdmsr(r->msr);
}

bool efi_window_rdmsr(uint32_t msr, uint64_t *value)
{
    struct register_read r = {msr, 0};
    struct fault_info fault;
    if (plat_window_run(register_read_run, &r, &fault) != 0)
        return false;
    *value = r.value;
    return true;
}
