// SPDX-License-Identifier: MIT
// The AArch64 processor on the firmware: ID registers, the exception level, the translation
// regime's MAIR/TCR/TTBR0, the generic timer, and PPTT's caches; x86's registers are "not here".
#include "arch/aarch64/sysreg.h"
#include "arch/cpu.h"
#include "aarch64/a64_internal.h"
#include "efi_internal.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/acpi.h"
#include "machine/arm_smp.h"
#include "machine/arm_tables.h"
#include "machine/srat.h"
#include "platform.h"

#define ARM_NOT_HERE "not on this architecture (AArch64)"

static void read_caches(struct arm_regs *a)
{
    struct arm_clidr cl;
    uint64_t csselr = a64_read_csselr_el1();
    arm_clidr_decode(a->clidr, &cl);
    for (unsigned i = 0; i < cl.levels; i++) {
        a->ccsidr[i][0] = cl.ctype[i] != ARM_CTYPE_INSTRUCTION ? a64_read_ccsidr(i + 1, 0) : 0;
        a->ccsidr[i][1] =
            (cl.ctype[i] == ARM_CTYPE_INSTRUCTION || cl.ctype[i] == ARM_CTYPE_SEPARATE)
                ? a64_read_ccsidr(i + 1, 1)
                : 0;
    }
    a64_write_csselr(csselr);
}

static void read_registers(struct arm_regs *a)
{
    kmemset(a, 0, sizeof(*a));
    a->read = true;
    a->el = a64_current_el();
    a->midr = a64_read_midr_el1();
    a->mpidr = a64_read_mpidr_el1();
    a->clidr = a64_read_clidr_el1();
    a->ctr = a64_read_ctr_el0();
    a->mmfr0 = a64_read_id_aa64mmfr0_el1();
    a->mmfr2 = a64_read_id_aa64mmfr2_el1();
    a->dfr0 = a64_read_id_aa64dfr0_el1();
    a->pfr0 = a64_read_id_aa64pfr0_el1();
    a->mair = a64_mair(a->el);
    a->tcr = a64_tcr(a->el);
    a->ttbr0 = a64_ttbr0(a->el);
    a->sctlr = a64_sctlr(a->el);
    a->vbar = a64_vbar(a->el);
    a->timer_hz = arch_counter_hz();
    read_caches(a);
}

/* The PPTT's caches for the boot processor, where the firmware gives them with sizes. The
   processor's ACPI ID comes from its MADT GICC entry (the one with this MPIDR). */
static void caches_from_pptt(struct machine *m)
{
    const void *rsdp = efi_find_rsdp();
    const uint8_t *t = rsdp ? acpi_find_table(rsdp, "PPTT") : NULL;
    struct arm_regs *a = &m->arm;
    if (!t) {
        ksnprintf(a->pptt_note, sizeof(a->pptt_note), "the firmware supplies no ACPI PPTT");
        return;
    }
    a->pptt_found = true;
    struct pptt *p = plat_alloc(sizeof(*p));
    char why[120];
    uint32_t uid;
    const void *madt = acpi_find_table(rsdp, "APIC");
    if (!p) {
        ksnprintf(a->pptt_note, sizeof(a->pptt_note), "no memory to read the PPTT");
    } else if (!pptt_parse(t, acpi_rd32(t + 4), p, why, sizeof(why))) {
        ksnprintf(a->pptt_note, sizeof(a->pptt_note), "PPTT malformed: %s", why);
    } else if (!madt || !arm_madt_gicc_uid(madt, a->mpidr, &uid)) {
        ksnprintf(a->pptt_note, sizeof(a->pptt_note),
                  "no MADT GICC entry names this processor's MPIDR");
    } else if (!arm_cpu_caches_from_pptt(&m->cpu, p, uid)) {
        ksnprintf(a->pptt_note, sizeof(a->pptt_note),
                  "the PPTT gives no cache sizes for this processor: CLIDR/CCSIDR used");
    } else {
        a->pptt_caches = true;
    }
    plat_free(p);
}

void efi_describe_registers(struct machine *m)
{
    read_registers(&m->arm);
    arm_cpu_describe(&m->cpu, &m->arm);
    /* NEON and SVE from ID_AA64PFR0_EL1. UEFI leaves FP/SIMD enabled (CPACR_EL1.FPEN); SVE also
       needs CPACR_EL1.ZEN (CPTR_EL2 at EL2), which windows set where a first try does not trap
       (a64_window_sve): then the bandwidth kernels may use it at the vector length RDVL gives. */
    arm_pfr0_simd(m->arm.pfr0, &m->cpu.simd);
    m->cpu.simd.sve_vector_bytes = a64_window_sve(); /* 0 without SVE, and says why */
    m->cpu.simd.sve_enabled = m->cpu.simd.sve_vector_bytes != 0;
    /* 1 GiB blocks exist with the 4 KiB granule when the walk starts at level 0 or 1 */
    m->cpu.has_1g_pages = a64_start_level(64 - (unsigned)(m->arm.tcr & A64_TCR_T0SZ_MASK)) <= 1;
    caches_from_pptt(m);
    kmemset(&m->memtype, 0, sizeof(m->memtype)); /* MTRRs and PAT are x86's */
    kmemset(&m->facts, 0, sizeof(m->facts));
    m->facts.read = true;
    m->facts.prefetch.doc = ARM_NOT_HERE ": the prefetcher controls are implementation-defined "
                                         "registers";
    m->facts.smt_source = "none";
    m->facts.boost_disabled = -1;
    m->facts.base_ratio = -1;
    efi_describe_smbios(&m->id);
}

uint32_t efi_arch_processor_id(void)
{
    return arm_mpidr_id(a64_read_mpidr_el1());
}

void efi_arch_numa_ids(struct plat_numa *t, const void *rsdp)
{
    srat_gicc_to_mpidr(t, acpi_find_table(rsdp, "APIC"));
}
