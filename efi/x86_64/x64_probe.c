// SPDX-License-Identifier: MIT
// probe.efi: a second, tiny EFI program for the tests. It prints what a firmware program sees
// (CR3, IDTR, GDTR, the interrupt flag, CR4 and XCR0, free memory), so a test can run it before
// and after chase and show that chase left the machine as it found it.
#include <stddef.h>

#include <efi.h>
#include <efilib.h>

#include "arch/cpu.h"
#include "probe_pages.h"

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
    InitializeLib(image, systab);
    struct descriptor_ptr idt, gdt;
    arch_sidt(&idt);
    arch_sgdt(&gdt);
    uint64_t flags = arch_irq_save();
    arch_irq_restore(flags);
    uint64_t cr4 = arch_read_cr4();
    /* XGETBV faults without CR4.OSXSAVE: then XCR0 is not in use and prints as "-" */
    Print(L"probe: cr3=%lx idtr=%lx/%x gdtr=%lx/%x if=%d cr4=%lx xcr0=", arch_read_cr3(), idt.base,
          idt.limit, gdt.base, gdt.limit, (flags & RFLAGS_IF) ? 1 : 0, cr4);
    if (cr4 & CR4_OSXSAVE)
        Print(L"%lx", arch_xgetbv(0));
    else
        Print(L"-");
    Print(L" free_pages=%ld\n", free_pages());
    return EFI_SUCCESS;
}
