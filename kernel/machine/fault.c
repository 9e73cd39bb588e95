// SPDX-License-Identifier: MIT
// Names and descriptions of CPU exceptions caught inside measurement windows.
#include "machine/fault.h"

#include "lib/console.h"
#include "lib/fmt.h"

static const char *const mnemonics[32] = {
    "#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM", "#DF", "#CSO", "#TS",
    "#NP", "#SS", "#GP", "#PF", "#15", "#MF", "#AC", "#MC", "#XM", "#VE",  "#CP",
    "#22", "#23", "#24", "#25", "#26", "#27", "#HV", "#VC", "#SX", "#31",
};

static const char *const names[32] = {
    "divide error",
    "debug",
    "non-maskable interrupt",
    "breakpoint",
    "overflow",
    "bound range exceeded",
    "invalid opcode",
    "device not available",
    "double fault",
    "coprocessor segment overrun",
    "invalid TSS",
    "segment not present",
    "stack-segment fault",
    "general protection fault",
    "page fault",
    "reserved",
    "x87 floating-point error",
    "alignment check",
    "machine check",
    "SIMD floating-point error",
    "virtualization exception",
    "control protection exception",
    "reserved",
    "reserved",
    "reserved",
    "reserved",
    "reserved",
    "reserved",
    "hypervisor injection",
    "VMM communication exception",
    "security exception",
    "reserved",
};

/* The AArch64 exception classes a window can meet (Arm ARM D23.2.41, ESR_ELx.EC). */
static const struct {
    unsigned ec;
    const char *name;
} a64_classes[] = {
    {0x00, "unknown reason (undefined instruction)"},
    {0x07, "SVE, Advanced SIMD or FP access trap"},
    {0x0e, "illegal execution state"},
    {0x18, "system register access trap"},
    {0x19, "SVE access trap"},
    {0x20, "instruction abort from a lower EL"},
    {0x21, "instruction abort"},
    {0x22, "PC alignment fault"},
    {0x24, "data abort from a lower EL"},
    {0x25, "data abort"},
    {0x26, "SP alignment fault"},
    {0x2f, "SError"},
    {0x3c, "BRK instruction"},
    {FAULT_A64_INTERRUPT, "interrupt (IRQ or FIQ) with DAIF masked"},
};

const char *fault_a64_class_name(unsigned ec)
{
    for (size_t i = 0; i < sizeof(a64_classes) / sizeof(a64_classes[0]); i++) {
        if (a64_classes[i].ec == ec)
            return a64_classes[i].name;
    }
    return "exception";
}

const char *fault_mnemonic(unsigned v)
{
    return v < 32 ? mnemonics[v] : "#??";
}

const char *fault_name(unsigned v)
{
    return v < 32 ? names[v] : "unknown exception";
}

void fault_describe(char *buf, size_t cap, const struct fault_info *f)
{
    if (f->aarch64) {
        ksnprintf(buf, cap, "%s (EC 0x%02x, ESR 0x%llx) at ELR 0x%llx, FAR 0x%llx",
                  fault_a64_class_name(f->vector), f->vector, (unsigned long long)f->error_code,
                  (unsigned long long)f->rip, (unsigned long long)f->cr2);
        return;
    }
    int n = ksnprintf(buf, cap, "%s (%s, vector %u) at RIP 0x%llx, error code 0x%llx",
                      fault_name(f->vector), fault_mnemonic(f->vector), f->vector,
                      (unsigned long long)f->rip, (unsigned long long)f->error_code);
    if (f->vector == 14 && n > 0 && (size_t)n < cap)
        ksnprintf(buf + n, cap - (size_t)n, ", CR2 0x%llx", (unsigned long long)f->cr2);
}

void fault_panic_screen(const struct fault_info *f, const char *where)
{
    con_printf("\n"
               "*********************************************************************\n"
               "*** chase: CPU exception outside a measurement window (a bug in chase)\n"
               "***   %s (%s), vector %u, error code 0x%llx\n"
               "***   RIP 0x%016llx  CR2 0x%016llx  CR3 0x%016llx\n"
               "***   while: %s\n"
               "*** chase writes what it can and stops; finished experiments are saved.\n"
               "*********************************************************************\n",
               fault_name(f->vector), fault_mnemonic(f->vector), f->vector,
               (unsigned long long)f->error_code, (unsigned long long)f->rip,
               (unsigned long long)f->cr2, (unsigned long long)f->cr3, where);
}
