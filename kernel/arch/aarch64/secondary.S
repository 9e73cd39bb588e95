/* SPDX-License-Identifier: MIT */
/* A secondary's first instructions after PSCI CPU_ON: the boot processor's translation regime,
   its EL2 timer offset, FP/SIMD on, its stack, then C (struct a64_boot in secondary.h). */

    .text

/* struct a64_boot's offsets */
#define BOOT_TTBR0  0
#define BOOT_MAIR   8
#define BOOT_TCR    16
#define BOOT_SCTLR  24
#define BOOT_CPACR  32
#define BOOT_HCR    40
#define BOOT_VBAR   48
#define BOOT_STACK  56
#define BOOT_ENTRY  64
#define BOOT_ARG    72
#define BOOT_EL     80
#define BOOT_CNTVOFF 88
#define BOOT_CNTHCTL 96

/*
 * Entered at the caller's exception level with the MMU and caches off (DEN0022D, 6.4.3), x0 =
 * the context ID. The registers are written before SCTLR turns the MMU on, with the local TLB
 * and instruction cache invalidated first (nothing from before the power-up may be used), and an
 * ISB after each group so the next instruction sees them (Arm ARM D8.2, "enabling the MMU").
 * The image is identity-mapped under UEFI: the same addresses hold before and after.
 */
    .global a64_secondary_entry
    .type a64_secondary_entry, %function
    .balign 8
a64_secondary_entry:
    mov     x19, x0
    ldr     x1, [x19, #BOOT_EL]
    cmp     x1, #2
    b.eq    1f
    ldr     x1, [x19, #BOOT_CPACR]
    msr     cpacr_el1, x1
    ldr     x1, [x19, #BOOT_MAIR]
    msr     mair_el1, x1
    ldr     x1, [x19, #BOOT_TCR]
    msr     tcr_el1, x1
    ldr     x1, [x19, #BOOT_TTBR0]
    msr     ttbr0_el1, x1
    ldr     x1, [x19, #BOOT_VBAR]
    msr     vbar_el1, x1
    isb
    tlbi    vmalle1
    ic      iallu
    dsb     nsh
    isb
    ldr     x1, [x19, #BOOT_SCTLR]
    msr     sctlr_el1, x1
    isb
    b       2f
1:  ldr     x1, [x19, #BOOT_HCR]
    msr     hcr_el2, x1
    isb
    ldr     x1, [x19, #BOOT_CPACR]
    msr     cptr_el2, x1
    ldr     x1, [x19, #BOOT_MAIR]
    msr     mair_el2, x1
    ldr     x1, [x19, #BOOT_TCR]
    msr     tcr_el2, x1
    ldr     x1, [x19, #BOOT_TTBR0]
    msr     ttbr0_el2, x1
    ldr     x1, [x19, #BOOT_VBAR]
    msr     vbar_el2, x1
    ldr     x1, [x19, #BOOT_CNTVOFF]
    msr     cntvoff_el2, x1
    ldr     x1, [x19, #BOOT_CNTHCTL]
    msr     cnthctl_el2, x1
    isb
    tlbi    alle2
    ic      iallu
    dsb     nsh
    isb
    ldr     x1, [x19, #BOOT_SCTLR]
    msr     sctlr_el2, x1
    isb
2:  msr     daifset, #0xf
    ldr     x1, [x19, #BOOT_STACK]
    mov     sp, x1
    mov     x29, #0
    mov     x30, #0
    ldr     x1, [x19, #BOOT_ENTRY]
    ldr     x0, [x19, #BOOT_ARG]
    blr     x1
3:  wfe                             /* entry never returns; if it did, stay here */
    b       3b
    .global a64_secondary_entry_end
a64_secondary_entry_end:
    .size a64_secondary_entry, . - a64_secondary_entry

    .section .note.GNU-stack, "", %progbits
